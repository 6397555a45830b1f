"""Game review: the engine's verdict on every move of a game.

Each move is judged by :func:`patchsolve.review.measure`: one search of the
position before it values the move played and the best move on the same
footing (the same iteration, the same depth; near the end, the exact solver
on both), within a :class:`~patchsolve.review.Budget` (a node or depth
budget a position, one thread), so the same game and budget give the same
review on every run and every machine. A move's loss is the best value
minus the played move's value for the mover, never negative and 0 when the
move is valued as high as the best; its win probability lost likewise. The
CLI's ``analyze``, the review graph (:mod:`patchsolve.review.svg`), the quiz
and the web app all use :func:`analyze_game`.

**Classes.** ``best``: nothing lost. Otherwise the class comes from the
win probability lost (``inaccuracy`` 5%, ``mistake`` 10%, ``blunder``
20%), and each class also needs a minimum number of points lost
(:data:`MIN_POINTS`): below it a loss is within what a deeper search can
take back (benchmarks/judge/). Where the mover's chance is saturated (below
3% or above 97% before the move, so a point barely moves it) the points
decide alone (:data:`POINT_THRESHOLDS`). A move that throws away a proven
win (the solver proved the position won before it and lost after it) is a
``blunder`` whatever the points. Anything else that lost something is
``good``. A move is ``forced`` when it was the only legal move (class
``best``). ``flag`` marks the class as lichess does: ``?!``, ``?``, ``??``.

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

from patchsolve.errors import PatchsolveError
from patchsolve.review.judge import Budget, Measure, as_budget, measure


@dataclass(frozen=True)
class Verdict:
    """The engine on one position, from player 0's side."""

    margin0: float
    """Final margin of player 0 minus player 1."""
    win0: float
    """Player 0's chance to win."""
    best_move: str | None
    """None on a finished position."""
    exact: bool
    """Whether the value is proven (the solver's)."""
    winner: int | None = None
    """The player proven to win (the solver's), else None."""


@dataclass(frozen=True)
class MoveReview:
    """One move of the game and what the engine thinks of it (values for the
    mover unless the name says player 0)."""

    number: int
    """1 for the first move."""
    player: int
    """Who moved."""
    position: str
    """The position before the move (notation)."""
    move: str
    """The move played (notation)."""
    best_move: str | None
    """The best move by the same measure (the move itself when it is as good)."""
    best_value: float
    """The best move's value, for the mover."""
    played_value: float
    """The move played's value, for the mover (the same search)."""
    loss: float
    """``best_value - played_value``, never negative."""
    margin0: float
    """Player 0's margin after the move."""
    win0: float
    """Player 0's win probability after the move."""
    flag: str
    """The class's mark: "?!" inaccuracy, "?" mistake, "??" blunder, else ""."""
    win_loss: float = 0.0
    """Win probability lost by the mover, 0..1."""
    judgement: str = "best"
    """The class: best, good, inaccuracy, mistake or blunder (see the module)."""
    forced: bool = False
    """The only legal move."""
    exact: bool = False
    """Both values compared were proven by the solver."""
    accuracy: float = 100.0
    """The move's accuracy score, 0..100."""
    proven_before: str | None = None
    """'win' or 'loss': the outcome the solver proved for the mover before the move (None: not proven)."""
    proven_after: str | None = None
    """The same after the move (a proven win thrown away: 'win' then 'loss')."""
    best_bound: str = "estimate"
    """What kind of number best_value is: exact, lower, upper, estimate."""
    played_bound: str = "estimate"
    """What kind of number played_value is: exact, lower, upper or estimate."""
    depth: int = 0
    """The search depth both values come from (0 when the solver proved them)."""

    def to_dict(self) -> dict:
        """The review of this move as a JSON-ready dict (``class`` is the judgement)."""
        d = asdict(self)
        d["class"] = d.pop("judgement")
        return d


CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")
FLAGS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
WIN_LOSS_THRESHOLDS = (0.05, 0.10, 0.20)  # inaccuracy, mistake, blunder: win probability lost ...
MIN_POINTS = (2.0, 4.0, 6.0)  # ... and at least these points lost (benchmarks/results/judge/)
POINT_THRESHOLDS = (3.0, 6.0, 12.0)  # the same, in points alone, where the win probability is saturated
SATURATED = 0.03  # a chance below 3% or above 97% is saturated


def classify(loss: float, win_loss: float, win_before: float) -> str:
    """The class of a move that lost ``loss`` points and ``win_loss`` win
    probability, the mover's chance before it being ``win_before``."""
    if loss <= 0 and win_loss <= 0:
        return "best"
    saturated = win_before < SATURATED or win_before > 1 - SATURATED
    if saturated:
        level = sum(1 for t in POINT_THRESHOLDS if loss >= t)
    else:
        level = sum(1 for w, p in zip(WIN_LOSS_THRESHOLDS, MIN_POINTS) if win_loss >= w and loss >= p)
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


SEVERITY = {c: k for k, c in enumerate(CLASSES)}


@dataclass
class GameReview:
    """The review of a game: the verdict on the start position, one
    :class:`MoveReview` per move reviewed, the budget behind every verdict
    and the final scores (``interrupted`` when a Ctrl-C stopped it early)."""

    start: Verdict
    """The verdict on the start position."""
    moves: list[MoveReview]
    """One review per move judged, in order."""
    budget: Budget
    """The budget behind every verdict."""
    final_scores: tuple[int, int]
    """Both players' final scores."""
    interrupted: bool = False  # stopped (Ctrl-C): ``moves`` are the first ones only

    def summary(self) -> list[dict]:
        """Per player: moves, average points and win probability lost, the
        accuracy (from the same losses), a count per class, the three
        biggest mistakes (the worst classes first, then the largest losses;
        never a move classed best or good), the final score."""
        out = []
        for pl in (0, 1):
            mine = [m for m in self.moves if m.player == pl]
            judged = [m for m in mine if not m.forced]
            biggest = self.mistakes(pl)[:3]
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
                    "worst": None
                    if not biggest
                    else {"number": biggest[0].number, "move": biggest[0].move, "loss": biggest[0].loss},
                    "biggest_mistakes": [
                        {
                            "number": m.number,
                            "move": m.move,
                            "best_move": m.best_move,
                            "loss": m.loss,
                            "win_loss": m.win_loss,
                            "class": m.judgement,
                        }
                        for m in biggest
                    ],
                    "final_score": self.final_scores[pl],
                }
            )
        return out

    def mistakes(self, player: int | None = None) -> list[MoveReview]:
        """The moves classed inaccuracy, mistake or blunder (of ``player``,
        or both), the worst first: by class, then points lost, then win
        probability lost."""
        flagged = [m for m in self.moves if m.flag and (player is None or m.player == player)]
        return sorted(flagged, key=lambda m: (-SEVERITY[m.judgement], -m.loss, -m.win_loss, m.number))

    def critical_moments(self, count: int = 3) -> list[MoveReview]:
        """The ``count`` moves that moved the game the most (the largest
        win probability lost by their mover; never a forced move nor one
        that lost nothing), in the order they were played."""
        swings = [m for m in self.moves if not m.forced and m.win_loss > 0]
        swings.sort(key=lambda m: (-m.win_loss, -m.loss, m.number))
        return sorted(swings[:count], key=lambda m: m.number)

    def to_dict(self) -> dict:
        """The whole review as a JSON-ready dict."""
        return {
            "budget": self.budget.to_dict(),
            "interrupted": self.interrupted,
            "start": asdict(self.start),
            "moves": [m.to_dict() for m in self.moves],
            "summary": self.summary(),
            "critical_moments": [m.number for m in self.critical_moments()],
            "classes": {
                "win_loss_thresholds": list(WIN_LOSS_THRESHOLDS),
                "min_points": list(MIN_POINTS),
                "point_thresholds": list(POINT_THRESHOLDS),
                "saturated": SATURATED,
            },
        }


def review_move(number: int, m: Measure) -> MoveReview:
    """The review of move ``number`` from its :class:`~patchsolve.review.Measure`."""
    sign = 1.0 if m.player == 0 else -1.0
    before, after = m.best, m.played
    if m.forced:
        judgement = "best"
    elif before.proven == "win" and after.proven == "loss":
        judgement = "blunder"  # a proven win thrown away: certain, whatever the points
    else:
        judgement = classify(m.loss, m.win_loss, before.win_probability)
    win_after = after.win_probability
    return MoveReview(
        number,
        m.player,
        m.position,
        m.played.move,
        m.best.move,
        m.best.value,
        m.played.value,
        0.0 if m.forced else m.loss,
        sign * after.value,
        win_after if m.player == 0 else 1.0 - win_after,
        FLAGS.get(judgement, ""),
        0.0 if m.forced else m.win_loss,
        judgement,
        m.forced,
        m.exact,
        100.0 if m.forced else move_accuracy(m.win_loss),
        before.proven,
        after.proven,
        before.bound,
        after.bound,
        0 if m.exact else m.depth,
    )


def analyze_game(
    game,
    budget: Budget | None = None,
    *,
    progress: Callable | None = None,
    on_review: Callable | None = None,
    judge: Callable | None = None,
    **limits,
) -> GameReview:
    """Review every move of ``game`` within ``budget`` (a
    :class:`~patchsolve.review.Budget`, or ``nodes=`` / ``depth=``; default
    300,000 nodes a position). ``progress(k, n)``, if given, is called
    before move ``k`` of ``n`` is judged; ``on_review(review)`` gets the
    review of the moves so far (marked ``interrupted``) after each move.
    ``judge(position, move, budget)`` measures one move (default
    :func:`patchsolve.review.measure`: another measure can be plugged in).

    Ctrl-C in a script raises :class:`~patchsolve.errors.SearchInterrupted`
    whose ``result`` is the review of the moves so far (a GameReview marked
    ``interrupted``, or None before the first move was judged); under the
    CLI, and after :func:`patchsolve.request_stop`, the review returns with
    those moves instead."""
    from patchsolve.errors import SearchInterrupted
    from patchsolve.rules.game import Game

    if not isinstance(game, Game):
        raise PatchsolveError(f"expected a patchsolve.Game, not {type(game).__name__}")
    budget = as_budget(budget, **limits)
    plies = list(game.replay())
    if not plies:
        raise PatchsolveError("the game has no moves to review")
    reviewed: list[MoveReview] = []
    start: Verdict | None = None
    for ply in plies:
        if progress is not None:
            progress(ply.number - 1, len(plies))
        try:
            m = (judge or measure)(ply.before, ply.move, budget)
        except SearchInterrupted:  # Ctrl-C in a script: stop, with the review so far on the exception
            raise SearchInterrupted(_review(game, start, reviewed, budget, True)) from None
        if m.interrupted:  # a search cut short: keep the moves judged before it
            break
        if start is None:
            start = _start_verdict(m)
        reviewed.append(review_move(ply.number, m))
        if on_review is not None:  # the review so far, e.g. for a Stop button to keep
            on_review(_review(game, start, reviewed, budget, True))
    if start is None:
        raise PatchsolveError("interrupted before the first move was judged")
    review = _review(game, start, reviewed, budget, len(reviewed) < len(plies))
    assert review is not None
    return review


def _start_verdict(m: Measure) -> Verdict:
    """The start position's verdict: its best move's value, from player 0's side."""
    sign = 1.0 if m.player == 0 else -1.0
    win = m.best.win_probability
    winner = None
    if m.best.proven is not None:
        winner = m.player if m.best.proven == "win" else 1 - m.player
    return Verdict(
        sign * m.best.value, win if m.player == 0 else 1.0 - win, m.best.move, m.best.bound == "exact", winner
    )


def _review(game, start, moves, budget, interrupted) -> GameReview | None:
    """The review of the moves judged so far (None: none)."""
    if start is None:
        return None
    return GameReview(start, list(moves), budget, tuple(game.end.scores()), interrupted)


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
    from patchsolve.rules.game import Game

    name, text, budget = job
    return summary_rows(name, analyze_game(Game.from_text(text), Budget(**budget)))


def review_games(
    records,
    budget: Budget | None = None,
    backend: str = "local",
    workers: int = 1,
    address: str | None = None,
    **limits,
):
    """Review many games on a backend (``patchsolve.arena.backends``: local
    processes or Ray) within ``budget`` (as :func:`analyze_game`) and yield
    each game's summary rows as it finishes. ``records`` are ``(name,
    text)`` pairs (:func:`games_from`); every record is parsed first, so a
    bad one is refused before any search runs."""
    from patchsolve.arena.backends import make_backend
    from patchsolve.rules.game import Game

    budget = as_budget(budget, **limits)
    records = list(records)
    for name, text in records:
        try:
            Game.from_text(text)
        except PatchsolveError as e:
            raise type(e)(f"{name}: {e}") from None
    given = {"nodes": budget.nodes, "depth": budget.depth, "recheck": budget.recheck}
    jobs = [(name, text, given) for name, text in records]
    for _, rows in make_backend(backend, workers=workers, address=address).run(_review_job, jobs):
        yield rows


__all__ = [
    "analyze_game",
    "review_move",
    "games_from",
    "review_games",
    "summary_rows",
    "CSV_FIELDS",
    "GameReview",
    "MoveReview",
    "Verdict",
    "classify",
    "move_accuracy",
    "game_accuracy",
]
