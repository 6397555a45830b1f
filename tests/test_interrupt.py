"""Nothing is lost: Ctrl-C (a real SIGINT to a real process) stops a long
command quickly with its best result so far, marked as interrupted (exit
130); games and tournament results are on disk as they are played. In a
script, Ctrl-C during a search raises SearchInterrupted (a KeyboardInterrupt)
carrying that result, so the script's loop stops."""

import csv
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from patchsolve import Game, Position

GOLDEN = Path(__file__).parent / "data" / "golden_game.txt"
PATIENCE = 5.0  # seconds a stopped command may take to exit (it is asked within 0.5 s)


def start(*args, stdin=subprocess.DEVNULL):
    return subprocess.Popen(
        [sys.executable, "-m", "patchsolve.cli", *map(str, args)],
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def wait_for_line(proc, needle, timeout=60.0):
    """Read stderr until a line containing ``needle`` (the search has begun)."""
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        seen.append(line)
        if needle in line:
            return seen
    proc.kill()
    raise AssertionError(f"never saw {needle!r}: {''.join(seen)}")


def interrupt(proc, after=1.0):
    """SIGINT after ``after`` seconds; (exit code, stdout, seconds to exit,
    the rest of stderr)."""
    time.sleep(after)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("the command ignored Ctrl-C") from None
    return proc.returncode, out, time.monotonic() - t0, err


@pytest.mark.parametrize("engine", ["alphabeta", "mcts"])
def test_ctrl_c_during_best_prints_the_best_move_so_far(engine):
    proc = start("best", "--engine", engine, "--time", 60)
    wait_for_line(proc, "searching with")
    code, out, took, _ = interrupt(proc)
    assert code == 130 and took < PATIENCE
    assert "interrupted" in out
    move = out.split("best move: ")[1].split()[0]
    assert Position.start(seed=0).is_legal(Position.start(seed=0).parse_move(move))


def test_ctrl_c_during_eval_json_keeps_the_json():
    import json

    proc = start("eval", "--time", 60, "--json")
    wait_for_line(proc, "searching with")
    code, out, took, _ = interrupt(proc)
    data = json.loads(out)
    assert code == 130 and took < PATIENCE and data["interrupted"] is True and data["top_moves"]


def test_ctrl_c_during_solve_says_it_was_not_solved():
    mid = Game.read(GOLDEN).position(10)
    proc = start("solve", mid.to_text(), "--time", 60)
    wait_for_line(proc, "solving")
    code, out, took, _ = interrupt(proc)
    assert code == 130 and took < PATIENCE
    assert "interrupted" in out and "NOT solved" in out


def test_ctrl_c_during_perft_prints_the_partial_count():
    proc = start("perft", 7)
    wait_for_line(proc, "root moves")
    code, out, took, _ = interrupt(proc)
    assert code == 130 and took < PATIENCE
    assert "interrupted after" in out


def test_ctrl_c_during_analyze_keeps_the_moves_analysed(tmp_path):
    proc = start("analyze", GOLDEN, "--nodes", 200_000, "--json")
    wait_for_line(proc, "[4/")
    code, out, took, _ = interrupt(proc, after=0.1)
    import json

    data = json.loads(out)
    assert code == 130 and took < PATIENCE and data["interrupted"] is True
    assert 3 <= len(data["moves"]) < len(Game.read(GOLDEN))  # moves 1-3 judged before move 4 began


def test_play_writes_the_record_after_every_move_and_keeps_it_on_ctrl_c(tmp_path):
    record = tmp_path / "game.txt"
    proc = start("play", "--p0", "engine", "--p1", "engine", "--time", 0.2, "--record", record)
    wait_for_line(proc, "player 1: searching")  # one move played
    wait_for_line(proc, "player ")
    code, out, took, _ = interrupt(proc, after=0.5)
    assert code == 130 and took < PATIENCE
    game = Game.read(record)
    assert len(game) >= 1 and not game.end.is_over


def test_ctrl_c_at_the_prompt_while_the_engine_ponders_ends_the_game_cleanly(tmp_path):
    record = tmp_path / "game.txt"
    proc = start(
        "play",
        "--p0",
        "engine",
        "--p1",
        "human",
        "--time",
        0.2,
        "--ponder",
        "--record",
        record,
        stdin=subprocess.PIPE,
    )
    wait_for_line(proc, "player 0: done")  # the engine moved: now it ponders while the prompt waits
    code, _, took, err = interrupt(proc, after=0.5)
    assert code == 130 and took < PATIENCE
    assert "Traceback" not in err
    assert len(Game.read(record)) == 1


def test_play_keeps_the_record_at_end_of_input(tmp_path):
    record = tmp_path / "game.txt"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "patchsolve.cli",
            "play",
            "--p0",
            "human",
            "--p1",
            "human",
            "--record",
            str(record),
        ],
        input="walk\nwalk\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0 and "end of input" in r.stdout
    assert [str(m) for m in Game.read(record).moves] == ["walk", "walk"]


def test_play_refuses_an_unwritable_record_before_the_game_starts(tmp_path):
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "patchsolve.cli",
            "play",
            "--p0",
            "human",
            "--p1",
            "human",
            "--record",
            str(tmp_path / "no" / "such" / "dir" / "g.txt"),
        ],
        input="walk\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("patchsolve: error: cannot write") and len(r.stderr.splitlines()) == 1


@pytest.mark.parametrize("workers", [1, 2])
def test_a_tournament_keeps_every_finished_game_and_prints_their_table_on_ctrl_c(tmp_path, workers):
    games, records = tmp_path / "games.csv", tmp_path / "records"
    proc = start(
        "tournament",
        "alphabeta:time=0.02",
        "greedy",
        "--pairs",
        200,
        "--workers",
        workers,
        "--games",
        games,
        "--records",
        records,
        "--markdown",
        tmp_path / "table.md",
        "-q",
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if games.exists() and len(games.read_text().splitlines()) >= 4:
            break
        time.sleep(0.2)
    code, out, took, _ = interrupt(proc, after=0.0)
    assert code == 130 and took < PATIENCE
    with open(games) as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) >= 3
    assert len(list(records.iterdir())) == len(rows)  # a record for every finished game
    assert f"| {len(rows)} |" in out  # the table counts the finished games
    assert f"| {len(rows)} |" in (tmp_path / "table.md").read_text()
    assert f"**Partial**: {len(rows)} of 400 games (stopped by Ctrl-C)" in (tmp_path / "table.md").read_text()
    for row in rows:
        g = Game.read(records / f"pairing{row['pairing']}_game{int(row['game']):04d}.txt")
        assert list(g.end.scores()) == [int(row["score_first"]), int(row["score_second"])]


# -- the library: Ctrl-C stops a script's loop, the partial result kept ------------------------


def start_script(code, *args):
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


LOOP = """
import sys
import patchsolve as ps
pos = ps.Position.start(seed=0)
try:
    for i in range(200):
        print("searching", i, file=sys.stderr)
        ps.search(pos, engine="alphabeta", time=0.5, workers=1)
        print("searched", i)
except BaseException as e:
    print("stopped by", type(e).__name__)
    raise
"""


def test_ctrl_c_stops_a_script_that_searches_in_a_loop():
    proc = start_script(LOOP)
    wait_for_line(proc, "searching 2")
    code, out, took, _ = interrupt(proc, after=0.2)
    assert took < PATIENCE  # not 200 searches later: the loop stopped
    # uncaught, it ends the script as an error (CPython re-raises SIGINT, exit 130 in a shell, only
    # for a bare KeyboardInterrupt)
    assert code == 1
    assert 2 <= out.count("searched") < 5
    assert out.splitlines()[-1] == "stopped by SearchInterrupted"


CATCH = """
import sys
import patchsolve as ps
from patchsolve.errors import SearchInterrupted
from patchsolve.search.mcts import MCTSTree
pos = ps.Position.start(seed=0)
entry = {
    "alphabeta": lambda: ps.search(pos, engine="alphabeta", time=60),
    "mcts": lambda: ps.search(pos, engine="mcts", time=60),
    "solve": lambda: ps.solve(ps.Position.from_text(sys.argv[2]), time=60),
    "player": lambda: MCTSTree(time=60).search(pos),
}[sys.argv[1]]
print("searching", file=sys.stderr)
try:
    entry()
    print("returned")
except SearchInterrupted as stop:
    r = stop.result
    print("raised", isinstance(stop, KeyboardInterrupt), r.interrupted, r.best_move, r.nodes)
"""


@pytest.mark.parametrize("entry", ["alphabeta", "mcts", "solve", "player"])
def test_ctrl_c_in_the_library_raises_search_interrupted_with_the_best_result_so_far(entry):
    mid = Game.read(GOLDEN).position(10)
    proc = start_script(CATCH, entry, mid.to_text())
    wait_for_line(proc, "searching")
    code, out, took, _ = interrupt(proc)
    assert code == 0 and took < PATIENCE
    raised, is_keyboard_interrupt, interrupted, move, nodes = out.split()
    assert (raised, is_keyboard_interrupt, interrupted) == ("raised", "True", "True")
    pos = mid if entry == "solve" else Position.start(seed=0)
    assert pos.is_legal(pos.parse_move(move)) and int(nodes) > 0
