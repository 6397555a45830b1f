"""The commands that judge play: analyze (classes, accuracy, many games),
explain, and eval --map."""

import csv
import json
from pathlib import Path

from click.testing import CliRunner

from patchsolve import Game
from patchsolve.cli import cli

GOLDEN = Path(__file__).parent / "data" / "golden_game.txt"
HOLE = "revised 1,27,18,28,3,23,26,19,12,10,13,17,9,14,29,0,4 70040281fddffffffff/406bfeffffffc 2/10 6/9 28/32 - 38,44,50 - - -"  # noqa: E501


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def tail_game(start=30):
    game = Game.read(GOLDEN)
    return Game(game.position(start), game.moves[start:])


def test_analyze_shows_each_moves_class_and_each_players_accuracy(tmp_path):
    path = tmp_path / "g.txt"
    tail_game(20).write(path)
    r = run("analyze", path, "--depth", 2, "-q")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].startswith("budget: depth 2 a position")
    lines = lines[1:]
    assert lines[0].split()[-1] == "class"
    classes = {"best", "good", "inaccuracy", "mistake", "blunder", "forced"}
    moves = lines[1 : 1 + len(tail_game(20))]
    assert all(m.split()[0].isdigit() and set(m.split()) & classes for m in moves)
    assert lines[1 + len(moves)] == ""
    assert any(line.startswith("player  moves  accuracy") for line in lines)


def test_analyze_json_carries_classes_win_loss_and_accuracy(tmp_path):
    path = tmp_path / "g.txt"
    tail_game(20).write(path)
    data = json.loads(run("analyze", path, "--depth", 2, "-q", "--json").output)
    assert all("class" in m and 0 <= m["win_loss"] <= 1 for m in data["moves"])
    assert all("accuracy" in s and "classes" in s for s in data["summary"])
    assert isinstance(data["critical_moments"], list)


def test_analyze_a_folder_writes_a_row_per_game_and_player(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    tail_game(30).write(folder / "a.txt")
    tail_game(36).write(folder / "b.txt")
    out = tmp_path / "rows.csv"
    r = run("analyze", folder, "--depth", 2, "-q", "--csv", out)
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader(out.open()))
    assert sorted((row["game"], row["player"]) for row in rows) == [
        ("a.txt", "0"),
        ("a.txt", "1"),
        ("b.txt", "0"),
        ("b.txt", "1"),
    ]


def test_analyze_many_games_refuses_json_in_one_line(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    tail_game(30).write(folder / "a.txt")
    tail_game(36).write(folder / "b.txt")
    r = run("analyze", folder, "--depth", 2, "--json")
    assert r.exit_code == 2 and "CSV" in r.output


def test_explain_text_and_json():
    r = run("explain", HOLE, "--move", "1:0@a6", "--depth", 4)
    assert r.exit_code == 0, r.output
    assert (
        r.output.startswith("best ")
        and "holes" in run("explain", HOLE, "--move", "1:0@a6", "--depth", 4, "--top", 20).output
    )
    data = json.loads(run("explain", HOLE, "--move", "1:0@a6", "--depth", 4, "--json").output)
    assert data["difference"] > 0 and data["played"]["move"] == "1:0@a6"


def test_explain_an_illegal_move_is_one_line():
    r = run("explain", HOLE, "--move", "32:0@a1")
    assert r.exit_code == 2 and "Traceback" not in r.output


def test_eval_map_json_carries_two_grids_of_chances():
    data = json.loads(run("eval", HOLE, "--depth", 2, "--map", "-q", "--json").output)
    grids = data["map"]["grids"]
    assert len(grids) == 2 and all(len(g) == 9 and all(len(r) == 9 for r in g) for g in grids)
    assert all(0 <= v <= 1 for g in grids for r in g for v in r)


def test_eval_map_svg_is_written(tmp_path):
    out = tmp_path / "map.svg"
    r = run("eval", HOLE, "--depth", 2, "--map-svg", out, "-q")
    assert r.exit_code == 0, r.output
    assert out.read_text().startswith("<svg") and 'class="square"' in out.read_text()


# -- quiz ----------------------------------------------------------------------------


def quiz_json(path, *args):
    r = run("quiz", path, "--depth", 3, "-q", "--json", *args)
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def test_quiz_lists_the_players_biggest_losses_as_exercises(tmp_path):
    path = tmp_path / "g.txt"
    Game.read(GOLDEN).write(path)
    data = quiz_json(path, "--player", 0)
    ex = data["exercises"]
    assert ex and all(e["player"] == 0 and e["played_loss"] > 3.0 for e in ex)
    assert [e["played_loss"] for e in ex] == sorted((e["played_loss"] for e in ex), reverse=True)
    for e in ex:
        values = [a["value"] for a in e["acceptable"]]
        assert e["acceptable"][0]["move"] == e["best"] and values[0] == e["best_value"]
        assert all(e["best_value"] - 1.0 <= v <= e["best_value"] for v in values)


def test_a_quiz_session_driven_through_stdin_scores_the_answers(tmp_path):
    path = tmp_path / "g.txt"
    Game.read(GOLDEN).write(path)
    ex = quiz_json(path, "--player", 0)["exercises"]
    answers = f"fly\n{ex[0]['best']}\n{ex[1]['played']}\nquit\n"
    r = CliRunner().invoke(cli, ["quiz", str(path), "--player", "0", "--depth", "3", "-q"], input=answers)
    assert r.exit_code == 0, r.output
    assert "not a legal move here" in r.output
    assert f"found: {ex[0]['best']} is the best" in r.output
    assert f"{ex[1]['played']} loses" in r.output
    assert f"score: 1 of {len(ex)} found (2 answered)" in r.output


def test_analyze_why_explains_each_players_biggest_mistakes(tmp_path):
    path = tmp_path / "g.txt"
    Game.read(GOLDEN).write(path)
    data = json.loads(run("analyze", path, "--depth", 2, "--why", "-q", "--json").output)
    biggest = {b["number"] for s in data["summary"] for b in s["biggest_mistakes"]}
    assert biggest and set(map(int, data["why"])) == biggest
    for number, e in data["why"].items():
        move = data["moves"][int(number) - 1]
        assert e["played"]["move"] == move["move"] and e["position"] == move["position"]
        assert e["difference"] == move["loss"]  # the review's budget: the same number
    text = run("analyze", path, "--depth", 2, "--why", "-q").output
    assert sum(line.startswith("  why ") for line in text.splitlines()) == len(biggest)
