"""The hand-over: the alpha-beta's tree ended before its budget, and the
solver gets what is left.

When the alpha-beta's last iteration evaluated no leaf, every line of its
(pruned) tree ran to the end of the game, and it stops before its budget:
a deeper iteration would search the same tree again. What is left of the
budget then goes to the solver (:func:`hand_over`), whose answer is taken
only when it proves a move best. Near the end most of the alpha-beta's
losses against perfect play are of this kind: the pruned tree searched to
its end, its best move not the game's (benchmarks/results/end_placements/).
With one move asked for, the solver's tests of which choice is best
(walking, which patch: ``questions.choice_or_value``) take turns with the
value; a move of a choice proven better than the engine's replaces its
move (``_within_choice``; benchmarks/results/best_choice/). When the budget
runs out before that proof, what the tests left standing still counts
(``_left_standing``): a move of a choice proven worth at least what the
engine's can be, or the one choice not shown below the test value where
the engine's was (benchmarks/results/standing/).
"""

from __future__ import annotations

from typing import Any

from patchsolve.rules.position import Move, Position
from patchsolve.search import alphabeta, budget, questions
from patchsolve.search._alphabeta import ordered_moves
from patchsolve.search.budget import TimeManager
from patchsolve.search.limits import Limits
from patchsolve.search.proof import Proof, ask, decides, proven_rows, solved, within_proof
from patchsolve.search.result import (
    SearchResult,
    choice_of,
    finished_result,
    phase_of,
    root_move,
    win_probability_of,
)


def hand_over(
    position: Position, result: SearchResult, limits: Limits | TimeManager, used: float, table: Any = None
) -> SearchResult:
    """The solver's answer with what is left of ``limits`` when the engine
    (``result``, after ``used`` seconds) stopped before its budget and
    before its depth limit (its tree ended), if it proves a move best
    (searching on ``table``, the solver's tried first, when given; on the
    solver's threads: the engine's cores are free now); else, with one
    move asked for, the engine's answer within what the solver proved of
    the choices (``_within_choice``); ranked (``multipv``), the solver's
    rows when it settles them all, else the engine's rows within what it
    proved of each move. Otherwise ``result``. Only under a time or node
    budget. ``limits`` may be the search's time manager
    (:class:`~patchsolve.search.budget.TimeManager`): its engine's limits, and
    the share asked of it."""
    manager = limits if isinstance(limits, TimeManager) else TimeManager(limits, "solve")
    engine_limits = manager.engine_limits
    if result.bound == "exact" or (engine_limits.depth is not None and result.depth >= engine_limits.depth):
        return result
    part = manager.hand_over(used, result.nodes)
    if part is None:
        return result
    if (engine_limits.multipv or 1) > 1:
        r, decided = ask(position, manager.solver(part), True, table)
        if decided:
            return _instead(position, result, r, engine_limits)
        return within_proof(result, Proof.of(r, rows=proven_rows(position, r)))
    if result.best_move is None:
        return result
    # kept back for the engine's look at a choice left standing (``_left_standing``)
    budget.less_standing_check(part)
    # mypy: r, reused, is None here when the value did not close (checked below)
    r, choice, standing, nodes = questions.choice_or_value(  # type: ignore[assignment]
        position, manager.solver(part), result.best_move, int(round(result.score)), table
    )
    if r is not None and decides(r):
        return _instead(position, result, r, engine_limits)
    result.nodes += nodes
    if choice is not None:
        _within_choice(position, result, *choice)
    elif standing is not None:
        what, lower, below, at_most, proven = standing
        _left_standing(
            position,
            result,
            what,
            lower,
            below,
            at_most,
            engine_limits.seed,
            engine_limits.time is not None,
            proven,
        )
    return result


def _instead(position: Position, result: SearchResult, r: SearchResult, limits: Limits) -> SearchResult:
    """The solver's deciding result ``r`` in place of the engine's
    ``result``, with the engine's nodes, threads and depth (the depth its
    tree ended at, not the length of the solver's line: "depth 13" read as
    a shallow search)."""
    nodes, workers, depth = result.nodes, result.workers, result.depth
    r = solved(position, r, limits, result.engine)
    r.nodes += nodes
    r.workers = workers
    r.depth = depth
    return r


def _within_choice(
    position: Position, result: SearchResult, move: Move, lower: int, same: bool, proven: str | None = None
) -> None:
    """``result`` (the engine's, in place) kept within what the solver
    proved of the choices (``questions.ChoiceProof``): the value is at least
    ``lower``; when the engine's move's choice (walking, its patch, the
    leather patch) is not the best, ``move`` -- of the best choice, proven
    worth at least as much as any move of another choice, so also as the
    engine's -- is played instead. Where the engine's choice is the best
    its move stays (``same``): its placement is not proven, unless it lost
    where another placement of its choice wins (then that one is played).
    ``proven`` "win": the position is proven won, and the move played wins."""
    result.lower = lower if result.lower is None else max(result.lower, lower)
    if result.score < lower:
        result.score, result.bound = lower, "lower"
        result.win_probability = win_probability_of(lower, phase_of(position))
    if proven == "win":
        result.proven, result.win_probability = "win", 1.0
    if not same:
        result.best_move, result.pv = move, [move]
        result.root_moves = [
            root_move(
                move,
                result.score,
                result.bound,
                result.win_probability,
                proven=proven,
                lower=lower,
                phase=phase_of(position),
            )
        ]
    elif proven == "win":  # the engine's move is proven to win: its row says so
        result.root_moves = [
            {**d, "proven": "win", "win_probability": 1.0} if d["move"] == move else d
            for d in result.root_moves
        ]


def _left_standing(
    position: Position,
    result: SearchResult,
    what: Any,
    lower: int | None,
    below: int | None,
    at_most: int,
    seed: int | None = None,
    timed: bool = False,
    proven: str | None = None,
) -> None:
    """``result`` (the engine's, in place) after the choice tests ran out
    of budget with ``questions._ChoiceSearch.standing``'s answer: a move of
    another choice proven worth at least ``lower``, where the engine's is
    proven worth at most that (played as a proven choice is); or the one
    choice ``what`` not shown below ``below`` where the engine's was
    (walking, or the patch's placement the engine ranks first), its score
    then ``below``: an estimate, the value the tests found it alone may
    reach. That guess is played only if the engine itself, searching the
    move's child for ``budget.STANDING_CHECK_NODES``, does not value it
    below what its own move is proven worth at most (``at_most``): the
    tests had not yet shown a far worse choice below the test value
    (benchmarks/results/standing/). ``proven`` "win": ``lower`` proves that
    ``what`` wins."""
    if lower is not None:
        _within_choice(position, result, what, lower, False, proven)
        return
    # walking, or the placement of the patch the alpha-beta ranks first
    # (``ordered_moves``: one a patch, by the learned evaluation after it)
    moves = {m.code: m for m in position.legal_moves() if choice_of(m) == what}
    code = next((c for c in ordered_moves(position._c, 1, True) if c in moves), None)
    if code is None:
        return
    move = moves[code]
    value, nodes = _engine_value(position, move, seed, timed)
    result.nodes += nodes
    if value < at_most:
        return
    result.best_move, result.pv = move, [move]
    # mypy: a Standing without ``lower`` has ``below`` (never None here)
    result.score, result.bound = below, "estimate"  # type: ignore[assignment]
    result.win_probability = win_probability_of(below, phase_of(position))  # type: ignore[arg-type]
    result.root_moves = [root_move(move, below, "estimate", result.win_probability)]


def _engine_value(position: Position, move: Move, seed: int | None, timed: bool = False) -> tuple[float, int]:
    """The alpha-beta's value of ``move`` for the player to move (its
    search of the child within ``budget.standing_check``: a few nodes, one
    thread, and a few milliseconds when the move is ``timed``; a node
    budget alone stays deterministic), and the nodes searched."""
    child = position.play(move)
    if child.is_over:
        r = finished_result(child, "alphabeta", seed)
    else:
        r = alphabeta.run(child, budget.standing_check(seed, timed), alphabeta.check_options({}))
    return (r.score if child.to_move == position.to_move else -r.score), r.nodes


__all__ = ["hand_over"]
