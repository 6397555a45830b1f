"""RULES.md "Whose turn"."""

from builders import make


def test_the_player_further_behind_moves():
    assert make(time=(3, 7)).to_move == 0
    assert make(time=(9, 2)).to_move == 1


def test_on_the_same_space_the_token_on_top_moves():
    assert make(time=(4, 4), on_top=1).to_move == 1
    assert make(time=(4, 4), on_top=0).to_move == 0


def test_a_player_may_move_several_times_in_a_row():
    p = make(time=(0, 10), circle=(2, 1, 3) + tuple(range(4, 33)) + (0,), buttons=(20, 5))
    p = p.play(next(m for m in p.legal_moves() if m.patch == 2))  # time 2: still behind
    assert p.time(0) == 2 and p.to_move == 0
    p = p.play(next(m for m in p.legal_moves() if m.kind == "buy"))
    assert p.to_move == 0


def test_a_token_ending_on_the_opponents_space_goes_on_top():
    # player 0 buys patch 2 (time 2) and lands on player 1's space 2
    p = make(time=(0, 2), circle=(2,) + tuple(x for x in range(33) if x != 2))
    p = p.play(next(m for m in p.legal_moves() if m.patch == 2))
    assert p.time(0) == p.time(1) == 2
    assert p.to_move == 0  # arrived last, so on top, so moves again


def test_a_player_on_53_no_longer_moves():
    p = make(time=(53, 40), first_at_end=0, leather=())
    assert p.to_move == 1
    p = p.play("walk")
    assert p.is_over
