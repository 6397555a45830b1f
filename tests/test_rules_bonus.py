"""RULES.md "7x7 bonus"."""

from builders import cells, make


def square7(top: int, left: int) -> int:
    return sum(1 << ((top + r) * 9 + left + c) for r in range(7) for c in range(7))


def test_covering_a_7x7_square_with_a_patch_takes_the_bonus():
    missing = cells("a1", "b1")
    p = make(
        quilts=(square7(0, 0) & ~missing, 0), circle=(0, 1, 2), buttons=(10, 5), time=(0, 10), leather=()
    )
    p = p.play(next(m for m in p.legal_moves() if m.mask == missing))
    assert p.bonus_owner == 0


def test_any_of_the_nine_squares_counts():
    missing = cells("i9")
    p = make(quilts=(square7(2, 2) & ~missing, 0), time=(24, 30))
    p = p.play("walk").play("leather@i9")
    assert p.bonus_owner == 0


def test_a_leather_patch_can_complete_the_7x7():
    missing = cells("d4")
    p = make(quilts=(square7(1, 1) & ~missing, 0), time=(24, 30))
    p = p.play("walk").play("leather@d4")
    assert p.bonus_owner == 0


def test_a_quilt_without_a_full_7x7_gets_no_bonus():
    p = make(quilts=(square7(1, 1) & ~cells("d4") & ~cells("e5"), 0), time=(24, 30))
    p = p.play("walk").play("leather@d4")
    assert p.bonus_owner is None


def test_only_the_first_player_gets_the_bonus():
    missing = cells("d4")
    p = make(quilts=(square7(1, 1) & ~missing, square7(0, 0)), bonus_owner=1, time=(24, 30))
    p = p.play("walk").play("leather@d4")
    assert p.bonus_owner == 1


def test_the_bonus_is_worth_7_points():
    with_bonus = make(bonus_owner=0).scores()[0]
    without = make().scores()[0]
    assert with_bonus - without == 7
