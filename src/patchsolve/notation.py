"""Position notation: a one-line text form, a JSON form, and validation.

The text form (``Position.to_text()`` / ``Position.from_text()``)
==================================================================

One line of eleven fields separated by whitespace, in this order (the names
are the keys of ``Position.fields()`` and appear in error messages)::

    edition circle quilts buttons income time on_top leather bonus_owner first_at_end pending_leather

=====================  ==========================================================
field                  text
=====================  ==========================================================
``edition``            ``revised`` or ``original`` (the time-board printing)
``circle``             the patch ids left in the circle, comma-separated, starting
                       with the patch directly in front of the neutral token
                       (``-`` when the circle is empty)
``quilts``             ``Q0/Q1``: each quilt's 81-bit mask in lower-case hex
                       without ``0x`` or leading zeros (bit ``row*9 + col``, row 0
                       at the top, so square ``a1`` is bit 0 and ``i9`` bit 80;
                       ``0`` is an empty quilt, ``1ffffffffffffffffffff`` a full one)
``buttons``            ``B0/B1``: buttons of player 0 and player 1 (decimal)
``income``             ``I0/I1``: buttons printed on the patches of each quilt
``time``               ``T0/T1``: each time token's space, 0..53
``on_top``             ``0``/``1``: whose token lies on top when both share a
                       space; ``-`` when they do not
``leather``            the time-board spaces still holding a leather patch,
                       ascending, comma-separated (``-`` when none is left)
``bonus_owner``        ``0``/``1``/``-``: who holds the 7x7 bonus tile
``first_at_end``       ``0``/``1``/``-``: who reached space 53 first
``pending_leather``    ``0``/``1``/``-``: the player who has taken a leather patch
                       and must place it now (their next move is ``leather@<sq>``)
=====================  ==========================================================

The player to move is not a field: it follows from the rules (a pending
leather placement first, else the token further behind, else the one on top).

Fields are separated by any run of spaces or tabs; leading and trailing
whitespace is ignored. Numbers are decimal without leading zeros or ``+``; a
``-`` sign (not ``-0``) is read for buttons, income and time so that a
negative value is reported as an invalid position rather than a syntax error. Each position has exactly one text:
``Position.from_text(s).to_text() == s`` for every text ``to_text`` writes,
and ``Position.from_text(p.to_text()) == p`` for every position.

Examples
--------
The built-in start position (``Position.start(seed=0)``, revised board,
player 0 to move; the 1x2, id 0, is last in the circle)::

    revised 4,8,30,21,20,6,1,11,15,27,18,22,28,24,3,23,5,26,7,19,12,31,10,13,16,17,9,2,14,29,32,25,0 0/0 5/5 0/0 0/0 0 26,32,38,44,50 - - -

After player 0 walks to space 1 (taking 1 button) and player 1 buys patch 8
with ``8:0@a1`` (cost 4, time 6, income 2; the neutral token moves to its
place, so the skipped patch 4 goes to the end of the circle) and is ahead on
space 6, covering a1, b1, c1 and a2 (mask 0x207)::

    revised 30,21,20,6,1,11,15,27,18,22,28,24,3,23,5,26,7,19,12,31,10,13,16,17,9,2,14,29,32,25,0,4 0/207 6/3 0/2 1/6 - 26,32,38,44,50 - - -

Mid-game, player 1 has just moved past space 26 and must now place the
leather patch taken there (only 32..50 still hold one)::

    revised 13,16,17,9,2,14,29,32,25,0,4,30,21,6,27,18,28,3,23,26,19,31 606000030b3cf8080/61be5d0e8ed20cc2403 10/10 9/4 25/26 - 32,38,44,50 - - 1

A finished game (both tokens on 53; player 1 arrived last and lies on top,
player 0 reached 53 first; nobody holds the bonus tile)::

    revised 28,24,26,19,31,10,17,9,29,32,30,21 160bb69378fec449be54f/1ee7b6517bbf53bef7f66 45/52 8/9 53/53 1 - - 0 -

The JSON form (``Position.to_json()`` / ``Position.from_json()``)
==================================================================

An object with exactly the eleven keys above; pairs are 2-element arrays,
``circle`` and ``leather`` arrays of ints, players ``0``/``1``/``null``, and
the quilts hex strings as in the text form (81-bit ints do not survive
JavaScript's doubles)::

    {"edition": "revised", "circle": [4, 8, ...], "quilts": ["0", "0"],
     "buttons": [5, 5], "income": [0, 0], "time": [0, 0], "on_top": 0,
     "leather": [26, 32, 38, 44, 50], "bonus_owner": null,
     "first_at_end": null, "pending_leather": null}

Errors
======
Text or JSON that is not well formed raises
:class:`~patchsolve.errors.NotationError` naming the field and the bad token.
A well-formed position that cannot occur raises
:class:`~patchsolve.errors.InvalidPositionError` listing every problem found
(see :func:`validate_fields` for the checks). Nothing is built on error.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

from patchsolve.errors import InvalidPositionError, NotationError
from patchsolve.patches import BOARD, EDITION_NAMES, EDITIONS, LAST_SPACE, PATCHES, START_BUTTONS

FIELDS = ("edition", "circle", "quilts", "buttons", "income", "time", "on_top",
          "leather", "bonus_owner", "first_at_end", "pending_leather")
PAIRS = ("quilts", "buttons", "income", "time")
PLAYER_FIELDS = ("on_top", "bonus_owner", "first_at_end", "pending_leather")

SQUARES = BOARD * BOARD
FULL = (1 << SQUARES) - 1
N_PATCHES = len(PATCHES)
MAX_BUTTONS = 32767  # the core stores int16; validation gives the real bound

_INT = re.compile(r"^(0|-?[1-9][0-9]{0,5})$")
_NAT = re.compile(r"^(0|[1-9][0-9]{0,2})$")
_HEX = re.compile(r"^(0|[1-9a-f][0-9a-f]{0,20})$")


# ---------------------------------------------------------------------------
# text
# ---------------------------------------------------------------------------

def _player_text(v) -> str:
    return "-" if v is None else str(v)


def _list_text(xs) -> str:
    return ",".join(str(x) for x in xs) if xs else "-"


def format_position(fields: dict) -> str:
    """The text form of a (valid) fields dict."""
    f = fields
    return " ".join([
        f["edition"],
        _list_text(f["circle"]),
        "/".join(format(q, "x") for q in f["quilts"]),
        "/".join(str(x) for x in f["buttons"]),
        "/".join(str(x) for x in f["income"]),
        "/".join(str(x) for x in f["time"]),
        _player_text(f["on_top"]),
        _list_text(f["leather"]),
        _player_text(f["bonus_owner"]),
        _player_text(f["first_at_end"]),
        _player_text(f["pending_leather"]),
    ])


def _parse_list(field: str, token: str) -> tuple[int, ...]:
    if token == "-":
        return ()
    out = []
    for part in token.split(","):
        if not _NAT.match(part):
            raise NotationError(f"bad number in {field} list (expected comma-separated numbers or '-')",
                                field=field, token=part or token)
        out.append(int(part))
    return tuple(out)


def _parse_pair(field: str, token: str, pattern, base: int = 10) -> tuple[int, int]:
    parts = token.split("/")
    what = "lower-case hex masks without leading zeros" if base == 16 else "numbers"
    if len(parts) != 2:
        raise NotationError(f"expected two {what} separated by '/'", field=field, token=token)
    for part in parts:
        if not pattern.match(part):
            raise NotationError(f"bad value (expected two {what} separated by '/')", field=field, token=part)
    return int(parts[0], base), int(parts[1], base)


def _parse_player(field: str, token: str):
    if token == "-":
        return None
    if token in ("0", "1"):
        return int(token)
    raise NotationError("expected 0, 1 or '-'", field=field, token=token)


def parse_position(text: str) -> dict:
    """Read the text form into a fields dict (syntax only; see
    :func:`validate_fields` for the semantic checks)."""
    if not isinstance(text, str):
        raise NotationError("a position must be text", field="position", token=repr(text)[:60])
    tokens = text.split()
    if tokens and tokens[0] not in EDITION_NAMES:
        raise NotationError(f"unknown edition (expected {' or '.join(EDITION_NAMES)}; a position starts "
                            f"with its edition)", field="edition", token=tokens[0][:40])
    if len(tokens) < len(FIELDS):
        missing = FIELDS[len(tokens)]
        raise NotationError(f"expected {len(FIELDS)} fields ({' '.join(FIELDS)}), got {len(tokens)}; "
                            f"missing {missing!r}", field=missing, token=tokens[-1] if tokens else "")
    if len(tokens) > len(FIELDS):
        raise NotationError(f"expected {len(FIELDS)} fields ({' '.join(FIELDS)}), got {len(tokens)}",
                            field="position", token=tokens[len(FIELDS)])
    t = dict(zip(FIELDS, tokens))
    if t["edition"] not in EDITION_NAMES:
        raise NotationError(f"unknown edition (expected {' or '.join(EDITION_NAMES)})",
                            field="edition", token=t["edition"])
    return {
        "edition": t["edition"],
        "circle": _parse_list("circle", t["circle"]),
        "quilts": _parse_pair("quilts", t["quilts"], _HEX, 16),
        "buttons": _parse_pair("buttons", t["buttons"], _INT),
        "income": _parse_pair("income", t["income"], _INT),
        "time": _parse_pair("time", t["time"], _INT),
        "on_top": _parse_player("on_top", t["on_top"]),
        "leather": _parse_list("leather", t["leather"]),
        "bonus_owner": _parse_player("bonus_owner", t["bonus_owner"]),
        "first_at_end": _parse_player("first_at_end", t["first_at_end"]),
        "pending_leather": _parse_player("pending_leather", t["pending_leather"]),
    }


# ---------------------------------------------------------------------------
# JSON
# ---------------------------------------------------------------------------

def fields_to_json(fields: dict) -> dict:
    """A JSON-ready dict (quilts as hex strings, tuples as lists)."""
    f = fields
    return {
        "edition": f["edition"],
        "circle": list(f["circle"]),
        "quilts": [format(q, "x") for q in f["quilts"]],
        "buttons": list(f["buttons"]),
        "income": list(f["income"]),
        "time": list(f["time"]),
        "on_top": f["on_top"],
        "leather": list(f["leather"]),
        "bonus_owner": f["bonus_owner"],
        "first_at_end": f["first_at_end"],
        "pending_leather": f["pending_leather"],
    }


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _bad(field, value, what):
    token = json.dumps(value) if _jsonable(value) else repr(value)
    return NotationError(f"{field} must be {what}", field=field, token=token[:80])


def _jsonable(value) -> bool:
    try:
        json.dumps(value)
        return True
    except (TypeError, ValueError):
        return False


def fields_from_json(data) -> dict:
    """Read the JSON form (a str or an already decoded dict) into fields."""
    if isinstance(data, (str, bytes, bytearray)):
        try:
            data = json.loads(data)
        except (ValueError, RecursionError) as e:
            raise NotationError(f"not JSON: {e}", field="json",
                                token=(data[:40] if isinstance(data, str) else repr(data[:40]))) from None
    if not isinstance(data, Mapping):
        raise NotationError("a JSON position must be an object", field="json", token=repr(data)[:60])
    missing = [k for k in FIELDS if k not in data]
    if missing:
        raise NotationError(f"missing key(s) {', '.join(missing)}", field=missing[0], token=None)
    extra = [k for k in data if k not in FIELDS]
    if extra:
        raise NotationError(f"unknown key(s) {', '.join(map(str, extra))}", field=str(extra[0]), token=None)
    out = {}
    ed = data["edition"]
    if ed not in EDITION_NAMES:
        raise _bad("edition", ed, f"one of {', '.join(EDITION_NAMES)}")
    out["edition"] = ed
    for k in ("circle", "leather"):
        v = data[k]
        if not isinstance(v, list) or not all(_is_int(x) for x in v):
            raise _bad(k, v, "an array of ints")
        out[k] = tuple(v)
    q = data["quilts"]
    if not (isinstance(q, list) and len(q) == 2 and all(isinstance(x, str) and _HEX.match(x) for x in q)):
        raise _bad("quilts", q, "two lower-case hex strings")
    out["quilts"] = (int(q[0], 16), int(q[1], 16))
    for k in ("buttons", "income", "time"):
        v = data[k]
        if not (isinstance(v, list) and len(v) == 2 and all(_is_int(x) for x in v)):
            raise _bad(k, v, "an array of two ints")
        out[k] = tuple(v)
    for k in PLAYER_FIELDS:
        v = data[k]
        if v is not None and not (_is_int(v) and v in (0, 1)):
            raise _bad(k, v, "0, 1 or null")
        out[k] = v
    return out


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------

_PATCH_SIZE = [p.size for p in PATCHES]
_PATCH_INCOME = [p.income for p in PATCHES]
_PATCH_TIME = [p.time for p in PATCHES]
_TOTAL_SIZE = sum(_PATCH_SIZE)
_TOTAL_INCOME = sum(_PATCH_INCOME)
_TOTAL_TIME = sum(_PATCH_TIME)


def _bonus_masks():
    masks = []
    for r0 in range(BOARD - 6):
        for c0 in range(BOARD - 6):
            m = 0
            for r in range(r0, r0 + 7):
                for c in range(c0, c0 + 7):
                    m |= 1 << (r * BOARD + c)
            masks.append(m)
    return masks


_BONUS = _bonus_masks()


def covers_7x7(quilt: int) -> bool:
    return any(quilt & m == m for m in _BONUS)


def _type_problems(f) -> list[str]:
    problems = []
    if f["edition"] not in EDITION_NAMES:
        problems.append(f"unknown edition {f['edition']!r} (known: {', '.join(EDITION_NAMES)})")
    for k in ("circle", "leather"):
        v = f[k]
        if not isinstance(v, (tuple, list)) or not all(_is_int(x) for x in v):
            problems.append(f"{k} must be a sequence of ints, not {v!r}")
    for k in PAIRS:
        v = f[k]
        if not isinstance(v, (tuple, list)) or len(v) != 2 or not all(_is_int(x) for x in v):
            problems.append(f"{k} must be a pair of ints, not {v!r}")
    for k in PLAYER_FIELDS:
        v = f[k]
        if v is not None and not (_is_int(v) and v in (0, 1)):
            problems.append(f"{k} must be None, 0 or 1, not {v!r}")
    return problems


def _spaces_reached(spaces, t) -> int:
    return sum(1 for s in spaces if s <= t)


def position_problems(fields) -> list[str]:
    """Every reason why ``fields`` cannot be a position (empty if valid).
    See :func:`validate_fields`."""
    if not isinstance(fields, Mapping):
        return [f"fields must be a dict, not {type(fields).__name__}"]
    missing = [k for k in FIELDS if k not in fields]
    extra = [k for k in fields if k not in FIELDS]
    problems = []
    if missing:
        problems.append(f"missing field(s) {', '.join(missing)}")
    if extra:
        problems.append(f"unknown field(s) {', '.join(map(str, extra))}")
    if problems:
        return problems
    f = fields
    problems = _type_problems(f)
    if problems:
        return problems

    ed = EDITIONS[f["edition"]]
    circle = tuple(f["circle"])
    q0, q1 = f["quilts"]
    b, inc, t = f["buttons"], f["income"], f["time"]

    # circle
    circle_ok = True
    bad_ids = sorted({x for x in circle if not 0 <= x < N_PATCHES})
    if bad_ids:
        circle_ok = False
        problems.append(f"circle: unknown patch id(s) {bad_ids} (ids are 0..{N_PATCHES - 1})")
    dups = sorted({x for x in circle if circle.count(x) > 1})
    if dups:
        circle_ok = False
        problems.append(f"circle: patch id(s) {dups} listed more than once")
    out = [i for i in range(N_PATCHES) if i not in circle] if circle_ok else []

    # quilts
    quilts_ok = True
    for p, q in enumerate((q0, q1)):
        if not 0 <= q <= FULL:
            quilts_ok = False
            problems.append(f"quilts: quilt {p} mask has bits outside the 81 squares")

    # time
    time_ok = True
    for p in (0, 1):
        if not 0 <= t[p] <= LAST_SPACE:
            time_ok = False
            problems.append(f"time: player {p} on space {t[p]}, outside 0..{LAST_SPACE}")

    # buttons and income
    for p in (0, 1):
        if b[p] < 0:
            problems.append(f"buttons: player {p} has negative buttons ({b[p]})")
        if inc[p] < 0:
            problems.append(f"income: player {p} has negative income ({inc[p]})")
    if circle_ok and inc[0] >= 0 and inc[1] >= 0:
        out_income = sum(_PATCH_INCOME[i] for i in out)
        if inc[0] + inc[1] != out_income:
            problems.append(f"income: the players' incomes add up to {inc[0] + inc[1]}, but the patches "
                            f"no longer in the circle carry {out_income}")
    if time_ok:
        for p in (0, 1):
            if t[p] == 0:
                if b[p] != START_BUTTONS:
                    problems.append(f"buttons: player {p} is still on space 0 (has not moved) "
                                    f"but has {b[p]} buttons, not {START_BUTTONS}")
                if inc[p] != 0:
                    problems.append(f"income: player {p} is still on space 0 (has not moved) "
                                    f"but has income {inc[p]}")
                if quilts_ok and (q0, q1)[p]:
                    problems.append(f"quilts: player {p} is still on space 0 (has not moved) "
                                    f"but the quilt is not empty")
            elif inc[p] >= 0:
                most = START_BUTTONS + t[p] + _spaces_reached(ed.income_spaces, t[p]) * inc[p]
                if b[p] > most:
                    problems.append(f"buttons: player {p} has {b[p]} buttons, more than the {most} a player "
                                    f"on space {t[p]} with income {inc[p]} can have earned")

    # leather patches on the time board
    leather = tuple(f["leather"])
    leather_ok = True
    if list(leather) != sorted(set(leather)):
        leather_ok = False
        problems.append(f"leather: spaces must be ascending without repeats, got {list(leather)}")
    foreign = [s for s in leather if s not in ed.leather_spaces]
    if foreign:
        leather_ok = False
        problems.append(f"leather: space(s) {foreign} hold no leather patch on the {ed.name} board "
                        f"(leather spaces: {list(ed.leather_spaces)})")
    if time_ok:
        front = max(t)
        passed = [s for s in leather if s in ed.leather_spaces and s <= front]
        if passed:
            leather_ok = False
            problems.append(f"leather: space(s) {passed} still hold a leather patch, but a token "
                            f"has already reached space {front}")
        gone = [s for s in ed.leather_spaces if s > front and s not in leather]
        if gone:
            leather_ok = False
            problems.append(f"leather: space(s) {gone} lie ahead of both tokens but hold no leather patch")

    # on top
    if time_ok:
        if t[0] == t[1] and f["on_top"] is None:
            problems.append(f"on_top: both tokens are on space {t[0]}, so one must be on top")
        if t[0] != t[1] and f["on_top"] is not None:
            problems.append(f"on_top: set to {f['on_top']} but the tokens are on different spaces {t[0]}/{t[1]}")

    # pending leather placement
    pend = f["pending_leather"]
    if pend is not None:
        if quilts_ok and (q0, q1)[pend] == FULL:
            problems.append(f"pending_leather: player {pend}'s quilt is full (the leather patch is discarded)")
        if time_ok:
            o = 1 - pend
            if not any(t[o] < s <= t[pend] for s in ed.leather_spaces):
                problems.append(f"pending_leather: player {pend} must just have taken a leather patch, so be "
                                f"ahead with a leather space after the opponent's token, up to their own "
                                f"(tokens {t[0]}/{t[1]}, leather spaces {list(ed.leather_spaces)})")

    # 7x7 bonus
    if quilts_ok:
        covering = [p for p, q in enumerate((q0, q1)) if covers_7x7(q)]
        owner = f["bonus_owner"]
        if owner is None and covering:
            problems.append(f"bonus_owner: quilt {covering[0]} covers a 7x7 square, so the bonus tile has an owner")
        if owner is not None and owner not in covering:
            problems.append(f"bonus_owner: player {owner} holds the bonus tile but the quilt covers no 7x7 square")

    # first to reach 53
    if time_ok:
        fe = f["first_at_end"]
        at_end = [p for p in (0, 1) if t[p] == LAST_SPACE]
        if fe is None and at_end:
            problems.append(f"first_at_end: player {at_end[0]} is on space {LAST_SPACE}, so someone reached it first")
        if fe is not None and fe not in at_end:
            problems.append(f"first_at_end: player {fe} is not on space {LAST_SPACE}")
        if (len(at_end) == 2 and fe is not None and f["on_top"] is not None and fe == f["on_top"]):
            problems.append(f"first_at_end: both tokens are on {LAST_SPACE} and player {fe} is on top, "
                            f"so arrived last, not first")

    # covered squares: patches that left the circle plus leather patches taken
    if circle_ok and quilts_ok and time_ok and leather_ok and not problems:
        covered = bin(q0).count("1") + bin(q1).count("1")
        out_size = sum(_PATCH_SIZE[i] for i in out)
        taken = len(ed.leather_spaces) - len(leather) - (pend is not None)
        full = q0 == FULL or q1 == FULL
        if full:
            if not out_size <= covered <= out_size + taken:
                problems.append(f"quilts: {covered} squares covered, but the patches that left the circle cover "
                                f"{out_size} and {taken} leather patch(es) were placed or discarded")
        elif covered != out_size + taken:
            problems.append(f"quilts: {covered} squares covered, but the patches that left the circle cover "
                            f"{out_size} and {taken} leather patch(es) were placed")
        if not problems:
            why = _split_problem(f, ed, out, covered - out_size)
            if why:
                problems.append(why)
    return problems


def _split_problem(f, ed, out, leather_placed) -> str | None:
    """Is there a split of the patches that left the circle between the two
    quilts that explains each income, quilt size and time? (subset DP on a
    packed bitset: bit ((income * S) + size) * TT + time of player 0's share)."""
    S, TT = _TOTAL_SIZE + 1, _TOTAL_TIME + 1
    reach = 1
    for i in out:
        reach |= reach << ((_PATCH_INCOME[i] * S + _PATCH_SIZE[i]) * TT + _PATCH_TIME[i])
    t = f["time"]
    pend = f["pending_leather"]
    pops = [bin(q).count("1") for q in f["quilts"]]
    t_out = sum(_PATCH_TIME[i] for i in out)
    hi = t[0] if t[0] < LAST_SPACE else t_out
    lo = t_out - t[1] if t[1] < LAST_SPACE else 0
    if lo < 0:
        lo = 0
    if hi < lo:
        return (f"time: the patches that left the circle cost {t_out} time in all, more than the tokens "
                f"on {t[0]}/{t[1]} have moved")
    window = ((1 << (hi - lo + 1)) - 1) << lo
    reachable_leather = [_spaces_reached(ed.leather_spaces, t[p]) - (pend == p) for p in (0, 1)]
    inc0 = f["income"][0]
    for l0 in range(0, leather_placed + 1):
        l1 = leather_placed - l0
        if l0 > reachable_leather[0] or l1 > reachable_leather[1]:
            continue
        size0 = pops[0] - l0
        if size0 < 0 or pops[1] - l1 < 0:
            continue
        if (reach >> ((inc0 * S + size0) * TT)) & window:
            return None
    return ("quilts: no split of the patches that left the circle between the players explains both "
            "incomes, quilt sizes and time positions")


def validate_fields(fields) -> None:
    """Raise :class:`InvalidPositionError` listing every problem, if any.

    Checks (each problem is reported; checks that need a field that is
    already wrong are skipped):

    - exactly the eleven fields, with the right types;
    - ``edition`` known; ``circle`` ids in 0..32 without repeats;
    - ``quilts`` inside the 81 squares; ``time`` in 0..53;
    - ``buttons`` and ``income`` not negative;
    - the two incomes add up to exactly the income printed on the patches no
      longer in the circle (every bought patch is on a quilt);
    - a player still on space 0 has not moved: 5 buttons, no income, empty
      quilt; otherwise a player has at most ``5 + time + k * income``
      buttons (k = income spaces reached: walking pays at most one button per
      space, and income never decreases);
    - ``leather`` holds only leather spaces of the edition, ascending, and
      exactly those ahead of both tokens (a space a token has reached was
      taken);
    - ``on_top`` is set exactly when both tokens share a space; when both are
      on 53 the player on top arrived last, so ``first_at_end`` is the other;
    - ``pending_leather`` names a player whose quilt has an empty square and
      who just took a leather patch: so that player is ahead, with a leather
      space after the opponent's token and up to their own;
    - ``bonus_owner`` holds a 7x7 square; None only if no quilt covers one;
    - ``first_at_end`` is None exactly when no token is on 53, else a player
      on 53;
    - the covered squares of both quilts equal the squares of the patches
      that left the circle plus the leather patches placed (taken minus a
      pending one); fewer leather squares only if a quilt is full (a leather
      patch taken with a full quilt is discarded);
    - some split of the patches that left the circle between the players
      gives each player their income, their number of covered squares (up to
      the leather patches they can have taken) and a total time cost within
      their time position.

    Not checkable from a position (no history is stored): that each quilt is
    really tiled by the patches of its owner's share, where the income
    buttons lie, and each player's exact button history. Positions passing
    these checks are accepted.
    """
    problems = position_problems(fields)
    if problems:
        raise InvalidPositionError(problems)


__all__ = ["FIELDS", "format_position", "parse_position", "fields_to_json", "fields_from_json",
           "validate_fields", "position_problems", "covers_7x7"]
