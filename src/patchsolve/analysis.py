"""Game review: the engine's verdict on every move of a game.

One search per position of the game (the start and the position after each
move). A position's value is the engine's final-margin estimate, turned to
player 0's side; a finished position's value is its real margin. For the
player who moved, the move's loss is the value before it minus the value
after it, and 0 when the move is the engine's own choice (so search noise
does not charge the engine's move). A search that reports ``interrupted``
(Ctrl-C) ends the review with the moves reviewed so far. The CLI's ``analyze``, the review graph
(:mod:`patchsolve.review_svg`) and the web app all use :func:`analyze_game`.

**Judging a move.** Beside the points lost, each move gets the win
probability it lost (the mover's chance to win after the engine's best move
minus after the move played, never below 0; 0 for the engine's own move) and
a class:

- ``best``: the engine's own move, or no points lost;
- ``good``: lost less than 5 points of win probability;
- ``inaccuracy``: 5 to 10 points; ``mistake``: 10 to 20; ``blunder``: 20 or more.

Where the win probability is saturated (the mover's chance before the move
is above 97% or below 3%, so a lost point barely moves it) the class comes
from the points lost instead: ``inaccuracy`` from 3 points, ``mistake`` from
6, ``blunder`` from 12. A move is ``forced`` when it was the only legal move;
its class is ``best``. A loss is ``exact`` when the solver proved both
values it compares. Where the solver proved who wins before and after the
move (``proven_before``, ``proven_after``), a move that turns a proven win
into a proven loss is a ``blunder`` whatever the points: the chance it lost
is certain, not estimated.

**Accuracy** (per player, 0-100) follows lichess: each move scores
``103.1668 * exp(-0.04354 * L) - 3.1669`` (clipped to 0..100), ``L`` the win
probability lost in percent, so a perfect move scores 100 and a move that
loses 20 points of win probability about 40; the player's accuracy is the
mean of the arithmetic and the harmonic mean of those scores (the harmonic
mean weighs the bad moves). Forced moves are left out.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass

from patchsolve.errors import PatchsolveError, SearchInterrupted
from patchsolve.search.result import phase_of, win_probability_of


@dataclass(frozen=True)
class Verdict:
    """The engine on one position, from player 0's side."""

    margin0: float  # final margin of player 0 minus player 1
    win0: float  # player 0's chance to win
    best_move: str | None  # None on a finished position
    exact: bool
    winner: int | None = None  # the player proven to win (the solver's), else None


@dataclass(frozen=True)
class MoveReview:
    """One move of the game and what the engine thinks of it (values for the
    mover unless the name says player 0)."""

    number: int  # 1 for the first move
    player: int  # who moved
    position: str  # the position before the move (notation)
    move: str
    best_move: str | None  # the engine's choice in that position
    best_value: float  # the engine's value of the position (its best move), for the mover
    played_value: float  # the value after the move played, for the mover
    loss: float
    margin0: float  # player 0's margin after the move
    win0: float  # player 0's win probability after the move
    flag: str  # "", "?" (loss > threshold) or "??" (> twice)
    win_loss: float = 0.0  # win probability lost by the mover, 0..1
    judgement: str = "best"  # best, good, inaccuracy, mistake or blunder (see the module)
    forced: bool = False  # the only legal move
    exact: bool = False  # both values compared were proven by the solver
    accuracy: float = 100.0  # the move's accuracy score, 0..100
    proven_before: str | None = None  # "win"/"loss": the outcome proven for the mover before the move ...
    proven_after: str | None = None  # ... and after it (a proven win thrown away: "win" then "loss")

    def to_dict(self) -> dict:
        """The review of this move as a JSON-ready dict (``class`` is the judgement)."""
        d = asdict(self)
        d["class"] = d.pop("judgement")
        return d


CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")
WIN_LOSS_THRESHOLDS = (0.05, 0.10, 0.20)  # inaccuracy, mistake, blunder: win probability lost
POINT_THRESHOLDS = (3.0, 6.0, 12.0)  # the same, in points, where the win probability is saturated
SATURATED = 0.03  # a chance below 3% or above 97% is saturated


def judge(loss: float, win_loss: float, win_before: float, best: bool) -> str:
    """The class of a move that lost ``loss`` points and ``win_loss`` win
    probability, the mover's chance before it being ``win_before``."""
    if best or loss <= 0:
        return "best"
    saturated = win_before < SATURATED or win_before > 1 - SATURATED
    amount, thresholds = (loss, POINT_THRESHOLDS) if saturated else (win_loss, WIN_LOSS_THRESHOLDS)
    level = sum(1 for t in thresholds if amount >= t)
    return CLASSES[1 + level]


def move_accuracy(win_loss: float) -> float:
    """lichess's accuracy of one move from the win probability it lost (0..1)."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * 100.0 * win_loss) - 3.1669))


def game_accuracy(scores: list[float]) -> float | None:
    """The mean of the arithmetic and harmonic means of move accuracies."""
    if not scores:
        return None
    mean = sum(scores) / len(scores)
    harmonic = len(scores) / sum(1.0 / max(x, 1e-9) for x in scores)
    return (mean + harmonic) / 2


@dataclass
class GameReview:
    """The review of a game: the verdict on the start position, one
    :class:`MoveReview` per move reviewed, the threshold used and the final
    scores (``interrupted`` when a Ctrl-C stopped it early)."""

    start: Verdict
    moves: list[MoveReview]
    threshold: float
    final_scores: tuple[int, int]
    interrupted: bool = False  # stopped (Ctrl-C): ``moves`` are the first ones only

    def summary(self) -> list[dict]:
        """Per player: moves, average points and win probability lost, the
        accuracy, a count per class, the three biggest mistakes, the final score."""
        out = []
        for pl in (0, 1):
            mine = [m for m in self.moves if m.player == pl]
            judged = [m for m in mine if not m.forced]
            worst = max(mine, key=lambda m: m.loss, default=None)
            biggest = sorted((m for m in mine if m.loss > 0), key=lambda m: (-m.loss, m.number))[:3]
            accuracy = game_accuracy([m.accuracy for m in judged])
            out.append(
                {
                    "player": pl,
                    "moves": len(mine),
                    "average_loss": sum(m.loss for m in mine) / len(mine) if mine else 0.0,
                    "average_win_loss": sum(m.win_loss for m in mine) / len(mine) if mine else 0.0,
                    "accuracy": None if accuracy is None else round(accuracy, 1),
                    "classes": {c: sum(1 for m in mine if m.judgement == c) for c in CLASSES},
                    "forced": len(mine) - len(judged),
                    "flagged": sum(1 for m in mine if m.flag),
                    "blunders": sum(1 for m in mine if m.flag == "??"),
                    "worst": None
                    if worst is None or worst.loss == 0
                    else {"number": worst.number, "move": worst.move, "loss": worst.loss},
                    "biggest_mistakes": [
                        {
                            "number": m.number,
                            "move": m.move,
                            "best_move": m.best_move,
                            "loss": m.loss,
                            "class": m.judgement,
                        }
                        for m in biggest
                    ],
                    "final_score": self.final_scores[pl],
                }
            )
        return out

    def mistakes(self) -> list[MoveReview]:
        """The moves flagged by the points threshold (``?`` and ``??``)."""
        return [m for m in self.moves if m.flag]

    def critical_moments(self, count: int = 3) -> list[MoveReview]:
        """The ``count`` moves after which player 0's win probability swung
        the most (either way), in the order they were played."""
        before = [self.start.win0] + [m.win0 for m in self.moves[:-1]]
        swings = sorted(zip(self.moves, before), key=lambda mb: (-abs(mb[0].win0 - mb[1]), mb[0].number))
        return sorted((m for m, b in swings[:count] if m.win0 != b), key=lambda m: m.number)

    def to_dict(self) -> dict:
        """The whole review as a JSON-ready dict."""
        return {
            "threshold": self.threshold,
            "interrupted": self.interrupted,
            "start": asdict(self.start),
            "moves": [m.to_dict() for m in self.moves],
            "summary": self.summary(),
            "critical_moments": [m.number for m in self.critical_moments()],
            "classes": {
                "win_loss_thresholds": list(WIN_LOSS_THRESHOLDS),
                "point_thresholds": list(POINT_THRESHOLDS),
                "saturated": SATURATED,
            },
        }


def verdict_of(pos, result) -> Verdict:
    """A search result on ``pos`` (or the real score of a finished ``pos``)."""
    if pos.is_over:
        s = pos.scores()
        return Verdict(float(s[0] - s[1]), 1.0 if pos.winner() == 0 else 0.0, None, True, pos.winner())
    sign = 1.0 if pos.to_move == 0 else -1.0
    margin0 = sign * float(result.score)
    wp = result.win_probability
    exact = result.bound == "exact"
    if exact and margin0 != 0:
        win0 = 1.0 if margin0 > 0 else 0.0  # proven: the winner is known
    else:
        if wp is None:  # an engine that gives none: the contract's own conversion
            wp = win_probability_of(float(result.score), phase_of(pos))
        win0 = float(wp) if pos.to_move == 0 else 1.0 - float(wp)
    best = None if result.best_move is None else str(result.best_move)
    winner = None
    if result.proven in ("win", "loss"):
        winner = pos.to_move if result.proven == "win" else 1 - pos.to_move
    return Verdict(margin0, win0, best, exact, winner)


def flag_of(loss: float, threshold: float) -> str:
    """``??`` above twice the threshold, ``?`` above it, else empty."""
    return "??" if loss > 2 * threshold else "?" if loss > threshold else ""


def analyze_game(
    game,
    engine: str = "alphabeta",
    threshold: float = 5.0,
    evaluate: Callable | None = None,
    on_review: Callable | None = None,
    **limits,
) -> GameReview:
    """Review every move of ``game``. ``evaluate(pos, k, n)`` searches
    position ``k`` of ``n`` and returns a SearchResult (default:
    ``patchsolve.search(pos, engine=engine, **limits)``); the CLI passes one
    that prints progress, the web app one that reports to its job.
    ``on_review(review)``, if given, gets the review of the moves so far
    (marked ``interrupted``) after each position searched.

    Ctrl-C in a script raises :class:`~patchsolve.errors.SearchInterrupted`
    whose ``result`` is the review of the moves so far (a GameReview marked
    ``interrupted``, or None before the first position was searched); under
    the CLI, and after :func:`patchsolve.request_stop`, the review returns
    with those moves instead."""
    if not (isinstance(threshold, (int, float)) and threshold >= 0) or isinstance(threshold, bool):
        raise PatchsolveError(f"threshold must be a number >= 0, not {threshold!r}")
    if evaluate is None:
        from patchsolve.search import search

        def evaluate(pos, k, n):
            return search(pos, engine=engine, **limits)

    positions = game.positions
    verdicts: list[Verdict] = []
    interrupted = False
    for k, pos in enumerate(positions):
        try:
            result = None if pos.is_over else evaluate(pos, k, len(positions))
        except SearchInterrupted:  # Ctrl-C in a script: stop it, with the review so far on the exception
            raise SearchInterrupted(_partial(game, verdicts, threshold)) from None
        if getattr(result, "interrupted", False):  # keep the moves reviewed so far
            interrupted = True
            break
        verdicts.append(verdict_of(pos, result))
        if on_review is not None and len(verdicts) > 1:  # the review so far, e.g. for a Stop button to keep
            on_review(_partial(game, verdicts, threshold))
    if not verdicts:
        raise PatchsolveError("interrupted before the first position was searched")
    review = _partial(game, verdicts, threshold, interrupted)
    assert review is not None  # verdicts is not empty
    return review


def _partial(game, verdicts, threshold, interrupted=True) -> GameReview | None:
    """The review of the moves whose positions have verdicts (None: none)."""
    if not verdicts:
        return None
    moves = [_review(p, verdicts, threshold) for p in game.replay() if p.number < len(verdicts)]
    return GameReview(verdicts[0], moves, float(threshold), tuple(game.end.scores()), interrupted)


def _review(ply, verdicts, threshold) -> MoveReview:
    before, after = verdicts[ply.number - 1], verdicts[ply.number]
    sign = 1.0 if ply.player == 0 else -1.0
    best_value, played_value = sign * before.margin0, sign * after.margin0
    played_best = before.best_move == str(ply.move)
    forced = len(ply.before.legal_moves()) == 1
    loss = 0.0 if played_best or forced else max(0.0, best_value - played_value)
    win_before = before.win0 if ply.player == 0 else 1.0 - before.win0
    win_after = after.win0 if ply.player == 0 else 1.0 - after.win0
    win_loss = 0.0 if loss == 0 else max(0.0, win_before - win_after)
    proven = _outcome_for(before.winner, ply.player), _outcome_for(after.winner, ply.player)
    judgement = judge(loss, win_loss, win_before, played_best or forced)
    if proven == ("win", "loss") and not forced:
        judgement = "blunder"
    return MoveReview(
        ply.number,
        ply.player,
        ply.before.to_text(),
        str(ply.move),
        before.best_move,
        best_value,
        played_value,
        loss,
        after.margin0,
        after.win0,
        flag_of(loss, threshold),
        win_loss,
        judgement,
        forced,
        before.exact and after.exact,
        100.0 if forced else move_accuracy(win_loss),
        *proven,
    )


def _outcome_for(winner: int | None, player: int) -> str | None:
    """ "win"/"loss" for ``player`` when a winner is proven, else None."""
    return None if winner is None else "win" if winner == player else "loss"


# -- many games: one summary row per game and player ------------------------

RECORD_HEADER = "# patchsolve game record"
CSV_FIELDS = (
    "game",
    "player",
    "moves",
    "accuracy",
    "average_loss",
    "average_win_loss",
    "best",
    "good",
    "inaccuracy",
    "mistake",
    "blunder",
    "forced",
    "final_score",
    "won",
    "interrupted",
)


def games_from(path) -> list[tuple[str, str]]:
    """The game records of ``path``: every ``*.txt`` file of a folder (sorted
    by name), or the records of one file, which may hold several (each starts
    with the line ``# patchsolve game record``). Returns ``(name, text)``
    pairs; a record is parsed where it is reviewed."""
    from pathlib import Path

    from patchsolve.errors import NotationError

    path = Path(path)
    if path.is_dir():
        files = sorted(path.glob("*.txt"))
        if not files:
            raise NotationError("no game records (*.txt) in the folder", field="file", token=str(path))
        return [(f.name, _read(f)) for f in files]
    text = _read(path)
    starts = [i for i, line in enumerate(text.splitlines()) if line.strip() == RECORD_HEADER]
    if len(starts) <= 1:
        return [(path.name, text)]
    lines = text.splitlines()
    bounds = starts + [len(lines)]
    return [
        (f"{path.name}#{k + 1}", "\n".join(lines[a:b]) + "\n")
        for k, (a, b) in enumerate(zip(bounds, bounds[1:]))
    ]


def _read(path) -> str:
    from patchsolve.errors import NotationError

    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise NotationError(f"cannot read the game record: {e}", field="file", token=str(path)) from None


def summary_rows(name: str, review: GameReview) -> list[dict]:
    """The CSV rows (``CSV_FIELDS``) of one reviewed game: one per player."""
    rows = []
    for s in review.summary():
        final = review.final_scores
        rows.append(
            {
                "game": name,
                "player": s["player"],
                "moves": s["moves"],
                "accuracy": s["accuracy"],
                "average_loss": round(s["average_loss"], 3),
                "average_win_loss": round(s["average_win_loss"], 4),
                **s["classes"],
                "forced": s["forced"],
                "final_score": s["final_score"],
                "won": None if review.interrupted else int(final[s["player"]] > final[1 - s["player"]]),
                "interrupted": review.interrupted,
            }
        )
    return rows


def _review_job(job) -> list[dict]:
    """One game of :func:`review_games` (module level: it runs in a worker)."""
    from patchsolve.game import Game

    name, text, engine, threshold, limits = job
    return summary_rows(
        name, analyze_game(Game.from_text(text), engine=engine, threshold=threshold, **limits)
    )


def review_games(
    records,
    engine: str = "alphabeta",
    threshold: float = 5.0,
    backend: str = "local",
    workers: int = 1,
    address: str | None = None,
    **limits,
):
    """Review many games on a backend (``patchsolve.backends``: local
    processes or Ray) and yield each game's summary rows as it finishes.
    ``records`` are ``(name, text)`` pairs (:func:`games_from`); every record
    is parsed first, so a bad one is refused before any search runs."""
    from patchsolve.backends import make_backend
    from patchsolve.game import Game

    records = list(records)
    for name, text in records:
        try:
            Game.from_text(text)
        except PatchsolveError as e:
            raise type(e)(f"{name}: {e}") from None
    jobs = [(name, text, engine, float(threshold), dict(limits)) for name, text in records]
    for _, rows in make_backend(backend, workers=workers, address=address).run(_review_job, jobs):
        yield rows


__all__ = [
    "analyze_game",
    "games_from",
    "review_games",
    "summary_rows",
    "CSV_FIELDS",
    "GameReview",
    "MoveReview",
    "Verdict",
    "judge",
    "move_accuracy",
    "game_accuracy",
]
