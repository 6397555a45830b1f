"""Relaxed pairs (search/_solver.pyx; ``fits_after`` in search/_packing.pyx): a placement group's
relaxed game only offers the patches that some placement of the group
leaves room for. Brute force over the reference rules' placements checks
that set, and the solver's values with and without it."""

import pytest

from patchsolve import solve
from patchsolve.search import _packing
from patchsolve.search.solver import c_solver
from reference import all_placements
from test_alphabeta import plain_minimax
from test_solver import ALL, plain_units, plain_wdl


def fits(quilt, pid):
    return any(not m & quilt for m in all_placements(pid))


def brute_fits_after(quilt, pid, circle):
    found = set()
    for x in all_placements(pid):
        if x & quilt:
            continue
        found |= {y for y in circle if y != pid and y not in found and fits(quilt | x, y)}
    return sum(1 << y for y in found)


def test_fits_after_matches_brute_force():
    checked = dropped = 0
    for pos in ALL[::3]:
        circle = pos.circle
        for player in (0, 1):
            quilt = pos.quilt(player)
            for pid in circle[:3]:
                want = brute_fits_after(quilt, pid, circle)
                assert _packing.fits_after(pos._c, player, pid) == want
                checked += 1
                dropped += any(fits(quilt, y) and not want >> y & 1 for y in circle if y != pid)
    # some patch fits now but after no placement of the group's patch
    assert checked > 20 and dropped > 0


def test_fits_after_rejects_bad_numbers():
    for player, pid in ((2, 0), (0, 33), (0, -1)):
        with pytest.raises(ValueError):
            _packing.fits_after(ALL[0]._c, player, pid)


@pytest.mark.parametrize("pairs", [True, False])
def test_values_with_and_without_relaxed_pairs_equal_brute_force(pairs):
    for pos in ALL:
        s = c_solver(4, relax_pairs=pairs)
        s.set_limits(0, 0.0)
        lo, hi = s.solve(pos._c, *s.bounds(pos._c), s.guess(pos._c))
        assert lo == hi == plain_units(pos)
        assert solve(pos).score == plain_minimax(pos)


def test_relaxed_bounds_keep_win_loss_values():
    for pos in ALL[::2]:
        s = c_solver(4, wdl=True)
        s.set_limits(0, 0.0)
        lo, hi = s.solve(pos._c, *s.bounds(pos._c), 1, 0)
        assert (lo > 0 or hi < 0) and (lo > 0) == plain_wdl(pos)
