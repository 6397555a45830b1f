"""The perfect-play yardstick (tests/data/exact_26_34.jsonl.xz, judged by
benchmarks/bench_exact.py): every kept position lists each legal move once,
its best moves carry the root's exact value and no move is worth more, and
a move's value solved again from the position after it is the one stored."""

import importlib.util
from pathlib import Path

import pytest

import patchsolve as ps
from data_files import DATA as TEST_DATA
from data_files import read_jsonl
from patchsolve.rules.position import Position
from patchsolve.search.result import phase_of
from test_alphabeta import margin

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
DATA = TEST_DATA / "exact_26_34.jsonl.xz"


def load_bench_exact():
    spec = importlib.util.spec_from_file_location("bench_exact", BENCH / "bench_exact.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = load_bench_exact()
ROWS = read_jsonl(DATA.name)
KEPT = bench.read_rows(DATA)  # what the judge reads
assert bench.DATA == DATA  # the set the judge reads by default


def test_the_set_has_positions_of_the_right_phase():
    assert len(KEPT) >= 10
    for r in ROWS:
        pos = Position(r["position"])
        assert phase_of(pos) == r["phase"] and 26 <= r["phase"] <= 34
        assert pos.to_text() == r["position"]  # parse and print are inverses


@pytest.mark.parametrize("row", KEPT, ids=[r["game"] for r in KEPT])
def test_every_legal_move_is_valued_once_and_none_beats_the_value(row):
    pos = Position(row["position"])
    listed = [m["move"] for m in row["moves"]]
    assert sorted(listed) == sorted(str(m) for m in pos.legal_moves())
    value = row["value"]
    assert row["lower"] == row["upper"] == value
    exact = [m["score"] for m in row["moves"] if m["bound"] == "exact"]
    assert max(exact) == value
    for m in row["moves"]:
        if m["bound"] == "exact":
            assert m["score"] <= value
        else:  # proven no better than the best
            assert m["bound"] == "upper" and m["upper"] <= value


def value_after(pos: Position, move) -> int:
    """The exact value of ``move`` for the player to move in ``pos``."""
    child = pos.play(move)
    if child.is_over:
        return margin(child, pos.to_move)
    r = ps.solve(child, nodes=20_000_000)
    assert r.bound == "exact"
    return r.score if child.to_move == pos.to_move else -r.score


def test_stored_values_are_solved_again_from_the_position_after_the_move():
    # the three quickest positions: their best move and their worst exact move
    for row in sorted(KEPT, key=lambda r: r["nodes"])[:3]:
        pos = Position(row["position"])
        exact = [m for m in row["moves"] if m["bound"] == "exact"]
        for m in (exact[0], min(exact, key=lambda m: m["score"])):
            assert value_after(pos, pos.parse_move(m["move"])) == m["score"]


def test_the_judge_counts_a_loss_from_the_value_and_a_bound_as_at_least():
    row = {
        "value": 5,
        "moves": [
            {"move": "walk", "score": 5, "bound": "exact", "lower": 5, "upper": 5},
            {"move": "0:0@a1", "score": 1, "bound": "exact", "lower": 1, "upper": 1},
            {"move": "1:0@a1", "score": 2, "bound": "upper", "lower": None, "upper": 2},
        ],
    }
    assert bench.loss_of(row, "walk") == (0, False)
    assert bench.loss_of(row, "0:0@a1") == (4, False)
    assert bench.loss_of(row, "1:0@a1") == (3, True)
    with pytest.raises(KeyError):
        bench.loss_of(row, "2:0@a1")


def test_the_paired_comparison_is_the_mean_of_the_differences_by_position():
    first = {"losses": [0, 4, 2, 0]}
    other = {"losses": [0, 0, 2, 1]}
    d = bench.paired(first, other)
    assert d["mean"] == pytest.approx(-0.75)
    assert d["ci95"][0] < d["mean"] < d["ci95"][1]
    assert d["changed"] == [(1, 4, 0), (3, 0, 1)]
    same = bench.paired(first, first)
    assert same["mean"] == 0 and same["changed"] == []
