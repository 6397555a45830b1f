"""Build positions for rule tests from a few stated facts.

``make(**changes)`` starts from the start-position fields and applies the
changes; it goes straight to the core (no notation validation), so a test
states exactly the situation a rule is about.
"""

from patchsolve import Position, _core
from patchsolve.rules.patches import EDITIONS

IDS = tuple(range(1, 33)) + (0,)


def cells(*squares: str) -> int:
    """Mask of squares named like 'a1' (column a-i, row 1-9 from the top)."""
    mask = 0
    for sq in squares:
        col, row = "abcdefghi".index(sq[0]), int(sq[1]) - 1
        mask |= 1 << (row * 9 + col)
    return mask


def rows(*row_numbers: int) -> int:
    """Mask of whole rows (0-based)."""
    return sum(0x1FF << (9 * r) for r in row_numbers)


FULL = (1 << 81) - 1


def make(edition="revised", **changes) -> Position:
    f = {
        "edition": edition,
        "circle": IDS,
        "quilts": (0, 0),
        "buttons": (5, 5),
        "income": (0, 0),
        "time": (0, 0),
        "on_top": 0,
        "leather": tuple(EDITIONS[edition].leather_spaces),
        "bonus_owner": None,
        "first_at_end": None,
        "pending_leather": None,
    }
    f.update(changes)
    if "on_top" not in changes and f["time"][0] != f["time"][1]:
        f["on_top"] = None
    return Position(_core.CoreState.from_fields(f))


def buy(pos: Position, patch: int, where: int | None = None):
    """The first legal buy of ``patch`` (covering ``where`` if given)."""
    for m in pos.legal_moves():
        if m.kind == "buy" and m.patch == patch and (where is None or m.mask == where):
            return m
    raise AssertionError(f"patch {patch} cannot be bought here")
