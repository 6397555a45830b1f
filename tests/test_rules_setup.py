"""RULES.md "Setup"."""

import pytest

from patchsolve import InvalidPositionError, Position


def test_each_player_starts_with_an_empty_quilt_5_buttons_on_space_0():
    p = Position.start(seed=3)
    for player in (0, 1):
        assert p.quilt(player) == 0
        assert p.buttons(player) == 5
        assert p.income(player) == 0
        assert p.time(player) == 0
    assert p.bonus_owner is None and not p.pending_leather and not p.is_over


def test_a_random_circle_holds_all_33_patches_with_the_1x2_last():
    for seed in range(20):
        circle = Position.start(seed=seed).circle
        assert sorted(circle) == list(range(33))
        assert circle[-1] == 0


def test_the_same_seed_gives_the_same_circle():
    assert Position.start(seed=5).circle == Position.start(seed=5).circle
    assert Position.start(seed=5).circle != Position.start(seed=6).circle


@pytest.mark.parametrize("first", [0, 1])
def test_the_start_player_moves_first(first):
    assert Position.start(seed=1, first_player=first).to_move == first


@pytest.mark.parametrize(
    "edition, leather", [("revised", (26, 32, 38, 44, 50)), ("original", (20, 26, 32, 44, 50))]
)
def test_leather_patches_lie_on_the_editions_spaces(edition, leather):
    p = Position.start(seed=1, edition=edition)
    assert p.edition == edition and p.leather == leather


def test_the_default_edition_is_revised():
    assert Position.start(seed=1).edition == "revised"


def test_a_given_circle_is_used_as_is():
    circle = list(range(33))
    assert Position.start(circle=circle).circle == tuple(circle)


@pytest.mark.parametrize(
    "circle, words",
    [
        (list(range(32)), "33 patches"),
        (list(range(32)) + [31], "duplicate"),
        (list(range(32)) + [33], "unknown"),
        (list(range(32)) + [-1], "unknown"),
        ([0] * 33, "duplicate"),
        ("abc", "unknown"),
    ],
)
def test_an_invalid_circle_is_refused_naming_the_problem(circle, words):
    with pytest.raises(InvalidPositionError, match=words):
        Position.start(circle=circle)


def test_unknown_edition_and_start_player_are_refused():
    with pytest.raises(InvalidPositionError, match="edition 'deluxe'"):
        Position.start(seed=1, edition="deluxe")
    with pytest.raises(InvalidPositionError, match="first_player"):
        Position.start(seed=1, first_player=2)
