"""The quilt patterns (n-tuples) of the learned evaluation: their sharing
under the board's symmetries, the folded tables against the plain sum of
their terms, their part in the learned value, and the weights file."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builders import make
from patchsolve.rules.position import Position
from patchsolve.search import _learned as kn
from patchsolve.search import _patterns as pt
from patchsolve.search import learned, search

SIZE = len(pt.TABLES) * 512
SYMS = [
    lambda r, c: (r, c),
    lambda r, c: (c, 8 - r),
    lambda r, c: (8 - r, 8 - c),
    lambda r, c: (8 - c, r),
    lambda r, c: (r, 8 - c),
    lambda r, c: (8 - r, c),
    lambda r, c: (c, r),
    lambda r, c: (8 - c, 8 - r),
]
quilts = st.integers(min_value=0, max_value=(1 << 81) - 1)


def transform(q: int, g) -> int:
    """Quilt ``q`` with every square (r, c) moved to g(r, c)."""
    out = 0
    for i in range(81):
        if (q >> i) & 1:
            r, c = g(i // 9, i % 9)
            out |= 1 << (r * 9 + c)
    return out


def random_tables(seed: int):
    rng = random.Random(seed)
    return [rng.uniform(-1, 1) for _ in range(SIZE)], [rng.uniform(-1, 1) for _ in range(SIZE)]


@pytest.fixture
def tables():
    """Random tables loaded for one test; the package's weights restored after."""
    saved = kn.learned_weights(), kn.learned_patterns()
    a, b = random_tables(11)
    kn.set_learned(saved[0], (a, b))
    yield a, b
    kn.set_learned(*saved)


def test_fifteen_tables_of_nine_squares_cover_every_window_row_and_column():
    assert len(pt.TABLES) == 15
    assert sum(name.startswith("window") for name in pt.TABLES) == 10
    terms = pt.terms(0)  # the empty quilt: every term reads index 0 of its table
    assert len(terms) == 120 and sorted({t // 512 for t in terms}) == list(range(15))
    assert all(t % 512 == 0 for t in terms)
    full = pt.terms((1 << 81) - 1)
    assert all(t % 512 == 511 for t in full)


@settings(max_examples=60, deadline=None)
@given(q=quilts, k=st.integers(min_value=0, max_value=7))
def test_a_quilt_and_its_images_under_the_symmetries_read_the_same_entries(q, k):
    assert sorted(pt.terms(transform(q, SYMS[k]))) == sorted(pt.terms(q))


# the fixture's tables stay the same for every example: that is the point
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(q=quilts, k=st.integers(min_value=0, max_value=7))
def test_folded_tables_sum_the_terms_and_keep_the_symmetry(tables, q, k):
    a, b = tables
    va, vb = pt.values(q)
    terms = pt.terms(q)
    assert va == pytest.approx(sum(a[t] for t in terms), abs=1e-3)
    assert vb == pytest.approx(sum(b[t] for t in terms), abs=1e-3)
    wa, wb = pt.values(transform(q, SYMS[k]))
    assert (wa, wb) == pytest.approx((va, vb), abs=1e-3)


def test_one_square_changes_the_terms_that_read_it():
    # square (0, 0) is in one window, one row and one column. The corner
    # windows' orbit has 4 members for 8 symmetries, so each is read twice
    # (as itself and transposed); so are the 4 edge lines: 2 + 2 + 2 terms.
    before, after = pt.terms(0), pt.terms(1)
    changed = [k for k, (x, y) in enumerate(zip(before, after)) if x != y]
    assert len(changed) == 6
    assert {after[k] // 512 for k in changed} == {
        pt.TABLES.index("window_r0c0"),
        pt.TABLES.index("line_r0c0"),
    }


def _mirror(pos: Position) -> Position:
    f = pos._c.fields()
    f = dict(f, quilts=tuple(transform(q, SYMS[4]) for q in f["quilts"]))
    return Position.from_fields(f)


def test_a_position_and_its_mirror_image_score_the_same(tables):
    pos = Position.start(seed=4)
    rng = random.Random(4)
    for _ in range(18):
        pos = pos.play(rng.choice(pos.legal_moves()))
    mirror = _mirror(pos)
    assert mirror.to_text() != pos.to_text()
    for p in (0, 1):
        assert kn.learned_value(mirror._c, p) == pytest.approx(kn.learned_value(pos._c, p), abs=1e-3)


def test_the_patterns_add_mover_minus_opponent_and_the_phase_scales_b(tables):
    a, b = tables
    pos = make(quilts=(0b111, 0b1 << 40), time=(10, 20), on_top=None)
    mine, theirs, phase = kn.pattern_sides(pos._c, 0)
    assert phase == pytest.approx((106 - 30) / 106)
    expect = sum(a[t] for t in mine) - sum(a[t] for t in theirs)
    expect += phase * (sum(b[t] for t in mine) - sum(b[t] for t in theirs))
    with_patterns = kn.learned_value(pos._c, 0)
    kn.set_learned(kn.learned_weights(), None)
    assert with_patterns - kn.learned_value(pos._c, 0) == pytest.approx(expect, abs=1e-3)


def test_a_player_at_the_end_of_the_time_board_has_no_pattern_term(tables):
    pos = make(quilts=(0b111, 0b1 << 40), time=(53, 20), on_top=None)
    mine, theirs, _ = kn.pattern_sides(pos._c, 0)
    assert mine == [] and len(theirs) == 120


def test_new_tables_take_effect_at_once():
    saved = kn.learned_weights(), kn.learned_patterns()
    pos = make(quilts=(0b111, 0), time=(10, 20), on_top=None)
    try:
        kn.set_learned(saved[0], random_tables(1))
        one = kn.learned_value(pos._c, 0)
        kn.set_learned(saved[0], random_tables(2))  # the memoised sums are stale now
        two = kn.learned_value(pos._c, 0)
        kn.set_learned(saved[0], random_tables(1))
        assert one != two and kn.learned_value(pos._c, 0) == one
    finally:
        kn.set_learned(*saved)


def test_search_with_patterns_is_deterministic_under_a_node_limit(tables):
    pos = Position.start(seed=8)
    a = search(pos, engine="alphabeta", nodes=20_000)
    b = search(pos, engine="alphabeta", nodes=20_000)
    assert (a.best_move, a.score, a.nodes, a.pv) == (b.best_move, b.score, b.nodes, b.pv)


def test_pattern_tables_with_other_names_or_sizes_are_refused():
    data = learned.read()
    bad = dict(data, patterns={"tables": ["x"], "a": [0.0], "b": [0.0]})
    with pytest.raises(ValueError, match="pattern tables"):
        learned.read(json.dumps(bad))
    short = dict(data, patterns={"tables": list(pt.TABLES), "a": [0.0] * 5, "b": [0.0] * 5})
    with pytest.raises(ValueError, match="pattern values"):
        learned.read(json.dumps(short))


def test_wrong_sizes_are_refused_by_the_c_module():
    with pytest.raises(ValueError):
        pt.set_patterns([0.0] * 3, [0.0] * 3)
    with pytest.raises(ValueError):
        pt.terms(1 << 81)
