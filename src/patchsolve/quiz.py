"""Learn from your mistakes: exercises made of the positions where a player
lost the most in a reviewed game.

Each exercise is a position, the move that was played there, the engine's
best move and the *acceptable* moves: every move whose value is within
``tolerance`` points of the best, all valued by one MultiPV search (each row
at the same depth, or exact where the solver proves it), so the values are
comparable. :func:`grade` values an answer on the same footing: a move among
the ranked rows has its row's value; any other move is searched after it
one ply shallower, the same horizon as the rows.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from patchsolve.errors import PatchsolveError

DEFAULT_DEPTH = 6
DEFAULT_ROWS = 8
DEFAULT_TOLERANCE = 1.0


@dataclass(frozen=True)
class Exercise:
    """One position to find the move in (values for the player to move)."""

    number: int  # the move's number in the game
    player: int
    position: str  # notation
    played: str
    played_loss: float  # points the move played lost in the review
    best: str
    best_value: float
    bound: str  # "exact" where the solver proved the values, else "estimate"
    depth: int
    acceptable: list[dict] = field(default_factory=list)  # {"move", "value"}, best first
    pv: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        """JSON-ready."""
        return asdict(self)


@dataclass(frozen=True)
class Grade:
    """How an answer compares with the best move."""

    move: str
    value: float
    loss: float  # best value minus the answer's, >= 0
    correct: bool  # within the exercise's tolerance of the best
    bound: str


def exercises(
    review,
    player: int | None = None,
    threshold: float | None = None,
    depth: int = DEFAULT_DEPTH,
    rows: int = DEFAULT_ROWS,
    tolerance: float = DEFAULT_TOLERANCE,
    **options,
) -> list[Exercise]:
    """The exercises of a :class:`~patchsolve.analysis.GameReview`: the moves
    of ``player`` (both when None) that lost more than ``threshold`` points
    (the review's threshold when None), biggest loss first, each valued by a
    MultiPV search of ``rows`` rows at ``depth``."""
    if player not in (None, 0, 1) or isinstance(player, bool):
        raise PatchsolveError(f"player must be 0 or 1, not {player!r}")
    limit = review.threshold if threshold is None else threshold
    if isinstance(limit, bool) or not isinstance(limit, (int, float)) or limit < 0:
        raise PatchsolveError(f"threshold must be a number >= 0, not {limit!r}")
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or tolerance < 0:
        raise PatchsolveError(f"tolerance must be a number >= 0, not {tolerance!r}")
    chosen = [m for m in review.moves if (player is None or m.player == player) and m.loss > limit]
    return _valued(chosen, depth, rows, tolerance, options)


def exercises_of_moves(
    moves: list[dict],
    player: int | None = None,
    threshold: float = 3.0,
    depth: int = DEFAULT_DEPTH,
    tolerance: float = DEFAULT_TOLERANCE,
    count: int = 10,
    **options,
) -> list[Exercise]:
    """The exercises of reviewed moves given as dicts (``number``,
    ``player``, ``position``, ``move``, ``loss``: what ``analyze --json``
    and the web review carry), at most ``count`` of them; each position is
    read again, so a bad one is a clear error."""
    from types import SimpleNamespace

    from patchsolve.position import Position

    if player not in (None, 0, 1) or isinstance(player, bool):
        raise PatchsolveError(f"player must be 0 or 1, not {player!r}")
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
        if (player is None or who == player) and loss > threshold:
            items.append(SimpleNamespace(number=number, player=who, position=position, move=move, loss=loss))
    items.sort(key=lambda m: (-m.loss, m.number))
    return _valued(items[:count], depth, DEFAULT_ROWS, tolerance, options)


def _valued(chosen, depth, rows, tolerance, options) -> list[Exercise]:
    """Each chosen move's position ranked by one MultiPV search: an Exercise."""
    from patchsolve.position import Position
    from patchsolve.search import search

    out = []
    for m in sorted(chosen, key=lambda m: (-m.loss, m.number)):  # biggest loss first
        pos = Position(m.position)
        r = search(pos, engine="alphabeta", depth=depth, multipv=rows, **options)
        ranked = [
            {"move": str(d["move"]), "value": float(d["score"]), "bound": d["bound"]} for d in r.root_moves
        ]
        if not ranked:
            ranked = [{"move": str(r.best_move), "value": float(r.score), "bound": r.bound}]
        best = ranked[0]
        ok = [
            {"move": d["move"], "value": d["value"]}
            for d in ranked
            if d["value"] >= best["value"] - tolerance
        ]
        out.append(
            Exercise(
                m.number,
                m.player,
                m.position,
                m.move,
                m.loss,
                best["move"],
                best["value"],
                "exact" if all(d["bound"] == "exact" for d in ranked) else "estimate",
                r.depth,
                ok,
                [str(x) for x in r.pv],
            )
        )
    return out


def grade(exercise: Exercise, move, tolerance: float = DEFAULT_TOLERANCE, **options) -> Grade:
    """Value ``move`` (text or Move) in the exercise's position on the same
    footing as its rows; IllegalMoveError/NotationError for a bad move."""
    from patchsolve.position import Position
    from patchsolve.search import search

    pos = Position(exercise.position)
    mv = pos.parse_move(move) if isinstance(move, str) else move
    if not pos.is_legal(mv):
        from patchsolve.errors import IllegalMoveError

        raise IllegalMoveError(f"{mv} is not a legal move here")
    known = {d["move"]: d["value"] for d in exercise.acceptable}
    if str(mv) in known:
        value, bound = known[str(mv)], exercise.bound
    else:
        after = pos.play(mv)
        if after.is_over:
            s = after.scores()
            value, bound = float(s[pos.to_move] - s[1 - pos.to_move]), "exact"
        else:
            r = search(after, engine="alphabeta", depth=max(1, exercise.depth - 1), **options)
            value = float(r.score) if after.to_move == pos.to_move else -float(r.score)
            bound = r.bound
    loss = max(0.0, exercise.best_value - value)
    return Grade(str(mv), value, loss, loss <= tolerance, bound)


def exercise_of_dict(data) -> Exercise:
    """An Exercise from its ``to_dict`` form (a front end sends it back to be
    graded); a PatchsolveError when a field is missing or of the wrong kind."""
    fields = Exercise.__dataclass_fields__
    if not isinstance(data, dict) or set(data) != set(fields):
        raise PatchsolveError(f"an exercise has the fields {', '.join(fields)}")
    try:
        e = Exercise(**data)
        float(e.best_value)
        from patchsolve.position import Position

        Position(e.position)
        accepted = [(str(d["move"]), float(d["value"])) for d in e.acceptable]
    except (TypeError, ValueError, KeyError):
        raise PatchsolveError("an exercise's fields are not of their kinds") from None
    return Exercise(**{**data, "acceptable": [{"move": m, "value": v} for m, v in accepted]})


__all__ = ["Exercise", "Grade", "exercises", "exercises_of_moves", "exercise_of_dict", "grade"]
