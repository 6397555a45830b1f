"""A numeric observation of a position, seen by one player, for learning
agents (the OpenSpiel ``observation_tensor`` and the PettingZoo/Gymnasium
``observation``).

``observation(position, player)`` is a flat float32 vector of
``OBSERVATION_SIZE`` (= 432) numbers. "Own" is ``player``, "other" the
opponent, so one network can play either seat. Raw counts, not scaled::

    slice      size  content
    quilts      162  own quilt then other quilt, 81 each: 1 = covered
                     (index row * 9 + col, a1 = 0, i9 = 80)
    buttons       2  own, other
    income        2  buttons printed on each quilt's patches (own, other)
    time          2  time-board space of each token, 0..53 (own, other)
    income_ahead  2  income spaces still ahead of each token (own, other)
    circle      198  the 33 circle slots from the one in front of the
                     neutral token, 6 numbers each: present (1/0), patch id,
                     cost in buttons, cost in time, income, squares
                     (all 0 where the circle has run out)
    leather      54  1 at each time-board space 0..53 still holding a leather patch
    bonus         2  own, other holds the 7x7 bonus tile
    first_at_end  2  own, other reached space 53 first (the tie-break)
    on_top        2  own, other token lies on top on a shared space
    pending       1  a leather patch waits to be placed (by the player to move)
    to_move       1  1 if ``player`` moves next (turns do not alternate)
    seat          1  ``player`` (0 or 1)
    edition       1  0 revised, 1 original

``OBSERVATION_LAYOUT`` maps each name to its slice. A finished game is
observed like any other position (``to_move`` is then 0).
"""

from __future__ import annotations

import numpy as np

from patchsolve.errors import PatchsolveError
from patchsolve.rules.patches import BOARD, EDITION_NAMES, EDITIONS, LAST_SPACE, PATCHES
from patchsolve.rules.position import as_position

SQUARES = BOARD * BOARD
CIRCLE_SLOTS = len(PATCHES)
SLOT_SIZE = 6

_SIZES = [
    ("quilts", 2 * SQUARES),
    ("buttons", 2),
    ("income", 2),
    ("time", 2),
    ("income_ahead", 2),
    ("circle", CIRCLE_SLOTS * SLOT_SIZE),
    ("leather", LAST_SPACE + 1),
    ("bonus", 2),
    ("first_at_end", 2),
    ("on_top", 2),
    ("pending", 1),
    ("to_move", 1),
    ("seat", 1),
    ("edition", 1),
]


def _layout() -> dict[str, slice]:
    out, at = {}, 0
    for name, size in _SIZES:
        out[name] = slice(at, at + size)
        at += size
    return out


OBSERVATION_LAYOUT = _layout()
OBSERVATION_SIZE = sum(size for _, size in _SIZES)

# per patch id: (present, id, buttons, time, income, squares)
_PATCH_ROWS = np.array([(1, p.id, p.buttons, p.time, p.income, p.size) for p in PATCHES], dtype=np.float32)


def _upper_bounds() -> np.ndarray:
    """The largest value each entry can take (the Gymnasium Box's ``high``):
    buttons are an int16 in the core, the rest are bounded by the rules."""
    hi = np.ones(OBSERVATION_SIZE, dtype=np.float32)
    L = OBSERVATION_LAYOUT
    hi[L["buttons"]] = 32767
    hi[L["income"]] = 127
    hi[L["time"]] = LAST_SPACE
    hi[L["income_ahead"]] = max(len(e.income_spaces) for e in EDITIONS.values())
    hi[L["circle"]] = np.tile(_PATCH_ROWS.max(axis=0), CIRCLE_SLOTS)
    return hi


OBSERVATION_HIGH = _upper_bounds()
OBSERVATION_LOW = np.zeros(OBSERVATION_SIZE, dtype=np.float32)


def _quilt_bits(mask: int) -> np.ndarray:
    """Bit i of the 81-bit mask at index i."""
    raw = np.frombuffer(mask.to_bytes(11, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:SQUARES]


def _pair(value, player: int) -> tuple[float, float]:
    """(own, other) flags for a field holding a player or None."""
    return (float(value == player), float(value == 1 - player))


def observation(position, player: int) -> np.ndarray:
    """The position as ``player`` sees it (the layout above)."""
    if isinstance(player, bool) or not isinstance(player, int) or player not in (0, 1):
        raise PatchsolveError(f"player must be 0 or 1, not {player!r}"[:200])
    position = as_position(position)
    f = position.fields()
    me, other = player, 1 - player
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    L = OBSERVATION_LAYOUT
    obs[L["quilts"]] = np.concatenate([_quilt_bits(f["quilts"][me]), _quilt_bits(f["quilts"][other])])
    for name in ("buttons", "income", "time"):
        obs[L[name]] = (f[name][me], f[name][other])
    income_spaces = EDITIONS[f["edition"]].income_spaces
    obs[L["income_ahead"]] = [sum(1 for s in income_spaces if s > f["time"][p]) for p in (me, other)]
    circle = np.zeros((CIRCLE_SLOTS, SLOT_SIZE), dtype=np.float32)
    if f["circle"]:
        circle[: len(f["circle"])] = _PATCH_ROWS[list(f["circle"])]
    obs[L["circle"]] = circle.ravel()
    obs[L["leather"]][list(f["leather"])] = 1
    obs[L["bonus"]] = _pair(f["bonus_owner"], me)
    obs[L["first_at_end"]] = _pair(f["first_at_end"], me)
    obs[L["on_top"]] = _pair(f["on_top"], me)
    obs[L["pending"]] = f["pending_leather"] is not None
    obs[L["to_move"]] = (not position.is_over) and position.to_move == me
    obs[L["seat"]] = me
    obs[L["edition"]] = EDITION_NAMES.index(f["edition"])
    return obs


__all__ = ["observation", "OBSERVATION_SIZE", "OBSERVATION_LAYOUT", "OBSERVATION_LOW", "OBSERVATION_HIGH"]
