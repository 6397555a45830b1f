"""The command line's rough edges of the new-user review of 6 Dec 2026
(defects 15, 17 and 18): options refused rather than ignored, an empty
record refused, no ``-0.0``, node counts printed alike, the solver's
progress and result stating one interval, board text with a byte-order mark
or tabs read from a file."""

import re
import sys
import types

import pytest
from click.testing import CliRunner

import patchsolve as ps
from patchsolve.cli import cli
from patchsolve.search import SearchResult, endgame
from patchsolve.search.result import root_move


def run(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def assert_refused(r, needle):
    assert r.exit_code == 2, (r.exit_code, r.output)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("patchsolve: error: ") and needle in lines[0], r.stderr
    assert not r.stdout


@pytest.mark.parametrize("engine", ["mcts", "alphabeta"])
def test_a_level_below_10_refuses_an_engine_as_it_refuses_limits(engine):
    assert_refused(run("best", "--level", 3, "--engine", engine), "give --engine only with --level 10")
    assert_refused(run("best", "--level", 3, "--depth", 9), "own budget")
    assert_refused(run("play", "--level", 3, "--engine", engine, input=""), "--engine only with --level 10")
    # without --engine the level plays; at level 10 the engine is the user's to choose
    assert run("best", "--level", 3, "--seed", 1).exit_code == 0
    assert run("best", "--level", 10, "--engine", "mcts", "--iterations", 50).exit_code == 0


def test_analyze_refuses_a_record_without_moves(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text(ps.Game().to_text())
    assert_refused(run("analyze", empty, "--depth", 1), "has no moves to review")
    assert_refused(run("analyze", "-", "--depth", 1, input=ps.Game().to_text()), "has no moves to review")


def test_selfplay_refuses_zero_games(tmp_path):
    r = run("selfplay", "--games", 0, "--out", tmp_path / "x.jsonl")
    assert r.exit_code == 2 and "--games" in r.stderr, r.output
    assert not (tmp_path / "x.jsonl").exists()


def test_a_bad_move_in_a_record_names_its_field_once(tmp_path):
    record = tmp_path / "game.txt"
    record.write_text(ps.Game().to_text() + "99:0@a1\n")
    r = run("replay", record)
    assert r.exit_code == 2
    assert r.stderr.count("field 'move'") == 1 and r.stderr.count("99:0@a1") == 1, r.stderr


@pytest.fixture
def level_engine(monkeypatch):
    """A stand-in alpha-beta whose every value is 0: the review negates
    values across turns, and -0.0 must not reach its columns."""
    monkeypatch.setattr(endgame, "ENDGAME_SPACES", -1)
    module = types.ModuleType("patchsolve.search.alphabeta")
    module.check_options = lambda options: options

    def run_fake(position, limits, options, **_):
        moves = position.legal_moves()
        rows = [root_move(m, 0.0) for m in moves[:3]]
        return SearchResult(moves[0], 0.0, "estimate", [moves[0]], 1, 10, 0.01, 1000.0, root_moves=rows)

    module.run = run_fake
    monkeypatch.setitem(sys.modules, module.__name__, module)


def test_analyze_prints_no_negative_zero(tmp_path, level_engine):
    record = tmp_path / "game.txt"
    record.write_text(ps.Game(ps.Position.start(seed=0), ["walk", "walk", "walk"]).to_text())
    r = run("analyze", record, "--depth", 1, "--quiet")
    assert r.exit_code == 0, r.output
    table = r.stdout.split("\n\n")[0]
    assert "0.0" in table and "-0.0" not in table and " -0%" not in table, table


def test_progress_and_result_print_node_counts_alike():
    pos = ps.Position.start(seed=4)
    r = run("best", "--nodes", 20_000, pos.to_text())
    assert r.exit_code == 0, r.output
    done = re.search(r"done: .* nodes ([\d,]+) ", r.stderr).group(1)
    stats = re.search(r"stats: .* nodes ([\d,]+) ", r.stdout).group(1)
    assert done == stats and "," in stats, (done, stats)  # the search ran > 1,000 nodes
    r = run("solve", "--nodes", 200_000, "--wdl", pos.to_text())
    stats = re.search(r"stats: nodes ([\d,]+) ", r.stdout).group(1)
    assert "," in stats, stats


def test_board_text_from_a_file_with_a_byte_order_mark_and_tabs(tmp_path):
    board = ps.Position.start(seed=2).to_board()
    path = tmp_path / "table.txt"
    path.write_bytes(b"\xef\xbb\xbf" + board.replace(" ", "\t").encode())
    r = run("show", "-f", path)
    assert r.exit_code == 0, r.output
    assert run("moves", "-f", path).stdout == run("moves", ps.Position.start(seed=2).to_text()).stdout


# the fourth mid-game of benchmarks/positions.txt (the review's P4): its
# win/loss pass runs long enough to report
P4 = (
    "revised 30,0,9,26,14,5,19,18,17,2,16,11,13,4,20,29,27,23,24 7008000300800693ffff/7c7f3f10181018bcfe7f "
    "10/6 6/8 31/33 - 38,44,50 - - 1"
)


def test_the_solvers_progress_never_states_a_wider_interval_than_it_knows(monkeypatch):
    """The review's ``bounds [-92, +128]`` on stderr, then ``value: in [-91,
    +127]`` on stdout: the win/loss pass's bounds were rounded out from its
    units, while the exact solver knew [-91, +127] from the start."""
    from patchsolve.search import solver

    pos = ps.Position(P4)
    known = ps.solve(pos, nodes=1, workers=1)  # the root's proven interval before any search
    monkeypatch.setattr(solver, "PROGRESS_EVERY", 0.02)
    reports = []
    r = ps.solve(pos, nodes=400_000, workers=1, progress=reports.append)
    signs = [d for d in reports if d["wdl"]]
    assert signs, "the win/loss pass reported nothing: make the budget larger"
    for d in reports:
        assert known.lower <= d["lower"] and d["upper"] <= known.upper, (d, known.lower, known.upper)
    assert known.lower <= r.lower and r.upper <= known.upper


def test_solve_prints_one_interval_on_stderr_and_stdout(monkeypatch):
    from patchsolve.search import solver

    monkeypatch.setattr(solver, "PROGRESS_EVERY", 0.02)
    r = run("solve", "--nodes", 400_000, "--workers", 1, P4)
    assert r.exit_code in (0, 1), r.output
    bounds = [tuple(map(int, b)) for b in re.findall(r"bounds \[([+-]\d+), ([+-]\d+)\]", r.stderr)]
    lo, hi = map(int, re.search(r"value: .*\[([+-]\d+), ([+-]\d+)\]", r.stdout).groups())
    assert bounds and all(a <= lo and hi <= b for a, b in bounds), (bounds, lo, hi)
    first = ps.solve(ps.Position(P4), nodes=1, workers=1)
    assert bounds[0][0] >= first.lower and bounds[0][1] <= first.upper, (bounds[0], first.lower, first.upper)
