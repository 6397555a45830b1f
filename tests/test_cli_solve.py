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


def test_at_least_answers_yes_below_the_value_and_no_above_it():
    text, value = small_endgame()
    for k, answer in ((value, "yes"), (value + 1, "no")):
        res = CliRunner().invoke(cli, ["solve", text, "--at-least", str(k), "--quiet"])
        assert res.exit_code == 0, res.output
        assert f"margin at least {k:+d} for player" in res.output and f": {answer} (margin in" in res.output
        data = json.loads(
            CliRunner().invoke(cli, ["solve", text, "--at-least", str(k), "-q", "--json"]).output
        )
        assert data["threshold"] == k and data["at_least"] is (answer == "yes") and data["solved"]


def test_best_names_a_move_proven_best():
    text, value = small_endgame()
    res = CliRunner().invoke(cli, ["solve", text, "--best", "--quiet", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["proven_best"] and data["lower"] <= value <= data["upper"]
    res = CliRunner().invoke(cli, ["solve", text, "--best", "--quiet"])
    assert "(proven best)" in res.output.splitlines()[1]


def test_one_question_at_a_time():
    text, _ = small_endgame()
    for flags in (["--best", "--wdl"], ["--at-least", "3", "--all-moves"], ["--best", "--at-least", "0"]):
        res = CliRunner().invoke(cli, ["solve", text, *flags])
        assert res.exit_code == 2 and "one question at a time" in res.output and res.output.count("\n") == 1


# won for player 1 near the end; the solver proves the win in a few thousand
# nodes (benchmarks/solve_reach.json, position 5)
NEAR_END_WON = (
    "original 4,1,32,31,23,26,17,25,19,9,18 1fffff7fff9f83e0707c1/1fcc703c1e1f0fbeff7ff "
    "10/24 12/15 45/44 - 50 - - -"
)


def test_best_and_eval_say_what_the_solver_proved():
    res = CliRunner().invoke(cli, ["best", NEAR_END_WON, "--nodes", "40000", "-q"])
    assert res.exit_code == 0, res.output
    assert "solver: proven win" in res.output
    # (the proof of the engine's own move needs more than 40,000 nodes with generation 4's weights)
    res = CliRunner().invoke(cli, ["eval", NEAR_END_WON, "--nodes", "100000", "-q", "--top", "2"])
    assert "proven win" in res.output.splitlines()[0]
    data = json.loads(
        CliRunner().invoke(cli, ["eval", NEAR_END_WON, "--nodes", "100000", "-q", "--json"]).output
    )
    assert data["proven"] == "win" and data["lower"] >= 0


# player 1 to move, worth -16 (tests/test_solver.py)
LOST_THREE = (
    "revised 25,0,8,30,6,1,18,28,24,5,31,10,16,9,2,29 1ff7fbfffffbc1e060300/1fffff9fee63018040201 "
    "10/14 7/9 44/44 1 50 - - -"
)


def test_a_ranked_row_that_is_a_bound_is_printed_as_one():
    """A row the solver only bounded reads "<= -16", not a bare -16 beside
    the exact -16 of the best move (every buy of patch 25 is worth -19).
    (30,000 nodes: the near-end solver's own 24,900 leave rows bounded.)"""
    res = CliRunner().invoke(cli, ["eval", LOST_THREE, "--nodes", "30000", "-q", "--top", "5"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    at = lines[1].index("score")  # the score column (after move and what)
    rows = [[line.split()[1], *line[at:].split()] for line in lines[2:]]
    data = json.loads(
        CliRunner().invoke(cli, ["eval", LOST_THREE, "--nodes", "30000", "-q", "--top", "5", "--json"]).output
    )["top_moves"]
    assert len(rows) == len(data) == 5
    assert {d["bound"] for d in data} >= {"exact", "upper"}
    for row, d in zip(rows, data):
        assert row[0] == d["move"]
        if d["bound"] == "upper":
            assert row[1:3] == ["<=", str(d["score"])]
        else:
            assert row[1] == str(d["score"])
