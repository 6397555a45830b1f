"""Self-tests of the pure-Python reference rules (tests/reference.py)."""

import sys
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference as ref  # noqa: E402

CIRCLE = tuple(range(1, 33)) + (0,)  # Setup: the 1x2 (id 0) is last


def test_patch_totals_from_rules():
    patches = ref.PATCHES.values()
    assert len(ref.PATCHES) == 33
    assert sum(len(p["cells"]) for p in patches) == 166
    assert sum(p["income"] for p in patches) == 38
    assert sum(p["cost"] for p in patches) == 133
    assert sum(p["time"] for p in patches) == 107


def test_placement_counts_from_rules():
    assert sum(len(ref.all_placements(i)) for i in range(33)) == 7349
    for i in (7, 8, 12):
        assert len(ref.all_placements(i)) == 448
    assert len(ref.all_placements(15)) == 49
    assert len(ref.all_placements(0)) == 2 * 9 * 8
    assert len(set(ref.all_placements(9))) == 64


def test_start_and_first_moves():
    s = ref.start(CIRCLE, first_player=1)
    snap = ref.snapshot(s)
    assert snap["to_move"] == 1 and snap["on_top"] == 1 and snap["buttons"] == (5, 5)
    assert snap["leather"] == (26, 32, 38, 44, 50)
    assert ref.snapshot(ref.start(CIRCLE, "original"))["leather"] == (20, 26, 32, 44, 50)
    s = ref.play(s, ("walk", None, 0))  # player 1: 0 -> 1, +1 button
    assert s.time == (0, 1) and s.buttons == (5, 6) and ref.to_move(s) == 0
    s = ref.play(s, ("walk", None, 0))  # player 0: 0 -> 2, +2 buttons
    assert s.time == (2, 1) and s.buttons == (7, 6) and ref.to_move(s) == 1


def buy(s, patch_id):
    """Play the first legal placement of a patch."""
    return ref.play(s, next(m for m in ref.legal_moves(s) if m[:2] == ("buy", patch_id)))


def test_buy_rotates_circle_income_and_on_top():
    s = ref.start(CIRCLE)
    assert {m[1] for m in ref.legal_moves(s) if m[0] == "buy"} == {1, 2, 3}
    mask = ref.all_placements(3)[0]  # id 3: cost 3, time 1
    s = ref.play(s, ("buy", 3, mask))
    assert s.circle == CIRCLE[3:] + CIRCLE[:2]
    assert s.buttons == (2, 5) and s.time == (1, 0) and s.quilts[0] == ref.to_cells(mask)
    s = buy(s, 5)  # player 1, id 5: cost 3, time 2, income 1
    assert s.time == (1, 2) and s.income == (0, 1) and s.circle[:3] == (6, 7, 8)
    s = ref.play(s, ("walk", None, 0))  # player 0: 1 -> 3
    assert {m[0] for m in ref.legal_moves(s)} == {"walk"}  # player 1 (2 buttons) cannot afford 6, 7, 8
    s = ref.play(s, ("walk", None, 0))  # player 1: 2 -> 4
    assert s.time == (3, 4) and s.buttons == (4, 4)
    s = buy(s, 6)  # player 0, id 6: cost 3, time 3, income 1; 3 -> 6 crosses 5, the new patch counts
    assert s.time == (6, 4) and s.buttons == (4 - 3 + 1, 4)
    s = buy(s, 7)  # player 1, id 7: cost 4, time 2, income 1; 4 -> 6 crosses 5, lands on player 0
    assert s.time == (6, 6) and s.buttons == (2, 4 - 4 + 2)
    assert ref.snapshot(s)["on_top"] == 1 and ref.to_move(s) == 1
    with pytest.raises(ValueError):
        ref.play(s, ("buy", 17, ref.all_placements(17)[0]))  # not among the next three


def test_advance_crossing_two_income_spaces():
    s = replace(ref.start(CIRCLE), time=(4, 12), income=(3, 0))
    s = ref.play(s, ("walk", None, 0))  # 4 -> 13 crosses 5 and 11
    assert s.time == (13, 12) and s.buttons == (5 + 9 + 2 * 3, 5)


def test_leather_taken_and_placed():
    s = replace(ref.start(CIRCLE), time=(24, 25))
    s = ref.play(s, ("walk", None, 0))  # 24 -> 26 takes the leather patch on 26
    assert s.pending_leather == 0 and ref.to_move(s) == 0 and 26 not in s.leather
    moves = ref.legal_moves(s)
    assert moves == [("leather", None, 1 << sq) for sq in range(81)]
    s = ref.play(s, moves[40])
    assert s.quilts[0] == {(4, 4)} and s.pending_leather is None and ref.to_move(s) == 1


def test_leather_discarded_on_full_quilt_and_completes_bonus():
    full = replace(ref.start(CIRCLE), time=(24, 25), quilts=(ref.ALL_CELLS, frozenset()))
    s = ref.play(full, ("walk", None, 0))
    assert s.pending_leather is None and 26 not in s.leather
    square = frozenset((r, c) for r in range(7) for c in range(7))
    s = replace(ref.start(CIRCLE), time=(24, 25), quilts=(square - {(3, 3)}, frozenset()))
    s = ref.play(ref.play(s, ("walk", None, 0)), ("leather", None, 1 << 30))
    assert s.bonus_owner == 0 and ref.scores(s) == (5 + 2 + 7 - 2 * 32, 5 - 2 * 81)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("edition", ["revised", "original"])
def test_random_game_ends_on_last_space(seed, edition):
    states = ref.random_game(CIRCLE, seed, edition, first_player=seed % 2)
    end = ref.snapshot(states[-1])
    assert end["is_over"] and end["time"] == (53, 53) and end["pending_leather"] is None
    assert end["first_at_end"] in (0, 1) and ref.legal_moves(states[-1]) == []
    assert ref.winner(states[-1]) in (0, 1)
    for before, after in zip(states, states[1:]):
        assert all(a >= b for a, b in zip(after.time, before.time))
        assert all(len(a) >= len(b) for a, b in zip(after.quilts, before.quilts))
    assert end["leather"] == ()  # both tokens passed every leather space
