"""Board text: a position as a person writes it off the table.

Written by ``Position.to_board()`` and ``patchsolve show --board``, read by
``Position.from_board()``, ``Position(text)`` and every command that takes a
POSITION (told apart from the one-line notation by its first word). After
player 0 walks and player 1 buys patch 8 from the built-in start position
(the example of :mod:`patchsolve.rules.notation`)::

    # patchsolve board text: '.' empty, L leather, patch symbols as in 'patchsolve patches'
    edition revised
    circle 30,21,20,6,1,11,15,27,18,22,28,24,3,23,5,26,7,19,12,31,10,13,16,17,9,2,14,29,32,25,0,4
    player 0 buttons 6 time 1   # income 0
    .........
    .........
    .........
    .........
    .........
    .........
    .........
    .........
    .........
    player 1 buttons 3 time 6   # income 2
    888......
    8........
    .........
    .........
    .........
    .........
    .........
    .........
    .........

Lines
=====
``#`` starts a comment, to the end of the line; blank lines are ignored.
Words are separated by spaces or tabs, and a UTF-8 byte-order mark at the
start (as some Windows editors save one) is skipped.

``edition E``
    ``revised`` or ``original`` (optional, default ``revised``).
``circle ...``
    The patches left in the circle, starting with the one directly in front
    of the neutral token: patch ids or names (``patchsolve patches`` lists
    both), separated by commas or spaces; ``-`` for an empty circle.
``player P buttons B time T``
    Player ``P`` (0 or 1) with ``B`` buttons and the time token on space
    ``T`` (0..53), followed by that player's quilt: nine rows of nine
    symbols, row 1 (the top) first. Spaces inside a row are ignored, so
    ``. . 8 8 8 . . . .`` is a row too. A symbol is ``.`` (empty), a patch's
    symbol (its id as a base-33 digit ``0``-``9``, ``A``-``X`` without ``L``:
    ``C`` is patch 12), ``L`` (a leather patch) or ``?`` (covered by a patch
    the text does not name).
``on_top P``
    Only when both tokens share a space: whose token lies on top.
``bonus_owner P``
    Only when both quilts cover a 7x7 square: who took the bonus tile.
``pending_leather P``
    Only when it does not follow from the leather patches drawn (below).
``income I0/I1``
    Only when a quilt has ``?`` squares.

Derived, not written
====================
- each income: the income printed on the patches drawn on that quilt;
- the leather patches on the time board: the leather spaces ahead of both
  tokens;
- the 7x7 bonus: the player whose quilt covers a 7x7 square, when only one
  does;
- who reached space 53 first: the one on it, or when both are, the one not
  on top;
- a leather patch still to place: when fewer ``L`` squares are drawn than
  leather patches taken and no quilt is full, the player who has just passed
  a leather space places it. (A full quilt discards a leather patch, so then
  ``pending_leather`` is written out.)

With ``?`` squares the patches not in the circle and not drawn are taken to
lie under them, and income and ``pending_leather`` are as given.

Errors
======
A line that is not board text (an unknown keyword, a row of the wrong
length, an unknown symbol, a missing quilt) raises
:class:`~patchsolve.errors.NotationError` naming the line, or the quilt, row
and column. A drawing no set of catalogue patches explains (a symbol whose
squares are not that patch in any orientation, a patch drawn on both quilts
or also still in the circle, a patch neither in the circle nor drawn) and
every check of :func:`patchsolve.rules.validation.validate_fields` raise
:class:`~patchsolve.errors.InvalidPositionError`.

Writing a position without labels
=================================
A position stores quilts as masks only. One read from board text, or reached
by ``play`` from one that knows its labels (every ``Position.start()``),
remembers which patch lies where. For one read from the notation,
``to_board()`` searches for a tiling of both quilts by the patches that left
the circle (:mod:`patchsolve.rules.tiling`) within a budget; when none is found
in time the quilts are drawn with ``?`` and the incomes written out. Either
way the text reads back to an equal position.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from patchsolve.errors import InvalidPositionError, NotationError
from patchsolve.rules.notation import FULL
from patchsolve.rules.patches import (
    BOARD,
    DEFAULT_EDITION,
    EDITION_NAMES,
    EDITIONS,
    LAST_SPACE,
    LEATHER_SYMBOL,
    PATCHES,
    SYMBOLS,
    Edition,
)
from patchsolve.rules.tiling import WORK_BUDGET, Label, Labels

LEATHER = "L"  # the label of a leather patch (as in Game.labels)
UNKNOWN = "?"  # a covered square whose patch is not named
COVERED = "#"  # the same, as the pictures of ``patchsolve best`` draw it
EMPTY = "."
KEYWORDS = ("edition", "circle", "player", "on_top", "bonus_owner", "pending_leather", "income")
TILING_BUDGET = WORK_BUDGET  # placements the tiling search in to_board() may examine
_SYMBOL_ID = {s: i for i, s in enumerate(SYMBOLS)}
_NAME_ID = {p.name.lower(): p.id for p in PATCHES}
_COLUMNS = "abcdefghi"


_RECORD_ONLY = ("first", "moves", "position")  # game-record headers (patchsolve.rules.game)
BOM = "\ufeff"  # the UTF-8 byte-order mark some editors write at the start of a file


def looks_like_board(text: str) -> bool:
    """Is ``text`` board text (rather than notation, JSON or a game record,
    which may also start with ``edition`` or ``circle``)?"""
    if not isinstance(text, str):
        raise NotationError("board text must be text", field="board", token=repr(text)[:40])
    firsts = [line.split()[0] for line in _strip(text).splitlines() if line.strip()]
    return (
        bool(firsts)
        and firsts[0].lower() in ("edition", "circle", "player")
        and not set(firsts) & set(_RECORD_ONLY)
    )


_COMMENT = re.compile(r"(^|\s)#(\s|$).*")


def _strip(text: str) -> str:
    """Board text without its comments. A comment is a ``#`` followed by a
    space (or the end of the line) at the start of a line or after a space,
    so a quilt row may hold ``#``: the covered square of the picture
    ``patchsolve best`` draws. A leading byte-order mark goes too."""
    return "\n".join(_COMMENT.sub("", line) for line in text.removeprefix(BOM).splitlines())


# ---------------------------------------------------------------------------
# reading
# ---------------------------------------------------------------------------


def _player(token: str, line: str) -> int:
    if token not in ("0", "1"):
        raise NotationError(f"expected player 0 or 1 in {line!r}", field="player", token=token)
    return int(token)


def _number(token: str, key: str, lo: int, hi: int) -> int:
    if not re.fullmatch(r"0|[1-9][0-9]{0,4}", token) or not lo <= int(token) <= hi:
        raise NotationError(f"{key} must be a number {lo}..{hi}", field=key, token=token)
    return int(token)


def _circle(rest: str) -> tuple[int, ...]:
    tokens = [t for t in re.split(r"[\s,]+", rest.strip()) if t]
    if tokens == ["-"]:
        return ()
    ids = []
    for t in tokens:
        if re.fullmatch(r"0|[1-9][0-9]?", t) and int(t) < len(PATCHES):
            ids.append(int(t))
        elif len(t) == 1 and t in _SYMBOL_ID:  # the symbol the quilt rows use
            ids.append(_SYMBOL_ID[t])
        elif t.lower() in _NAME_ID:
            ids.append(_NAME_ID[t.lower()])
        else:
            raise NotationError(
                "unknown patch in the circle (an id 0..32, a symbol or a name, see 'patchsolve patches')",
                field="circle",
                token=t,
            )
    return tuple(ids)


def start_circle(text: str) -> tuple[int, ...]:
    """A start circle read off the table (ids or names, from the neutral
    token on): all 33 patches once each, the 1x2 (id 0) last, as RULES.md
    "Setup" has it."""
    from patchsolve.rules.patches import START_PATCH

    if not isinstance(text, str):
        raise NotationError("a circle must be text", field="circle", token=repr(text)[:40])
    circle = _circle(text)
    problems = []
    dups = sorted({i for i in circle if circle.count(i) > 1})
    if dups:
        problems.append(f"patch(es) {dups} listed more than once")
    missing = [i for i in range(len(PATCHES)) if i not in circle]
    if missing:
        problems.append(f"patch(es) {missing} missing (a start circle holds all {len(PATCHES)})")
    if circle and circle[-1] != START_PATCH:
        problems.append(
            f"the 1x2 (id {START_PATCH}) must be last: the neutral token starts just past it, "
            f"not {circle[-1]}"
        )
    if problems:
        raise InvalidPositionError(problems)
    return circle


def _player_line(rest: str, line: str) -> tuple[int, int, int]:
    words = rest.replace(":", " ").replace(",", " ").lower().split()
    if not words:
        raise NotationError("expected 'player P buttons B time T'", field="player", token=line)
    p = _player(words[0], line)
    pairs = words[1:]
    values = dict(zip(pairs[0::2], pairs[1::2]))
    if len(pairs) % 2 or set(values) != {"buttons", "time"} or len(pairs) != 4:
        raise NotationError(f"expected 'player {p} buttons B time T'", field="player", token=line)
    return p, _number(values["buttons"], "buttons", 0, 9999), _number(values["time"], "time", 0, LAST_SPACE)


def _row(p: int, r: int, text: str) -> list[Label | None]:
    cells = "".join(text.split())
    if len(cells) != BOARD:
        raise NotationError(
            f"quilt {p} row {r + 1} has {len(cells)} squares, not {BOARD}",
            field=f"quilt {p}",
            token=text.strip(),
        )
    out: list[Label | None] = []
    for c, ch in enumerate(cells):
        if ch == EMPTY:
            out.append(None)
        elif ch == LEATHER_SYMBOL:
            out.append(LEATHER)
        elif ch in (UNKNOWN, COVERED):
            out.append(UNKNOWN)
        elif ch in _SYMBOL_ID:
            out.append(_SYMBOL_ID[ch])
        else:
            raise NotationError(
                f"unknown symbol in quilt {p} row {r + 1} column {_COLUMNS[c]} (square "
                f"{_COLUMNS[c]}{r + 1}; symbols: . L ? # or a patch's, see 'patchsolve patches')",
                field=f"quilt {p}",
                token=ch,
            )
    return out


def parse_board(text: str) -> dict[str, Any]:
    """Read board text into its parts: ``edition``, ``circle``, per player
    ``buttons``/``time``/``cells`` (81 labels), and the optional lines."""
    if not isinstance(text, str):
        raise NotationError("board text must be text", field="board", token=repr(text)[:40])
    out: dict[str, Any] = {"edition": DEFAULT_EDITION, "players": {}, "options": {}}
    current: dict[str, Any] | None = None
    for raw in _strip(text).splitlines():
        line = raw.strip()
        if not line:
            continue
        key, rest = (line.split(None, 1) + [""])[:2]  # spaces or tabs
        if key.lower() in KEYWORDS:  # keywords in any case; quilt rows keep theirs
            key, rest = key.lower(), rest.lower() if key.lower() in ("edition", "player") else rest
        if key in KEYWORDS and key in out["options"] or key in ("edition", "circle") and f"_{key}" in out:
            raise NotationError(f"line {key!r} given twice", field=key, token=line)
        if key == "edition":
            if rest.strip() not in EDITION_NAMES:
                raise NotationError(
                    f"unknown edition (expected {' or '.join(EDITION_NAMES)})",
                    field="edition",
                    token=rest.strip(),
                )
            out["edition"] = rest.strip()
            out["_edition"] = True
        elif key == "circle":
            out["circle"] = _circle(rest)
            out["_circle"] = True
        elif key == "player":
            p, buttons, time = _player_line(rest, line)
            if p in out["players"]:
                raise NotationError(f"player {p} given twice", field="player", token=line)
            current = out["players"][p] = {"buttons": buttons, "time": time, "rows": []}
        elif key in ("on_top", "bonus_owner", "pending_leather"):
            out["options"][key] = _player(rest.strip(), line)
        elif key == "income":
            m = re.fullmatch(r"(0|[1-9][0-9]{0,2})/(0|[1-9][0-9]{0,2})", rest.strip())
            if not m:
                raise NotationError("expected 'income I0/I1'", field="income", token=rest.strip())
            out["options"]["income"] = (int(m.group(1)), int(m.group(2)))
        elif current is not None and len(current["rows"]) < BOARD:
            p = next(k for k, v in out["players"].items() if v is current)
            current["rows"].append(_row(p, len(current["rows"]), line))
        else:
            raise NotationError(
                f"unexpected line (expected one of {', '.join(KEYWORDS)}, or a quilt row "
                f"after a 'player' line)",
                field="board",
                token=line[:40],
            )
    if "circle" not in out:
        raise NotationError("missing the 'circle ...' line", field="circle", token=None)
    for p in (0, 1):
        if p not in out["players"]:
            raise NotationError(
                f"missing 'player {p} buttons B time T' and its quilt", field="player", token=None
            )
        rows = out["players"][p]["rows"]
        if len(rows) != BOARD:
            raise NotationError(
                f"quilt {p} has {len(rows)} rows, not {BOARD}", field=f"quilt {p}", token=None
            )
        out["players"][p]["cells"] = [x for row in rows for x in row]
    return out


def _patch_masks(cells_by_player: Iterable[Iterable[Label | None]]) -> dict[int, tuple[int, int]]:
    """patch id -> (player, mask of its squares); a patch on both quilts is an error."""
    masks: dict[int, dict[int, int]] = {}
    for p, cells in enumerate(cells_by_player):
        for sq, label in enumerate(cells):
            if isinstance(label, int):
                masks.setdefault(label, {}).setdefault(p, 0)
                masks[label][p] |= 1 << sq
    out = {}
    for pid, by_player in masks.items():
        if len(by_player) > 1:
            raise InvalidPositionError(
                f"patch {pid} ({SYMBOLS[pid]}, {PATCHES[pid].name}) is drawn on both quilts"
            )
        ((p, m),) = by_player.items()
        out[pid] = (p, m)
    return out


def _squares(mask: int) -> str:
    return " ".join(f"{_COLUMNS[sq % BOARD]}{sq // BOARD + 1}" for sq in range(81) if mask >> sq & 1)


def _check_patches(
    placed: Mapping[int, tuple[int, int]], circle: Collection[int], unknown: bool
) -> list[str]:
    from patchsolve.rules.tiling import placement_set

    problems = []
    for pid, (p, m) in sorted(placed.items()):
        if m not in placement_set(pid):
            problems.append(
                f"quilt {p}: the squares drawn {SYMBOLS[pid]} ({_squares(m)}) are not patch {pid} "
                f"({PATCHES[pid].name}, shape {PATCHES[pid].shape}) in any orientation"
            )
        if pid in circle:
            problems.append(
                f"patch {pid} ({SYMBOLS[pid]}) is drawn on quilt {p} and also still in the circle"
            )
    missing = [i for i in range(len(PATCHES)) if i not in circle and i not in placed]
    if missing and not unknown:
        problems.append(f"patch(es) {missing} are neither in the circle nor drawn on a quilt")
    return problems


def _derived_pending(fields: Mapping[str, Any], leather_drawn: int) -> int | None:
    """Who must place a leather patch, from the leather patches drawn."""
    ed = EDITIONS[fields["edition"]]
    t = fields["time"]
    taken = sum(1 for s in ed.leather_spaces if s <= max(t))
    if leather_drawn >= taken or FULL in fields["quilts"]:
        return None
    for p in (0, 1):
        if any(t[1 - p] < s <= t[p] for s in ed.leather_spaces):
            return p
    return None


def _leather_problem(
    cells: Iterable[Sequence[Label | None]], fields: Mapping[str, Any], ed: Edition
) -> str | None:
    """The leather patches drawn against the leather spaces the tokens have
    passed, in the table's own terms (None when they agree)."""
    drawn = [c.count(LEATHER) for c in cells]
    passed = [s for s in ed.leather_spaces if s <= max(fields["time"])]
    expected = len(passed) - (fields["pending_leather"] is not None)
    if sum(drawn) == expected or FULL in fields["quilts"]:
        return None
    where = ", ".join(f"quilt {p} shows {n} L" for p, n in enumerate(drawn))
    if sum(drawn) > len(passed):
        spaces = f"the leather space(s) {', '.join(map(str, passed))}" if passed else "no leather space"
        return (
            f"{where}, but the tokens have passed {spaces}: each L is the 1x1 leather patch of a passed space"
        )
    return (
        f"the tokens have passed the leather space(s) {', '.join(map(str, passed))}, a 1x1 leather patch "
        f"each for the first to pass it, but {where}: draw each as L on the quilt where it was placed"
    )


def fields_from_board(text: str) -> tuple[dict[str, Any], Labels | None]:
    """The fields of the position drawn in ``text`` and its labels
    (per player, square -> patch id or ``"L"``); validated."""
    b = parse_board(text)
    opts = b["options"]
    return fields_from_table(
        b["edition"],
        b["circle"],
        [b["players"][p]["cells"] for p in (0, 1)],
        tuple(b["players"][p]["buttons"] for p in (0, 1)),
        tuple(b["players"][p]["time"] for p in (0, 1)),
        on_top=opts.get("on_top"),
        bonus_owner=opts.get("bonus_owner"),
        pending_leather=opts.get("pending_leather"),
        income=opts.get("income"),
    )


def fields_from_table(
    edition: str,
    circle: Iterable[int],
    cells: Sequence[Sequence[Label | None]],
    buttons: Iterable[int],
    time: Iterable[int],
    *,
    on_top: int | None = None,
    bonus_owner: int | None = None,
    pending_leather: int | None = None,
    income: Sequence[int] | None = None,
) -> tuple[dict[str, Any], Labels | None]:
    """The position on a table: what a person sees, plus what follows from it.

    The one derivation behind board text (:func:`fields_from_board`) and the
    web app's set-up form (:mod:`patchsolve.web.table`). Given: the edition,
    the ``circle`` (ids from the neutral token on), ``cells`` (per player 81
    labels, square 0 = a1 first: None empty, a patch id, ``"L"`` leather or
    ``"?"`` covered by an unnamed patch), ``buttons`` and ``time`` (pairs),
    and the answers the table cannot show: ``on_top`` (both tokens on one
    space), ``bonus_owner`` (both quilts cover a 7x7 square),
    ``pending_leather`` (only when it does not follow from the ``L`` drawn)
    and ``income`` (only with ``?`` squares).

    Derived (RULES.md): each income, the printed income of the patches on
    that quilt; the leather patches still on the time board, the leather
    spaces ahead of both tokens; the 7x7 bonus, the one player whose quilt
    covers a 7x7 square; who reached space 53 first; a leather patch still to
    place, when fewer ``L`` are drawn than leather patches taken, no quilt is
    full and no ``?`` hides them: the player who has just passed a leather
    space.

    Returns ``(fields, labels)``, validated (labels None when a quilt has
    ``?`` squares); a drawing no catalogue patches explain raises
    :class:`~patchsolve.errors.InvalidPositionError`, a missing or
    superfluous answer too.
    """
    from patchsolve.rules.validation import covers_7x7, validate_fields

    if edition not in EDITIONS:
        raise NotationError(
            f"unknown edition (expected {' or '.join(EDITION_NAMES)})",
            field="edition",
            token=str(edition)[:40],
        )
    ed = EDITIONS[edition]
    circle = tuple(circle)
    foreign = sorted({x for x in circle if not (isinstance(x, int) and 0 <= x < len(PATCHES))}, key=str)
    if foreign:
        raise InvalidPositionError(
            f"circle: unknown patch id(s) {foreign[:5]} (ids are 0..{len(PATCHES) - 1})"
        )
    unknown = any(UNKNOWN in c for c in cells)
    placed = _patch_masks(cells)
    problems = _check_patches(placed, circle, unknown)
    if problems:
        raise InvalidPositionError(problems)
    if unknown and income is None:
        raise NotationError(
            "a quilt has '?' squares, so give the incomes with a line 'income I0/I1'",
            field="income",
            token=None,
        )
    if not unknown and income is not None:
        raise NotationError(
            "the incomes follow from the patches drawn; give 'income' only with '?' squares",
            field="income",
            token=f"{income[0]}/{income[1]}",
        )
    quilts = tuple(sum(1 << sq for sq, x in enumerate(cells[p]) if x is not None) for p in (0, 1))
    if income is None:
        income = tuple(sum(PATCHES[i].income for i, (q, _) in placed.items() if q == p) for p in (0, 1))
    t = tuple(time)
    covering = [p for p in (0, 1) if covers_7x7(quilts[p])]
    if bonus_owner is None and len(covering) == 2:
        raise InvalidPositionError(
            "both quilts cover a 7x7 square: say who took the bonus tile (board text: a line 'bonus_owner P')"
        )
    at_end = [p for p in (0, 1) if t[p] == LAST_SPACE]
    first = at_end[0] if len(at_end) == 1 else (1 - on_top if at_end and on_top is not None else None)
    fields: dict[str, Any] = {
        "edition": edition,
        "circle": circle,
        "quilts": quilts,
        "buttons": tuple(buttons),
        "income": tuple(income),
        "time": t,
        "on_top": on_top,
        "leather": tuple(s for s in ed.leather_spaces if s > max(t)),
        "bonus_owner": bonus_owner if bonus_owner is not None else covering[0] if covering else None,
        "first_at_end": first,
        "pending_leather": None,
    }
    if pending_leather is not None or unknown:
        fields["pending_leather"] = pending_leather
    else:
        fields["pending_leather"] = _derived_pending(fields, sum(c.count(LEATHER) for c in cells))
        problem = _leather_problem(cells, fields, ed)
        if problem:
            raise InvalidPositionError(problem)
    validate_fields(fields)
    labels = (
        {sq: x for sq, x in enumerate(cells[0]) if x is not None},
        {sq: x for sq, x in enumerate(cells[1]) if x is not None},
    )
    return fields, (None if unknown else labels)


# ---------------------------------------------------------------------------
# writing
# ---------------------------------------------------------------------------


def _symbol(label: Label | None) -> str:
    if label == LEATHER:
        return LEATHER_SYMBOL
    if isinstance(label, int):
        return SYMBOLS[label]
    return UNKNOWN


def _rows(quilt: int, labels: Mapping[int, Label] | None) -> list[str]:
    rows = []
    for r in range(BOARD):
        row = ""
        for c in range(BOARD):
            sq = r * BOARD + c
            row += EMPTY if not quilt >> sq & 1 else _symbol(labels.get(sq) if labels is not None else None)
        rows.append(row)
    return rows


def check_labels(labels: object) -> Sequence[dict[int, Label]] | None:
    """``labels`` when it is None or, for each player, a dict square (0..80)
    -> patch id (0..32) or ``"L"`` (as ``Position.labels`` and
    ``Game.labels`` give them); else an InvalidPositionError saying why."""
    if labels is None:
        return None
    if (
        not isinstance(labels, (tuple, list))
        or len(labels) != 2
        or not all(isinstance(d, dict) for d in labels)
    ):
        raise InvalidPositionError(f"labels must be a pair of dicts (one per player), not {labels!r}"[:200])
    for p, d in enumerate(labels):
        for sq, label in d.items():
            if isinstance(sq, bool) or not isinstance(sq, int) or not 0 <= sq < BOARD * BOARD:
                raise InvalidPositionError(f"labels of player {p}: not a square 0..80: {sq!r}"[:200])
            if label != LEATHER and (
                isinstance(label, bool) or not isinstance(label, int) or not 0 <= label < len(PATCHES)
            ):
                raise InvalidPositionError(f"labels of player {p}: not a patch id or 'L': {label!r}"[:200])
    return labels


def format_board(fields: Mapping[str, Any], labels: Sequence[Mapping[int, Label]] | None = None) -> str:
    """Board text of a valid position; ``labels`` as from :func:`fields_from_board`
    (None: quilts drawn with ``?``, incomes written out)."""
    from patchsolve.rules.validation import covers_7x7, shape_problems

    problems = shape_problems(fields)
    if problems:
        raise InvalidPositionError(problems)
    check_labels(labels)
    f = fields
    lines = [
        "# patchsolve board text: '.' empty, L leather, patch symbols as in 'patchsolve patches'",
        f"edition {f['edition']}",
        "circle " + (",".join(str(x) for x in f["circle"]) or "-"),
    ]
    for p in (0, 1):
        lines.append(f"player {p} buttons {f['buttons'][p]} time {f['time'][p]}   # income {f['income'][p]}")
        lines += _rows(f["quilts"][p], labels[p] if labels is not None else None)
    if f["time"][0] == f["time"][1]:
        lines.append(f"on_top {f['on_top']}")
    if all(covers_7x7(q) for q in f["quilts"]):
        lines.append(f"bonus_owner {f['bonus_owner']}")
    if labels is None:
        lines.append(f"income {f['income'][0]}/{f['income'][1]}")
        if f["pending_leather"] is not None:
            lines.append(f"pending_leather {f['pending_leather']}")
    else:
        drawn = sum(1 for d in labels for x in d.values() if x == LEATHER)
        if _derived_pending(f, drawn) != f["pending_leather"]:
            lines.append(f"pending_leather {f['pending_leather']}")
    return "\n".join(lines) + "\n"


__all__ = [
    "format_board",
    "fields_from_board",
    "fields_from_table",
    "parse_board",
    "looks_like_board",
    "start_circle",
    "check_labels",
    "TILING_BUDGET",
]
