"""``patchsolve solve``: exact values from the command line."""

import json
from pathlib import Path

from click.testing import CliRunner

from patchsolve.cli import cli

SOLVE_SET = Path(__file__).resolve().parent / "data" / "solve_set.json"


def small_endgame():
    entry = next(
        e for e in json.loads(SOLVE_SET.read_text()) if e["plies_left"] <= 4 and e["value"] is not None
    )
    return entry["text"], entry["value"]


def test_solve_prints_the_exact_value_and_a_best_move():
    text, value = small_endgame()
    res = CliRunner().invoke(cli, ["solve", text, "--json", "--quiet"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["solved"] and data["bound"] == "exact" and data["score"] == value
    assert data["best_move"] and data["pv"][0] == data["best_move"]


def test_solve_says_so_and_exits_1_when_the_budget_runs_out():
    text = json.loads(SOLVE_SET.read_text())[-1]["text"]  # the largest: 10 plies left
    res = CliRunner().invoke(cli, ["solve", text, "--nodes", "1", "--quiet"])
    assert res.exit_code == 1
    assert "NOT solved" in res.output


def test_solve_refuses_bad_input_in_one_line():
    res = CliRunner().invoke(cli, ["solve", "revised", "nonsense"])
    assert res.exit_code == 2 and res.output.count("\n") == 1 and "error" in res.output
