"""RULES.md "Actions": A. advance and receive buttons; B. buy and place a patch."""

import pytest

from builders import IDS, make
from patchsolve import IllegalMoveError
from patchsolve.rules.patches import PATCHES

# -- A. Advance ---------------------------------------------------------------


def test_advance_moves_to_the_space_in_front_of_the_opponent_and_pays_a_button_per_space():
    p = make(time=(1, 3), leather=()).play("walk")
    assert p.time(0) == 4
    assert p.buttons(0) == 5 + 3


def test_advance_from_a_shared_space_moves_one_space():
    p = make(time=(7, 7), on_top=1, leather=()).play("walk")
    assert p.time(1) == 8 and p.buttons(1) == 6


def test_advance_never_goes_past_53_and_pays_only_the_spaces_moved():
    p = make(time=(51, 53), leather=(), first_at_end=1).play("walk")
    assert p.time(0) == 53
    assert p.buttons(0) == 5 + 2


def test_advance_is_always_legal_while_the_game_is_not_over():
    p = make(buttons=(0, 0))
    assert [m.kind for m in p.legal_moves()] == ["walk"] + ["buy"] * (len(p.legal_moves()) - 1)
    assert any(m.kind == "walk" for m in p.legal_moves())


# -- B. Buy and place ---------------------------------------------------------


def test_only_the_three_patches_in_front_of_the_neutral_token_can_be_bought():
    p = make(buttons=(50, 5))
    assert {m.patch for m in p.legal_moves() if m.kind == "buy"} == set(IDS[:3])


def test_fewer_than_three_patches_left_offer_only_those():
    p = make(circle=(4,), buttons=(50, 5))
    assert {m.patch for m in p.legal_moves() if m.kind == "buy"} == {4}
    p = make(circle=(), buttons=(50, 5))
    assert [m.kind for m in p.legal_moves()] == ["walk"]


def test_a_patch_that_costs_more_than_the_buttons_cannot_be_bought():
    # circle starts 1 (cost 1), 2 (cost 2), 3 (cost 3)
    p = make(buttons=(2, 5))
    assert {m.patch for m in p.legal_moves() if m.kind == "buy"} == {1, 2}
    with pytest.raises(IllegalMoveError, match="costs 3"):
        p.play("3:0@a1")


def test_a_patch_must_fit_without_overlap_inside_the_quilt():
    almost_full = ((1 << 81) - 1) & ~0b11  # only a1 and b1 empty
    p = make(quilts=(almost_full, 0), circle=(0, 1, 2), buttons=(10, 5))
    buys = [m for m in p.legal_moves() if m.kind == "buy"]
    assert [(m.patch, m.mask) for m in buys] == [(0, 0b11)]  # only the 1x2, on a1-b1


def test_buying_pays_places_and_moves_time_by_the_patch():
    p = make(buttons=(10, 5), time=(0, 10), leather=())
    m = next(m for m in p.legal_moves() if m.patch == 3)  # cost 3, time 1
    after = p.play(m)
    assert after.buttons(0) == 10 - PATCHES[3].buttons
    assert after.time(0) == PATCHES[3].time
    assert after.quilt(0) == m.mask
    assert after.income(0) == PATCHES[3].income


def test_the_next_choice_starts_after_the_bought_patch_and_skipped_ones_stay():
    p = make(buttons=(10, 5), time=(0, 10))
    after = p.play(next(m for m in p.legal_moves() if m.patch == IDS[2]))
    assert after.circle == IDS[3:] + IDS[:2]


def test_a_patch_time_cost_stops_at_53():
    p = make(buttons=(20, 5), time=(51, 53), first_at_end=1, leather=(), circle=(8, 9, 10))  # patch 8: time 6
    after = p.play(next(m for m in p.legal_moves() if m.patch == 8))
    assert after.time(0) == 53


def test_a_move_can_only_be_played_where_it_is_legal():
    p = make()
    with pytest.raises(IllegalMoveError):
        p.play("leather@a1")
    with pytest.raises(IllegalMoveError, match="not among the next three"):
        p.play("20:0@a1")


@pytest.mark.parametrize("code", [-1, 82, 127, 128 + 81, 10**6, 2**40, "walk", None])
def test_a_code_that_is_no_move_is_refused_cleanly(code):
    from patchsolve import Move

    with pytest.raises(IllegalMoveError):
        Move.from_code(code)
