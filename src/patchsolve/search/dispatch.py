"""``search(position, engine=...)`` and ``solve(position)``: one entry for
every engine, the API and the CLI.

Here, once for all engines: the limits are validated (one ``LimitError``),
a finished position gets its proven margin, Ctrl-C stops the search with its
best so far (``interrupted=True``) and then raises ``SearchInterrupted``
carrying it (``stop.py``), and near the end of the game the exact
solver is tried first with a share of the budget (or, for the alpha-beta
with a second core under a time limit, beside the search for the whole
time); when it proves the value, that is the answer, whatever the engine,
and when it proves only a win, the move played is one proven to keep it.
That near-end policy is ``endgame.py``'s: the dispatcher asks it for a
plan (``endgame.plan``) and runs the search by it (``endgame.run``). Every
share of the budget comes from one time manager made here
(``budget.TimeManager``), which holds the limits and the engine's threads.
"""

from __future__ import annotations

import importlib
import time as _time
from types import ModuleType
from typing import TYPE_CHECKING, Any

from patchsolve.errors import LimitError, PatchsolveError
from patchsolve.rules.position import as_position
from patchsolve.search import budget, endgame, questions, solver
from patchsolve.search.limits import RANGES, Limits, split
from patchsolve.search.result import SearchResult, choice_first, finished_result
from patchsolve.search.stop import interruptible, raise_if_ctrl_c, stop_requested

if TYPE_CHECKING:
    from patchsolve.rules.position import Position

ENGINES = ("alphabeta", "mcts")
DEFAULT_ENGINE = "alphabeta"  # the stronger at the CLI's time (benchmarks/results/default_engine.md)


def engine_module(engine: str) -> ModuleType:
    """The module of ``engine`` (one of ENGINES), imported on first use."""
    if engine not in ENGINES:
        raise PatchsolveError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")
    return importlib.import_module(f"patchsolve.search.{engine}")


def _limits_and_options(limits: Limits | None, kwargs: dict) -> tuple[Limits, dict]:
    """One ``Limits`` from either a ``Limits`` object or limit keywords (not
    both), and the remaining keywords as engine options."""
    if limits is None:
        return split(kwargs)
    given: Limits | None = None  # no limit keyword: no Limits to build
    options = dict(kwargs)
    if any(k in RANGES for k in kwargs):
        given, options = split(kwargs)
    if not isinstance(limits, Limits):
        raise LimitError(f"limits must be a patchsolve.Limits, not {type(limits).__name__}")
    if given is not None and given.given():
        raise LimitError(
            f"give the limits either as a Limits or as keywords, not both "
            f"({', '.join(sorted(given.given()))} given as keywords)"
        )
    return limits, options


def search(
    position: Position,
    engine: str = DEFAULT_ENGINE,
    limits: Limits | None = None,
    *,
    endgame_solve: bool = True,
    **kwargs: Any,
) -> SearchResult:
    """Search ``position`` with ``engine`` ("alphabeta", the default, or
    "mcts"). The budget is a :class:`Limits` (``limits=``, or in place of
    the engine: ``search(pos, Limits(time=1))``) or the same limits as
    keywords (``time``, ``nodes``, ``depth``, ``iterations``, ``seed``,
    ``workers``, ``hash_mb``, ``max_nodes``, ``multipv``; see
    ``patchsolve.search.limits``); other keywords are engine options (see
    the engine's module). Ctrl-C stops the search and raises
    :class:`~patchsolve.errors.SearchInterrupted`, whose ``result`` is the
    best so far. ``endgame_solve=False`` skips the exact solver
    near the end (``endgame.py``)."""
    position = as_position(position)
    if isinstance(engine, Limits):
        if limits is not None:
            raise LimitError("two Limits given")
        engine, limits = DEFAULT_ENGINE, engine
    module = engine_module(engine)
    limits, options = _limits_and_options(limits, kwargs)
    # the time manager, made once: the limits checked for the engine, its threads counted;
    # every share of the budget is asked of it from here down (``budget.py``)
    manager = budget.TimeManager(limits, engine, check=True)
    if not isinstance(endgame_solve, bool):
        raise LimitError(f"endgame_solve must be True or False, not {endgame_solve!r}")
    options = module.check_options(dict(options))
    with interruptible():
        t0 = _time.perf_counter()
        if position.is_over:
            result = finished_result(position, engine, limits.seed)
        else:
            plan = endgame.plan(position, manager, endgame_solve)
            result = endgame.run(plan, position, options, module)
        if len(result.root_moves) > 1:  # ranked rows: choice first, whichever engine or proof made them
            asked = [position.parse_move(m) if isinstance(m, str) else m for m in options.get("include", ())]
            result.root_moves = choice_first(position, result.root_moves, keep=asked)
        result.time = _time.perf_counter() - t0
        result.interrupted = stop_requested()
    raise_if_ctrl_c(result)
    return result


def solve(position: Position, limits: Limits | None = None, **kwargs: Any) -> SearchResult:
    """The exact final margin for the player to move under perfect play
    (``bound="exact"``) within ``time`` / ``nodes`` (default 30 s), else a
    proven interval (``lower``, ``upper``). Options: ``wdl`` (only who
    wins), ``all_moves`` (every root move valued), ``progress`` (a callable
    given a :class:`SolveProgress` about once a second), ``at_least``,
    ``best``; see ``search/solver.py`` and ``search/questions.py``. The limits
    may also come as one :class:`Limits`. Ctrl-C stops the solve and raises
    :class:`~patchsolve.errors.SearchInterrupted` with the result so far."""
    position = as_position(position)
    limits, options = _limits_and_options(limits, kwargs)
    limits.for_engine("solve")
    options = solver.check_options(dict(options))
    with interruptible():
        if position.is_over:
            result = finished_result(position, "solve", limits.seed)
        else:
            result = questions.answer(position, limits, options)
        result.interrupted = stop_requested()
    raise_if_ctrl_c(result)
    return result


__all__ = ["search", "solve", "ENGINES", "DEFAULT_ENGINE"]
