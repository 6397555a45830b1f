"""Near the end of the game: whether and when the exact solver runs, first
or beside the search (a :class:`Plan`, which :func:`patchsolve.search`
asks), and the search run by that plan (:func:`run`).

Near the end the exact solver is tried first with a share of the search's
budget (``budget.solver_first``; under a node budget alone a budget of its
own in solver nodes, the engine keeping its whole budget:
``budget.apart``); when it proves the value, that is the answer, whatever
the engine. When it proves only who wins, that still decides: the engine
searches with the rest, and its move is played only if it is proven to
keep the win, else a move the solver proved to win is played
(``proof.keep_the_win``).

With a second core, the alpha-beta under a time limit alone runs the
solver *beside* the search instead (:func:`solver_beside`): one thread
solves for the whole move time while the search runs on the others, and a
proof stops the search at once. At 0.1 s a move on two threads that gives
exact answers in 8 of the 32 near-end positions of the perfect-play set,
where the solver first gave 3 (benchmarks/results/solver_beside.md).

After the alpha-beta, whose tree may end before its budget, the solver
gets what is left (``handover.py``), near the end or not.

Used by :func:`patchsolve.search` (``dispatch.py``) and by the MCTS player
that keeps its tree (``mcts.MCTSTree``); it sits below both, so no
engine module needs the dispatcher.
"""

from __future__ import annotations

import threading
import time as _time
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from patchsolve.rules.patches import LAST_SPACE
from patchsolve.rules.position import Position
from patchsolve.search import budget, solver
from patchsolve.search.budget import TimeManager
from patchsolve.search.handover import hand_over
from patchsolve.search.limits import Limits
from patchsolve.search.proof import (
    Proof,
    ask,
    decides,
    keep_the_win,
    proven_rows,
    solved,
    winning_move,
    within_proof,
)
from patchsolve.search.result import SearchResult
from patchsolve.search.stop import stop_requested

ENDGAME_SPACES = 15  # try the exact solver first when a token is this close to 53


@dataclass(frozen=True)
class Traits:
    """What an engine does with the solver near the end: it hands what
    its budget left over to the solver (``hand_over``), lends its threads
    to the solver tried first and keeps that solver's table for the
    hand-over (``shares``: the MCTS's workers are processes that may each
    get here, so its solver gets one thread), can run with the solver
    beside it (``beside``: its ``run`` takes ``on_searcher``), and takes
    the threads its budget counted (``threads``: its ``run`` takes
    ``threads=``, so that it does not count them again)."""

    hand_over: bool
    shares: bool
    beside: bool
    threads: bool = False


TRAITS = {
    "alphabeta": Traits(hand_over=True, shares=True, beside=True, threads=True),
    "mcts": Traits(hand_over=False, shares=False, beside=False),
}


@dataclass(frozen=True)
class Plan:
    """How a search runs with the solver: ``solver`` "first", "beside" or
    None (not near the end, or the solver off); whether the engine's
    answer is handed over to the solver (``hand_over``); ``engine`` the
    engine's name; ``manager`` the search's time manager
    (:class:`~patchsolve.search.budget.TimeManager`), which every share is
    asked of, and which holds the limits and the engine's threads."""

    engine: str
    solver: str | None
    hand_over: bool
    manager: TimeManager


def near_end(position: Position) -> bool:
    """Whether the solver is tried: the game is not over and a time token
    is within ENDGAME_SPACES of the last space."""
    return not position.is_over and LAST_SPACE - min(position.time(0), position.time(1)) <= ENDGAME_SPACES


def plan(position: Position, manager: TimeManager, endgame_solve: bool = True) -> Plan:
    """The :class:`Plan` of a search of ``position`` (not over) by the
    engine of ``manager``, the search's time manager (its limits checked
    for the engine); ``endgame_solve=False``: no solver at all."""
    engine = manager.engine
    solver_ = None
    if endgame_solve and near_end(position):
        solver_ = "beside" if _beside(manager) else "first"
    return Plan(engine, solver_, endgame_solve and TRAITS[engine].hand_over, manager)


def run(plan_: Plan, position: Position, options: dict, module: ModuleType) -> SearchResult:
    """``module``'s search of ``position`` (not over) with the solver as
    ``plan_`` says: beside it, or first (its proof bounding what the
    engine reports while it searches), then the hand-over, and a proven
    win kept; every share asked of the plan's time manager."""
    manager = plan_.manager
    proof = None
    if plan_.solver == "beside":
        result, proof = _solver_beside(position, manager, options, module)
        return keep_the_win(position, result, proof)
    if plan_.solver == "first":
        solved_, proof = _solver_first(position, manager)
        if solved_ is not None:
            return solved_
        report = options.get("on_iteration")
        if proof is not None and report is not None:  # progress says no more than the answer
            options["on_iteration"] = lambda r: report(within_proof(r, proof))
    limits, threads = manager.engine_share()
    t_engine = _time.perf_counter()
    result = module.run(position, limits, options, **_threads(plan_.engine, threads))
    if plan_.hand_over and not stop_requested():
        table = proof and proof.table  # the solver's table, searched on
        used = _time.perf_counter() - t_engine
        result = hand_over(position, result, manager, used, table)
    return keep_the_win(position, result, proof)


def _threads(engine: str, threads: int) -> dict:
    """The keywords that hand ``engine``'s run the ``threads`` its budget
    counted, if it takes them (``Traits.threads``)."""
    return {"threads": threads} if TRAITS[engine].threads else {}


def endgame_shortcut(
    position: Position, limits: Limits, engine: str
) -> tuple[SearchResult | None, Limits, Proof | None]:
    """The solver first. (The proven answer, limits, None) when the solver
    finds it within its share of the budget, else (None, the limits left
    for the engine, what was proven: a :class:`~patchsolve.search.proof.Proof`
    with the solver's table for the alpha-beta's hand-over). Under a node
    budget alone the solver's nodes are its own (``budget.apart``): the
    engine keeps its whole budget. (A search asks its own time manager:
    :func:`run`.)"""
    manager = TimeManager(limits, engine)
    solved_, proof = _solver_first(position, manager)
    return solved_, manager.engine_rest(), proof


def _solver_first(position: Position, manager: TimeManager) -> tuple[SearchResult | None, Proof | None]:
    """The solver first within the share ``manager`` gives it: (the proven
    answer, None), or (None, what was proven), the engine's share then
    ``manager.engine_share()``."""
    traits = TRAITS[manager.engine]
    limits = manager.limits
    t0 = _time.perf_counter()
    # the solver's threads follow the alpha-beta's (every core under a time
    # limit unless workers says otherwise); the MCTS gets one thread
    within, threads = manager.solver_first(limits.workers if traits.shares else 1)
    # the alpha-beta's hand-over searches on in the same table: what is proven here stays
    # proven there (benchmarks/results/best_choice/, round 3)
    table = solver.new_table(hash_mb=within.hash_mb, threads=threads) if traits.shares else None
    ranked = (limits.multipv or 1) > 1
    r, decided = ask(position, within, ranked, table)
    if decided:
        return solved(position, r, limits, manager.engine), None
    kept = manager.solver_spent(_time.perf_counter() - t0, r.nodes, r.proven == "win")
    # what the solver proved of each root move bounds the engine's rows
    rows = proven_rows(position, r) if ranked else None
    return None, Proof.of(r, move=winning_move(r), reserve=kept, table=table, nodes=r.nodes, rows=rows)


def beside(engine: str, limits: Limits) -> bool:
    """Whether the solver runs beside the search rather than before it: an
    engine that can (the alpha-beta), a time limit alone (a node or depth
    budget stays deterministic) under ``budget.BESIDE_MAX_TIME``, one move
    asked for, and at least two threads. With a second, the hand-over's
    questions on the first solver's table prove more than one thread beside
    the search for the whole move (the perfect-play set on two threads:
    0.471 -> 0.353 points a move at 1 s, 0.392 -> 0.275 at 2 s, level at
    0.25 and 0.5 s; benchmarks/results/best_choice/, round 3); under it the
    solver beside proves more (benchmarks/results/solver_beside.md)."""
    return _beside(TimeManager(limits, engine))


def _beside(manager: TimeManager) -> bool:
    """:func:`beside` of the search ``manager`` manages (its threads
    counted once)."""
    limits = manager.limits
    return (
        TRAITS[manager.engine].beside
        and limits.time is not None
        and limits.time < budget.BESIDE_MAX_TIME
        and limits.nodes is None
        and limits.depth is None
        and (limits.multipv or 1) == 1
        and manager.threads >= 2
    )


def solver_beside(
    position: Position, limits: Limits, options: dict, module: ModuleType, threads: int | None = None
) -> tuple[SearchResult, Proof | None]:
    """(result, proof) of the solver on one thread beside ``module``'s
    search on the others (``threads`` in all, by default the alpha-beta's),
    both for the move time less the reserve that tests the engine's move
    when only a win is proven. A value the solver proves with its move is
    the answer (the search is halted then); else the engine's answer, with
    what was proven for ``proof.keep_the_win``. (A search asks its own
    time manager: :func:`run`.)"""
    return _solver_beside(position, TimeManager(limits, "alphabeta", threads), options, module)


def _solver_beside(
    position: Position, manager: TimeManager, options: dict, module: ModuleType
) -> tuple[SearchResult, Proof | None]:
    """:func:`solver_beside` with the shares of ``manager``."""
    t0 = _time.perf_counter()
    within, engine_limits, threads = manager.beside()
    lock = threading.Lock()
    box: dict = {}

    def on_searcher(searcher: Any) -> None:
        with lock:
            box["searcher"] = searcher
            if "solved" in box and decides(box["solved"]):
                searcher.interrupt()

    def solve() -> None:
        try:
            # one thread, as the budget said (its table made for it: the run need not count them)
            r, _ = ask(position, within, False, solver.new_table(hash_mb=within.hash_mb, threads=1))
        except BaseException as e:  # re-raised in the caller's thread
            box["error"] = e
            return
        with lock:
            box["solved"] = r
            if decides(r) and "searcher" in box:
                box["searcher"].interrupt()

    thread = threading.Thread(target=solve, name="patchsolve-solver", daemon=True)
    thread.start()
    try:
        result = module.run(
            position, engine_limits, options, on_searcher, **_threads(manager.engine, threads - 1)
        )
    finally:
        thread.join()
    if "error" in box:
        raise box["error"]
    r = box["solved"]
    if decides(r):
        r.engine = "alphabeta"
        r.seed = manager.limits.seed
        r.workers = threads
        return r, None
    result.nodes += r.nodes
    result.workers = threads
    return result, Proof.of(r, move=winning_move(r), reserve=manager.left_after(_time.perf_counter() - t0))


__all__ = [
    "Plan",
    "Traits",
    "TRAITS",
    "plan",
    "run",
    "near_end",
    "endgame_shortcut",
    "beside",
    "solver_beside",
    "ENDGAME_SPACES",
]
