"""Threads in the alpha-beta: ``workers`` threads sharing one table and the
moves being searched (simplified ABDADA).

Threads are not deterministic, so these tests check what must hold whatever
the interleaving: a legal move and a playable PV, a score in the game's
range, every thread stopped when the search returns, deterministic budgets
refused with threads, and one thread the same search as before."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import patchsolve
from patchsolve.arena.players import make_player
from patchsolve.cli import cli
from patchsolve.errors import LimitError
from patchsolve.rules.position import Position
from patchsolve.search import _alphabeta, alphabeta, limits
from patchsolve.search.bench import read_positions
from patchsolve.search.limits import Limits
from patchsolve.search.stop import request_stop

BENCH = read_positions()
MAX_MARGIN = 200  # no final margin comes near this (81 squares x 2 + buttons + bonus)


def assert_sane(pos, r):
    assert r.best_move in pos.legal_moves()
    assert abs(r.score) <= MAX_MARGIN
    line = pos
    for m in r.pv:  # the PV is a legal line from the root
        assert m in line.legal_moves()
        line = line.play(m)
        if line.is_over:
            break


@pytest.mark.parametrize("phase,pos", BENCH, ids=[f"{i}-{p}" for i, (p, _) in enumerate(BENCH)])
def test_two_threads_give_a_legal_move_and_a_sane_score_on_the_bench_set(phase, pos):
    r = patchsolve.search(pos, engine="alphabeta", time=0.15, workers=2, endgame_solve=False)
    assert_sane(pos, r)
    assert r.workers == 2 and r.depth >= 1


def random_position(seed: int, plies: int) -> Position:
    import random

    rng = random.Random(seed)
    pos = Position.start(seed=seed)
    for _ in range(plies):
        if pos.is_over:
            break
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(0, 60), st.integers(2, 4))
def test_threads_give_legal_moves_on_random_positions(seed, plies, workers):
    pos = random_position(seed, plies)
    if pos.is_over:
        return
    r = patchsolve.search(pos, engine="alphabeta", time=0.04, workers=workers, endgame_solve=False)
    assert_sane(pos, r)


def test_many_threads_on_a_tiny_table_do_not_crash():
    """Eight threads colliding in a 1 MB table: torn or foreign entries must
    never make an illegal move (TT moves are checked with is_legal)."""
    for _, pos in BENCH[::3]:
        r = patchsolve.search(pos, engine="alphabeta", time=0.1, workers=8, hash_mb=1, endgame_solve=False)
        assert_sane(pos, r)
        assert r.workers == 8


def own_threads() -> set[str]:
    """The ids of this process's OS threads that carry its own name. Python's
    threads and the searchers' pthreads inherit it; the threads that
    libraries loaded by other tests start in the background (a Ray driver's,
    gRPC's) name themselves, and may come and go at any time."""
    name = Path("/proc/self/comm").read_text()
    tasks = Path("/proc/self/task")
    out = set()
    for tid in os.listdir(tasks):
        try:
            if (tasks / tid / "comm").read_text() == name:
                out.add(tid)
        except FileNotFoundError:  # it ended while we looked
            pass
    return out


def stop_from_another_thread(call, threads):
    """Run ``call()`` in a thread, request a stop after 0.5 s and check that
    it returns within 5 s, that ``threads`` OS threads ran and that none of
    them is left; its result."""
    before = own_threads()
    box = {}
    t = threading.Thread(target=lambda: box.update(r=call()))
    t0 = time.monotonic()
    t.start()
    time.sleep(0.5)
    started = own_threads() - before
    request_stop()
    t.join(10)
    assert not t.is_alive() and time.monotonic() - t0 < 5
    assert len(started) >= threads  # the Python thread and its helpers ran ...
    settle = time.monotonic() + 2  # ... and none is left once the search returned
    while started & own_threads() and time.monotonic() < settle:
        time.sleep(0.01)  # (the Python thread's OS exit can lag its join)
    assert not started & own_threads()
    return box["r"]


def test_request_stop_from_another_thread_stops_every_thread():
    pos = BENCH[4][1]
    r = stop_from_another_thread(
        lambda: patchsolve.search(pos, engine="alphabeta", time=60, workers=3, endgame_solve=False), 3
    )
    assert r.interrupted and r.best_move in pos.legal_moves()


def test_a_nodes_or_depth_limit_with_threads_is_refused_with_the_reason():
    pos = BENCH[0][1]
    for limit in ({"nodes": 10_000}, {"depth": 3}):
        with pytest.raises(LimitError, match="nondeterministic"):
            patchsolve.search(pos, engine="alphabeta", workers=2, **limit)


def test_default_threads_every_core_under_time_alone_one_otherwise(monkeypatch):
    monkeypatch.setattr(limits, "available_cores", lambda: 3)
    pos = BENCH[5][1]
    assert patchsolve.search(pos, engine="alphabeta", time=0.1, endgame_solve=False).workers == 3
    assert patchsolve.search(pos, engine="alphabeta", depth=2, endgame_solve=False).workers == 1
    assert patchsolve.search(pos, engine="alphabeta", nodes=2000, endgame_solve=False).workers == 1
    assert patchsolve.search(pos, engine="alphabeta", time=0.1, workers=1, endgame_solve=False).workers == 1
    monkeypatch.setattr(limits, "available_cores", lambda: 1000)
    assert limits.threads_for(Limits(time=1), "alphabeta") == limits.MAX_DEFAULT_WORKERS


def test_one_thread_is_the_search_of_before():
    """workers=1 starts no helper: node counts and PVs are those of the
    default call (the bench signature pins the numbers themselves)."""
    for _, pos in BENCH[::4]:
        opts = dict(tt=True, placements=4, prune_depth=2, lmr=0, rank_plies=0, leather=0)
        a = _alphabeta.Searcher(16, **opts).run(pos._c, 4, 0, 0.0)
        b = _alphabeta.Searcher(16, **opts).run(pos._c, 4, 0, 0.0, 1, 1)
        assert a == b


def test_helpers_add_their_nodes_and_share_the_table():
    """With two threads the node count is both threads' (the helper's work
    shows as more nodes than the main thread's iterations alone count)."""
    pos = BENCH[0][1]
    s = _alphabeta.Searcher(16, tt=True, placements=4, prune_depth=2, lmr=0, rank_plies=0, leather=0)
    done = s.run(pos._c, 100, 0, 0.3, 1, 2)
    assert s.threads == 2 and done
    assert s.nodes > done[-1][3]


def test_tournament_players_keep_one_thread_unless_the_spec_says_so():
    assert make_player("alphabeta:time=0.1").limits["workers"] == 1
    assert make_player("alphabeta:time=0.1,workers=2").limits["workers"] == 2
    assert make_player("alphabeta:depth=3").limits["workers"] == 1
    assert make_player("alphabeta:time=0.1").spec == "alphabeta:time=0.1"
    with pytest.raises(LimitError, match="nondeterministic"):
        make_player("alphabeta:depth=3,workers=2")  # refused when the spec is read


def test_cli_best_with_two_workers_reports_them_in_json():
    r = CliRunner().invoke(cli, ["best", "--time", "0.2", "--workers", "2", "--json", "-q"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["workers"] == 2 and data["engine"] == "alphabeta"
    assert data["best_move"] in [str(m) for m in Position.start(seed=0).legal_moves()]
    text = CliRunner().invoke(cli, ["best", "--time", "0.1", "--workers", "2", "-q"])
    assert text.exit_code == 0 and "workers 2" in text.stdout


def test_cli_eval_values_its_top_moves_on_two_threads():
    r = CliRunner().invoke(cli, ["eval", "--time", "0.3", "--workers", "2", "--top", "3", "--json", "-q"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    legal = [str(m) for m in Position.start(seed=0).legal_moves()]
    assert data["workers"] == 2 and len(data["top_moves"]) == 3
    assert all(row["move"] in legal for row in data["top_moves"])


def test_cli_refuses_threads_with_a_depth_in_one_line():
    r = CliRunner().invoke(cli, ["best", "--depth", "3", "--workers", "2"])
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("patchsolve: error:") and "workers" in lines[0]


def test_ctrl_c_stops_a_two_thread_best():
    proc = subprocess.Popen(
        [sys.executable, "-m", "patchsolve.cli", "best", "--time", "60", "--workers", "2", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    while "searching with" not in proc.stderr.readline():
        assert proc.poll() is None
    time.sleep(1.0)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 130 and time.monotonic() - t0 < 5
    data = json.loads(out)
    assert data["interrupted"] and data["workers"] == 2


def test_the_engine_module_itself_refuses_threads_under_a_node_limit():
    from patchsolve.errors import LimitError
    from patchsolve.search.limits import Limits

    pos = Position.start(seed=3)
    with pytest.raises(LimitError, match="time limit"):
        alphabeta.run(pos, Limits(nodes=1000, workers=2), alphabeta.check_options({}))


def test_the_mcts_reports_its_worker_processes():
    import patchsolve

    r = patchsolve.search(Position.start(seed=3), engine="mcts", iterations=200, seed=1)
    assert r.workers == 1


# -- the solver beside the search (a second core near the end) ---------------


def _near_end_positions(count, seed=0):
    """Positions of noisy greedy games where the near-end solver applies."""
    from patchsolve.search.bench import noisy_greedy_game
    from patchsolve.search.endgame import near_end

    out = []
    while len(out) < count:
        game = [p for p in noisy_greedy_game(seed, mixed_editions=True) if near_end(p)]
        out += game[:: max(1, len(game) // 3)][:3]
        seed += 1
    return out[:count]


def test_interrupt_stops_a_run_from_outside():
    """A searcher interrupted before its run stops at its first check of the
    limits (the first iterations are smaller than the interval between
    checks), long before its 30 s: one thread reaches depth 13 here in 0.5 s."""
    pos = BENCH[4][1]
    s = _alphabeta.Searcher(16, tt=True, placements=2, prune_depth=1, lmr=3, rank_plies=3, leather=4)
    s.interrupt()
    done = s.run(pos._c, 40, 0, 30.0)
    assert len(done) < 8


def test_the_solver_beside_the_search_answers_exactly_with_a_proven_move():
    """Near the end, two threads under a time limit: one solves, one
    searches. Where the solver finishes, the answer is its exact value and a
    move proven to keep it; elsewhere a legal move and the proven bounds."""
    from patchsolve.search.endgame import beside

    exact = 0
    for pos in _near_end_positions(8):
        assert beside("alphabeta", Limits(time=0.3, workers=2))
        r = patchsolve.search(pos, time=0.3, workers=2)
        assert pos.is_legal(r.best_move) and r.workers == 2
        truth = patchsolve.solve(pos, time=30)
        assert truth.bound == "exact"
        if r.bound == "exact":
            exact += 1
            assert r.score == truth.score and r.proven_best
            after = patchsolve.solve(pos.play(r.best_move), time=30).score
            child = pos.play(r.best_move)
            assert (after if child.to_move == pos.to_move else -after) == truth.score
        else:
            assert r.lower <= truth.score <= r.upper
    assert exact >= 1


def test_the_solver_runs_beside_the_search_only_where_the_answer_is_timed():
    """Node or depth budgets stay deterministic (the shortcut first), and
    one thread, ranked moves, the MCTS and a move time of BESIDE_MAX_TIME
    or more (where the hand-over gains more) keep the shortcut too."""
    from patchsolve.search.budget import BESIDE_MAX_TIME
    from patchsolve.search.endgame import beside

    assert beside("alphabeta", Limits(time=0.1, workers=2))
    assert beside("alphabeta", Limits(time=BESIDE_MAX_TIME * 0.99, workers=2))
    assert not beside("alphabeta", Limits(time=BESIDE_MAX_TIME, workers=2))
    assert not beside("alphabeta", Limits(time=5, workers=2))
    assert not beside("alphabeta", Limits(time=0.5, workers=1))
    assert not beside("alphabeta", Limits(nodes=10_000))
    assert not beside("alphabeta", Limits(depth=5))
    assert not beside("alphabeta", Limits(time=0.5, workers=2, multipv=3))
    assert not beside("mcts", Limits(time=0.5, workers=2))
    pos = _near_end_positions(1, seed=3)[0]
    a = patchsolve.search(pos, nodes=50_000)
    b = patchsolve.search(pos, nodes=50_000)
    assert (a.best_move, a.score, a.nodes) == (b.best_move, b.score, b.nodes)
