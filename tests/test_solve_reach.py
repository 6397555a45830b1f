"""The reach benchmark's uniform set (benchmarks/solve_reach.py): one
position per game, drawn among those at or below the threshold, and the
Wilson interval its table reports."""

import importlib.util
import json
from pathlib import Path

import pytest

from patchsolve import Position

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "solve_reach.py"


@pytest.fixture(scope="module")
def reach():
    spec = importlib.util.spec_from_file_location("solve_reach", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_each_drawn_position_is_unfinished_and_within_its_threshold(reach, tmp_path, monkeypatch):
    monkeypatch.setattr(reach, "UNIFORM_SET", tmp_path / "uniform.json")
    entries = reach.generate_uniform(2, 200, 0.1, 7)
    assert [e["bucket"] for e in entries] == [30, 30, 40, 40, 20, 20, 25, 25, 35, 35, 50, 50]
    assert json.loads((tmp_path / "uniform.json").read_text()) == entries  # written as drawn
    for e in entries:
        pos = Position.from_text(e["text"])
        assert not pos.is_over
        assert reach.spaces_left(pos) == e["spaces_left"] <= e["bucket"]
    assert reach.generate_uniform(2, 200, 0.1, 7) == entries  # same seed, same set


def test_the_wilson_interval(reach):
    assert reach.wilson(0, 10)[0] == 0.0 and reach.wilson(10, 10)[1] == 1.0
    lo, hi = reach.wilson(38, 40)
    assert lo == pytest.approx(0.835, abs=0.001) and hi == pytest.approx(0.986, abs=0.001)
    lo, hi = reach.wilson(32, 40)
    assert lo < 0.8 < hi


def test_the_kept_uniform_set_draws_a_hundred_games_a_threshold(reach):
    entries = json.loads(reach.UNIFORM_SET.read_text())
    for threshold in reach.THRESHOLDS:
        mine = [e for e in entries if e["bucket"] == threshold]
        assert len(mine) == 100 and len({e["game_seed"] for e in mine}) == 100
        assert all(e["spaces_left"] <= threshold for e in mine)


def test_the_ranges_split_rows_by_spaces_left_between_buckets(reach):
    rows = [{"spaces_left": s, "proven": True, "time": 0.5} for s in (1, 20, 21, 30, 36, 40)]
    got = {label: [r["spaces_left"] for r in rs] for label, rs in reach.ranges(rows)}
    assert got == {"1-20": [1, 20], "21-25": [21], "26-30": [30], "36-40": [36, 40]}
    table = reach.uniform_table([dict(r, bucket=40) for r in rows], 10)
    assert "| <= 40 (any) | 6 | 6/6 | 6/6 (100%)" in table
    assert "| 36-40 | 2 | 2/2 | 2/2 (100%)" in table
