"""What a relaxed player bought (search/_solver.pyx): in a relaxed game a
player buys a patch only if it and every patch it bought since the
relaxation began can lie on its quilt together (``packable``), and takes
the 7x7 bonus only once those patches and the leather it placed can cover
an open 7x7 square (``bonus_coverable``). Both puzzles (search/_packing.pyx)
are checked against brute force over the reference rules' placements; the
solver's values with and without them against plain minimax."""

import itertools
import random

import pytest

from patchsolve.search import _packing
from patchsolve.search.solver import c_solver
from reference import all_placements
from test_solver import ALL, BONUS, LEATHER, plain_units

WINDOWS = [
    sum(1 << (r * 9 + c) for r in range(r0, r0 + 7) for c in range(c0, c0 + 7))
    for r0 in range(3)
    for c0 in range(3)
]
FULL = (1 << 81) - 1


def disjoint_unions(placement_lists):
    """The squares of each choice of one placement per list, when the
    chosen placements do not overlap."""
    for choice in itertools.product(*placement_lists):
        union = 0
        for m in choice:
            if union & m:
                break
            union |= m
        else:
            yield union


def brute_covers(quilt, pids, leather):
    """Some subset of ``pids``, placed on empty squares without overlap,
    leaves at most ``leather`` empty squares of some 7x7 square uncovered."""
    empty = FULL & ~quilt
    fitting = {pid: [m for m in all_placements(pid) if not m & quilt] for pid in pids}
    for k in range(len(pids) + 1):
        for subset in itertools.combinations(pids, k):
            for union in disjoint_unions([fitting[pid] for pid in subset]):
                if any(bin(w & empty & ~union).count("1") <= leather for w in WINDOWS):
                    return True
    return False


def cases(seed, per_quilt):
    """(position, player, quilt, 1-3 random patch ids, 0-2 leather) on every
    quilt of the endgame sets."""
    rng = random.Random(seed)
    for pos in ALL:
        for player in (0, 1):
            quilt = pos.quilt(player)
            for _ in range(per_quilt):
                pids = rng.sample(range(33), rng.randint(1, 3))
                yield pos, player, quilt, pids, rng.randint(0, 2)


def test_the_cover_test_matches_brute_force():
    seen = {True: 0, False: 0}
    for pos, player, quilt, pids, leather in cases(7, 4):
        want = brute_covers(quilt, pids, leather)
        assert _packing.covers(pos._c, player, pids, leather) == want, (pos.to_text(), player, pids, leather)
        seen[want] += 1
    assert seen[True] >= 5 and seen[False] >= 5, seen  # both answers are exercised


def brute_packs(quilt, pids):
    """The patches ``pids`` all lie on empty squares without overlap."""
    fitting = [[m for m in all_placements(pid) if not m & quilt] for pid in pids]
    return next(disjoint_unions(fitting), None) is not None


def test_the_packing_test_matches_brute_force():
    seen = {True: 0, False: 0}
    for pos, player, quilt, pids, _ in cases(11, 6):
        want = brute_packs(quilt, pids)
        assert _packing.packs(pos._c, player, pids) == want, (pos.to_text(), player, pids)
        seen[want] += 1
    assert seen[True] >= 5 and seen[False] >= 5, seen


def test_bad_arguments_raise():
    for args in ((2, [1], 0), (-1, [1], 0), (0, [33], 0), (0, [1], -1), (0, [1], 101)):
        with pytest.raises(ValueError):
            _packing.covers(ALL[0]._c, *args)
    for args in ((2, [1]), (-1, [1]), (0, [33]), (0, [-1])):
        with pytest.raises(ValueError):
            _packing.packs(ALL[0]._c, *args)
    for args in ((2, 0), (-1, 0), (0, 33), (0, -1)):
        with pytest.raises(ValueError):
            _packing.fits_after(ALL[0]._c, *args)


def test_bad_types_raise_instead_of_reading_memory():
    # a None state was read as a state's memory before the hooks said "not None"
    for hook, args in (
        (_packing.covers, (0, [1], 0)),
        (_packing.packs, (0, [1])),
        (_packing.fits_after, (0, 1)),
    ):
        with pytest.raises(TypeError):
            hook(None, *args)
    with pytest.raises(TypeError):
        _packing.packs(ALL[0]._c, 0, [1.5])
    with pytest.raises(TypeError):
        _packing.packs(ALL[0]._c, 0, 5)  # not a collection of patch ids


@pytest.mark.parametrize("use_cover,use_pack", [(True, True), (True, False), (False, True), (False, False)])
def test_values_with_and_without_either_test_equal_plain_minimax(use_cover, use_pack):
    for pos in BONUS + LEATHER + ALL[::4]:
        s = c_solver(4, use_cover=use_cover, use_pack=use_pack)
        s.set_limits(0, 0.0)
        lo, hi = s.bounds(pos._c)
        assert s.solve(pos._c, lo, hi, s.guess(pos._c)) == (plain_units(pos),) * 2


def test_the_solver_refuses_a_table_it_cannot_size_and_a_missing_state():
    for hash_mb in (0, -1, (1 << 20) + 1):
        with pytest.raises(ValueError):
            c_solver(hash_mb)  # -1 used to size the table forever
    s = c_solver(1)
    for call in (
        lambda: s.bounds(None),
        lambda: s.guess(None),
        lambda: s.tt_bounds(None),
        lambda: s.probe(None, -1, 1),
        lambda: s.solve(None, -1, 1, 0),
    ):
        with pytest.raises(TypeError):
            call()
