"""Search limits: one validated record for every engine, the API and the CLI.

=============  =====================  ==========================================
limit          range                  meaning
=============  =====================  ==========================================
``time``       0 < t <= 86400         seconds of wall time (one day at most)
``nodes``      1 .. 2**62             alpha-beta / solver nodes
``depth``      1 .. 100               alpha-beta plies (iterative deepening)
``iterations`` 1 .. 2**62             MCTS iterations
``seed``       0 .. 2**64-1           randomised engines' seed (recorded by all)
``workers``    1 .. 256               MCTS root-parallel processes; alpha-beta / solver threads
``hash_mb``    1 .. 65536             transposition table memory (megabytes)
``max_nodes``  16 .. 2**30            MCTS tree nodes kept in memory
``multipv``    1 .. 256               root moves valued one by one (alpha-beta)
=============  =====================  ==========================================

Out of range, of the wrong type, or a limit an engine does not use: a
:class:`~patchsolve.errors.LimitError` naming the limit. A table that
cannot be allocated is also a ``LimitError`` (see :func:`allocation`).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import Any

from patchsolve.errors import LimitError

MAX_TIME = 86400.0
MAX_DEFAULT_WORKERS = 256  # alpha-beta / solver threads by default under a time limit: every core, up to this

# name -> (lowest, highest); time is a float, the rest are integers
RANGES = {
    "time": (0.0, MAX_TIME),
    "nodes": (1, 2**62),
    "depth": (1, 100),
    "iterations": (1, 2**62),
    "seed": (0, 2**64 - 1),
    "workers": (1, 256),
    "hash_mb": (1, 65536),
    "max_nodes": (16, 2**30),
    "multipv": (1, 256),
}

# the limits each engine reads; any other given limit is refused for it
ENGINE_LIMITS = {
    "alphabeta": {"time", "nodes", "depth", "seed", "workers", "hash_mb", "multipv"},
    "mcts": {"time", "iterations", "seed", "workers", "max_nodes", "multipv"},
    "solve": {"time", "nodes", "seed", "workers", "hash_mb"},
}


def _check_time(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise LimitError(f"time must be a number of seconds, not {value!r}")
    if not math.isfinite(value) or not 0 < value <= MAX_TIME:
        raise LimitError(f"time must be more than 0 and at most {MAX_TIME:g} seconds, not {value}")
    return float(value)


def _check_int(name: str, value: object) -> int:
    lo, hi = RANGES[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise LimitError(f"{name} must be an integer, not {value!r}")
    if not lo <= value <= hi:
        raise LimitError(f"{name} must be between {lo} and {hi}, not {value}")
    return value


def check(name: str, value: object) -> int | float | None:
    """One limit, validated (None stays None)."""
    if value is None:
        return None
    if name not in RANGES:
        raise LimitError(f"unknown limit {name!r} (known: {', '.join(RANGES)})")
    return _check_time(value) if name == "time" else _check_int(name, value)


@dataclass(frozen=True)
class Limits:
    """A search budget and the engine-independent settings. Every field is
    optional (None: not given); ``Limits(time=1.5, seed=3)`` checks each
    value on creation and raises :class:`~patchsolve.errors.LimitError`
    naming a bad one. A search stops at the first limit reached.

    >>> Limits(depth=4, seed=3)
    Limits(depth=4, seed=3)
    >>> Limits(depth=4).given(), Limits(depth=4).replace(depth=6).depth
    ({'depth': 4}, 6)
    >>> Limits(depth=0)
    Traceback (most recent call last):
    ...
    patchsolve.errors.LimitError: depth must be between 1 and 100, not 0
    """

    time: float | None = None
    """Seconds of wall time, more than 0 and at most 86400. A search given
    no limit at all gets the command's default time."""
    nodes: int | None = None
    """Nodes of the alpha-beta or the exact solver, 1..2**62. With
    ``depth``, the one limit that makes a search reproducible."""
    depth: int | None = None
    """Plies of the alpha-beta's iterative deepening, 1..100."""
    iterations: int | None = None
    """MCTS iterations (playouts from the root), 1..2**62."""
    seed: int | None = None
    """The seed of a randomised engine (the MCTS), 0..2**64-1; recorded in
    every result. The same seed and node or iteration budget give the same
    answer."""
    workers: int | None = None
    """The MCTS's processes or the alpha-beta's and the solver's threads,
    1..256. Threads race for one table, so more than one is refused with a
    ``nodes`` or ``depth`` limit (the answer would change from run to run)."""
    hash_mb: int | None = None
    """Megabytes of the transposition table, 1..65536 (alpha-beta, solver)."""
    max_nodes: int | None = None
    """MCTS tree nodes kept in memory, 16..2**30."""
    multipv: int | None = None
    """How many root moves to rank, 1..256, each valued by its own search
    (alpha-beta) so that the ranked values are comparable."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Limits:
        # a dataclass's __init__ would refuse these with a TypeError: name them as a LimitError
        unknown = sorted(set(kwargs) - set(RANGES))
        if unknown:
            raise LimitError(f"unknown limit {', '.join(map(repr, unknown))} (known: {', '.join(RANGES)})")
        if len(args) > len(RANGES):
            raise LimitError(f"at most {len(RANGES)} limits, by name: {', '.join(RANGES)}")
        return super().__new__(cls)

    def __post_init__(self) -> None:
        for name in RANGES:
            object.__setattr__(self, name, check(name, getattr(self, name)))

    def given(self) -> dict:
        """The limits that were set, by name."""
        return {k: v for k, v in asdict(self).items() if v is not None}

    def for_engine(self, engine: str) -> Limits:
        """Refuse limits ``engine`` does not read (a depth for the MCTS, ...)."""
        if engine not in ENGINE_LIMITS:
            raise LimitError(f"unknown engine {engine!r} (known: {', '.join(ENGINE_LIMITS)})")
        wrong = sorted(set(self.given()) - ENGINE_LIMITS[engine])
        if wrong:
            raise LimitError(
                f"{', '.join(wrong)} does not apply to the {engine} engine "
                f"(it takes {', '.join(sorted(ENGINE_LIMITS[engine]))})"
            )
        if engine in ("alphabeta", "solve"):
            self.check_threads(engine)
        return self

    def check_threads(self, engine: str = "alphabeta") -> None:
        """Alpha-beta and solver threads race for the shared table, so their
        result (the solver's: its node count, and its bounds when the budget
        runs out) is not reproducible: refused with the limits that promise
        it is."""
        if (self.workers or 1) > 1 and (self.nodes is not None or self.depth is not None):
            given = "nodes" if self.nodes is not None else "depth"
            raise LimitError(
                f"workers={self.workers} cannot be combined with a {given} limit: threads make "
                f"the {engine} nondeterministic, and a {given} limit promises a reproducible "
                "result (use a time limit, or workers=1)"
            )

    def replace(self, **changes: Any) -> Limits:
        """A copy with the given fields changed, checked again."""
        return Limits(**{**asdict(self), **changes})

    def __repr__(self) -> str:
        return "Limits(" + ", ".join(f"{k}={v!r}" for k, v in self.given().items()) + ")"


def with_defaults(options: dict, defaults: dict, what: str) -> dict:
    """``defaults`` overridden by ``options``; an option not among them is a
    LimitError naming it (each engine then checks the values' types)."""
    unknown = sorted(set(options) - set(defaults))
    if unknown:
        raise LimitError(f"unknown {what} option(s) {', '.join(unknown)} (known: {', '.join(defaults)})")
    return {**defaults, **options}


def split(kwargs: dict) -> tuple[Limits, dict]:
    """Separate the limits among ``kwargs`` from the engine options."""
    limits = {k: kwargs[k] for k in RANGES if k in kwargs}
    options = {k: v for k, v in kwargs.items() if k not in RANGES}
    return Limits(**limits), options


@contextmanager
def allocation(what: str, megabytes: int | None) -> Iterator[None]:
    """Turn a failed allocation of ``what`` into a LimitError."""
    try:
        yield
    except MemoryError:
        size = "" if megabytes is None else f" of {megabytes} MB"
        raise LimitError(f"cannot allocate the {what}{size}: choose a smaller one") from None


def available_cores() -> int:
    """The cores this process may run on (its affinity mask where the OS
    has one, so a process pinned with taskset does not oversubscribe)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def threads_for(limits: Limits, engine: str) -> int:
    """The alpha-beta's or solver's threads: ``workers`` if given, else
    every core under a time limit alone (or none: the default budget) and 1
    otherwise; threads with a node or depth limit are refused
    (``Limits.check_threads``, which ``for_engine`` also runs: the engines'
    ``run`` may be called directly)."""
    limits.check_threads(engine)
    if limits.workers is not None:
        return limits.workers
    if limits.nodes is None and limits.depth is None:
        return min(available_cores(), MAX_DEFAULT_WORKERS)
    return 1


__all__ = [
    "Limits",
    "LimitError",
    "RANGES",
    "ENGINE_LIMITS",
    "MAX_TIME",
    "MAX_DEFAULT_WORKERS",
    "check",
    "split",
    "with_defaults",
    "allocation",
    "available_cores",
    "threads_for",
]
