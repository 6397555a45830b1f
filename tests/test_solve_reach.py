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
    assert [e["bucket"] for e in entries] == [30, 30, 40, 40]
    assert json.loads((tmp_path / "uniform.json").read_text()) == entries   # written as drawn
    for e in entries:
        pos = Position.from_text(e["text"])
        assert not pos.is_over
        assert reach.spaces_left(pos) == e["spaces_left"] <= e["bucket"]
    assert reach.generate_uniform(2, 200, 0.1, 7) == entries                # same seed, same set


def test_the_wilson_interval(reach):
    assert reach.wilson(0, 10)[0] == 0.0 and reach.wilson(10, 10)[1] == 1.0
    lo, hi = reach.wilson(38, 40)
    assert lo == pytest.approx(0.835, abs=0.001) and hi == pytest.approx(0.986, abs=0.001)
    lo, hi = reach.wilson(32, 40)
    assert lo < 0.8 < hi


def test_the_kept_uniform_set_draws_forty_games_a_threshold(reach):
    entries = json.loads(reach.UNIFORM_SET.read_text())
    for threshold in reach.THRESHOLDS:
        mine = [e for e in entries if e["bucket"] == threshold]
        assert len(mine) == 40 and len({e["game_seed"] for e in mine}) == 40
        assert all(e["spaces_left"] <= threshold for e in mine)
