"""Drawings of a position: plain/ANSI text for terminals and SVG for files
and notebooks. Nothing here prints; the CLI does.

A position stores each quilt as a mask only, so on its own it cannot say which
patch covers which square: covered squares are drawn ``#`` (one colour per
player in SVG). Give ``labels`` (``Game.labels(k)``: for each player a dict
square -> patch id, or ``"L"`` for a leather patch) and each patch is drawn
with its own symbol and colour: the patch id as a base-33 digit (``0``-``9``
then ``A``-``X`` without ``L``, so ``C`` is patch 12 and ``M`` patch 21) and
``L`` for a leather patch, the symbols of the board text (:mod:`patchsolve.rules.board`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING, Any

from patchsolve.errors import PatchsolveError
from patchsolve.rules.patches import BOARD, EDITIONS, LAST_SPACE, LEATHER_SYMBOL, PATCHES, SYMBOLS

if TYPE_CHECKING:  # for the annotations only: both are imported when a drawing needs them
    from patchsolve.rules.board import Label
    from patchsolve.rules.position import Position

LEATHER = "L"  # the label of a leather patch (Game.labels)
COLUMNS = "abcdefghi"
_ANSI = [
    "red",
    "green",
    "yellow",
    "blue",
    "magenta",
    "cyan",
    "bright_red",
    "bright_green",
    "bright_yellow",
    "bright_blue",
    "bright_magenta",
    "bright_cyan",
]


def symbol(label: Label | None) -> str:
    """The board-text symbol of a square's label: the patch id as a base-33
    digit, ``L`` for leather, ``#`` for a square whose patch is not known."""
    if label == LEATHER:
        return LEATHER_SYMBOL
    if isinstance(label, int) and 0 <= label < len(SYMBOLS):
        return SYMBOLS[label]
    return "#"


def _style(text: str, label: Label | None, color: bool) -> str:
    if not color or label is None:
        return text
    import click

    if label == LEATHER:
        return click.style(text, fg="white", bold=True)
    if isinstance(label, int):
        return click.style(text, fg=_ANSI[label % len(_ANSI)], bold=label >= len(_ANSI))
    return click.style(text, bold=True)


def _patch_id(patch_id: object) -> int:
    if isinstance(patch_id, bool) or not isinstance(patch_id, int) or not 0 <= patch_id < len(PATCHES):
        raise PatchsolveError(f"a patch id is an integer 0..{len(PATCHES) - 1}, not {patch_id!r}"[:200])
    return patch_id


def _position(pos: object) -> Position:
    from patchsolve.rules.position import as_position  # position imports this module lazily

    return as_position(pos)


def _labels(labels: object) -> Sequence[dict[int, Label]] | None:
    from patchsolve.rules.board import check_labels

    return check_labels(labels)


def shape_lines(patch_id: int) -> list[str]:
    """The rows of a patch's shape in orientation 0 (``#`` a square, ``.`` none)."""
    return PATCHES[_patch_id(patch_id)].shape.split("/")


# ---------------------------------------------------------------------------
# text
# ---------------------------------------------------------------------------


def quilt_lines(quilt: int, labels: Mapping[int, Label] | None = None, color: bool = False) -> list[str]:
    """The 9x9 quilt with column letters and row numbers (row 1 on top);
    ``labels`` a dict square -> patch id or ``"L"``, as one player's of
    ``Position.labels``."""
    if isinstance(quilt, bool) or not isinstance(quilt, int) or not 0 <= quilt < 1 << (BOARD * BOARD):
        raise PatchsolveError(f"a quilt is an 81-bit mask, not {quilt!r}"[:200])
    if labels is not None:
        _labels((labels, {}))
    lines = ["   a b c d e f g h i"]
    for r in range(BOARD):
        cells = []
        for c in range(BOARD):
            sq = r * BOARD + c
            if quilt >> sq & 1:
                label = labels.get(sq) if labels else None
                cells.append(_style(symbol(label), label if labels else "#", color))
            else:
                cells.append(".")
        lines.append(f"{r + 1}  " + " ".join(cells))
    return lines


def track_lines(fields: Mapping[str, Any]) -> list[str]:
    """The time board as a strip 0..53: ``$`` income space, ``L`` leather
    patch still lying there, tokens ``0``/``1`` below (``X`` = both);
    ``fields`` as ``Position.fields()`` gives them."""
    from patchsolve.rules.validation import validate_fields

    validate_fields(fields)
    return _track_lines(fields)


def _track_lines(fields: Mapping[str, Any]) -> list[str]:
    ed = EDITIONS[fields["edition"]]
    strip = []
    for s in range(LAST_SPACE + 1):
        if s in fields["leather"]:
            strip.append("L")
        elif s in ed.income_spaces:
            strip.append("$")
        else:
            strip.append(".")
    scale = [" "] * (LAST_SPACE + 1)
    for s in range(0, LAST_SPACE + 1, 10):
        for i, ch in enumerate(str(s)):
            scale[s + i] = ch
    t0, t1 = fields["time"]
    tokens = [" "] * (LAST_SPACE + 1)
    tokens[t0] = "0"
    tokens[t1] = "1" if t1 != t0 else "X"
    note = f"  tokens 0:{t0} 1:{t1}"
    if t0 == t1:
        note += f" (player {fields['on_top']} on top)"
    return [
        "time   " + "".join(scale).rstrip(),
        "track  " + "".join(strip) + "   ($ income, L leather)",
        "token  " + "".join(tokens) + note,
    ]


def orientation_lines(patch_id: int, orientation: int) -> list[str]:
    """The shape of one orientation (as numbered in move text), ``#`` rows."""
    from patchsolve import _core

    mask = _core.move_info(_core.buy_move_code(patch_id, orientation, 0))[2]
    cells = [(sq // BOARD, sq % BOARD) for sq in range(BOARD * BOARD) if mask >> sq & 1]
    h = max(r for r, _ in cells) + 1
    w = max(c for _, c in cells) + 1
    return ["".join("#" if (r, c) in cells else " " for c in range(w)).rstrip() for r in range(h)]


def orientations_text(patch_id: int) -> str:
    """Every orientation of a patch, numbered as in move text (``7:<n>@c3``)."""
    from patchsolve import _core

    blocks = [
        [f"{patch_id}:{o}"] + orientation_lines(patch_id, o) for o in range(_core.orientation_count(patch_id))
    ]
    return "\n".join(side_by_side(blocks, gap=3))


def patch_block(patch_id: int) -> list[str]:
    """A patch as lines of text: id and name, its costs and income, its shape."""
    p = PATCHES[_patch_id(patch_id)]
    head = f"{patch_id} {p.name}"
    info = f"cost {p.buttons} time {p.time} income {p.income}"
    return [head, info] + [line.replace(".", " ") for line in shape_lines(patch_id)]


def catalogue_lines(per_row: int = 4) -> list[str]:
    """Every patch as a block (id, symbol, name, cost/time/income, shape),
    ``per_row`` blocks side by side, for ``patchsolve patches``."""
    blocks = []
    for p in PATCHES:
        blocks.append(
            [f"{p.id} ({p.symbol}) {p.name}", f"cost {p.buttons} time {p.time} income {p.income}"]
            + [line.replace(".", " ").replace("#", p.symbol) for line in shape_lines(p.id)]
        )
    out: list[str] = []
    for i in range(0, len(blocks), per_row):
        if out:
            out.append("")
        out += side_by_side(blocks[i : i + per_row], gap=3)
    return out


def side_by_side(blocks: list[list[str]], gap: int = 4) -> list[str]:
    """Blocks of lines set next to each other, ``gap`` spaces apart (each block
    padded to its widest line)."""
    widths = [max(len(x) for x in b) for b in blocks]
    height = max(len(b) for b in blocks)
    out = []
    for i in range(height):
        out.append(
            (" " * gap).join((b[i] if i < len(b) else "").ljust(w) for b, w in zip(blocks, widths)).rstrip()
        )
    return out


def _visible_len(s: str) -> int:
    import click

    return len(click.unstyle(s))


def player_flags(f: Mapping[str, Any], p: int, bonus: str) -> list[str]:
    """What a player holds or owes beyond the numbers (both drawings)."""
    flags = []
    if f["bonus_owner"] == p:
        flags.append(bonus)
    if f["pending_leather"] == p:
        flags.append("must place a leather patch")
    if f["first_at_end"] == p:
        flags.append("first on 53")
    return flags


def text_position(
    pos: Position, labels: Sequence[Mapping[int, Label]] | None = None, color: bool = False
) -> str:
    """Both quilts side by side, the time track, and the next three patches
    (``labels`` as ``Position.labels``: each patch drawn with its symbol)."""
    pos, labels = _position(pos), _labels(labels)
    f = pos.fields()
    over = pos.is_over
    blocks = []
    for p in (0, 1):
        head = f"player {p}" + ("" if over or pos.to_move != p else "  <- to move")
        info = f"buttons {f['buttons'][p]}  income {f['income'][p]}  time {f['time'][p]}"
        lines = [head, info, ", ".join(player_flags(f, p, "7x7 bonus"))] + quilt_lines(
            f["quilts"][p], labels[p] if labels else None, color
        )
        blocks.append(lines)
    width = max(_visible_len(x) for x in blocks[0]) + 6
    out = []
    for a, b in zip(*blocks):
        out.append(a + " " * (width - _visible_len(a)) + b)
    out.append("")
    out += _track_lines(f)  # the fields of a Position: valid
    out.append("")
    circle = f["circle"]
    if over:
        s = pos.scores()
        out.append(f"game over: player 0 {s[0]}, player 1 {s[1]}; player {pos.winner()} wins")
    elif circle:
        out.append(f"next patches ({len(circle)} left in the circle):")
        out += ["  " + line for line in side_by_side([patch_block(i) for i in circle[:3]])]
    else:
        out.append("the circle is empty")
    if labels and any(labels):
        used = sorted({x for d in labels for x in d.values() if x != LEATHER})
        if used:
            out.append("")
            out.append(
                "patches: "
                + ", ".join(f"{symbol(i)}={i}" for i in used if symbol(i) != str(i))
                + ("; " if any(symbol(i) != str(i) for i in used) else "")
                + "digits are patch ids, L a leather patch"
            )
    return "\n".join(out)


# ---------------------------------------------------------------------------
# SVG
# ---------------------------------------------------------------------------

_PLAYER_FILL = ("#4e79a7", "#e15759")
_EMPTY = "#f3ede2"
_LEATHER_FILL = "#8c5a2b"
CELL = 24


def patch_colour(patch_id: int) -> str:
    """The patch's fill colour as ``#rrggbb``: hues spread by the golden
    angle, so neighbouring ids differ. Hex rather than ``hsl()``, which SVG 1.1
    renderers (CairoSVG among them) paint black."""
    import colorsys

    r, g, b = colorsys.hls_to_rgb(((patch_id * 137) % 360) / 360, 0.62, 0.55)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def _rect(x: float, y: float, w: float, h: float, fill: str, stroke: str = "#555", extra: str = "") -> str:
    return f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{fill}" stroke="{stroke}" stroke-width="1"{extra}/>'


def _text(
    x: float,
    y: float,
    s: str | int,
    size: int = 13,
    anchor: str = "start",
    weight: str = "normal",
    fill: str = "#222",
) -> str:
    return (
        f'<text x="{x}" y="{y}" font-family="sans-serif" font-size="{size}" text-anchor="{anchor}" '
        f'font-weight="{weight}" fill="{fill}">{escape(str(s))}</text>'
    )


def _quilt_svg(x0: int, y0: int, quilt: int, player: int, labels: Mapping[int, Label] | None) -> list[str]:
    parts = []
    for r in range(BOARD):
        for c in range(BOARD):
            sq = r * BOARD + c
            x, y = x0 + c * CELL, y0 + r * CELL
            if quilt >> sq & 1:
                label = labels.get(sq) if labels else None
                if label == LEATHER:
                    fill = _LEATHER_FILL
                elif isinstance(label, int):
                    fill = patch_colour(label)
                else:
                    fill = _PLAYER_FILL[player]
                parts.append(_rect(x, y, CELL, CELL, fill, stroke="#333"))
                if isinstance(label, int):
                    parts.append(
                        _text(
                            x + CELL / 2,
                            y + CELL / 2 + 4,
                            symbol(label),
                            size=10,
                            anchor="middle",
                            fill="#1a1a1a",
                        )
                    )
            else:
                parts.append(_rect(x, y, CELL, CELL, _EMPTY, stroke="#c9bfae"))
    if labels:
        # income buttons: one small button on the first squares of each patch
        # with income (the printed positions are not part of the data)
        by_patch: dict[int, list[int]] = {}
        for sq, label in sorted(labels.items()):
            if isinstance(label, int):
                by_patch.setdefault(label, []).append(sq)
        for pid, squares in by_patch.items():
            for sq in squares[: PATCHES[pid].income]:
                r, c = divmod(sq, BOARD)
                parts.append(
                    f'<circle cx="{x0 + c * CELL + CELL - 6}" cy="{y0 + r * CELL + 6}" r="4" '
                    f'fill="#2b6cb0" stroke="#fff" stroke-width="1"><title>income button</title></circle>'
                )
    parts.append(_rect(x0, y0, BOARD * CELL, BOARD * CELL, "none", stroke="#222"))
    # the square names of move text: columns a-i below, rows 1-9 (row 1 on top) to the left
    for i in range(BOARD):
        parts.append(
            _text(
                x0 + i * CELL + CELL / 2,
                y0 + BOARD * CELL + 11,
                COLUMNS[i],
                size=9,
                anchor="middle",
                fill="#777",
            )
        )
        parts.append(_text(x0 - 4, y0 + i * CELL + CELL / 2 + 3, i + 1, size=9, anchor="end", fill="#777"))
    return parts


def _track_svg(x0: int, y0: int, fields: Mapping[str, Any], per_row: int | None = None) -> list[str]:
    ed = EDITIONS[fields["edition"]]
    per_row, size = per_row or TRACK_PER_ROW, TRACK_SPACE
    parts = [_text(x0, y0 - 6, "time board (0-53): blue dot = income space, brown = leather patch", size=11)]
    pos_of = {}
    for s in range(LAST_SPACE + 1):
        row, col = divmod(s, per_row)
        x, y = x0 + col * size, y0 + row * TRACK_ROW
        pos_of[s] = (x, y)
        fill = _LEATHER_FILL if s in fields["leather"] else "#fbf7ef"
        parts.append(_rect(x, y, size, size, fill, stroke="#b3a38a"))
        if s in ed.income_spaces:
            parts.append(f'<circle cx="{x + size / 2}" cy="{y + size / 2}" r="4" fill="#2b6cb0"/>')
        if s % 10 == 0 or s == LAST_SPACE:
            parts.append(_text(x + size / 2, y + size + 9, s, size=8, anchor="middle", fill="#777"))
    t = fields["time"]
    order = (0, 1)
    if t[0] == t[1] and fields["on_top"] is not None:
        order = (1 - fields["on_top"], fields["on_top"])  # the one on top is drawn last
    for i, p in enumerate(order):
        x, y = pos_of[t[p]]
        dx = 0 if t[0] != t[1] else (i * 6 - 3)
        parts.append(
            f'<circle cx="{x + size / 2 + dx}" cy="{y + size / 2}" r="8" fill="{_PLAYER_FILL[p]}" '
            f'stroke="#fff" stroke-width="2"><title>player {p} on space {t[p]}</title></circle>'
        )
        parts.append(
            _text(
                x + size / 2 + dx, y + size / 2 + 4, p, size=10, anchor="middle", weight="bold", fill="#fff"
            )
        )
    return parts


def _patch_svg(x0: int, y0: int, patch_id: int, size: int = 12) -> list[str]:
    p = PATCHES[patch_id]
    parts = [
        _text(x0, y0, f"{patch_id} {p.name}", size=11, weight="bold"),
        _text(x0, y0 + 14, f"cost {p.buttons}, time {p.time}, income {p.income}", size=10),
    ]
    for r, line in enumerate(shape_lines(patch_id)):
        for c, ch in enumerate(line):
            if ch == "#":
                parts.append(
                    _rect(
                        x0 + c * size, y0 + 22 + r * size, size, size, patch_colour(patch_id), stroke="#333"
                    )
                )
    return parts


def _player_svg(
    f: Mapping[str, Any], p: int, x0: int, to_move: bool, labels: Sequence[Mapping[int, Label]] | None
) -> list[str]:
    """One player's title, buttons, income, time, flags and quilt (at x0, y0 64)."""
    title = f"Player {p}" + ("  (to move)" if to_move else "")
    parts = [_text(x0, 22, title, size=15, weight="bold", fill=_PLAYER_FILL[p])]
    info = f"buttons {f['buttons'][p]}   income {f['income'][p]}   time {f['time'][p]}"
    parts.append(_text(x0, 40, info, size=12))
    flags = player_flags(f, p, "7x7 bonus (+7)")
    if flags:
        parts.append(_text(x0, 56, ", ".join(flags), size=11, fill="#8c5a2b"))
    parts += _quilt_svg(x0, QUILT_Y, f["quilts"][p], p, labels[p] if labels else None)
    return parts


def _next_svg(pos: Position, f: Mapping[str, Any], y: int, column: int = 210) -> tuple[list[str], int]:
    """The next three patches (or the result of a finished game) from ``y``,
    ``column`` apart; the parts and the y below."""
    parts = []
    if pos.is_over:
        s = pos.scores()
        parts.append(
            _text(
                20,
                y,
                f"Game over: player 0 {s[0]}, player 1 {s[1]}; player {pos.winner()} wins",
                size=14,
                weight="bold",
            )
        )
        return parts, y + 20
    parts.append(
        _text(20, y, f"Next patches ({len(f['circle'])} left in the circle)", size=12, weight="bold")
    )
    y += 18
    for i, pid in enumerate(f["circle"][:3]):
        # one group per patch, so a page can make the patches the mover may buy clickable
        parts.append(f'<g class="next-patch" data-patch="{pid}">')
        parts.append(
            _rect(
                16 + i * column,
                y - 12,
                column - 10,
                22 + 3 * 12 + 26,
                "#ffffff",
                stroke="none",
                extra=' fill-opacity="0"',
            )
        )
        parts += _patch_svg(20 + i * column, y, pid)
        parts.append("</g>")
    return parts, y + 22 + 3 * 12 + 34


def _svg_document(parts: list[str], width: int, height: int) -> str:
    body = "\n".join(parts)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">\n<rect width="100%" height="100%" fill="#ffffff"/>\n'
        f"{body}\n</svg>\n"
    )


QUILT_Y = 64  # where each quilt's top edge is drawn
TRACK_SPACE, TRACK_ROW, TRACK_PER_ROW = (
    22,
    32,
    27,
)  # the time board: a space's size, a row's height, spaces a row
QUILT_PART = (
    20,
    QUILT_Y,
    244,
    QUILT_Y + BOARD * CELL + 16,
)  # a quilt part: its quilt's x0, y0; its width, height
PART_PER_ROW = 18  # spaces a row of the time board part: three rows, narrow enough for a phone
TRACK_PART = (
    20,
    24,
    40 + PART_PER_ROW * TRACK_SPACE,
    24 + 3 * TRACK_ROW + 4,
)  # its track's x0, y0; width, height
NEXT_COLUMN = 140  # the next patches part: a patch's column


def position_svg(pos: Position, labels: Sequence[Mapping[int, Label]] | None = None) -> str:
    """An SVG drawing of ``pos``: both quilts with the square names a-i and
    1-9 (each patch in its own colour with its symbol and income buttons
    when the labels are known, else one colour per player), the time track
    with both tokens, income and leather spaces, and the next three patches
    with their costs and shapes. ``labels`` (``Game.labels(k)``) default to
    the position's own, else a tiling of its quilts
    (``pos.labels_or_tiling()``, as board text draws them)."""
    pos, labels = _position(pos), _labels(labels)
    if labels is None:
        labels = pos.labels_or_tiling()
    f = pos.fields()
    parts = []
    for p in (0, 1):
        parts += _player_svg(f, p, 20 + p * 320, not pos.is_over and pos.to_move == p, labels)
    y = QUILT_Y + BOARD * CELL + 34
    parts += _track_svg(20, y, f)
    next_parts, height = _next_svg(pos, f, y + 2 * TRACK_ROW + 30)
    return _svg_document(parts + next_parts, 640, height)


def position_svg_parts(pos: Position, labels: Sequence[Mapping[int, Label]] | None = None) -> dict[str, Any]:
    """The drawing of :func:`position_svg` in parts that a page lays out
    for its screen (side by side on a laptop, one under the other on a
    phone): ``quilts`` (each player's, its quilt's top-left corner at
    ``QUILT_PART[:2]``), ``track`` (the time board in rows of
    ``PART_PER_ROW`` spaces, its first space at ``TRACK_PART[:2]``) and
    ``next`` (the next three patches, or the result). Each is an SVG
    document."""
    pos, labels = _position(pos), _labels(labels)
    if labels is None:
        labels = pos.labels_or_tiling()
    f = pos.fields()
    x0, _, width, height = QUILT_PART
    quilts = [
        _svg_document(_player_svg(f, p, x0, not pos.is_over and pos.to_move == p, labels), width, height)
        for p in (0, 1)
    ]
    tx, ty, twidth, theight = TRACK_PART
    track = _svg_document(_track_svg(tx, ty, f, PART_PER_ROW), twidth, theight)
    next_parts, next_height = _next_svg(pos, f, 18, NEXT_COLUMN)
    return {
        "quilts": quilts,
        "track": track,
        "next": _svg_document(next_parts, 40 + 3 * NEXT_COLUMN, next_height - 8),
    }


__all__ = ["text_position", "position_svg", "quilt_lines", "track_lines", "patch_block", "symbol"]
