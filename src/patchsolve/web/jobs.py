"""Search jobs of the web app: one at a time, bounded in time.

A job is a search or a game review, run by the single search process
(:mod:`patchsolve.web.worker`). While one job runs, another is refused
(:class:`Busy`), so a page cannot pile work onto the machine. A job that
overruns its budget by more than ``GRACE`` seconds, counted from when the
search process takes it (a fresh process first imports the engine, which
under load takes seconds of its own; ``START`` caps that), or that the page stops,
has its process killed; a search's last progress report (its deepest
finished depth, its last time slice) then stands as its result, and a
review's last report may carry ``partial``: the review of the positions done
so far, which then stands as its result (as the CLI's Ctrl-C keeps them).
A search stopped before its first report is given up to ``FIRST_REPORT``
seconds for one (an MCTS slice, a first depth), so Stop keeps an answer,
unless the page discards it (it has moved on: the engine is freed at once).
The kinds: ``search``, ``analyze`` (a review), ``quiz`` (exercises) and
``grade`` (an answer to one); see :mod:`patchsolve.web.worker`.
"""

from __future__ import annotations

import itertools
import multiprocessing
import threading
import time
from typing import Any

from patchsolve.errors import PatchsolveError

GRACE = 5.0  # seconds past a job's budget (plus a fifth of it) before its process is killed
KEEP_JOBS = 32  # finished jobs kept for polling
FIRST_REPORT = 4.0  # seconds a stopped search may take to send its first report
START = 60.0  # seconds a search process may take to start and take its job


class Busy(PatchsolveError):
    """Another job is running."""


class Job:
    """One search or review running in the worker process, and what it reported."""

    def __init__(self, job_id: int, kind: str, budget: float):
        self.id, self.kind, self.budget = job_id, kind, budget
        self.status = "running"  # running, done, stopped, error
        self.started = time.monotonic()
        self.finished: float | None = None
        self.progress: Any = None
        self.result: Any = None
        self.error: str | None = None
        self.stop_requested = threading.Event()
        self.discard = False  # stopped because its answer is no longer wanted: no wait for a first report

    def to_dict(self) -> dict:
        """The job as the API returns it."""
        end = self.finished if self.finished is not None else time.monotonic()
        return {
            "id": self.id,
            "kind": self.kind,
            "status": self.status,
            "budget": self.budget,
            "elapsed": end - self.started,
            "progress": self.progress,
            "result": self.result,
            "error": self.error,
        }


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
        """Start a job (the previous one is stopped first); the Job."""
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
            self._proc = self._ctx.Process(
                target=worker_main, args=(child,), daemon=True, name="patchsolve-search"
            )
            self._proc.start()
            child.close()
            self._conn = parent
        return self._conn

    def _run(self, job: Job, payload: dict) -> None:
        try:
            conn = self._ensure_process()
            conn.send((job.kind, payload))
            deadline = job.started + START + 1.2 * job.budget + GRACE
            stopped_at = None
            while job.status == "running":
                if conn.poll(0.05):
                    message = conn.recv()
                    if message[0] == "started":  # the budget counts from here, not from the spawn
                        deadline = time.monotonic() + 1.2 * job.budget + GRACE
                        continue
                    self._receive(job, message)
                    if job.status != "running":
                        break
                now = time.monotonic()
                if job.stop_requested.is_set() and stopped_at is None:
                    stopped_at = now
                # a search with nothing to show yet gets a moment for its first report
                waiting = (
                    job.kind == "search"
                    and not job.discard
                    and job.progress is None
                    and stopped_at is not None
                    and now - stopped_at < FIRST_REPORT
                    and now <= deadline
                )
                if (stopped_at is not None and not waiting) or now > deadline:
                    self.kill()
                    job.status, job.result = "stopped", self._kept(job)
        except (EOFError, OSError) as e:
            job.status, job.error = "error", f"the search process ended: {e}"
            self.kill()
        except Exception as e:  # e.g. the process cannot start: the job must not stay "running" for ever
            job.status, job.error = "error", f"the search process failed: {type(e).__name__}: {e}"
            self.kill()
        finally:
            job.finished = time.monotonic()

    @staticmethod
    def _kept(job: Job):
        """What a stopped job leaves: a search's last report (an answer in
        itself), a review's partial review when its last report has one."""
        if job.kind == "search":
            return job.progress
        return (job.progress or {}).get("partial")

    @staticmethod
    def _receive(job: Job, message) -> None:
        kind, data = message
        if kind == "progress":
            job.progress = data
        elif kind == "done":
            job.status, job.result = "done", data
        else:
            job.status, job.error = "error", data

    def stop(self, job_id: int, discard: bool = False) -> Job:
        """Ask the running job to stop; it keeps its last report. With
        ``discard`` (its answer is no longer wanted: the page has moved on)
        it is ended at once, without waiting for a first report."""
        job = self.get(job_id)
        job.discard = job.discard or discard
        job.stop_requested.set()
        return job

    def get(self, job_id: int) -> Job:
        """The job with id ``job_id``, or None."""
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
