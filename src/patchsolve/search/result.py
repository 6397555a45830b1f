"""What every searcher returns, and the conventions all engines share.

``score`` is the final score margin (own score minus the opponent's) for the
player to move in the searched position, also on a finished position (where
``Position.to_move`` names the player it is for). ``bound`` says what kind
of number it is: "exact" (proven), "lower"/"upper" (a proven bound), or
"estimate". ``proven`` is "win" or "loss" once the outcome for the player to
move is proven (by the exact solver or the MCTS-solver), else None.
``win_probability`` is the chance that the player to move wins: the MCTS's
win rate, or for an alpha-beta estimate the calibration fitted on the
outcomes of self-play games (``data/win_probability.json``, fitted and
judged by ``patchsolve.arena.calibration``): a logistic curve in the score whose
steepness grows as the game nears its end (the same lead is surer late), so
the two engines report on one scale. ``root_moves`` lists root moves best
first, each a dict with ``move``, ``score``, ``bound``, ``win_probability``,
``proven`` and ``visits`` (None for alpha-beta).
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, TypedDict, cast

from patchsolve.rules.patches import LAST_SPACE

if TYPE_CHECKING:
    from patchsolve.rules.position import Move, Position

CALIBRATION_FILE = "win_probability.json"


class _RootMoveKeys(TypedDict):
    move: Any  # a Move (Any: the rules module imports this one)
    score: float | None
    bound: str
    win_probability: float | None
    proven: str | None
    visits: int | None


class RootMove(_RootMoveKeys, total=False):
    """One ranked root move of a :class:`SearchResult` (``root_moves``):
    every engine's keys -- ``move``, ``score`` (a margin for the player to
    move), ``bound`` ("exact", "lower", "upper", "estimate"),
    ``win_probability``, ``proven`` ("win", "loss" or None), ``visits`` (the
    MCTS's; None elsewhere) -- and those only some engines give."""

    depth: int
    """The alpha-beta iteration the row comes from."""
    pv: list
    """The line of moves, this one first."""
    included: bool
    """A move valued because it was asked for (``include``), not ranked in."""
    lower: float | None
    """A proven lower bound of the move's value (the solver's)."""
    upper: float | None
    """A proven upper bound of the move's value (the solver's)."""
    group: int | None
    """The patch a solver's row stands for."""
    value: float | None
    """The MCTS's mean value."""
    choice_visits: int | None
    """The MCTS's visits of the move's choice."""
    choice: Any
    """What the move chooses: a patch id, ``"walk"`` or ``"leather"`` (choice_first)."""
    kind: str
    """``"choice"`` (the best row of its choice) or ``"placement"`` (choice_first)."""


class SolveProgress(TypedDict):
    """One progress report of the exact solver (``solve(..., progress=f)``
    calls ``f`` with one about once a second). Bounds and test values are
    margins in points for the player to move, as in the result, whichever
    search runs (the exact one or the win/loss pass)."""

    nodes: int
    """Nodes searched so far by this solve."""
    time: float
    """Seconds since the solve started."""
    nps: float
    """Nodes a second so far (0.0 before any time has passed)."""
    lower: int
    """The proven lower bound of the margin so far."""
    upper: int
    """The proven upper bound of the margin so far."""
    gamma: int
    """The running null-window test: it proves the margin at least ``gamma``, or less."""
    steps: int
    """The null-window tests run so far."""
    wdl: bool
    """A win/loss search runs (``wdl=True``, or the win/loss pass before the exact search)."""
    move: str | None
    """The root move being valued (``all_moves``, ``best``), as move text; None otherwise."""


def phase_of(position: Position) -> int:
    """The phase of a position: both players' spaces left to the last
    space (106 at the start, 0 at the end)."""
    return 2 * LAST_SPACE - position.time(0) - position.time(1)


@lru_cache(maxsize=1)
def _calibration() -> tuple[float, float, float, float, float, float]:
    """The shipped calibration's coefficients and scales."""
    data = json.loads((resources.files("patchsolve") / "data" / CALIBRATION_FILE).read_text(encoding="utf-8"))
    c = data["coef"]
    return (
        float(c["intercept"]),
        float(c["phase"]),
        float(c["score"]),
        float(c["score_x_phase"]),
        float(data["score_scale"]),
        float(data["phase_scale"]),
    )


def win_probability_of(score: float, phase: float) -> float:
    """P(the player to move wins) of an estimated margin ``score`` (points,
    for the player to move) at ``phase`` (both players' spaces left,
    :func:`phase_of`), by the shipped calibration."""
    c0, c_phase, c_score, c_cross, score_scale, phase_scale = _calibration()
    s, t = score / score_scale, phase / phase_scale
    z = c0 + c_phase * t + (c_score + c_cross * t) * s
    return 0.5 * (1.0 + math.tanh(0.5 * z))  # the logistic curve, without overflow


@dataclass
class SearchResult:
    """The answer of a search, shared by all engines (see the module doc).
    Every value is for the player to move in the searched position.

    >>> import patchsolve as ps
    >>> start = ps.Position.start(seed=0)
    >>> r = ps.search(start, depth=3)
    >>> r.bound, r.depth, r.engine, r.best_move == r.pv[0], r.best_move in start.legal_moves()
    ('estimate', 3, 'alphabeta', True, True)
    >>> again = ps.search(start, depth=3)  # a depth or node budget: the same answer each time
    >>> (again.best_move, again.score, again.pv) == (r.best_move, r.score, r.pv)
    True
    """

    best_move: Any  # patchsolve.Move (None only for a finished game)
    """The move to play, a :class:`~patchsolve.Move`; None only for a finished game."""
    score: float
    """The final score margin (own score minus the opponent's) that the
    search expects for the player to move, in points; ``bound`` says what
    kind of number it is."""
    bound: str = "estimate"
    """``"exact"`` (proven), ``"lower"`` (proven: the margin is at least
    ``score``), ``"upper"`` (proven: at most ``score``) or ``"estimate"``
    (the evaluation at the search's horizon)."""
    pv: list = field(default_factory=list)
    """The principal variation: the line of moves the search expects,
    starting with ``best_move``."""
    depth: int = 0
    """The plies the alpha-beta completed (the last finished iteration);
    for the solver, the length of the proven line; 0 for the MCTS."""
    nodes: int = 0
    """The positions the search visited (alpha-beta, solver) or created (MCTS)."""
    time: float = 0.0
    """Seconds of wall time the search took."""
    nps: float = 0.0
    """Nodes a second (``nodes / time``)."""
    seed: int | None = None
    """The seed the search ran with (None when none was given to an engine that needs none)."""
    engine: str = ""
    """Which engine answered: ``"alphabeta"``, ``"mcts"``, ``"solve"``, ``"solve-wdl"``, ..."""
    iterations: int | None = None  # MCTS
    """The MCTS's iterations; None for the other engines."""
    win_probability: float | None = None  # for the player to move
    """The chance, 0..1, that the player to move wins: the MCTS's win rate,
    the calibrated chance of the alpha-beta's estimate (module doc), 0 or 1
    once proven; None where unknown."""
    root_moves: list[RootMove] = field(default_factory=list)  # best first
    """The ranked root moves, best first (with ``multipv``, the MCTS's
    visited moves, the solver's ``all_moves``): :class:`RootMove` records
    (dicts) with ``move``, ``score``, ``bound``, ``win_probability``,
    ``proven`` and ``visits``, and the keys only some engines give."""
    proven: str | None = None  # "win" / "loss" for the player to move
    """``"win"`` or ``"loss"`` once the outcome for the player to move is
    proven (by the exact solver or the MCTS-solver), else None."""
    interrupted: bool = False  # stopped by Ctrl-C / request_stop()
    """True when Ctrl-C or :func:`~patchsolve.request_stop` stopped the
    search: the result is its best so far."""
    lower: float | None = None  # proven bounds on score, where known
    """A proven lower bound of the margin, where one is known (the solver's interval)."""
    upper: float | None = None
    """A proven upper bound of the margin, where one is known."""
    workers: int | None = None  # threads (alpha-beta, solver) / processes (MCTS) that searched
    """The threads (alpha-beta, solver) or processes (MCTS) that searched."""
    proven_best: bool = False  # best_move is proven best, or among the best (the solver's best=True)
    """True when ``best_move`` is proven best, or among the best (the solver's ``best=True``)."""
    threshold: int | None = None  # the solver's at_least=K: K ...
    """The solver's ``at_least=K`` question: K (else None)."""
    at_least: bool | None = None  # ... and the answer: the margin is >= K (None: not proven either way)
    """The answer to ``at_least=K``: True (the margin is at least K), False,
    or None (not proven either way within the budget)."""

    def to_dict(self) -> dict:
        """The result as a JSON-ready dict (moves as text)."""
        return {
            "engine": self.engine,
            "best_move": None if self.best_move is None else str(self.best_move),
            "score": self.score,
            "bound": self.bound,
            "proven": self.proven,
            "lower": self.lower,
            "upper": self.upper,
            "win_probability": self.win_probability,
            "pv": [str(m) for m in self.pv],
            "depth": self.depth,
            "nodes": self.nodes,
            "time": self.time,
            "nps": self.nps,
            "seed": self.seed,
            "iterations": self.iterations,
            "interrupted": self.interrupted,
            "workers": self.workers,
            "proven_best": self.proven_best,
            "threshold": self.threshold,
            "at_least": self.at_least,
            "root_moves": [row_dict(d) for d in self.root_moves],
        }


def row_dict(row: Mapping[str, Any]) -> dict:
    """A ranked row as JSON-ready values (moves as text)."""
    return {
        k: (str(v) if k == "move" else [str(m) for m in v] if k == "pv" and v is not None else v)
        for k, v in row.items()
    }


BOUND_ORDER = {"exact": 0, "lower": 1, "estimate": 2, "upper": 3}


OUTCOME_ORDER = {"win": 0, None: 1, "loss": 2}


def rank_key(row: Mapping[str, Any]) -> tuple:
    """The order of ranked rows (``root_moves``) of every engine but the
    MCTS, best first: by the score shown -- a bound's is the bound, shown
    as one -- and among equal scores the surest first (exact, at least,
    estimate, at most), so the scores read in order; among rows still equal
    a proven win first and a proven loss last (a margin of 0 is a win or a
    loss by who reached 53 first, never a draw)."""
    return -row["score"], BOUND_ORDER[row["bound"]], OUTCOME_ORDER[row.get("proven")]


def choice_of(move: Move) -> int | str:
    """What ``move`` chooses, whatever its placement: its patch id, or
    "walk", or "leather"."""
    return move.patch if move.patch is not None else move.kind


def choice_first(position: Position, rows: list[RootMove], keep: Collection[Any] = ()) -> list[RootMove]:
    """Ranked rows (best first, as an engine ranks them) ordered choice
    first: the best row of each choice -- walking, each patch, the leather
    patch -- marked ``kind="choice"``, in their order; then the further
    placements of a choice already listed, ``kind="placement"``, in
    theirs. A placement whose quilt is a mirror image or rotation of a row
    above it (the same position up to symmetry, so the same value;
    :mod:`patchsolve.rules.symmetry`) is shown once, unless its move is in
    ``keep`` (a move asked about: ``include``, the move a review judges).
    Every row gets ``choice``."""
    from patchsolve.rules.symmetry import canonical

    mover = position.to_move
    base = position.quilt(mover) if not position.is_over else 0
    firsts: list[RootMove] = []
    rest: list[RootMove] = []
    seen_choice, seen_quilt = set(), set()
    for row in rows:
        move = row["move"]
        choice = choice_of(move)
        if move.kind != "walk":
            image = (choice, canonical(base | move.mask))
            if image in seen_quilt and move not in keep:
                continue
            seen_quilt.add(image)
        marked: RootMove = {**row, "choice": choice, "kind": "placement"}
        if choice in seen_choice:
            rest.append(marked)
        else:
            seen_choice.add(choice)
            marked["kind"] = "choice"
            firsts.append(marked)
    return firsts + rest


def root_move(
    move: Any,
    score: float | None,
    bound: str = "estimate",
    win_probability: float | None = None,
    proven: str | None = None,
    visits: int | None = None,
    phase: float | None = None,
    **extra: Any,
) -> RootMove:
    """One entry of ``SearchResult.root_moves`` with every engine's keys
    (an estimate's win probability needs the root's ``phase``)."""
    if win_probability is None and score is not None:
        if proven is not None:
            win_probability = float(proven == "win")
        elif phase is not None:
            win_probability = win_probability_of(score, phase)
    unknown = set(extra) - set(RootMove.__annotations__)
    if unknown:  # a key no reader knows of is a typo
        raise TypeError(f"root_move: unknown keys {sorted(unknown)}")
    return cast(
        RootMove,
        {
            "move": move,
            "score": score,
            "bound": bound,
            "win_probability": win_probability,
            "proven": proven,
            "visits": visits,
            **extra,
        },
    )


def finished_result(position: Position, engine: str, seed: int | None = None) -> SearchResult:
    """A finished game: its margin for ``position.to_move``, proven."""
    a, b = position.scores()
    me = position.to_move
    margin = (a - b) if me == 0 else (b - a)
    won = position.winner() == me
    return SearchResult(
        None,
        margin,
        "exact",
        seed=seed,
        engine=engine,
        win_probability=1.0 if won else 0.0,
        proven="win" if won else "loss",
        lower=margin,
        upper=margin,
    )


__all__ = [
    "SearchResult",
    "RootMove",
    "SolveProgress",
    "phase_of",
    "win_probability_of",
    "root_move",
    "finished_result",
    "choice_first",
    "choice_of",
    "row_dict",
]
