"""Position notation: the syntax of the one-line text form and the JSON form.

What a well-formed position must satisfy to be one that can occur is
checked separately, in :mod:`patchsolve.rules.validation`.

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
(see :func:`patchsolve.rules.validation.validate_fields` for the checks).
Nothing is built on error.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

from patchsolve.errors import NotationError
from patchsolve.rules.patches import BOARD, EDITION_NAMES, PATCHES

FIELDS = (
    "edition",
    "circle",
    "quilts",
    "buttons",
    "income",
    "time",
    "on_top",
    "leather",
    "bonus_owner",
    "first_at_end",
    "pending_leather",
)
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


def _player_text(v: int | None) -> str:
    return "-" if v is None else str(v)


def _list_text(xs: Sequence[int]) -> str:
    return ",".join(str(x) for x in xs) if xs else "-"


def format_position(fields: Mapping[str, Any]) -> str:
    """The text form of a (valid) fields dict."""
    f = fields
    return " ".join(
        [
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
        ]
    )


def _parse_list(field: str, token: str) -> tuple[int, ...]:
    if token == "-":
        return ()
    out = []
    for part in token.split(","):
        if not _NAT.match(part):
            raise NotationError(
                f"bad number in {field} list (expected comma-separated numbers or '-')",
                field=field,
                token=part or token,
            )
        out.append(int(part))
    return tuple(out)


def _parse_pair(field: str, token: str, pattern: re.Pattern[str], base: int = 10) -> tuple[int, int]:
    parts = token.split("/")
    what = "lower-case hex masks without leading zeros" if base == 16 else "numbers"
    if len(parts) != 2:
        raise NotationError(f"expected two {what} separated by '/'", field=field, token=token)
    for part in parts:
        if not pattern.match(part):
            raise NotationError(f"bad value (expected two {what} separated by '/')", field=field, token=part)
    return int(parts[0], base), int(parts[1], base)


def _parse_player(field: str, token: str) -> int | None:
    if token == "-":
        return None
    if token in ("0", "1"):
        return int(token)
    raise NotationError("expected 0, 1 or '-'", field=field, token=token)


def parse_position(text: str) -> dict[str, Any]:
    """Read the text form into a fields dict (syntax only; see
    :func:`patchsolve.rules.validation.validate_fields` for the semantic checks)."""
    if not isinstance(text, str):
        raise NotationError("a position must be text", field="position", token=repr(text)[:60])
    tokens = text.removeprefix("\ufeff").split()  # a byte-order mark, as some editors save one, is no field
    if tokens and tokens[0] not in EDITION_NAMES:
        raise NotationError(
            f"unknown edition (expected {' or '.join(EDITION_NAMES)}; a position starts with its edition)",
            field="edition",
            token=tokens[0][:40],
        )
    if len(tokens) < len(FIELDS):
        missing = FIELDS[len(tokens)]
        raise NotationError(
            f"expected {len(FIELDS)} fields ({' '.join(FIELDS)}), got {len(tokens)}; missing {missing!r}",
            field=missing,
            token=tokens[-1] if tokens else "",
        )
    if len(tokens) > len(FIELDS):
        raise NotationError(
            f"expected {len(FIELDS)} fields ({' '.join(FIELDS)}), got {len(tokens)}",
            field="position",
            token=tokens[len(FIELDS)],
        )
    t = dict(zip(FIELDS, tokens))
    if t["edition"] not in EDITION_NAMES:
        raise NotationError(
            f"unknown edition (expected {' or '.join(EDITION_NAMES)})", field="edition", token=t["edition"]
        )
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


def fields_to_json(fields: Mapping[str, Any]) -> dict[str, Any]:
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


def is_int(x: object) -> TypeGuard[int]:
    """An int that is not a bool (JSON and fields values)."""
    return isinstance(x, int) and not isinstance(x, bool)


def _bad(field: str, value: object, what: str) -> NotationError:
    token = json.dumps(value) if _jsonable(value) else repr(value)
    return NotationError(f"{field} must be {what}", field=field, token=token[:80])


def _jsonable(value: object) -> bool:
    try:
        json.dumps(value)
        return True
    except (TypeError, ValueError):
        return False


def fields_from_json(data: str | bytes | bytearray | Mapping[str, Any]) -> dict[str, Any]:
    """Read the JSON form (a str or an already decoded dict) into fields."""
    if isinstance(data, (str, bytes, bytearray)):
        raw = data  # the text itself, for the error (data is reassigned in the try)
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError) as e:
            raise NotationError(
                f"not JSON: {e}",
                field="json",
                token=(raw[:40] if isinstance(raw, str) else repr(raw[:40])),
            ) from None
    if not isinstance(data, Mapping):
        raise NotationError("a JSON position must be an object", field="json", token=repr(data)[:60])
    missing = [k for k in FIELDS if k not in data]
    if missing:
        raise NotationError(f"missing key(s) {', '.join(missing)}", field=missing[0], token=None)
    extra = [k for k in data if k not in FIELDS]
    if extra:
        raise NotationError(f"unknown key(s) {', '.join(map(str, extra))}", field=str(extra[0]), token=None)
    out: dict[str, Any] = {}
    ed = data["edition"]
    if ed not in EDITION_NAMES:
        raise _bad("edition", ed, f"one of {', '.join(EDITION_NAMES)}")
    out["edition"] = ed
    for k in ("circle", "leather"):
        v = data[k]
        if not isinstance(v, list) or not all(is_int(x) for x in v):
            raise _bad(k, v, "an array of ints")
        out[k] = tuple(v)
    q = data["quilts"]
    if not (isinstance(q, list) and len(q) == 2 and all(isinstance(x, str) and _HEX.match(x) for x in q)):
        raise _bad("quilts", q, "two lower-case hex strings")
    out["quilts"] = (int(q[0], 16), int(q[1], 16))
    for k in ("buttons", "income", "time"):
        v = data[k]
        if not (isinstance(v, list) and len(v) == 2 and all(is_int(x) for x in v)):
            raise _bad(k, v, "an array of two ints")
        out[k] = tuple(v)
    for k in PLAYER_FIELDS:
        v = data[k]
        if v is not None and not (is_int(v) and v in (0, 1)):
            raise _bad(k, v, "0, 1 or null")
        out[k] = v
    return out


__all__ = ["FIELDS", "format_position", "parse_position", "fields_to_json", "fields_from_json"]
