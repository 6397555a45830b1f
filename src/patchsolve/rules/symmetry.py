"""The eight symmetries of a quilt, and the root moves they make equal.

A quilt is 9x9 and patches may be laid in any orientation, so a quilt and
its mirror image or rotation are worth the same: every placement on one has
its image on the other, and the 7x7 bonus asks for any 7x7 square. Two moves
of one choice (the same patch, or the leather patch) whose quilts after them
are images of each other lead to positions of the same value: a ranking shows
one of them (``mirror_classes``).

Quilts are the 81-bit integers of :meth:`Position.quilt` (bit ``row * 9 +
col``). Each symmetry is applied with one table lookup per row.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for the annotations only: the module needs no import to run
    from patchsolve.rules.position import Position

SIZE = 9


def _maps() -> list[Callable[[int, int], tuple[int, int]]]:
    """The eight symmetries as functions (row, col) -> (row, col)."""
    n = SIZE - 1
    return [
        lambda r, c: (r, c),
        lambda r, c: (c, n - r),
        lambda r, c: (n - r, n - c),
        lambda r, c: (n - c, r),
        lambda r, c: (r, n - c),
        lambda r, c: (n - r, c),
        lambda r, c: (c, r),
        lambda r, c: (n - c, n - r),
    ]


@lru_cache(maxsize=1)
def _tables() -> list[list[list[int]]]:
    """For each non-identity symmetry, for each row, the image of each
    9-bit row pattern."""
    tables = []
    for f in _maps()[1:]:
        rows = []
        for r in range(SIZE):
            square = [1 << (rr * SIZE + cc) for rr, cc in (f(r, c) for c in range(SIZE))]
            images = [0] * (1 << SIZE)
            for bits in range(1, 1 << SIZE):
                low = bits & -bits  # a pattern's image: its lowest square's and the rest's
                images[bits] = images[bits ^ low] | square[low.bit_length() - 1]
            rows.append(images)
        tables.append(rows)
    return tables


def images(quilt: int) -> list[int]:
    """The quilt under each of the eight symmetries (itself first)."""
    out = [quilt]
    for rows in _tables():
        q, image = quilt, 0
        for r in range(SIZE):
            image |= rows[r][q & 511]
            q >>= SIZE
        out.append(image)
    return out


def canonical(quilt: int) -> int:
    """One representative of the quilt's eight images (the smallest)."""
    return min(images(quilt))


def mirror_classes(position: Position) -> dict[int, list[int]]:
    """The root moves of ``position`` that equal another, by code:
    ``{code: [codes of the same choice whose quilt after them is an image
    of this one's]}``, only for moves that have such twins. Walking has
    none; a finished game has no moves."""
    if position.is_over:
        return {}
    mover = position.to_move
    base = position.quilt(mover)
    groups: dict[tuple[int | str, int], list[int]] = {}
    for move in position.legal_moves():
        if move.kind == "walk":
            continue
        choice = move.patch if move.patch is not None else move.kind
        key = (choice, canonical(base | move.mask))
        groups.setdefault(key, []).append(move.code)
    out: dict[int, list[int]] = {}
    for codes in groups.values():
        if len(codes) > 1:
            for c in codes:
                out[c] = [d for d in codes if d != c]
    return out


__all__ = ["images", "canonical", "mirror_classes"]
