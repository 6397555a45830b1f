"""Which patch lies where: a tiling of both quilts by catalogue patches.

A :class:`~patchsolve.rules.position.Position` stores each quilt as a mask only. To
draw a position from the notation as board text (:mod:`patchsolve.rules.board`),
:func:`tile_quilts` finds labels for it: an assignment of every patch that
left the circle to one quilt, in one of its placements, plus 1x1 leather
patches, such that the placements exactly cover both quilts without overlap,
each quilt's patches carry that player's income, and each player has no more
leather patches than the leather spaces their token has passed.

It is an exact-cover search over the core's placement tables, in the manner
of Knuth's dancing links: for each patch still to place it keeps the
placements that still fit, and each node branches on the most constrained
choice (a square that one or two placements cover, else the lowest square
of the smallest region; or the patch with the fewest placements left).
Branches are pruned when a patch no longer fits, when squares no placement
covers outnumber the leather patches left, when no share of the patches
left gives quilt 0 its area and income (a packed subset-sum table), when a
region's area is no sum of piece sizes, and by remembering failed states.

Limits: every quilt reached in play has a tiling (the patches really
bought), but finding one is a polyomino puzzle, and the quilts of the middle
and end of a game are hard ones. The search stops with :class:`TilingError`
once it has examined ``budget`` placements in all (:data:`WORK_BUDGET` for
``to_board()``; a node's cost is the placements it filters, so this bounds
the time where a node count would not, and stays deterministic); then the
board text draws ``?`` squares. ``benchmarks/bench_tiling.py`` measures how
often it succeeds (``benchmarks/results/tiling.md``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any, TypeAlias

from patchsolve import _core
from patchsolve.errors import PatchsolveError
from patchsolve.rules.patches import EDITIONS, PATCHES

LEATHER = "L"
# A square's label: a patch id or LEATHER (and, in the cells read from board
# text, the board's UNKNOWN); a square of cells may also be None, empty.
Label: TypeAlias = int | str
# Both quilts' labels, per player square -> label (Position.labels, Game.labels).
Labels: TypeAlias = tuple[dict[int, Label], dict[int, Label]]
_W = 2 * 81 + 1  # sizes 0..162 in the subset-sum table
WORK_BUDGET = 1_000_000  # placements examined by to_board(): about a second

# patch id -> the (quilt, mask) placements still open to it
_Fits: TypeAlias = dict[int, list[tuple[int, int]]]
# a node of the search, as remembered when it fails: (rems, unused, inc_left, leather_left, leather_used)
_Node: TypeAlias = tuple[tuple[int, ...], int, tuple[int, ...], int, tuple[int, ...]]


class TilingError(PatchsolveError):
    """No tiling of the quilts was found (within the budget)."""


@cache
def placement_list(patch: int) -> tuple[int, ...]:
    """Every placement of ``patch`` on an empty quilt, as masks."""
    return tuple(_core.placements(patch))


@cache
def placement_set(patch: int) -> frozenset[int]:
    """Every mask patch ``pid`` can cover on an empty quilt (all orientations and squares)."""
    return frozenset(placement_list(patch))


_NOT_COL0 = sum(1 << (r * 9 + c) for r in range(9) for c in range(1, 9))
_NOT_COL8 = sum(1 << (r * 9 + c) for r in range(9) for c in range(8))


def components(rem: int) -> list[int]:
    """The 4-connected regions of the squares in ``rem``."""
    out = []
    while rem:
        comp = rem & -rem
        while True:
            grown = (comp | (comp << 1) & _NOT_COL0 | (comp >> 1) & _NOT_COL8 | comp << 9 | comp >> 9) & rem
            if grown == comp:
                break
            comp = grown
        out.append(comp)
        rem &= ~comp
    return out


class _Search:
    """Exact cover of both quilts. State: the squares still to cover
    (``rems``), for each patch still to place the placements that still fit
    (``fits``: (quilt, mask) pairs inside that quilt's squares and within
    its income), the income each quilt still needs, and the leather patches
    left. Each node branches on whichever constraint has the fewest ways to
    be met: the lowest square of the smallest region, or the patch with the
    fewest placements left (as Knuth's dancing links chooses a column)."""

    def __init__(self, out: Iterable[int], leather_caps: Sequence[int], budget: int) -> None:
        self.out = sorted(out, key=lambda i: (-PATCHES[i].size, i))
        self.leather_caps = leather_caps
        self.budget = budget
        self.nodes = 0
        self.work = 0
        self.failed: set[_Node] = set()
        self.sums: dict[int, int] = {}
        self.sizes: dict[int, int] = {}
        self.chosen: list[tuple[int, Label, int]] = []  # (player, patch id or "L", mask)

    def subset_sums(self, unused: int) -> int:
        """Bit ``income * _W + size`` is set when some subset of ``unused``
        has that income and size (a packed subset-sum table)."""
        reach = self.sums.get(unused)
        if reach is None:
            reach = 1
            for i in self.out:
                if unused >> i & 1:
                    reach |= reach << (PATCHES[i].income * _W + PATCHES[i].size)
            self.sums[unused] = reach
        return reach

    def size_sums(self, unused: int) -> int:
        """Bit ``size`` set when some subset of ``unused`` has that many squares."""
        reach = self.sizes.get(unused)
        if reach is None:
            reach = 1
            for i in self.out:
                if unused >> i & 1:
                    reach |= reach << PATCHES[i].size
            self.sizes[unused] = reach
        return reach

    def can_split(
        self,
        rems: Sequence[int],
        unused: int,
        inc_left: Sequence[int],
        leather_left: int,
        room: Sequence[int],
    ) -> bool:
        """Can the patches and leather patches left be shared between the
        quilts so that quilt 0 gets its remaining area and income? (Quilt 1
        then gets the rest, which is its area and income by the totals.)"""
        reach = self.subset_sums(unused)
        r0 = bin(rems[0]).count("1")
        for l0 in range(min(leather_left, room[0], r0) + 1):
            if leather_left - l0 <= room[1] and reach >> (inc_left[0] * _W + r0 - l0) & 1:
                return True
        return False

    @staticmethod
    def coverable(rems: Sequence[int], fits: _Fits, leather_left: int, room: Sequence[int]) -> bool:
        """Every square no patch left can still cover must take a leather patch."""
        cover = [0, 0]
        for f in fits.values():
            for q, m in f:
                cover[q] |= m
        bare = [bin(rems[p] & ~cover[p]).count("1") for p in (0, 1)]
        return bare[0] <= room[0] and bare[1] <= room[1] and bare[0] + bare[1] <= leather_left

    def regions_fillable(
        self, regions: Iterable[tuple[int, int, int]], unused: int, leather_left: int, room: Sequence[int]
    ) -> bool:
        """Each region's area is the area of some set of the pieces left."""
        sizes = self.size_sums(unused)
        for k, p, _ in regions:
            spare = min(leather_left, room[p], k)
            if not any(sizes >> (k - j) & 1 for j in range(spare + 1)):
                return False
        return True

    def run(
        self,
        rems: tuple[int, ...],
        fits: _Fits,
        inc_left: tuple[int, ...],
        leather_left: int,
        leather_used: tuple[int, ...],
    ) -> bool:
        self.nodes += 1
        self.work += sum(len(f) for f in fits.values())
        if self.work > self.budget:
            raise TilingError(f"no tiling of the quilts found within {self.budget} placements examined")
        if not rems[0] and not rems[1]:
            return not fits and not leather_left and inc_left == (0, 0)
        unused = sum(1 << i for i in fits)
        key = (rems, unused, inc_left, leather_left, leather_used)
        if key in self.failed:
            return False
        room = tuple(self.leather_caps[p] - leather_used[p] for p in (0, 1))
        regions = sorted((bin(c).count("1"), p, c) for p in (0, 1) for c in components(rems[p]))
        if (
            any(not f for f in fits.values())
            or not self.coverable(rems, fits, leather_left, room)
            or not self.can_split(rems, unused, inc_left, leather_left, room)
            or not self.regions_fillable(regions, unused, leather_left, room)
        ):
            self.failed.add(key)
            return False
        for label, p, m in self.branches(rems, regions, fits, leather_left, room):
            if self.try_piece(label, p, m, rems, fits, inc_left, leather_left, leather_used):
                return True
        self.failed.add(key)
        return False

    @staticmethod
    def tightest_square(
        rems: Sequence[int], fits: _Fits, regions: Sequence[tuple[int, int, int]]
    ) -> tuple[int, int]:
        """(quilt, bit) of a square as few placements cover as possible: one
        covered by a single placement, else by two, else the lowest square of
        the smallest region (counted with bitwise counters, cheap per node)."""
        ones, twos, more = [0, 0], [0, 0], [0, 0]
        for f in fits.values():
            for q, m in f:
                more[q] |= twos[q] & m
                twos[q] |= ones[q] & m
                ones[q] |= m
        for level in (lambda q: ones[q] & ~twos[q], lambda q: twos[q] & ~more[q]):
            for q in (0, 1):
                sq = level(q) & rems[q]
                if sq:
                    return q, sq & -sq
        _, q, region = regions[0]
        return q, region & -region

    def branches(
        self,
        rems: Sequence[int],
        regions: Sequence[tuple[int, int, int]],
        fits: _Fits,
        leather_left: int,
        room: Sequence[int],
    ) -> list[tuple[Label, int, int]]:
        """The ways to meet the most constrained of: covering the tightest
        square, placing the least placeable patch."""
        p, bit = self.tightest_square(rems, fits, regions)
        cands: list[tuple[Label, int, int]] = [
            (i, p, m) for i, f in fits.items() for q, m in f if q == p and m & bit
        ]
        if leather_left and room[p]:
            cands.append((LEATHER, p, bit))
        piece = min(fits, key=lambda i: len(fits[i]), default=None)
        if piece is not None and len(fits[piece]) < len(cands):
            return [(piece, q, m) for q, m in fits[piece]]
        return cands

    def try_piece(
        self,
        label: Label,
        p: int,
        m: int,
        rems: Sequence[int],
        fits: _Fits,
        inc_left: Sequence[int],
        leather_left: int,
        leather_used: Sequence[int],
    ) -> bool:
        r = list(rems)
        r[p] &= ~m
        inc, used = list(inc_left), list(leather_used)
        if isinstance(label, int):  # a patch; the only other label is LEATHER
            inc[p] -= PATCHES[label].income
        else:
            used[p] += 1
            leather_left -= 1
        if not r[p] and inc[p]:
            return False  # the quilt is done but its income is not reached
        child = {}
        for i, f in fits.items():
            if i != label:
                child[i] = [(q, x) for q, x in f if (q != p or not x & m) and PATCHES[i].income <= inc[q]]
        self.chosen.append((p, label, m))
        if self.run(tuple(r), child, tuple(inc), leather_left, tuple(used)):
            return True
        self.chosen.pop()
        return False


def _labels_of(chosen: Iterable[tuple[int, Label, int]]) -> Labels:
    labels: Labels = ({}, {})
    for p, label, m in chosen:
        while m:
            low = m & -m
            labels[p][low.bit_length() - 1] = label
            m ^= low
    return labels


def tile_quilts(
    fields: Mapping[str, Any], budget: int = WORK_BUDGET, stats: dict[str, int] | None = None
) -> Labels:
    """Labels (square -> patch id or ``"L"``, per player) tiling both quilts of
    a valid position's ``fields``; :class:`TilingError` if none is found
    after examining ``budget`` placements. ``stats`` (a dict) receives
    ``nodes`` and ``work`` (placements examined)."""
    ed = EDITIONS[fields["edition"]]
    out = [i for i in range(len(PATCHES)) if i not in fields["circle"]]
    q = tuple(fields["quilts"])
    covered = bin(q[0]).count("1") + bin(q[1]).count("1")
    leather_total = covered - sum(PATCHES[i].size for i in out)
    pend = fields["pending_leather"]
    caps = tuple(sum(1 for s in ed.leather_spaces if s <= fields["time"][p]) - (pend == p) for p in (0, 1))
    if leather_total < 0:
        raise TilingError("the quilts cover fewer squares than the patches that left the circle")
    inc = tuple(fields["income"])
    fits = {
        i: [(p, m) for p in (0, 1) if PATCHES[i].income <= inc[p] for m in placement_list(i) if m & q[p] == m]
        for i in out
    }
    search = _Search(out, caps, budget)
    try:
        ok = search.run(q, fits, inc, leather_total, (0, 0))
    finally:
        if stats is not None:
            stats["nodes"], stats["work"] = search.nodes, search.work
    if not ok:
        raise TilingError(
            "no tiling of the quilts by the patches that left the circle gives each player their income"
        )
    return _labels_of(search.chosen)


__all__ = ["tile_quilts", "TilingError", "placement_set", "WORK_BUDGET"]
