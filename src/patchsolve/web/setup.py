"""A position from the table in front of you: the page's set-up form.

The page sends what a person sees: the circle from the neutral token, the
patches in each quilt (patch, orientation, square as in move text, or a
leather patch's square), each player's buttons and time space, and the two
things the table cannot show (who is on top of a shared space, who took the
7x7 bonus when both quilts hold one). Everything else is derived: income from
the patches, the leather patches left from the tokens, and the rest is
checked by ``Position.from_fields``.
"""

from __future__ import annotations

from patchsolve import _core
from patchsolve.errors import InvalidPositionError
from patchsolve.patches import BOARD, BONUS_SIZE, EDITIONS, LAST_SPACE, PATCHES
from patchsolve.position import Position, parse_square
from patchsolve.web.views import BadRequest


def _int(data, key, lo, hi):
    v = data.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise BadRequest(f"'{key}' must be an integer in {lo}..{hi}")
    return v


def _pair(data, key, lo, hi):
    v = data.get(key)
    if not isinstance(v, list) or len(v) != 2:
        raise BadRequest(f"'{key}' must be a pair [player 0, player 1]")
    return tuple(_int({key: x}, key, lo, hi) for x in v)


def _player_or_none(data, key):
    v = data.get(key)
    if v is None:
        return None
    return _int(data, key, 0, 1)


def _quilt(pieces, player):
    """(mask, income, patch ids) of one player's pieces."""
    if not isinstance(pieces, list) or len(pieces) > BOARD * BOARD:
        raise BadRequest(f"'quilts[{player}]' must be a list of pieces")
    mask = income = 0
    ids = []
    for piece in pieces:
        if not isinstance(piece, dict) or not isinstance(piece.get("square"), str):
            raise BadRequest("a piece is {patch, orientation, square} or {leather: true, square}")
        square = parse_square(piece["square"])
        if piece.get("leather") is True:
            cells = 1 << square
        else:
            pid = _int(piece, "patch", 0, len(PATCHES) - 1)
            o = _int(piece, "orientation", 0, _core.orientation_count(pid) - 1)
            try:
                cells = _core.move_info(_core.buy_move_code(pid, o, square))[2]
            except ValueError as e:
                raise InvalidPositionError(f"player {player}: patch {pid} at {piece['square']}: {e}") from None
            income += PATCHES[pid].income
            ids.append(pid)
        if mask & cells:
            raise InvalidPositionError(f"player {player}: the piece at {piece['square']} overlaps another")
        mask |= cells
    return mask, income, ids


def _holds_7x7(mask: int) -> bool:
    for r in range(BOARD - BONUS_SIZE + 1):
        for c in range(BOARD - BONUS_SIZE + 1):
            block = sum(1 << ((r + i) * BOARD + c + j) for i in range(BONUS_SIZE) for j in range(BONUS_SIZE))
            if mask & block == block:
                return True
    return False


def position_from_table(data) -> Position:
    if not isinstance(data, dict):
        raise BadRequest("the set-up must be an object")
    edition = data.get("edition", "revised")
    if edition not in EDITIONS:
        raise BadRequest(f"'edition' must be one of {', '.join(EDITIONS)}")
    circle = data.get("circle")
    if not isinstance(circle, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in circle):
        raise BadRequest("'circle' must be a list of patch ids")
    quilts = data.get("quilts", [[], []])
    if not isinstance(quilts, list) or len(quilts) != 2:
        raise BadRequest("'quilts' must be a pair of piece lists")
    (m0, i0, ids0), (m1, i1, ids1) = _quilt(quilts[0], 0), _quilt(quilts[1], 1)
    _check_patches(circle, ids0 + ids1)
    buttons = _pair(data, "buttons", 0, 10_000)
    times = _pair(data, "time", 0, LAST_SPACE)
    on_top = _player_or_none(data, "on_top") if times[0] == times[1] else None
    if times[0] == times[1] and on_top is None:
        raise InvalidPositionError("both tokens share a space: say whose token is on top")
    holders = [p for p, m in enumerate((m0, m1)) if _holds_7x7(m)]
    bonus = holders[0] if len(holders) == 1 else _player_or_none(data, "bonus_owner") if holders else None
    if len(holders) == 2 and bonus is None:
        raise InvalidPositionError("both quilts hold a 7x7 square: say who took the bonus")
    at_end = [p for p in (0, 1) if times[p] == LAST_SPACE]
    first_at_end = at_end[0] if len(at_end) == 1 else (1 - on_top) if at_end else None
    fields = {"edition": edition, "circle": tuple(circle), "quilts": (m0, m1), "buttons": buttons,
              "income": (i0, i1), "time": times, "on_top": on_top,
              "leather": tuple(s for s in EDITIONS[edition].leather_spaces if s > max(times)),
              "bonus_owner": bonus, "first_at_end": first_at_end, "pending_leather": None}
    return Position.from_fields(fields)


def _check_patches(circle, placed) -> None:
    problems = []
    unknown = sorted({x for x in circle if not 0 <= x < len(PATCHES)})
    if unknown:
        problems.append(f"unknown patch ids in the circle {unknown}")
    seen = {}
    for where, ids in (("the circle", circle), ("the quilts", placed)):
        for x in ids:
            if x in seen:
                problems.append(f"patch {x} is both in {seen[x]} and in {where}" if seen[x] != where
                                else f"patch {x} is twice in {where}")
            seen[x] = where
    missing = [p.id for p in PATCHES if p.id not in seen]
    if missing:
        problems.append(f"patches {missing} are neither in the circle nor in a quilt")
    if problems:
        raise InvalidPositionError(problems)
