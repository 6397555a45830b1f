"""A fixed, dense numbering of every Patchwork move, shared by the adapters
(OpenSpiel, PettingZoo, Gymnasium): action numbers ``0 .. NUM_ACTIONS - 1``.

Layout::

    0               walk
    1 .. 81         leather patch on square action - 1 (a1 = 1, i9 = 81)
    82 ..           buy a patch at one placement: every (patch, orientation,
                    top-left square) that fits on the empty 9x9 board, ordered
                    by patch id, then orientation, then square

For walk and leather the action number equals the core's move code (see
``_core.pxd``). A buy's core code is ``(og + 1) << 7 | square``, where
``og`` numbers the orientations of all patches in patch order; many of those
codes are placements off the board, so the actions number only the 7,349
placements that fit, keeping the action space dense (``NUM_ACTIONS`` =
7,431). The table is derived from the patch data shipped with the package
(ids, shapes, orientation order), so it is the same on every run and in
both editions.

>>> import patchsolve as ps
>>> pos = ps.Position.start(seed=1)
>>> action_to_move(move_to_action(pos.legal_moves()[1])) == pos.legal_moves()[1]
True
"""

from __future__ import annotations

import numpy as np

from patchsolve import _core
from patchsolve.errors import IllegalMoveError, PatchsolveError
from patchsolve.rules.patches import BOARD, PATCHES
from patchsolve.rules.position import Move, as_position

SQUARES = BOARD * BOARD
WALK = 0
FIRST_LEATHER = 1
FIRST_BUY = FIRST_LEATHER + SQUARES  # 82


def _buy_codes() -> np.ndarray:
    """Every buy code that fits on the empty board, in (patch, orientation,
    square) order; the core's codes grow in that order too."""
    codes = []
    for patch in range(len(PATCHES)):
        for orientation in range(_core.orientation_count(patch)):
            for square in range(SQUARES):
                try:
                    codes.append(_core.buy_move_code(patch, orientation, square))
                except ValueError:  # this corner puts the patch off the board
                    pass
    return np.array(codes, dtype=np.int32)


_BUY_CODES = _buy_codes()
assert np.all(np.diff(_BUY_CODES) > 0), "buy codes must grow with (patch, orientation, square)"
NUM_ACTIONS = FIRST_BUY + len(_BUY_CODES)

# action -> core move code, and its inverse (-1 where a code is no action)
_ACTION_CODE = np.concatenate([np.arange(FIRST_BUY, dtype=np.int32), _BUY_CODES])
_CODE_ACTION = np.full(int(_BUY_CODES[-1]) + 1, -1, dtype=np.int32)
_CODE_ACTION[_ACTION_CODE] = np.arange(NUM_ACTIONS, dtype=np.int32)


def _check_action(action) -> int:
    if isinstance(action, np.integer):
        action = int(action)
    if not isinstance(action, int) or isinstance(action, bool):
        raise PatchsolveError(f"an action is an int, not {action!r}")
    if not 0 <= action < NUM_ACTIONS:
        raise PatchsolveError(f"action {action} out of range 0..{NUM_ACTIONS - 1}")
    return action


def code_to_action(code: int) -> int:
    """The action number of a core move code."""
    if (
        not isinstance(code, (int, np.integer))
        or isinstance(code, bool)
        or not 0 <= code < len(_CODE_ACTION)
        or _CODE_ACTION[code] < 0
    ):
        raise IllegalMoveError(f"not a move code: {code!r}")
    return int(_CODE_ACTION[code])


def action_to_code(action) -> int:
    """The core move code of an action number; PatchsolveError if out of range."""
    return int(_ACTION_CODE[_check_action(action)])


def move_to_action(move: Move) -> int:
    """The action number of ``move``."""
    if not isinstance(move, Move):
        raise PatchsolveError(f"not a move: {move!r}")
    return code_to_action(move.code)


def action_to_move(action) -> Move:
    """The move numbered ``action``; PatchsolveError if there is none."""
    return Move.from_code(action_to_code(action))


def legal_actions(position) -> list[int]:
    """The legal action numbers of ``position``, ascending."""
    codes = as_position(position)._c.legal_codes()
    return np.sort(_CODE_ACTION[np.array(codes, dtype=np.int64)]).tolist() if codes else []


def legal_action_mask(position) -> np.ndarray:
    """A bool array of length NUM_ACTIONS, True at the legal actions."""
    mask = np.zeros(NUM_ACTIONS, dtype=bool)
    codes = as_position(position)._c.legal_codes()
    if codes:
        mask[_CODE_ACTION[np.array(codes, dtype=np.int64)]] = True
    return mask


__all__ = [
    "NUM_ACTIONS",
    "WALK",
    "FIRST_LEATHER",
    "FIRST_BUY",
    "move_to_action",
    "action_to_move",
    "code_to_action",
    "action_to_code",
    "legal_actions",
    "legal_action_mask",
]
