"""The learned evaluation and its features (the quilt look-ahead among them)."""

import pytest

from builders import FULL, make
from patchsolve import Position
from patchsolve.search import _learned as kn
from patchsolve.search import learned, search

CHECKER = sum(1 << sq for sq in range(81) if sq % 2 == 0)  # empty squares all isolated


def test_placement_count_matches_legal_buys():
    pos = make(buttons=(50, 50), quilts=(0b111 | (1 << 40), 0))
    head = pos._c.fields()["circle"][0]
    buys = [m for m in pos.legal_moves() if m.kind == "buy" and m.patch == head]
    assert buys
    assert kn.placements_of_patch(pos._c, 0, head) == len(buys)


def test_quilt_that_takes_none_of_the_next_patches_scores_worst():
    empty = make()
    block = sum(1 << sq for sq in (0, 1, 2, 3, 9, 10, 11, 12))
    half = make(quilts=(FULL & ~block, 0))  # a free 2x4 block: few placements left
    none = make(quilts=(CHECKER, 0))
    worst = kn.quilt_lookahead(none._c, 0, 3)
    assert worst == 3 * kn.quilt_lookahead(none._c, 0, 1)  # every patch costs the top penalty
    assert kn.quilt_lookahead(empty._c, 0, 3) < kn.quilt_lookahead(half._c, 0, 3) < worst
    assert kn.quilt_lookahead(empty._c, 0, 3) == 0


def test_feature_next_fit_is_zero_when_nothing_fits():
    names = list(kn.FEATURES)
    rich = dict(buttons=(30, 30), time=(1, 0), on_top=None)
    f_none = kn.features(make(quilts=(CHECKER, 0), **rich)._c, 0)
    f_free = kn.features(make(quilts=(0, 0), **rich)._c, 0)
    i = names.index("next_fit_diff")
    assert f_free[i] == 0  # both can fit and afford the next three
    assert f_none[i] == -3  # the mover can fit none of them
    assert f_none[names.index("dead_patches_diff")] == 33


def test_weights_with_other_features_are_refused():
    import json

    bad = json.dumps({"features": ["x"], "weights": [1.0]})
    with pytest.raises(ValueError):
        learned.read(bad)


@pytest.mark.parametrize("options", [{}, {"learned": False}])
def test_alphabeta_deterministic_under_node_limit(options):
    pos = Position.start(seed=7)
    for _ in range(14):
        pos = pos.play(search(pos, engine="alphabeta", depth=1).best_move)
    a = search(pos, engine="alphabeta", nodes=30_000, **options)
    b = search(pos, engine="alphabeta", nodes=30_000, **options)
    assert (a.best_move, a.score, a.nodes, a.pv) == (b.best_move, b.score, b.nodes, b.pv)


def test_learned_switch_is_restored_after_a_search():
    before = kn.learned_weights()
    assert before is not None  # loaded with the package
    search(Position.start(seed=3), engine="alphabeta", nodes=2000, learned=False)
    assert kn.learned_weights() == before


def test_the_retired_lookahead_option_is_refused():
    from patchsolve.errors import LimitError

    with pytest.raises(LimitError, match="lookahead"):
        search(Position.start(seed=3), engine="alphabeta", nodes=2000, lookahead=1)


def test_weights_file_loads_and_matches_its_manifest():
    data = learned.read()
    assert data["features"] == list(kn.FEATURES)
    assert len(data["weights"]) == len(kn.FEATURES)
    man = data["manifest"]
    assert man["train_positions"] + man["held_out_positions"] == man["positions"]
    assert man["games"] > 0 and man["held_out"]["learned"]["rmse"] > 0
    # the values are the fit's: the manifest keeps their digest
    from patchsolve.training import fit

    assert man["values_sha256"] == fit.values_digest(data)
    assert learned.load()
    pos = make(buttons=(12, 7), time=(3, 0), on_top=None)
    expect = kn.margin_of(pos._c, 1) + sum(w * f for w, f in zip(data["weights"], kn.features(pos._c, 1)))
    assert kn.learned_value(pos._c, 1) == pytest.approx(expect)


# --------------------------------------------------------------------------
# The late model: weights that change with the phase near the end
# --------------------------------------------------------------------------


@pytest.fixture
def late_model():
    """A late model with two knots loaded for one test (the package's weights
    restored after): rows that are the main weights plus 1 and plus 3."""
    saved = kn.loaded()
    main = saved[0]
    rows = [[w + 1.0 for w in main], [w + 3.0 for w in main]]
    kn.set_learned(main, saved[1], ([10, 20], 30, rows))
    yield main, rows
    kn.set_learned(*saved)


def at_phase(left: int):
    """A position with ``left`` spaces to go for the two players together."""
    t = (53 - left // 2, 53 - (left - left // 2))
    return make(buttons=(9, 4), time=t, on_top=0 if t[0] == t[1] else None)


@pytest.mark.parametrize(
    "left, share",  # spaces left to both; the share of each row: knot 10, knot 20, main
    [(4, (1, 0, 0)), (10, (1, 0, 0)), (15, (0.5, 0.5, 0)), (20, (0, 1, 0)), (26, (0, 0.4, 0.6)), (30, (0, 0, 1)),
     (60, (0, 0, 1))],
)
def test_late_weights_are_interpolated_between_knots_and_into_the_main_weights(late_model, left, share):
    main, rows = late_model
    pos = at_phase(left)
    expect = [share[0] * a + share[1] * b + share[2] * c for a, b, c in zip(rows[0], rows[1], main)]
    assert kn.effective_weights(pos._c) == pytest.approx(expect)
    f = kn.features(pos._c, 0)
    value = kn.margin_of(pos._c, 0) + sum(w * x for w, x in zip(expect, f))
    assert kn.learned_value(pos._c, 0) == pytest.approx(value)


def test_late_model_round_trips_and_switches_off_with_the_evaluation(late_model):
    main, rows = late_model
    knots, main_from, got = kn.learned_late()
    assert (knots, main_from) == ([10, 20], 30) and got == rows  # doubles both ways: exact
    kn.set_learned(main)  # no late model: the main weights at every phase
    assert kn.learned_late() is None
    assert kn.effective_weights(at_phase(4)._c) == pytest.approx(main)


@pytest.mark.parametrize(
    "late",
    [([20, 10], 30, "rows2"), ([10, 30], 30, "rows2"), ([10], 200, "rows1"), ([], 30, "rows0"), ([10], 30, "short")],
)
def test_a_bad_late_model_is_refused_and_the_loaded_one_kept(late_model, late):
    main, rows = late_model
    knots, main_from, kind = late
    bad_rows = {"rows0": [], "rows1": rows[:1], "rows2": rows, "short": [rows[0][:-1]]}[kind]
    before = kn.loaded()
    with pytest.raises(ValueError):
        kn.set_learned(main, None, (knots, main_from, bad_rows))
    assert kn.loaded() == before


def test_weights_file_late_model_matches_its_manifest():
    data = learned.read()
    late = data.get("late")
    if late is None:
        pytest.skip("the package's weights have no late model")
    assert late["manifest"]["train_positions"] + late["manifest"]["held_out_positions"] == late["manifest"]["positions"]
    assert kn.learned_late()[0] == late["knots"]
    bad = dict(data, late=dict(late, knots=late["knots"][::-1]))
    import json

    with pytest.raises(ValueError):
        learned.read(json.dumps(bad))
