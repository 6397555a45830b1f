"""RULES.md "End and score"."""

import pytest

from builders import FULL, make


def test_the_game_ends_when_both_tokens_are_on_53():
    p = make(time=(52, 53), leather=(), first_at_end=1)
    assert not p.is_over
    p = p.play("walk")
    assert p.is_over and p.legal_moves() == []


def test_a_pending_leather_placement_is_made_even_on_53():
    p = make(time=(48, 53), leather=(50,), first_at_end=1).play("walk")
    assert p.time(0) == 53 and p.pending_leather and not p.is_over
    assert p.play("leather@a1").is_over


def test_score_is_buttons_plus_bonus_minus_two_per_empty_square():
    p = make(buttons=(14, 18), quilts=(FULL >> 5, FULL >> 2), bonus_owner=0)
    assert p.scores() == (14 + 7 - 2 * 5, 18 - 2 * 2)


def test_scores_can_be_negative():
    assert make(buttons=(0, 3)).scores() == (-162, 3 - 162)


def test_the_higher_score_wins():
    p = make(time=(53, 53), on_top=0, buttons=(10, 11), first_at_end=0, leather=())
    assert p.is_over and p.winner() == 1


@pytest.mark.parametrize("first", [0, 1])
def test_equal_scores_are_won_by_the_player_who_reached_53_first(first):
    p = make(time=(53, 53), on_top=1 - first, buttons=(10, 10), first_at_end=first, leather=())
    assert p.winner() == first


def test_the_first_player_to_reach_53_is_recorded():
    p = make(time=(50, 52), leather=()).play("walk")
    assert p.time(0) == 53 and p.first_at_end == 0
    p = p.play("walk")
    assert p.is_over and p.first_at_end == 0


def test_winner_is_refused_before_the_end():
    with pytest.raises(ValueError):
        make().winner()
