"""RULES.md "Events on the time board": income and leather patches."""

import pytest

from builders import FULL, cells, make
from patchsolve.rules.patches import PATCHES

# -- Button income ------------------------------------------------------------


def test_moving_past_an_income_space_pays_the_quilts_income():
    p = make(time=(3, 7), income=(4, 0), leather=()).play("walk")  # 3 -> 8 passes 5
    assert p.buttons(0) == 5 + 5 + 4


def test_landing_on_an_income_space_pays_too():
    p = make(time=(3, 4), income=(4, 0), leather=()).play("walk")  # 3 -> 5
    assert p.buttons(0) == 5 + 2 + 4


def test_a_long_advance_pays_income_for_each_income_space_it_crosses():
    p = make(time=(4, 11), income=(3, 0), leather=()).play("walk")  # 4 -> 12 passes 5 and 11
    assert p.buttons(0) == 5 + 8 + 2 * 3


def test_a_patch_placed_this_turn_counts_for_the_income_it_moves_past():
    patch = PATCHES[9]  # cost 6, time 5, income 2
    p = make(time=(3, 20), buttons=(10, 5), circle=(9, 1, 2), leather=())
    p = p.play(next(m for m in p.legal_moves() if m.patch == 9))  # 3 -> 8 passes 5
    assert p.buttons(0) == 10 - patch.buttons + patch.income


def test_space_53_pays_income():
    p = make(time=(50, 53), income=(7, 0), leather=(), first_at_end=1).play("walk")
    assert p.buttons(0) == 5 + 3 + 7


def test_only_the_moving_player_receives_income():
    p = make(time=(3, 7), income=(4, 6), leather=()).play("walk")
    assert p.buttons(1) == 5


# -- Leather patches ----------------------------------------------------------


def test_passing_a_leather_space_takes_its_patch_to_be_placed_at_once():
    p = make(time=(24, 30), leather=(26, 32, 38, 44, 50)).play("walk")  # 24 -> 31 passes 26
    assert p.pending_leather and p.to_move == 0
    assert p.leather == (32, 38, 44, 50)
    moves = p.legal_moves()
    assert {m.kind for m in moves} == {"leather"} and len(moves) == 81
    p = p.play("leather@e5")
    assert p.quilt(0) == cells("e5") and not p.pending_leather
    assert p.to_move == 1  # now player 1 (on 30) is behind


def test_the_leather_patch_can_only_go_on_an_empty_square():
    p = make(time=(24, 30), quilts=(cells("a1", "b1"), 0), leather=(26, 32, 38, 44, 50)).play("walk")
    assert len(p.legal_moves()) == 79
    assert cells("a1") not in {m.mask for m in p.legal_moves()}


def test_a_leather_patch_is_discarded_by_a_player_with_a_full_quilt():
    p = make(time=(24, 30), quilts=(FULL, 0), leather=(26, 32, 38, 44, 50)).play("walk")
    assert not p.pending_leather
    assert p.leather == (32, 38, 44, 50)
    assert p.quilt(0) == FULL and p.to_move == 1


def test_a_leather_space_already_passed_holds_nothing():
    p = make(time=(24, 30), leather=(32, 38, 44, 50)).play("walk")
    assert not p.pending_leather


@pytest.mark.parametrize("edition, space", [("original", 20), ("revised", 26)])
def test_the_first_leather_space_depends_on_the_printing(edition, space):
    p = make(edition=edition, time=(space - 1, space + 3), leather=(space,)).play("walk")
    assert p.pending_leather and p.leather == ()


def test_buying_a_patch_can_take_a_leather_patch_too():
    p = make(time=(24, 40), buttons=(10, 5), circle=(9, 1, 2), leather=(26, 32, 38, 44, 50))
    p = p.play(next(m for m in p.legal_moves() if m.patch == 9))  # 24 -> 29
    assert p.pending_leather and p.to_move == 0 and p.time(0) == 29
    assert p.buttons(0) == 10 - 6 + 2  # income space 29 paid with the new patch
