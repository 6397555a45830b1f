"""The map of the quilts' future (patchsolve.review.coverage)."""

from pathlib import Path

import pytest

import patchsolve as ps
from patchsolve.review.coverage import coverage_map

GOLDEN = Path(__file__).parent / "data" / "golden_game.txt"


def squares(mask):
    return {i for i in range(81) if mask >> i & 1}


def test_a_finished_game_maps_exactly_the_covered_squares():
    end = ps.Game.read(GOLDEN).end
    m = coverage_map(end, samples=50)
    for p in (0, 1):
        covered = squares(end.quilt(p))
        assert {i for i in range(81) if m.value(p, i) == 1.0} == covered
        assert all(m.value(p, i) == 0.0 for i in range(81) if i not in covered)
        assert m.expected_empty[p] == 81 - len(covered)


def test_covered_squares_stay_covered_and_values_are_chances():
    pos = ps.Game.read(GOLDEN).position(12)
    m = coverage_map(pos, samples=200, seed=5)
    for p in (0, 1):
        assert all(m.value(p, i) == 1.0 for i in squares(pos.quilt(p)))
        assert all(0.0 <= v <= 1.0 for row in m.grids[p] for v in row)
        assert m.expected_empty[p] == pytest.approx(sum(1 - v for row in m.grids[p] for v in row))
    assert any(0.0 < v < 1.0 for row in m.grids[0] for v in row)


def test_a_player_on_the_last_space_keeps_his_holes():
    # A player who has reached the last space never moves again: his empty
    # squares can no longer be covered, so they are 0 in every continuation.
    game = ps.Game.read(GOLDEN)
    pos = next(p for p in game.positions if not p.is_over and 53 in (p.time(0), p.time(1)))
    done = 0 if pos.time(0) == 53 else 1
    m = coverage_map(pos, samples=100)
    empty = set(range(81)) - squares(pos.quilt(done))
    assert empty and all(m.value(done, i) == 0.0 for i in empty)
    assert m.expected_empty[done] == len(empty)


def test_same_seed_same_map_and_the_json_carries_two_grids():
    pos = ps.Position.start(seed=3)
    a, b = coverage_map(pos, samples=100, seed=9), coverage_map(pos.to_text(), samples=100, seed=9)
    assert a == b
    d = a.to_dict()
    assert len(d["grids"]) == 2 and all(len(g) == 9 and all(len(r) == 9 for r in g) for g in d["grids"])
    assert d["samples"] == 100


@pytest.mark.parametrize(
    "kwargs", [{"samples": 0}, {"samples": 1.5}, {"seed": -1}, {"epsilon": 2}, {"samples": True}]
)
def test_bad_arguments_are_refused(kwargs):
    with pytest.raises(ps.PatchsolveError):
        coverage_map(ps.Position.start(), **kwargs)
