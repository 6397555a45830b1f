"""The ``patchsolve`` command line, through click's CliRunner.

Commands that search (best, eval, analyze, play with an engine) are tested
with a small stand-in engine injected as ``patchsolve.search.mcts`` /
``alphabeta`` behind the real dispatcher (the CLI's own code paths: what it
hands the dispatcher, what it prints), and a few with the real engines.
"""

import json
import sys
import types
import xml.dom.minidom
from pathlib import Path

import pytest
from click.testing import CliRunner

import patchsolve as ps
from patchsolve import Game
from patchsolve.cli import cli
from patchsolve.search import SearchResult, endgame
from patchsolve.search.result import root_move

GOLDEN = Path(__file__).parent / "data" / "golden_game.txt"
START_TEXT = ps.Position.start(seed=0).to_text()
COMMANDS = sorted(cli.commands)  # every command, including those added later


def run(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def assert_bad_input(result, needle=None):
    """One clear line on stderr, exit status 2, no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("patchsolve: error: ")
    assert "Traceback" not in result.output
    if needle:
        assert needle in lines[0], lines[0]


# -- a stand-in engine -----------------------------------------------------------

CALLS = []
LIMITS_SEEN = []  # the Limits objects the stand-in engines were given


def _fake_result(position, engine, **limits):
    moves = position.legal_moves()
    best = moves[-1]
    root = [root_move(m, 3.0 - i, visits=100 - i) for i, m in enumerate(reversed(moves[-4:]))]
    return SearchResult(
        best_move=best,
        score=3.0,
        bound="estimate",
        pv=[best],
        depth=limits.get("depth", 0),
        nodes=1234,
        time=0.01,
        nps=123400.0,
        seed=limits.get("seed"),
        engine=engine,
        iterations=limits.get("iterations"),
        win_probability=0.6 if engine == "mcts" else None,
        root_moves=root,
    )


@pytest.fixture
def fake_engines(monkeypatch):
    """Stand-in engine modules behind the real dispatcher: each records the
    limits it was given and its options."""
    CALLS.clear()
    LIMITS_SEEN.clear()
    monkeypatch.setattr(endgame, "ENDGAME_SPACES", -1)  # no exact solver near the end around the fakes

    def fake(engine):
        module = types.ModuleType(f"patchsolve.search.{engine}")
        module.check_options = lambda options: options

        def run_fake(position, limits, options, **_):
            CALLS.append((engine, {**limits.given(), **options}))
            LIMITS_SEEN.append(limits)
            return _fake_result(position, engine, **limits.given())

        module.run = run_fake
        monkeypatch.setitem(sys.modules, module.__name__, module)

    fake("mcts")
    fake("alphabeta")
    return CALLS


# -- help -------------------------------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_an_example(command):
    r = run(command, "--help")
    assert r.exit_code == 0
    assert "Example" in r.output and "patchsolve" in r.output


def test_the_group_help_lists_every_command():
    r = run("--help")
    assert r.exit_code == 0
    for command in COMMANDS:
        assert command in r.output


# -- new ---------------------------------------------------------------------------


def test_new_prints_a_start_position():
    r = run("new", "--seed", 0)
    assert r.exit_code == 0 and r.stdout.strip() == START_TEXT
    r = run("new", "--seed", 4, "--edition", "original", "--first", 1)
    pos = ps.Position.from_text(r.stdout)
    assert pos == ps.Position.start(seed=4, edition="original", first_player=1)
    r = run("new")
    assert ps.Position.from_text(r.stdout).time(0) == 0


def test_new_json():
    data = json.loads(run("new", "--seed", 0, "--json").stdout)
    assert data["position"] == START_TEXT and data["seed"] == 0
    assert ps.Position.from_json(data["fields"]) == ps.Position.start(seed=0)


def test_new_rejects_a_bad_edition():
    assert_bad_input(run("new", "--edition", "deluxe"), "deluxe")


# -- position input and show ------------------------------------------------------


def test_show_draws_the_built_in_start_position_by_default():
    r = run("show")
    assert r.exit_code == 0
    assert "player 0  <- to move" in r.stdout
    assert "track" in r.stdout and "next patches (33 left" in r.stdout
    assert "T4" in r.stdout  # patch 4 is next at seed 0


def test_a_position_is_read_from_arguments_file_or_stdin(tmp_path):
    text = ps.Position.start(seed=9).to_text()
    expected = run("show", text).stdout
    assert "next patches" in expected
    assert run("show", *text.split()).stdout == expected
    path = tmp_path / "pos.txt"
    path.write_text("# a comment\n" + text + "\n")
    assert run("show", "-f", path).stdout == expected
    assert run("show", "-", input=text + "\n").stdout == expected
    assert run("show", "-f", "-", input=text).stdout == expected
    assert run("show", ps.Position.start(seed=9).to_json()).stdout == expected


def test_show_colours_the_patches_when_asked():
    game = Game.read(GOLDEN)
    r = run("show", "--color", game.position(10).to_text())
    assert r.exit_code == 0
    assert "\x1b[" not in run("show", "--no-color").stdout


def test_show_writes_an_svg(tmp_path):
    out = tmp_path / "p.svg"
    r = run("show", "--svg", out)
    assert r.exit_code == 0
    doc = xml.dom.minidom.parse(str(out))
    assert doc.documentElement.tagName == "svg"


def test_show_json():
    data = json.loads(run("show", "--json").stdout)
    assert data["position"] == START_TEXT and data["to_move"] == 0
    assert [p["id"] for p in data["next"]] == list(ps.Position.start(seed=0).circle[:3])


@pytest.mark.parametrize(
    "args,needle",
    [
        (["show", "garbage"], "edition"),
        (["show", "revised", "1,2"], "11 fields"),
        (["show", START_TEXT.replace("5/5", "5/x")], "buttons"),
        (["show", START_TEXT.replace("0/0 0 26", "0/60 0 26")], "invalid position"),
        (["moves", "-f", "/nonexistent/pos.txt"], "cannot read"),
        (["moves", "-f", "-", "revised"], "not both"),
        (["show", "-"], "no position"),
        (["show", '{"edition": 3}'], "missing key"),
        (["best", "--bogus"], "--bogus"),
        (["perft", "x"], "DEPTH"),
        (["perft", "-1"], None),
    ],
)
def test_bad_input_is_one_line_on_stderr_with_exit_status_2(args, needle):
    assert_bad_input(run(*args, input=""), needle)


def test_an_invalid_position_lists_every_problem_on_its_line():
    text = START_TEXT.replace("5/5 0/0 0/0", "-1/5 0/0 0/60")
    r = run("show", text)
    assert_bad_input(r)
    assert "negative buttons" in r.stderr and "outside 0..53" in r.stderr


# -- moves --------------------------------------------------------------------------


def test_moves_lists_the_legal_moves_with_their_notation():
    r = run("moves")
    assert r.exit_code == 0
    lines = r.stdout.strip().splitlines()
    assert lines[0] == "743 legal moves for player 0"
    assert lines[1].split()[0] == "walk"
    assert len(lines) == 744
    assert any(line.startswith("4:0@a1 ") for line in lines)


def test_moves_json_and_a_finished_game():
    data = json.loads(run("moves", "--json").stdout)
    assert data["count"] == 743 == len(data["moves"])
    end = Game.read(GOLDEN).end.to_text()
    assert "game is over" in run("moves", end).stdout
    assert json.loads(run("moves", end, "--json").stdout)["count"] == 0


# -- perft and bench ------------------------------------------------------------------


def test_perft_of_the_start_position():
    r = run("perft", 2)
    assert r.exit_code == 0 and r.stdout.startswith("perft 2: 368117")
    assert json.loads(run("perft", 1, "--json").stdout)["nodes"] == 743


def test_perft_of_a_given_position_with_divide():
    pos = Game.read(GOLDEN).position(20)
    r = run("perft", *pos.to_text().split(), 2, "--divide", "--json")
    data = json.loads(r.stdout)
    assert data["nodes"] == pos.perft(2) == sum(data["divide"].values())
    assert set(data["divide"]) == {str(m) for m in pos.legal_moves()}


def test_bench_prints_the_pinned_signature():
    from patchsolve.search import bench

    data = json.loads(run("bench", "--json").stdout)
    assert data["signature"] == data["pinned_signature"] == bench.SIGNATURE
    assert data["alphabeta_nps"] > 0 and data["mcts_iterations_per_s"] > 0


# -- replay -------------------------------------------------------------------------


def test_replay_shows_the_game_move_by_move():
    r = run("replay", GOLDEN)
    assert r.exit_code == 0
    assert "1. player 0: 30:0@a1" in r.stdout
    assert "49. player 1:" in r.stdout
    assert r.stdout.rstrip().endswith("result: player 0 4, player 1 8; player 1 wins")
    assert r.stdout.count("track") == 50


def test_replay_brief_ply_and_json():
    r = run("replay", GOLDEN, "--brief")
    assert "track" not in r.stdout and len(r.stdout.strip().splitlines()) == 50
    game = Game.read(GOLDEN)
    r = run("replay", GOLDEN, "--ply", 12)
    assert game.position(12).to_text() in r.stdout
    data = json.loads(run("replay", GOLDEN, "--json").stdout)
    assert data["scores"] == [4, 8] and len(data["plies"]) == 49
    assert data["plies"][-1]["position"] == game.end.to_text()
    assert run("replay", "-", "--brief", input=GOLDEN.read_text()).exit_code == 0


def test_replay_errors(tmp_path):
    assert_bad_input(run("replay", GOLDEN, "--ply", 99), "--ply")
    bad = tmp_path / "bad.txt"
    bad.write_text(GOLDEN.read_text().replace("30:0@a1", "30:0@z1"))
    assert_bad_input(run("replay", bad), "move 1")
    bad.write_text(GOLDEN.read_text().replace("30:0@a1", "walk\nleather@a1", 1))
    assert_bad_input(run("replay", bad), "move 2")
    assert_bad_input(run("replay", tmp_path / "missing.txt"), "cannot read")


# -- play between humans ----------------------------------------------------------------


def test_human_vs_human_plays_a_whole_game_and_writes_its_record(tmp_path):
    game = Game.read(GOLDEN)
    moves = "\n".join(str(m) for m in game.moves)
    record = tmp_path / "game.txt"
    r = run(
        "play",
        "--p0",
        "human",
        "--p1",
        "human",
        "--record",
        record,
        "--no-color",
        input="nonsense\nleather@a1\nmoves\n" + moves + "\n",
    )
    assert r.exit_code == 0, r.output
    assert "game over: player 0 4, player 1 8" in r.stdout
    assert "bad move" in r.stderr and "illegal move" in r.stderr
    assert Game.read(record) == game


def test_play_quit_and_undo():
    r = run("play", "--p1", "human", input="walk\nundo\nwalk\nquit\n")
    assert r.exit_code == 0 and "game abandoned" in r.stdout


# -- with a stand-in engine ---------------------------------------------------------


def test_best_prints_move_score_pv_stats_and_quilt(fake_engines):
    r = run("best", "--engine", "mcts", "--iterations", 500)
    assert r.exit_code == 0, r.output
    last = str(ps.Position.start(seed=0).legal_moves()[-1])
    assert f"best move: {last}" in r.stdout
    assert "score: +3 (estimate) for player 0" in r.stdout
    assert "win probability: 60.0%" in r.stdout
    assert f"pv: {last}" in r.stdout and "nodes 1,234" in r.stdout and "iterations 500" in r.stdout
    assert "quilt of player 0 after" in r.stdout and "a b c d e f g h i" in r.stdout
    assert "info: searching with mcts" in r.stderr and "info: done" in r.stderr
    assert fake_engines == [("mcts", {"iterations": 500, "seed": 0})]


def test_best_defaults_to_a_time_limit_and_quiet_silences_stderr(fake_engines):
    r = run("best", "--quiet")
    assert r.exit_code == 0 and r.stderr == ""
    assert fake_engines[0][1]["time"] == 2.0


def test_best_json(fake_engines):
    data = json.loads(run("best", "--engine", "mcts", "--json", "-q", "--seed", 5).stdout)
    start = ps.Position.start(seed=0)
    assert data["best_move"] == str(start.legal_moves()[-1])
    assert data["position"] == START_TEXT and data["to_move"] == 0
    assert data["after"] == start.play(start.legal_moves()[-1]).to_text()
    assert data["seed"] == 5 and data["win_probability"] == 0.6


def test_best_with_alphabeta_passes_only_its_limits(fake_engines):
    r = run("best", "--engine", "alphabeta", "--depth", 4, "--nodes", 1000)
    assert r.exit_code == 0, r.output
    ((engine, got),) = fake_engines
    progress = got.pop("on_iteration")  # the CLI's progress lines come from the engine's own callback
    assert callable(progress) and (engine, got) == ("alphabeta", {"depth": 4, "nodes": 1000})
    fake_engines.clear()
    assert run("best", "--engine", "alphabeta", "--depth", 4, "--nodes", 1000, "-q").exit_code == 0
    assert fake_engines == [("alphabeta", {"depth": 4, "nodes": 1000})]
    assert "win probability" not in r.stdout
    assert_bad_input(run("best", "--engine", "alphabeta", "--iterations", 3), "iterations")
    assert_bad_input(run("best", "--engine", "mcts", "--depth", 3), "depth")
    assert_bad_input(run("best", "--engine", "minimax"), "minimax")


def test_engine_options_are_passed_through_typed(fake_engines):
    r = run(
        "best",
        "--engine",
        "mcts",
        "--iterations",
        500,
        "--option",
        "tree=plain",
        "-o",
        "solver=false",
        "-o",
        "c=0.5",
        "-o",
        "max_nodes=4096",
    )
    assert r.exit_code == 0, r.output
    assert fake_engines == [
        (
            "mcts",
            {"iterations": 500, "seed": 0, "max_nodes": 4096, "tree": "plain", "solver": False, "c": 0.5},
        )
    ]


def test_a_malformed_engine_option_or_a_limit_given_as_one_is_bad_input(fake_engines):
    assert_bad_input(run("best", "-o", "samples"), "samples")
    assert_bad_input(run("best", "-o", "=3"), "=3")
    assert_bad_input(run("best", "-o", "time=3"), "--time")
    assert fake_engines == []


def test_an_unknown_engine_option_is_named_by_the_engine():
    assert_bad_input(run("best", "-q", "--engine", "mcts", "--iterations", 10, "-o", "bogus=1"), "bogus")
    assert_bad_input(run("best", "-q", "--depth", 1, "-o", "bogus=1"), "bogus")


def test_best_on_a_finished_game_is_bad_input(fake_engines):
    assert_bad_input(run("best", Game.read(GOLDEN).end.to_text()), "over")


def test_eval_ranks_the_top_moves(fake_engines):
    r = run("eval", "--engine", "mcts", "--iterations", 100, "--top", 3, "-q")
    assert r.exit_code == 0, r.output
    lines = r.stdout.strip().splitlines()
    assert lines[0].startswith("evaluation: +3 (estimate) for player 0")
    assert lines[1].split() == ["#", "move", "what", "score", "win", "bound", "visits"]
    assert len(lines) == 5
    assert fake_engines[0][1]["multipv"] == 3
    data = json.loads(run("eval", "--json", "-q").stdout)
    assert len(data["top_moves"]) == 4 and data["top_moves"][0]["score"] == 3.0


def test_analyze_flags_moves_and_summarises():
    r = run("analyze", GOLDEN, "--depth", 1, "-q")
    assert r.exit_code == 0, r.output
    assert "avg loss" in r.stdout and "final score" in r.stdout
    assert r.stdout.startswith("budget: depth 1 a position")
    data = json.loads(run("analyze", GOLDEN, "--depth", 1, "-q", "--json").stdout)
    assert len(data["moves"]) == 49
    assert [s["final_score"] for s in data["summary"]] == [4, 8]
    assert all(m["loss"] >= 0 for m in data["moves"])
    assert data["budget"]["depth"] == 1


def test_analyze_refuses_a_budget_that_would_change_from_run_to_run():
    for args in (["--time", 1], ["--engine", "mcts"], ["--nodes", 5000, "--depth", 2]):
        r = run("analyze", GOLDEN, *args, "-q")
        assert r.exit_code == 2 and "Traceback" not in r.output


def test_play_engine_vs_engine(fake_engines, tmp_path):
    record = tmp_path / "g.txt"
    r = run("play", "--p0", "engine", "--p1", "engine", "--depth", 1, "-q", "--record", record, "--json")
    assert r.exit_code == 0, r.output
    game = Game.read(record)
    assert game.end.is_over
    assert json.loads(r.stdout)["over"] is True  # stdout is the JSON only


# -- with the real engines ------------------------------------------------------------


def test_best_with_the_real_mcts_engine():
    r = run("best", "--engine", "mcts", "--iterations", 300, "--json", "-q")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    start = ps.Position.start(seed=0)
    assert data["best_move"] in {str(m) for m in start.legal_moves()}
    assert ps.Position.from_text(data["after"]) == start.play(data["best_move"])


def test_eval_with_the_real_mcts_engine():
    r = run("eval", "--engine", "mcts", "--iterations", 300, "-q", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["top_moves"]


def test_best_with_the_real_alphabeta_engine():
    pos = Game.read(GOLDEN).position(40)
    r = run("best", pos.to_text(), "--engine", "alphabeta", "--depth", 2, "--json", "-q")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["best_move"] in {str(m) for m in pos.legal_moves()}


def test_moves_of_one_patch_with_its_orientations():
    r = run("moves", "--patch", 8)
    assert r.exit_code == 0
    assert "8:0   8:1" in r.stdout and "448 legal moves buying patch 8" in r.stdout
    assert json.loads(run("moves", "--patch", 8, "--json").stdout)["count"] == 448
    assert json.loads(run("moves", "--patch", 12, "--json").stdout)["count"] == 0  # not among the next three
    assert_bad_input(run("moves", "--patch", 40), "40")


def test_play_helps_a_human_with_moves_and_orientations():
    r = run("play", "--p1", "human", "--no-color", input="moves 4\norient 8\norient x\nquit\n")
    assert r.exit_code == 0
    assert "4:0@a1" in r.stdout and "8:7" in r.stdout and "usage: orient" in r.stderr


# -- one hand-off: the CLI's Limits goes to the dispatcher as it is -------------------------


def test_an_engine_command_builds_one_limits_and_hands_it_on(fake_engines, monkeypatch):
    from patchsolve.search import limits as limits_module

    built = []
    original = limits_module.Limits.__post_init__

    def counting(self):
        original(self)
        built.append(self)

    monkeypatch.setattr(limits_module.Limits, "__post_init__", counting)
    r = run("best", "--depth", 3, "-o", "hash_mb=8", "-o", "placements=4", "-q")
    assert r.exit_code == 0, r.output
    budgets = [b for b in built if b.given()]  # (the dispatcher's split of no keywords is an empty one)
    assert len(budgets) == 1 and budgets[0].given() == {"depth": 3, "hash_mb": 8}
    assert LIMITS_SEEN == [budgets[0]] and LIMITS_SEEN[0] is budgets[0]
    assert fake_engines == [("alphabeta", {"depth": 3, "hash_mb": 8, "placements": 4})]
    built.clear()
    assert run("solve", "--nodes", 1, "-q", Game.read(GOLDEN).position(44).to_text()).exit_code in (0, 1)
    assert len([b for b in built if b.given()]) == 1


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--iterations", 100], "iterations"),
        (["--engine", "mcts", "--depth", 2], "depth"),
        (["-o", "bogus=1"], "bogus"),
        (["--workers", 2, "--nodes", 100], "workers"),
    ],
)
def test_play_refuses_bad_engine_settings_before_drawing_or_writing_the_record(tmp_path, args, needle):
    record = tmp_path / "game.txt"
    r = run("play", "--p0", "engine", "--p1", "engine", "--record", record, *args)
    assert_bad_input(r, needle)
    assert r.stdout == "" and not record.exists()


@pytest.mark.parametrize(
    "command",
    [
        ["new"],
        ["best", "--engine", "mcts", "--iterations", 10],
        ["tournament", "random", "random", "--pairs", 1],
    ],
)
def test_every_seed_takes_the_same_range(command):
    assert_bad_input(run(*command, "--seed", 2**64), "--seed")
    assert_bad_input(run(*command, "--seed", -1), "--seed")


def test_an_error_cuts_a_long_token():
    r = run("show", "revised " + "x" * 5000)
    assert_bad_input(r, "x" * 40 + "...' (5000 characters)")
    assert len(r.stderr) < 400


def test_perft_progress_counts_leaves_within_a_root_move_and_ctrl_c_keeps_the_whole_ones():
    import re
    import signal
    import subprocess

    proc = subprocess.Popen(
        [sys.executable, "-m", "patchsolve.cli", "perft", "5"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = ""
        while "leaves," not in line:  # the first progress line, about 1 s in
            line = proc.stderr.readline()
            assert line, "perft ended without a progress line"
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
    # one root move of perft 5 takes ~30 s here: a count per root move would still read 0
    done, leaves = re.search(r"(\d+)/743 root moves, ([\d,]+) leaves", line).groups()
    assert int(done) == 0 and int(leaves.replace(",", "")) > 0, line
    assert proc.returncode == 130 and "interrupted after 0 of 743 root moves: 0 leaves so far" in out, out


def test_perft_walk_counts_what_the_core_counts():
    from patchsolve.cli.position import perft_walk

    pos = Game.read(GOLDEN).position(30)
    ticks = []
    assert perft_walk(pos, 5, ticks.append, lambda: False) == pos.perft(5) == sum(ticks)
    assert len(ticks) > 1
    assert perft_walk(pos, 5, ticks.append, lambda: True) is None


def test_help_at_the_play_prompt_lists_the_prompt_commands_not_the_moves():
    r = run("play", "--p1", "human", "--no-color", input="help\n?\nquit\n")
    assert r.exit_code == 0, r.output
    assert r.stdout.count("orient 7") == 2 and "undo" in r.stdout and "quit" in r.stdout
    assert "4:0@a1" not in r.stdout and "'help' for the prompt's commands" in r.stderr


def test_a_placement_that_does_not_fit_names_its_square():
    r = run("play", "--p1", "human", "--no-color", input="4:1@i9\nquit\n")
    assert r.exit_code == 0, r.output
    assert "patch 4 in orientation 1 (2 wide, 3 tall) runs off the quilt from i9" in r.stderr
    assert "top-left corner, a1 to h7" in r.stderr


def test_best_draws_the_quilt_after_its_move_with_patch_symbols_not_hashes():
    pos = ps.Position.from_text(Game.read(GOLDEN).position(20).to_text())  # no labels: a tiling names them
    r = run("best", pos.to_text(), "--depth", 2, "-q", "--no-color")
    assert r.exit_code == 0, r.output
    quilt = r.stdout.split("quilt of player")[1].splitlines()[2:]
    assert len(quilt) == 9 and not any("#" in row for row in quilt)
    assert sum(c != "." for row in quilt for c in row.split()[1:]) == bin(
        pos.play(pos.parse_move(r.stdout.split("best move: ")[1].split()[0])).quilt(pos.to_move)
    ).count("1")


def test_the_error_line_cuts_quoted_tokens_but_not_apostrophes_or_paths():
    from patchsolve.cli.common import one_line

    path = "/home/someone/" + "games/" * 12 + "game.txt"  # 92 characters, kept whole
    text = one_line(f"player 0's move can't be read from {path}: token '{'y' * 100}'\n(field 'move')")
    assert text == (
        f"player 0's move can't be read from {path}: token '{'y' * 40}...' (100 characters) (field 'move')"
    )
