"""Game review: the engine's verdict on every move of a game.

One search per position of the game (the start and the position after each
move). A position's value is the engine's final-margin estimate, turned to
player 0's side; a finished position's value is its real margin. For the
player who moved, the move's loss is the value before it minus the value
after it, and 0 when the move is the engine's own choice (so search noise
does not charge the engine's move). A search that reports ``interrupted``
(Ctrl-C) ends the review with the moves reviewed so far. The CLI's ``analyze``, the review graph
(:mod:`patchsolve.review_svg`) and the web app all use :func:`analyze_game`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Callable

from patchsolve.errors import PatchsolveError
from patchsolve.search.result import win_probability_of


@dataclass(frozen=True)
class Verdict:
    """The engine on one position, from player 0's side."""

    margin0: float            # final margin of player 0 minus player 1
    win0: float               # player 0's chance to win
    best_move: str | None     # None on a finished position
    exact: bool


@dataclass(frozen=True)
class MoveReview:
    """One move of the game and what the engine thinks of it (values for the
    mover unless the name says player 0)."""

    number: int               # 1 for the first move
    player: int               # who moved
    position: str             # the position before the move (notation)
    move: str
    best_move: str | None     # the engine's choice in that position
    best_value: float         # the engine's value of the position (its best move), for the mover
    played_value: float       # the value after the move played, for the mover
    loss: float
    margin0: float            # player 0's margin after the move
    win0: float               # player 0's win probability after the move
    flag: str                 # "", "?" (loss > threshold) or "??" (> twice)

    def to_dict(self) -> dict:
        """The review of this move as a JSON-ready dict."""
        return asdict(self)


@dataclass
class GameReview:
    """The review of a game: the verdict on the start position, one
    :class:`MoveReview` per move reviewed, the threshold used and the final
    scores (``interrupted`` when a Ctrl-C stopped it early)."""

    start: Verdict
    moves: list[MoveReview]
    threshold: float
    final_scores: tuple[int, int]
    interrupted: bool = False     # stopped (Ctrl-C): ``moves`` are the first ones only

    def summary(self) -> list[dict]:
        """Per player: moves made, average loss, moves flagged ``?`` or ``??``, the
        worst move and the final score."""
        out = []
        for pl in (0, 1):
            mine = [m for m in self.moves if m.player == pl]
            worst = max(mine, key=lambda m: m.loss, default=None)
            out.append({"player": pl, "moves": len(mine),
                        "average_loss": sum(m.loss for m in mine) / len(mine) if mine else 0.0,
                        "flagged": sum(1 for m in mine if m.flag),
                        "blunders": sum(1 for m in mine if m.flag == "??"),
                        "worst": None if worst is None or worst.loss == 0 else
                        {"number": worst.number, "move": worst.move, "loss": worst.loss},
                        "final_score": self.final_scores[pl]})
        return out

    def mistakes(self) -> list[MoveReview]:
        """The moves flagged ``?`` or ``??``, in order."""
        return [m for m in self.moves if m.flag]

    def to_dict(self) -> dict:
        """The whole review as a JSON-ready dict (what ``patchsolve analyze --json`` prints)."""
        return {"threshold": self.threshold, "interrupted": self.interrupted, "start": asdict(self.start),
                "moves": [m.to_dict() for m in self.moves], "summary": self.summary()}


def verdict_of(pos, result) -> Verdict:
    """A search result on ``pos`` (or the real score of a finished ``pos``)."""
    if pos.is_over:
        s = pos.scores()
        return Verdict(float(s[0] - s[1]), 1.0 if pos.winner() == 0 else 0.0, None, True)
    sign = 1.0 if pos.to_move == 0 else -1.0
    margin0 = sign * float(result.score)
    wp = result.win_probability
    exact = result.bound == "exact"
    if exact and margin0 != 0:
        win0 = 1.0 if margin0 > 0 else 0.0   # proven: the winner is known
    elif wp is None:   # an engine that gives none: the contract's own conversion
        win0 = win_probability_of(margin0)
    else:
        win0 = float(wp) if pos.to_move == 0 else 1.0 - float(wp)
    best = None if result.best_move is None else str(result.best_move)
    return Verdict(margin0, win0, best, exact)


def flag_of(loss: float, threshold: float) -> str:
    """``"??"`` for a loss above twice the threshold, ``"?"`` above it, else ``""``."""
    return "??" if loss > 2 * threshold else "?" if loss > threshold else ""


def analyze_game(game, engine: str = "alphabeta", threshold: float = 5.0,
                 evaluate: Callable | None = None, **limits) -> GameReview:
    """Review every move of ``game``. ``evaluate(pos, k, n)`` searches
    position ``k`` of ``n`` and returns a SearchResult (default:
    ``patchsolve.search(pos, engine=engine, **limits)``); the CLI passes one
    that prints progress, the web app one that reports to its job."""
    if not (isinstance(threshold, (int, float)) and threshold >= 0) or isinstance(threshold, bool):
        raise PatchsolveError(f"threshold must be a number >= 0, not {threshold!r}")
    if evaluate is None:
        from patchsolve.search import search

        def evaluate(pos, k, n):
            return search(pos, engine=engine, **limits)

    positions = game.positions
    verdicts, interrupted = [], False
    for k, pos in enumerate(positions):
        result = None if pos.is_over else evaluate(pos, k, len(positions))
        if getattr(result, "interrupted", False):   # keep the moves reviewed so far
            interrupted = True
            break
        verdicts.append(verdict_of(pos, result))
    if not verdicts:
        raise PatchsolveError("interrupted before the first position was searched")
    moves = [_review(p, verdicts, threshold) for p in game.replay() if p.number < len(verdicts)]
    return GameReview(verdicts[0], moves, float(threshold), tuple(game.end.scores()), interrupted)


def _review(ply, verdicts, threshold) -> MoveReview:
    before, after = verdicts[ply.number - 1], verdicts[ply.number]
    sign = 1.0 if ply.player == 0 else -1.0
    best_value, played_value = sign * before.margin0, sign * after.margin0
    loss = 0.0 if before.best_move == str(ply.move) else max(0.0, best_value - played_value)
    return MoveReview(ply.number, ply.player, ply.before.to_text(), str(ply.move), before.best_move,
                      best_value, played_value, loss, after.margin0, after.win0, flag_of(loss, threshold))


__all__ = ["analyze_game", "GameReview", "MoveReview", "Verdict"]
