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
from patchsolve.search.handover import hand_over
from patchsolve.search.limits import Limits, threads_for
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
    get here, so its solver gets one thread), and can run with the solver
    beside it (``beside``: its ``run`` takes ``on_searcher``)."""

    hand_over: bool
    shares: bool
    beside: bool


TRAITS = {
    "alphabeta": Traits(hand_over=True, shares=True, beside=True),
    "mcts": Traits(hand_over=False, shares=False, beside=False),
}


@dataclass(frozen=True)
class Plan:
    """How a search runs with the solver: ``solver`` "first", "beside" or
    None (not near the end, or the solver off); whether the engine's
    answer is handed over to the solver (``hand_over``); ``engine`` the
    engine's name, and ``threads`` its threads when the solver runs
    beside it (one of them the solver's), else None."""

    engine: str
    solver: str | None
    hand_over: bool
    threads: int | None = None


def near_end(position: Position) -> bool:
    """Whether the solver is tried: the game is not over and a time token
    is within ENDGAME_SPACES of the last space."""
    return not position.is_over and LAST_SPACE - min(position.time(0), position.time(1)) <= ENDGAME_SPACES


def plan(position: Position, engine: str, limits: Limits, endgame_solve: bool = True) -> Plan:
    """The :class:`Plan` of a search of ``position`` (not over) by
    ``engine`` within ``limits`` (checked for it); ``endgame_solve=False``:
    no solver at all."""
    solver_, threads = None, None
    if endgame_solve and near_end(position):
        solver_ = "first"
        if beside(engine, limits):
            solver_, threads = "beside", threads_for(limits, engine)
    return Plan(engine, solver_, endgame_solve and TRAITS[engine].hand_over, threads)


def run(plan_: Plan, position: Position, limits: Limits, options: dict, module: ModuleType) -> SearchResult:
    """``module``'s search of ``position`` (not over) with the solver as
    ``plan_`` says: beside it, or first (its proof bounding what the
    engine reports while it searches), then the hand-over, and a proven
    win kept."""
    proof = None
    if plan_.solver == "beside":
        result, proof = solver_beside(position, limits, options, module, plan_.threads)
        return keep_the_win(position, result, proof)
    if plan_.solver == "first":
        solved_, limits, proof = endgame_shortcut(position, limits, plan_.engine)
        if solved_ is not None:
            return solved_
        report = options.get("on_iteration")
        if proof is not None and report is not None:  # progress says no more than the answer
            options["on_iteration"] = lambda r: report(within_proof(r, proof))
    t_engine = _time.perf_counter()
    result = module.run(position, limits, options)
    if plan_.hand_over and not stop_requested():
        table = proof and proof.table  # the solver's table, searched on
        used = _time.perf_counter() - t_engine
        result = hand_over(position, result, limits, used, table)
    return keep_the_win(position, result, proof)


def endgame_shortcut(
    position: Position, limits: Limits, engine: str
) -> tuple[SearchResult | None, Limits, Proof | None]:
    """The solver first. (The proven answer, limits, None) when the solver
    finds it within its share of the budget, else (None, the limits left
    for the engine, what was proven: a :class:`~patchsolve.search.proof.Proof`
    with the solver's table for the alpha-beta's hand-over). Under a node
    budget alone the solver's nodes are its own (``budget.apart``): the
    engine keeps its whole budget."""
    traits = TRAITS[engine]
    own = budget.apart(limits)
    # the solver's threads follow the alpha-beta's (every core under a time
    # limit unless workers says otherwise); the MCTS gets one thread
    part = budget.solver_first(limits, own, limits.workers if traits.shares else 1)
    t0 = _time.perf_counter()
    # the alpha-beta's hand-over searches on in the same table: what is proven here stays
    # proven there (benchmarks/results/best_choice/, round 3)
    within = budget.solver_limits(limits, part)
    table = solver.new_table(within) if traits.shares else None
    r, decided = ask(position, within, (limits.multipv or 1) > 1, table)
    if decided:
        return solved(position, r, limits, engine), limits, None
    kept = budget.reserve(limits) if r.proven == "win" else {}
    left = budget.engine_rest(limits, _time.perf_counter() - t0, r.nodes, kept, own)
    # what the solver proved of each root move bounds the engine's rows
    rows = proven_rows(position, r) if (limits.multipv or 1) > 1 else None
    proof = Proof.of(r, move=winning_move(r), reserve=kept, table=table, nodes=r.nodes, rows=rows)
    return None, (limits.replace(**left) if left else limits), proof


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
    return (
        TRAITS[engine].beside
        and limits.time is not None
        and limits.time < budget.BESIDE_MAX_TIME
        and limits.nodes is None
        and limits.depth is None
        and (limits.multipv or 1) == 1
        and threads_for(limits, engine) >= 2
    )


def solver_beside(
    position: Position, limits: Limits, options: dict, module: ModuleType, threads: int | None = None
) -> tuple[SearchResult, Proof | None]:
    """(result, proof) of the solver on one thread beside ``module``'s
    search on the others (``threads`` in all, by default the alpha-beta's),
    both for the move time less the reserve that tests the engine's move
    when only a win is proven. A value the solver proves with its move is
    the answer (the search is halted then); else the engine's answer, with
    what was proven for ``proof.keep_the_win``."""
    if threads is None:
        threads = threads_for(limits, "alphabeta")
    t0 = _time.perf_counter()
    share = budget.beside_time(limits)
    lock = threading.Lock()
    box: dict = {}

    def on_searcher(searcher: Any) -> None:
        with lock:
            box["searcher"] = searcher
            if "solved" in box and decides(box["solved"]):
                searcher.interrupt()

    def solve() -> None:
        try:
            r, _ = ask(position, budget.solver_limits(limits, {"time": share, "workers": 1}), False)
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
        result = module.run(position, limits.replace(time=share, workers=threads - 1), options, on_searcher)
    finally:
        thread.join()
    if "error" in box:
        raise box["error"]
    r = box["solved"]
    if decides(r):
        r.engine = "alphabeta"
        r.seed = limits.seed
        r.workers = threads
        return r, None
    result.nodes += r.nodes
    result.workers = threads
    left = budget.left_after(limits, _time.perf_counter() - t0)
    return result, Proof.of(r, move=winning_move(r), reserve=left)


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
