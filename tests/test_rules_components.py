"""RULES.md "Components": the patches and the time board."""

from pathlib import Path

import pytest

from patchsolve import _core
from patchsolve.rules.patches import EDITIONS, PATCHES

SHARED = Path(__file__).resolve().parents[2] / "shared" / "patchwork"


@pytest.mark.parametrize("name", ["patches.csv", "timeboard.csv"])
def test_the_package_ships_the_canonical_data(name):
    if not (SHARED / name).exists():
        pytest.skip("the shared rules folder is not beside this checkout")
    shipped = Path(__file__).resolve().parents[1] / "src" / "patchsolve" / "data" / name
    assert shipped.read_text() == (SHARED / name).read_text()


def test_there_are_33_patches_with_ids_0_to_32():
    assert [p.id for p in PATCHES] == list(range(33))


def test_catalogue_totals_match_the_self_check():
    assert sum(p.size for p in PATCHES) == 166
    assert sum(p.income for p in PATCHES) == 38
    assert sum(p.buttons for p in PATCHES) == 133
    assert sum(p.time for p in PATCHES) == 107


def test_the_largest_patch_covers_8_squares():
    assert max(p.size for p in PATCHES) == 8


def test_empty_board_placements_count_every_distinct_rotation_and_reflection():
    assert sum(len(_core.placements(p.id)) for p in PATCHES) == 7349
    assert len(_core.placements(7)) == len(_core.placements(8)) == len(_core.placements(12)) == 448
    assert len(_core.placements(15)) == 49  # the plus: one orientation, 7x7 anchors


def test_every_placement_is_distinct_and_covers_the_patch_size():
    for p in PATCHES:
        masks = _core.placements(p.id)
        assert len(set(masks)) == len(masks)
        assert all(bin(m).count("1") == p.size for m in masks)
        assert all(m >> 81 == 0 for m in masks)


def test_the_free_cross_costs_no_buttons_but_three_time():
    free = [p for p in PATCHES if p.buttons == 0]
    assert len(free) == 1 and free[0].time == 3


def test_income_spaces_are_every_sixth_space_ending_on_53():
    for e in EDITIONS.values():
        assert e.income_spaces == (5, 11, 17, 23, 29, 35, 41, 47, 53)
        assert e.last_space == 53


def test_leather_spaces_depend_on_the_printing():
    assert EDITIONS["revised"].leather_spaces == (26, 32, 38, 44, 50)
    assert EDITIONS["original"].leather_spaces == (20, 26, 32, 44, 50)


def test_there_are_nine_7x7_squares_on_a_quilt():
    squares = _core.bonus_squares()
    assert len(set(squares)) == 9
    assert all(bin(m).count("1") == 49 for m in squares)


def test_the_rules_document_states_the_check_sums_of_the_data():
    import re
    from pathlib import Path

    text = " ".join((Path(__file__).resolve().parents[1] / "RULES.md").read_text().split())
    m = re.search(r"(\d+) squares, total income (\d+), total button cost (\d+), total time cost (\d+)", text)
    assert m, "RULES.md lost its check sums"
    assert tuple(map(int, m.groups())) == (
        sum(p.size for p in PATCHES),
        sum(p.income for p in PATCHES),
        sum(p.buttons for p in PATCHES),
        sum(p.time for p in PATCHES),
    )
    placements = re.search(r"they have (\d+) placements in all", text)
    assert int(placements.group(1)) == sum(len(_core.placements(p.id)) for p in PATCHES)
