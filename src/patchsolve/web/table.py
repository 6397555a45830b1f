"""A position from the table in front of you: the page's set-up form.

The page sends what a person sees: the circle from the neutral token, the
patches in each quilt (patch, orientation, square as in move text, or a
leather patch's square), each player's buttons and time space, and the
answers the table cannot show, only when they matter: who is on top of a
shared space, who took the 7x7 bonus when both quilts hold one. What follows
from the table (incomes, the leather patches left, the bonus, a leather
patch still to place) is derived by :func:`patchsolve.rules.board.fields_from_table`,
the same derivation as board text's, and the position keeps which patch lies
where.
"""

from __future__ import annotations

from patchsolve import _core
from patchsolve.errors import InvalidPositionError
from patchsolve.rules.board import LEATHER, fields_from_table
from patchsolve.rules.patches import BOARD, EDITIONS, LAST_SPACE, PATCHES
from patchsolve.rules.position import Position, parse_square
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
    if data.get(key) is None:
        return None
    return _int(data, key, 0, 1)


def _cells(pieces, player) -> list:
    """One player's 81 labels (None, patch id or "L") from the pieces laid."""
    if not isinstance(pieces, list) or len(pieces) > BOARD * BOARD:
        raise BadRequest(f"'quilts[{player}]' must be a list of pieces")
    cells: list = [None] * (BOARD * BOARD)
    laid = set()
    for piece in pieces:
        if not isinstance(piece, dict) or not isinstance(piece.get("square"), str):
            raise BadRequest("a piece is {patch, orientation, square} or {leather: true, square}")
        square = parse_square(piece["square"])
        if piece.get("leather") is True:
            mask, label = 1 << square, LEATHER
        else:
            pid = _int(piece, "patch", 0, len(PATCHES) - 1)
            o = _int(piece, "orientation", 0, _core.orientation_count(pid) - 1)
            try:
                mask = _core.move_info(_core.buy_move_code(pid, o, square))[2]
            except ValueError:
                raise InvalidPositionError(
                    f"player {player}: orientation {o} of patch {pid} does not fit with its "
                    f"top-left corner on {piece['square'].strip().lower()}"
                ) from None
            if pid in laid:
                raise InvalidPositionError(f"player {player}: patch {pid} is laid twice")
            laid.add(pid)
            label = pid
        squares = [sq for sq in range(BOARD * BOARD) if mask >> sq & 1]
        if any(cells[sq] is not None for sq in squares):
            raise InvalidPositionError(f"player {player}: the piece at {piece['square']} overlaps another")
        for sq in squares:
            cells[sq] = label
    return cells


def position_from_table(data) -> Position:
    """The position the set-up form describes (see the module text), with
    its labels; BadRequest for a malformed form, InvalidPositionError for a
    table that cannot be."""
    if not isinstance(data, dict):
        raise BadRequest("the set-up must be an object")
    edition = data.get("edition", "revised")
    if edition not in EDITIONS:
        raise BadRequest(f"'edition' must be one of {', '.join(EDITIONS)}")
    circle = data.get("circle")
    if (
        not isinstance(circle, list)
        or len(circle) > len(PATCHES)
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in circle)
    ):
        raise BadRequest("'circle' must be a list of patch ids")
    quilts = data.get("quilts", [[], []])
    if not isinstance(quilts, list) or len(quilts) != 2:
        raise BadRequest("'quilts' must be a pair of piece lists")
    cells = [_cells(quilts[p], p) for p in (0, 1)]
    buttons = _pair(data, "buttons", 0, 10_000)
    times = _pair(data, "time", 0, LAST_SPACE)
    fields, labels = fields_from_table(
        edition,
        circle,
        cells,
        buttons,
        times,
        on_top=_player_or_none(data, "on_top"),
        bonus_owner=_player_or_none(data, "bonus_owner"),
        pending_leather=_player_or_none(data, "pending_leather"),
    )
    return Position._make(_core.CoreState.from_fields(fields), labels)
