"""Learn from your mistakes: exercises made of the positions where a player
lost the most in a reviewed game.

Each exercise is a position, the move that was played there, the engine's
best move and the *acceptable* moves: every move whose value is within
``tolerance`` points of the best, all valued by one measure of the position
(:func:`patchsolve.review.measure` with ranked rows, choice first, the move
played among them), so the values are comparable. A move becomes an exercise
only when that same search finds the move played outside the tolerance: the
answer is never the move played. :func:`grade` values an answer on the same
footing: a move among the rows has its row's value; any other move is
measured against the best in one search of the position, at the exercise's
budget.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from patchsolve.errors import PatchsolveError

DEFAULT_ROWS = 8
DEFAULT_TOLERANCE = 1.0


@dataclass(frozen=True)
class Exercise:
    """One position to find the move in (values for the player to move)."""

    number: int
    """The move's number in the game."""
    player: int
    """The player to move (who made the mistake)."""
    position: str
    """Notation."""
    played: str
    """The move played in the game."""
    played_loss: float
    """Points the move played lost, in this exercise's search."""
    best: str
    """The best move found."""
    best_value: float
    """Its value for the player to move."""
    bound: str
    """'exact' where the solver proved the values, else 'estimate'."""
    depth: int
    """The search depth the values come from."""
    acceptable: list[dict] = field(default_factory=list)
    """{"move", "value"}, best first."""
    pv: list[str] = field(default_factory=list)
    """The best move's line."""
    budget: dict = field(default_factory=dict)
    """The measure's budget (review.Budget.to_dict())."""

    def to_dict(self) -> dict:
        """JSON-ready."""
        return asdict(self)


@dataclass(frozen=True)
class Grade:
    """How an answer compares with the best move."""

    move: str
    """The answer (notation)."""
    value: float
    """Its value for the player to move."""
    loss: float
    """The best value minus the answer's, never negative."""
    correct: bool
    """Within the exercise's tolerance of the best."""
    bound: str
    """What kind of number the value is: exact or estimate."""


def _check_common(player, tolerance) -> None:
    if player not in (None, 0, 1) or isinstance(player, bool):
        raise PatchsolveError(f"player must be 0 or 1, not {player!r}")
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or tolerance < 0:
        raise PatchsolveError(f"tolerance must be a number >= 0, not {tolerance!r}")


def _check_threshold(threshold) -> float:
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or threshold < 0:
        raise PatchsolveError(f"threshold must be a number >= 0, not {threshold!r}")
    return float(threshold)


def exercises(
    review,
    player: int | None = None,
    threshold: float = 3.0,
    rows: int = DEFAULT_ROWS,
    tolerance: float = DEFAULT_TOLERANCE,
    budget=None,
    **limits,
) -> list[Exercise]:
    """The exercises of a :class:`~patchsolve.review.analysis.GameReview`: the moves
    of ``player`` (both when None) that lost more than ``threshold`` points,
    biggest loss first, each valued by a measure with ``rows`` ranked moves
    within ``budget`` (default: the review's)."""
    from patchsolve.review.judge import as_budget

    _check_common(player, tolerance)
    limit = _check_threshold(threshold)
    budget = review.budget if budget is None and not limits else as_budget(budget, **limits)
    chosen = [m for m in review.moves if (player is None or m.player == player) and m.loss > limit]
    return _valued(chosen, rows, tolerance, budget, limit)


def exercises_of_moves(
    moves: list[dict],
    player: int | None = None,
    threshold: float = 3.0,
    tolerance: float = DEFAULT_TOLERANCE,
    count: int = 10,
    budget=None,
    **limits,
) -> list[Exercise]:
    """The exercises of reviewed moves given as dicts (``number``,
    ``player``, ``position``, ``move``, ``loss``: what ``analyze --json``
    and the web review carry), at most ``count`` of them; each position is
    read again, so a bad one is a clear error."""
    from types import SimpleNamespace

    from patchsolve.review.judge import as_budget
    from patchsolve.rules.position import Position

    _check_common(player, tolerance)
    limit = _check_threshold(threshold)
    budget = as_budget(budget, **limits)
    items = []
    for m in moves:
        if not isinstance(m, dict):
            raise PatchsolveError("each reviewed move is an object")
        try:
            number, who, position = int(m["number"]), int(m["player"]), str(m["position"])
            move, loss = str(m["move"]), float(m["loss"])
        except (KeyError, TypeError, ValueError):
            raise PatchsolveError("a reviewed move needs number, player, position, move and loss") from None
        pos = Position(position)
        pos.parse_move(move)  # a move of that position, or a clear error
        if (player is None or who == player) and loss > limit:
            items.append(SimpleNamespace(number=number, player=who, position=position, move=move, loss=loss))
    items.sort(key=lambda m: (-m.loss, m.number))
    return _valued(items, DEFAULT_ROWS, tolerance, budget, limit, count)


def _valued(chosen, rows, tolerance, budget, threshold, count=None) -> list[Exercise]:
    """Each chosen move's position measured with ranked rows: an Exercise
    when that search too finds the move played losing more than
    ``threshold`` and ``tolerance`` points (so it is never an answer); at
    most ``count``."""
    from patchsolve.review.judge import measure
    from patchsolve.rules.position import Position

    out: list[Exercise] = []
    for m in sorted(chosen, key=lambda m: (-m.loss, m.number)):  # biggest loss first
        if count is not None and len(out) >= count:
            break
        pos = Position(m.position)
        me = measure(pos, m.move, budget, rows=rows)
        if me.interrupted or me.loss <= max(threshold, tolerance):
            continue  # not a mistake in this search, or the move played would be an answer
        best = me.best.value
        ranked = [d for d in me.rows if d["move"] != str(me.played.move)]
        ok = [
            {"move": d["move"], "value": float(d["score"])} for d in ranked if d["score"] >= best - tolerance
        ]
        ok.sort(key=lambda d: -d["value"])
        if not any(d["move"] == me.best.move for d in ok):
            ok.insert(0, {"move": me.best.move, "value": best})
        out.append(
            Exercise(
                m.number,
                m.player,
                m.position,
                str(m.move),
                me.loss,
                me.best.move,
                best,
                "exact" if me.exact else "estimate",
                me.depth,
                ok,
                list(me.best.pv),
                me.budget.to_dict(),
            )
        )
    return out


def grade(exercise: Exercise, move, tolerance: float = DEFAULT_TOLERANCE) -> Grade:
    """Value ``move`` (text or Move) in the exercise's position on the same
    footing as its rows: a move among them has its row's value; any other
    move is measured against the best in one search at the exercise's
    budget. IllegalMoveError/NotationError for a bad move."""
    from patchsolve.review.judge import Budget, measure
    from patchsolve.rules.position import Position

    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or tolerance < 0:
        raise PatchsolveError(f"tolerance must be a number >= 0, not {tolerance!r}")
    pos = Position(exercise.position)
    mv = pos.parse_move(move) if isinstance(move, str) else move
    if not pos.is_legal(mv):
        from patchsolve.errors import IllegalMoveError

        raise IllegalMoveError(f"{mv} is not a legal move here")
    known = {d["move"]: d["value"] for d in exercise.acceptable}
    if str(mv) in known:
        value = known[str(mv)]
        loss = max(0.0, exercise.best_value - value)
        return Grade(str(mv), value, loss, loss <= tolerance, exercise.bound)
    budget = Budget(**{k: exercise.budget[k] for k in ("nodes", "depth", "recheck") if k in exercise.budget})
    me = measure(pos, mv, budget)
    return Grade(str(mv), me.played.value, me.loss, me.loss <= tolerance, me.played.bound)


def exercise_of_dict(data) -> Exercise:
    """An Exercise from its ``to_dict`` form (a front end sends it back to be
    graded); a PatchsolveError when a field is missing or of the wrong kind."""
    fields = Exercise.__dataclass_fields__
    if not isinstance(data, dict) or set(data) != set(fields):
        raise PatchsolveError(f"an exercise has the fields {', '.join(fields)}")
    import math

    from patchsolve.review.judge import Budget
    from patchsolve.rules.position import Position

    try:
        e = Exercise(**data)
        numbers = [float(e.best_value), float(e.played_loss)]
        Position(e.position)
        accepted = [(str(d["move"]), float(d["value"])) for d in e.acceptable]
        budget = Budget(**{k: e.budget[k] for k in ("nodes", "depth", "recheck") if k in e.budget})
    except PatchsolveError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError):
        raise PatchsolveError("an exercise's fields are not of their kinds") from None
    if not all(math.isfinite(x) for x in numbers + [v for _, v in accepted]):
        raise PatchsolveError("an exercise's values must be finite numbers")
    return Exercise(
        **{**data, "acceptable": [{"move": m, "value": v} for m, v in accepted], "budget": budget.to_dict()}
    )


__all__ = ["Exercise", "Grade", "exercises", "exercises_of_moves", "exercise_of_dict", "grade"]
