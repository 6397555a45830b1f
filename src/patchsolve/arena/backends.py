"""Where a batch of games runs: processes on this machine, or Ray tasks.

One small interface, so tournaments and (later) self-play data generation
share it. A backend's ``run(fn, jobs)`` calls ``fn(job)`` for every job of a
list and yields ``(index, result)`` as each call finishes, in the order they
finish (not the order of ``jobs``). ``fn`` must be a module-level function
and the jobs plain data, both picklable; a job must give the same result
wherever it runs (seeded, node- or iteration-limited players do), which is
what makes the backends interchangeable::

    backend = make_backend("ray", workers=2)            # or "local", or address=...
    for k, result in backend.run(play_one, jobs):
        keep(k, result)                                 # at once: nothing is lost

Close the generator (``contextlib.closing``) when stopping early: the Ray
backend then shuts down the Ray session it opened (which stops its tasks),
or cancels its tasks in a session it found open.

- ``local``: ``workers`` spawned processes (in-process when ``workers`` is 1).
- ``ray``: one Ray task per job (one CPU each). With no ``address`` a local
  Ray of ``workers`` CPUs is started for the run and shut down after it;
  with ``address`` the run connects to that cluster (``"auto"`` finds one
  started by ``ray start``) and the cluster decides the parallelism. If a
  Ray session is already open in the process (a notebook, the tests) it is
  used as it is. A job whose worker is lost (process killed, node gone) is
  run again: first by Ray itself (``max_retries``), then resubmitted by the
  backend (``resubmits`` more times); each job yields exactly once.
"""

from __future__ import annotations

import functools
import os
import signal
import socket
from multiprocessing import get_context

from patchsolve.errors import PatchsolveError

BACKENDS = ("local", "ray")

# Ray failures that mean "the worker or its node went away", not "the job
# raised": running the job again is the fix.
_LOST = (
    "WorkerCrashedError",
    "NodeDiedError",
    "LocalRayletDiedError",
    "ObjectLostError",
    "OwnerDiedError",
    "ObjectReconstructionFailedError",
    "OutOfMemoryError",
)


class BackendError(PatchsolveError):
    """A backend that cannot be used (Ray missing, a cluster not reachable)
    or a job lost more often than it may be rerun."""


def make_backend(name: str = "local", workers: int = 1, address: str | None = None, **options):
    """The backend called ``name`` ("local" or "ray")."""
    if name == "local":
        if address is not None:
            raise BackendError("an address is for the ray backend (--backend ray)")
        return LocalBackend(workers)
    if name == "ray":
        return RayBackend(workers, address=address, **options)
    raise BackendError(f"unknown backend {name!r} (one of: {', '.join(BACKENDS)})")


def _indexed_call(fn, item):
    k, job = item
    return k, fn(job)


def _worker_init() -> None:
    """Workers leave Ctrl-C to the parent, which keeps the finished games;
    a search in a worker is never cut short."""
    from patchsolve.search.stop import sigint_stops_searches

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sigint_stops_searches(False)


class LocalBackend:
    """Processes on this machine (the default)."""

    name = "local"

    def __init__(self, workers: int = 1):
        self.workers = max(1, int(workers))

    def run(self, fn, jobs):
        """Call ``fn(job)`` for every job and yield ``(index, result)`` as each
        finishes: in this process with one worker, else in a pool of spawned
        processes."""
        jobs = list(jobs)
        if self.workers <= 1:
            yield from self._in_process(fn, jobs)
            return
        with get_context("spawn").Pool(self.workers, initializer=_worker_init) as pool:
            yield from pool.imap_unordered(functools.partial(_indexed_call, fn), list(enumerate(jobs)))

    @staticmethod
    def _in_process(fn, jobs):
        from patchsolve.search.stop import sigint_stops_searches

        sigint_stops_searches(False)
        try:
            for k, job in enumerate(jobs):
                yield k, fn(job)
        finally:
            sigint_stops_searches(True)


def _ray_task(fn, job):
    """The body of every Ray task: a search is never cut short by a signal
    meant for the driver."""
    from patchsolve.search.stop import sigint_stops_searches

    sigint_stops_searches(False)
    return fn(job)


def split_address(address: str) -> tuple[str, int]:
    """``(host, port)`` of a Ray address ``host:port`` (``ray://`` allowed);
    BackendError for anything else."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise BackendError(f"a Ray address is host:port or auto, not {address!r}")
    return host, int(port)


def probe_address(address: str, timeout: float = 5.0) -> None:
    """Fail at once on a cluster that is not there: Ray itself retries an
    unreachable address for minutes."""
    host, port = split_address(address)
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as e:
        raise BackendError(f"cannot reach the Ray cluster at {address}: {e.strerror or e}") from None


def import_ray():
    # Ray's start must not wait on the network: no usage-stats report.
    """Import Ray with its usage report off; BackendError naming the extra when
    it is not installed."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    try:
        import ray
    except ImportError:
        raise BackendError("the ray backend needs Ray: pip install 'patchsolve[ray]'") from None
    return ray


class RayBackend:
    """Ray tasks, on a local Ray started for the run or on a cluster."""

    name = "ray"

    def __init__(
        self, workers: int = 1, address: str | None = None, max_retries: int = 3, resubmits: int = 3
    ):
        self.workers = max(1, int(workers))
        if address is not None and address != "auto":
            split_address(address)
        self.address = address
        self.max_retries = max_retries
        self.resubmits = resubmits

    def connect(self, ray) -> bool:
        """Open a Ray session unless one is open; True if this call opened it."""
        if ray.is_initialized():
            return False
        quiet = {"logging_level": "warning", "log_to_driver": False}
        if self.address and self.address != "auto":
            probe_address(self.address)
        try:
            if self.address:
                ray.init(address=self.address, **quiet)
            else:
                # "local": a new Ray of our size, even when `ray start` left one running
                ray.init(address="local", num_cpus=self.workers, include_dashboard=False, **quiet)
        except (ConnectionError, RuntimeError, ValueError) as e:
            where = f"the Ray cluster at {self.address}" if self.address else "a local Ray"
            raise BackendError(f"cannot start {where}: {' '.join(str(e).split())}") from None
        return True

    def run(self, fn, jobs):
        """Run every job as a Ray task and yield ``(index, result)`` as each
        finishes; a lost task is retried (see the module docstring). The Ray
        session opened here is shut down at the end; in one found open, the
        remaining tasks are cancelled."""
        jobs = list(jobs)
        ray = import_ray()
        opened = self.connect(ray)
        pending = {}
        try:
            task = ray.remote(num_cpus=1, max_retries=self.max_retries)(_ray_task)
            fn_ref = ray.put(fn)
            for k, job in enumerate(jobs):
                pending[task.remote(fn_ref, job)] = k
            yield from self._collect(ray, task, fn_ref, jobs, pending)
        finally:
            if opened:
                ray.shutdown()  # ends this job: Ray stops its tasks
            else:
                self._cancel(ray, pending)

    @staticmethod
    def _cancel(ray, pending):
        """Stop the tasks still running in a session that outlives the run.
        (Not done when the run's own session ends: Ray 2.60's driver can
        abort on a cancel racing a task's completion, ray-project/ray#54527.)"""
        for ref in pending:
            try:
                ray.cancel(ref, force=True)
            except Exception:  # already finished or gone: nothing to stop
                pass

    def _collect(self, ray, task, fn_ref, jobs, pending):
        lost = tuple(getattr(ray.exceptions, n) for n in _LOST if hasattr(ray.exceptions, n))
        reruns = [0] * len(jobs)
        while pending:
            [ref], _ = ray.wait(list(pending), num_returns=1)
            k = pending.pop(ref)
            try:
                result = ray.get(ref)
            except ray.exceptions.RayTaskError as e:
                # the job itself raised: deterministic, so a rerun would raise
                # again; unless what it raised is a lost dependency
                if not isinstance(e.cause, lost):
                    raise e.cause from None
                self._resubmit(task, fn_ref, jobs, pending, reruns, k, e)
                continue
            except lost as e:
                self._resubmit(task, fn_ref, jobs, pending, reruns, k, e)
                continue
            yield k, result

    def _resubmit(self, task, fn_ref, jobs, pending, reruns, k, error):
        reruns[k] += 1
        if reruns[k] > self.resubmits:
            raise BackendError(f"job {k} was lost {reruns[k]} times, last: {type(error).__name__}")
        pending[task.remote(fn_ref, jobs[k])] = k


__all__ = [
    "BACKENDS",
    "BackendError",
    "LocalBackend",
    "RayBackend",
    "make_backend",
    "import_ray",
    "probe_address",
]
