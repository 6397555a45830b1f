"""``search(position, engine=...)`` and ``solve(position)``: one entry for
every engine, the API and the CLI.

Here, once for all engines: the limits are validated (one ``LimitError``),
a finished position gets its proven margin, Ctrl-C stops the search with its
best so far (``interrupted=True``), and near the end of the game the exact
solver is tried first with a share of the budget; when it proves the value,
that is the answer, whatever the engine.
"""

from __future__ import annotations

import importlib
import time as _time

from patchsolve.errors import LimitError, PatchsolveError
from patchsolve.patches import LAST_SPACE
from patchsolve.position import Position
from patchsolve.search.limits import Limits, split
from patchsolve.search.result import SearchResult, finished_result, root_move
from patchsolve.search.stop import interruptible, stop_requested

ENGINES = ("alphabeta", "mcts")
DEFAULT_ENGINE = "alphabeta"   # the stronger at the CLI's time (benchmarks/results/default_engine.md)

ENDGAME_SPACES = 15        # try the exact solver first when a token is this close to 53 ...
ENDGAME_SHARE = 0.25       # ... with this share of the time or node budget ...
ENDGAME_NODES = 200_000    # ... or this many nodes under a depth / iteration budget (deterministic)
SHORTCUT_HASH_MB = (4, 16)   # the solver's table in the shortcut: small budgets, larger ones
SHORTCUT_SMALL_TIME = 0.5    # seconds of shortcut budget counted as small ...
SHORTCUT_SMALL_NODES = 1_000_000   # ... and nodes


def check_position(position) -> Position:
    if not isinstance(position, Position):
        raise PatchsolveError(f"expected a patchsolve.Position, not {type(position).__name__}")
    return position


def engine_module(engine: str):
    if engine not in ENGINES:
        raise PatchsolveError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")
    return importlib.import_module(f"patchsolve.search.{engine}")


def near_end(position: Position) -> bool:
    return not position.is_over and LAST_SPACE - min(position.time(0), position.time(1)) <= ENDGAME_SPACES


def endgame_shortcut(position: Position, limits: Limits, engine: str):
    """The proven answer when the solver finds it within its share of the
    budget, else (None, the limits left for the engine)."""
    budget = {}
    if limits.time is not None:
        budget["time"] = limits.time * ENDGAME_SHARE
    if limits.nodes is not None:
        budget["nodes"] = max(1, int(limits.nodes * ENDGAME_SHARE))
    if not budget:
        budget["nodes"] = ENDGAME_NODES
    # the solver's threads follow the alpha-beta's (every core under a time
    # limit unless workers says otherwise); the MCTS gets one thread, since
    # its workers are processes that may each get here
    budget["workers"] = limits.workers if engine == "alphabeta" else 1
    t0 = _time.perf_counter()
    # ranked moves (multipv > 1) come from the solver's value of every root move
    ranked = (limits.multipv or 1) > 1
    r = _solve_run(position, Limits(hash_mb=_shortcut_hash_mb(limits, budget), seed=limits.seed, **budget),
                   {"all_moves": ranked})
    if r.bound == "exact":
        r.engine = engine
        r.seed = limits.seed
        if ranked:   # the move played first among equals, then as many rows as asked, with every engine's keys
            rows = sorted(r.root_moves, key=lambda d: d["move"] != r.best_move)
            rows = sorted(rows, key=lambda d: (-d["lower"], -d["upper"]))[:limits.multipv]
            r.root_moves = [root_move(d["move"], d["score"], d["bound"], proven=d["proven"], lower=d["lower"],
                                      upper=d["upper"]) for d in rows]
        return r, limits
    left = {}
    if limits.time is not None:
        left["time"] = max(1e-3, limits.time - (_time.perf_counter() - t0))
    if limits.nodes is not None:
        left["nodes"] = max(1, limits.nodes - r.nodes)
    return None, limits.replace(**left)


def _shortcut_hash_mb(limits: Limits, budget: dict) -> int:
    """A table sized to the shortcut's small budget: a fresh 64 MB table
    costs more in first-touch page faults than a 0.1 s solve takes (at 0.25 s
    a move, 11-13 of 21 near-end positions proven with 64 MB, 15-17 with 4 MB;
    benchmarks/results/shortcut_table.md)."""
    small = budget.get("time", 0) <= SHORTCUT_SMALL_TIME and budget.get("nodes", 0) <= SHORTCUT_SMALL_NODES
    mb = SHORTCUT_HASH_MB[0] if small else SHORTCUT_HASH_MB[1]
    return min(mb, limits.hash_mb) if limits.hash_mb else mb


def _solve_run(position, limits, options):
    """The solver's run; ``options`` checked (and completed) once, here."""
    from patchsolve.search.solver import check_options, run

    return run(position, limits, check_options(options))


def _limits_and_options(limits, kwargs: dict) -> tuple[Limits, dict]:
    """One ``Limits`` from either a ``Limits`` object or limit keywords (not
    both), and the remaining keywords as engine options."""
    given, options = split(kwargs)
    if limits is None:
        return given, options
    if not isinstance(limits, Limits):
        raise LimitError(f"limits must be a patchsolve.Limits, not {type(limits).__name__}")
    if given.given():
        raise LimitError(f"give the limits either as a Limits or as keywords, not both "
                         f"({', '.join(sorted(given.given()))} given as keywords)")
    return limits, options


def search(position, engine: str = DEFAULT_ENGINE, limits: Limits | None = None, *,
           endgame_solve: bool = True, **kwargs) -> SearchResult:
    """Search ``position`` with ``engine`` ("alphabeta", the default, or
    "mcts"). The budget is a :class:`Limits` (``limits=``, or in place of
    the engine: ``search(pos, Limits(time=1))``) or the same limits as
    keywords (``time``, ``nodes``, ``depth``, ``iterations``, ``seed``,
    ``workers``, ``hash_mb``, ``max_nodes``, ``multipv``; see
    ``patchsolve.search.limits``); other keywords are engine options (see
    the engine's module). ``endgame_solve=False`` skips the exact solver
    near the end."""
    position = check_position(position)
    if isinstance(engine, Limits):
        if limits is not None:
            raise LimitError("two Limits given")
        engine, limits = DEFAULT_ENGINE, engine
    module = engine_module(engine)
    limits, options = _limits_and_options(limits, kwargs)
    limits.for_engine(engine)
    if not isinstance(endgame_solve, bool):
        raise LimitError(f"endgame_solve must be True or False, not {endgame_solve!r}")
    options = module.check_options(dict(options))
    with interruptible():
        t0 = _time.perf_counter()
        if position.is_over:
            result = finished_result(position, engine, limits.seed)
        else:
            result = None
            if endgame_solve and near_end(position):
                result, limits = endgame_shortcut(position, limits, engine)
            if result is None:
                result = module.run(position, limits, options)
        result.time = _time.perf_counter() - t0
        result.interrupted = stop_requested()
    return result


def solve(position, limits: Limits | None = None, **kwargs) -> SearchResult:
    """The exact final margin for the player to move under perfect play
    (``bound="exact"``) within ``time`` / ``nodes`` (default 30 s), else a
    proven interval (``lower``, ``upper``). Options: ``wdl`` (only who
    wins), ``all_moves`` (every root move valued), ``progress`` (a callable
    given a dict about once a second); see ``search/solver.py``. The limits
    may also come as one :class:`Limits`."""
    position = check_position(position)
    limits, options = _limits_and_options(limits, kwargs)
    limits.for_engine("solve")
    from patchsolve.search import solver

    options = solver.check_options(dict(options))
    with interruptible():
        if position.is_over:
            result = finished_result(position, "solve", limits.seed)
        else:
            result = solver.run(position, limits, options)
        result.interrupted = stop_requested()
    return result


__all__ = ["search", "solve", "ENGINES", "DEFAULT_ENGINE", "check_position", "near_end", "endgame_shortcut"]
