"""Search jobs of the web app: one at a time, bounded in time.

A job is a search or a game review, run by the single search process
(:mod:`patchsolve.web.worker`). While one job runs, another is refused
(:class:`Busy`), so a page cannot pile work onto the machine. A job that
overruns its budget by more than ``GRACE`` seconds, or that the page stops,
has its process killed; a search's last progress report (its deepest
finished depth, its last time slice) then stands as its result.
"""

from __future__ import annotations

import itertools
import multiprocessing
import threading
import time

from patchsolve.errors import PatchsolveError

GRACE = 5.0        # seconds past a job's budget (plus a fifth of it) before its process is killed
KEEP_JOBS = 32     # finished jobs kept for polling


class Busy(PatchsolveError):
    """Another job is running."""


class Job:
    def __init__(self, job_id: int, kind: str, budget: float):
        self.id, self.kind, self.budget = job_id, kind, budget
        self.status = "running"     # running, done, stopped, error
        self.started = time.monotonic()
        self.finished = None
        self.progress = None
        self.result = None
        self.error = None
        self.stop_requested = threading.Event()

    def to_dict(self) -> dict:
        end = self.finished if self.finished is not None else time.monotonic()
        return {"id": self.id, "kind": self.kind, "status": self.status, "budget": self.budget,
                "elapsed": end - self.started, "progress": self.progress, "result": self.result,
                "error": self.error}


class JobRunner:
    """Owns the search process and the one running job."""

    def __init__(self):
        self._ctx = multiprocessing.get_context("spawn")
        self._lock = threading.Lock()
        self._proc = None
        self._conn = None
        self._ids = itertools.count(1)
        self.jobs: dict[int, Job] = {}
        self._current: Job | None = None

    def submit(self, kind: str, payload: dict, budget: float) -> Job:
        with self._lock:
            if self._current is not None and self._current.status == "running":
                raise Busy(f"the engine is busy with job {self._current.id}; wait for it or stop it")
            job = Job(next(self._ids), kind, budget)
            self._current = job
            self.jobs[job.id] = job
            for old in sorted(self.jobs)[:-KEEP_JOBS]:
                del self.jobs[old]
        threading.Thread(target=self._run, args=(job, payload), daemon=True).start()
        return job

    def _ensure_process(self):
        if self._proc is None or not self._proc.is_alive():
            from patchsolve.web.worker import worker_main

            parent, child = self._ctx.Pipe()
            self._proc = self._ctx.Process(target=worker_main, args=(child,), daemon=True,
                                           name="patchsolve-search")
            self._proc.start()
            child.close()
            self._conn = parent
        return self._conn

    def _run(self, job: Job, payload: dict) -> None:
        try:
            conn = self._ensure_process()
            conn.send((job.kind, payload))
            deadline = job.started + 1.2 * job.budget + GRACE
            while job.status == "running":
                if conn.poll(0.05):
                    self._receive(job, conn.recv())
                elif job.stop_requested.is_set() or time.monotonic() > deadline:
                    self.kill()
                    # a search's last report is a usable answer; a review's is not
                    job.status, job.result = "stopped", job.progress if job.kind == "search" else None
        except (EOFError, OSError) as e:
            job.status, job.error = "error", f"the search process ended: {e}"
            self.kill()
        finally:
            job.finished = time.monotonic()

    @staticmethod
    def _receive(job: Job, message) -> None:
        kind, data = message
        if kind == "progress":
            job.progress = data
        elif kind == "done":
            job.status, job.result = "done", data
        else:
            job.status, job.error = "error", data

    def stop(self, job_id: int) -> Job:
        job = self.get(job_id)
        job.stop_requested.set()
        return job

    def get(self, job_id: int) -> Job:
        job = self.jobs.get(job_id)
        if job is None:
            raise KeyError(job_id)
        return job

    def kill(self) -> None:
        """End the search process (a new one starts with the next job)."""
        proc, self._proc = self._proc, None
        if proc is not None and proc.is_alive():
            proc.kill()
            proc.join(2)
        if self._conn is not None:
            self._conn.close()
            self._conn = None
