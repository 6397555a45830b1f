"""What the solver proved near the end (a :class:`Proof`), and how it is
merged into an engine's answer.

The solver's values order by the margin and then by who wins (a margin of
0 is won by who reached 53 first: ``_solver.pyx``, "Values"), so its rows,
and the moves it proves, do too. A proof of who wins still decides: the
engine's move is played only if it is proven to keep the win (a win/loss
test of that move within the reserve), otherwise a move the solver proved
to win is played (:func:`keep_the_win`). Ranked moves (``multipv``) come
from the solver's value of every root move when it settles them all
(:func:`settled`); otherwise the engine's rows are kept within what it
proved of each move (:func:`within_proof`, ``_rank_within``). The same
merging bounds what the engine reports while it searches.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from patchsolve.rules.position import Move, Position
from patchsolve.search import budget, questions
from patchsolve.search.limits import Limits
from patchsolve.search.questions import row_units
from patchsolve.search.result import RootMove, SearchResult, phase_of, rank_key, root_move


@dataclass(frozen=True)
class Proof:
    """What the solver proved of a position when it did not decide it:
    ``proven`` ("win", "loss" or None) and the margin's bounds (``lower``,
    ``upper``), a ``move`` proven to win (or None), the ``reserve`` kept
    back to test the engine's move (a share of the budget: ``time``,
    ``nodes``), the solver's
    ``table`` (searched on by the hand-over; None for the MCTS), the
    solver's ``nodes`` (counted in the answer's) and, ranked, what it
    proved of each root move (``rows``, by move)."""

    proven: str | None
    lower: float | None
    upper: float | None
    move: Move | None = None
    reserve: dict = field(default_factory=dict)
    table: Any = None
    nodes: int = 0
    rows: dict | None = None

    @classmethod
    def of(cls, r: SearchResult, **more: Any) -> Proof:
        """The proof in the solver's result ``r`` (who wins, the margin's
        bounds), with ``more`` fields."""
        return cls(r.proven, r.lower, r.upper, **more)


def decides(r: SearchResult) -> bool:
    """The solver's result is the answer: an exact value and a move proven
    to keep it."""
    return r.bound == "exact" and bool(r.proven_best)


def winning_move(r: SearchResult) -> Move | None:
    """A root move the solver's result proves to win, or None."""
    return next((d["move"] for d in r.root_moves or () if d["proven"] == "win"), None)


def ask(position: Position, within: Limits, ranked: bool, table: Any = None) -> tuple[SearchResult, bool]:
    """(The solver's run ``within`` its limits -- on ``table`` if given --
    for the answer a search asks for, whether it decides). Ranked moves
    (``ranked``: multipv > 1) come from its value of every root move and
    need every row settled; one move needs an exact value with a move
    proven to keep it."""
    r = questions.ask(position, within, {"all_moves": ranked}, table)
    return r, r.bound == "exact" and (settled(r.root_moves) if ranked else decides(r))


def solved(position: Position, r: SearchResult, limits: Limits, engine: str) -> SearchResult:
    """The solver's deciding result ``r`` as the engine's answer; ranked,
    the move played first among equals, then as many rows as asked, with
    every engine's keys."""
    r.engine = engine
    r.seed = limits.seed
    if (limits.multipv or 1) > 1:
        rows = sorted(r.root_moves, key=lambda d: d["move"] != r.best_move)
        rows = sorted(rows, key=rank_key)[: limits.multipv]
        r.root_moves = [row(position, d) for d in rows]
    return r


def proven_rows(position: Position, r: SearchResult) -> dict:
    """The solver's rows of ``r``, by move, with every engine's keys: what it
    proved of each root move (a :class:`Proof`'s ``rows``)."""
    return {d["move"]: row(position, d) for d in r.root_moves}


def row(position: Position, d: Mapping[str, Any]) -> RootMove:
    """A solver's row with every engine's keys."""
    return root_move(
        d["move"],
        d["score"],
        d["bound"],
        proven=d["proven"],
        lower=d["lower"],
        upper=d["upper"],
        phase=phase_of(position),
    )


def settled(rows: list[RootMove]) -> bool:
    """Whether the solver's ``all_moves`` rows are final: each exact (its
    margin and who wins), or shown worth less than its patch's best
    placement (the budget cut none short), so the best is proven and each
    row says what is proven of it (a row "at most 3" may rank above an
    exact 1: ``rank_key``). Compared by margin and then by who wins
    (``questions.row_units``)."""
    units = [row_units(d) for d in rows]
    best: dict = {}
    for d, (lo, hi) in zip(rows, units):
        if lo >= hi:
            best[d["group"]] = max(best.get(d["group"], lo), lo)
    return all(lo >= hi or hi < best.get(d["group"], hi) for d, (lo, hi) in zip(rows, units))


def keep_the_win(position: Position, result: SearchResult, proof: Proof | None) -> SearchResult:
    """``result`` (the engine's, on ``position``) with what the solver
    proved (:func:`within_proof`) and -- when a win is proven -- a move that
    keeps it: the engine's if it is proven to win (a win/loss test within
    the reserve, ``proof.reserve``), else the solver's winning move (its
    line: that move alone). When the solver proved the win but no move for
    it, half the reserve tests the engine's move and the other half looks
    for a winning move (a win/loss solve of the position). The solver's
    nodes count in the answer's."""
    if proof is None:
        return result
    result.nodes += proof.nodes
    within_proof(result, proof)
    win = proof.move
    if proof.proven != "win" or result.best_move is None or result.best_move == win:
        return result
    if _proven_to_win(result):
        return result
    if win is None:
        half = budget.halves(proof.reserve)
        if _wins(position, result.best_move, half):
            return result
        win = _winning_move_of(position, half)
        if win is None or win == result.best_move:
            return result
    elif _wins(position, result.best_move, proof.reserve):
        return result
    result.best_move, result.pv = win, [win]
    if result.bound != "estimate":  # what was proven was of the root or of the move replaced
        result.bound, result.proven_best = "estimate", False
    result.root_moves = [
        root_move(
            win, result.score, result.bound, 1.0, proven="win", lower=result.lower, phase=phase_of(position)
        )
    ]
    return result


def _proven_to_win(result: SearchResult) -> bool:
    """``result``'s move is proven to win: it keeps an exact value that wins
    (the hand-over's answer: exact, its move proven, and the outcome a win
    -- a margin of 0 included when its tie-break is won), or its row says
    the move itself is a proven win (the hand-over's choice proof). It is
    kept with no test. (Testing it again within the reserve could run out
    of time and swap it for a move that wins by less:
    benchmarks/results/best_choice/, round 3.)"""
    if result.bound == "exact" and result.proven_best and result.proven == "win":
        return True
    return any(d["move"] == result.best_move and d.get("proven") == "win" for d in result.root_moves)


def within_proof(result: SearchResult, proof: Proof) -> SearchResult:
    """``result`` kept within what the solver proved (in place, and
    returned): ranked rows within each move's proven bounds
    (``_rank_within``), and once the outcome is proven, the outcome and the
    margin's bounds (the engine's estimate of the position moved into
    them). Also what the engine reports while it searches
    (``on_iteration``), so that progress and a stopped search say no more
    than the answer would."""
    if proof.rows:
        _rank_within(result, proof)
    if proof.proven is None:
        return result
    result.proven = proof.proven
    # what the result proved itself (the hand-over's exact value) stays: intersect
    # (mypy: a proven outcome comes with both bounds, so none of them is None here)
    result.lower = proof.lower if result.lower is None else max(result.lower, proof.lower)  # type: ignore[type-var]
    result.upper = proof.upper if result.upper is None else min(result.upper, proof.upper)  # type: ignore[type-var]
    result.score = min(max(result.score, result.lower), result.upper)  # type: ignore[type-var, assignment]
    result.win_probability = 1.0 if proof.proven == "win" else 0.0
    return result


def _rank_within(result: SearchResult, proof: Proof) -> None:
    """The engine's ranked rows (``result.root_moves``) kept within what
    the solver proved of each move (``proof.rows``): a proven value
    replaces the estimate, an estimate beyond a proven bound becomes that
    bound (its ``bound`` says which), and the solver's exact rows the
    engine did not rank join in; re-sorted, as many as before, the first
    row the answer."""
    known = proof.rows or {}
    rows: list[Any]  # RootMove rows, and the solver's rows changed (plain dicts)
    rows, seen = [], set()
    for d in result.root_moves:
        seen.add(d["move"])
        k = known.get(d["move"])
        if k is None:
            rows.append(d)
        elif k["lower"] >= k["upper"] or d["score"] > k["upper"]:
            rows.append({**k, "score": k["upper"], "bound": "exact" if k["lower"] >= k["upper"] else "upper"})
        elif d["score"] < k["lower"]:
            rows.append({**k, "score": k["lower"], "bound": "lower"})
        elif k["proven"]:  # the estimate stands, and the outcome is proven
            rows.append({**d, "lower": k["lower"], "upper": k["upper"], "proven": k["proven"]})
            rows[-1]["win_probability"] = k["win_probability"]
        else:
            rows.append({**d, "lower": k["lower"], "upper": k["upper"]})
    rows += [k for m, k in known.items() if m not in seen and k["lower"] >= k["upper"]]
    rows.sort(key=rank_key)
    keys = {k: None for d in rows for k in d}  # one set of keys for every row (None: not known)
    # mypy: a dict of every row's keys spread into a RootMove (None where a row lacks one)
    result.root_moves = [{**keys, **d} for d in rows[: max(1, len(result.root_moves))]]  # type: ignore[typeddict-item]
    top = rows[0]
    if top["move"] != result.best_move:
        result.best_move, result.pv = top["move"], [top["move"]]
    result.score = top["score"]
    # the first row keeps the root's exact value: its margin, and who wins (a win is the
    # most there is at that margin; a loss is the root's value once the root is proven lost)
    outcome = top.get("proven")
    if (
        top["bound"] == "exact"
        and proof.lower == proof.upper == top["score"]
        and outcome is not None
        and (outcome == "win" or proof.proven == outcome)
    ):
        result.bound, result.proven_best = "exact", True
        result.win_probability = top["win_probability"]


def _wins(position: Position, move: Move, kept: dict) -> bool:
    """``move`` is proven to win for ``position``'s player to move (within
    the reserve ``kept``, one thread: the test is small and runs alone)."""
    child = position.play(move)
    if child.is_over:
        return child.winner() == position.to_move
    r = questions.ask(child, budget.win_test(kept), {"wdl": True})
    return r.proven == ("win" if child.to_move == position.to_move else "loss")


def _winning_move_of(position: Position, kept: dict) -> Move | None:
    """A move of ``position`` proven to win for its player to move (a
    win/loss solve within the reserve ``kept``, one thread), or None."""
    r = questions.ask(position, budget.win_test(kept), {"wdl": True})
    return r.best_move if r.proven == "win" and r.depth > 0 else None  # depth: the proven line's length


__all__ = [
    "Proof",
    "decides",
    "winning_move",
    "ask",
    "solved",
    "proven_rows",
    "row",
    "settled",
    "keep_the_win",
    "within_proof",
]
