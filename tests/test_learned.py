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
