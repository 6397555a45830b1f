"""The solver on several threads (Lazy SMP, ``_solver.pyx``): helpers run
the same driver into the shared table, so every value stays exact, every
interval proven; threads are refused with a node limit (which promises a
reproducible result), default to every core under a time limit, stop on
Ctrl-C and leave no thread behind."""

import pytest
from click.testing import CliRunner

import patchsolve
from patchsolve import solve
from patchsolve.cli import cli
from patchsolve.errors import LimitError
from patchsolve.search import _solver, limits
from patchsolve.search.solver import c_solver
from test_alphabeta import plain_minimax
from test_smp import stop_from_another_thread
from test_solver import ALL, plain_wdl

# from benchmarks/solve_reach.json, with the exact values one thread proved
# (benchmarks/results/solve_reach_r3_0c15a68.json, once solve_reach_final.json): each takes about a second
REACH = [
    (
        "revised 9,19,25,11,1,16,12,18,27,14,2,29,32 1a359a4787e7f9799ce3f/1028fc3e3f7ffff3fff "
        "30/15 14/8 41/37 - 44,50 - - 0",
        -8,
    ),
    (
        "original 8,25,27,18,11,2,3,0,19,9,29,28,32 1f8f8743a3c3f9fffff18/1fff85fbcd4fa7f7e9608 "
        "17/17 11/9 38/41 - 44,50 - - -",
        33,
    ),
    (
        "revised 9,25,18,29,15,19,2,1,24,16,10,17,4 1ffffbd8c0e7239ecfef0/1cd46a1f9ffcbe0feffc7 "
        "14/11 9/9 35/40 - 44,50 - - 1",
        -7,
    ),
]


@pytest.fixture(autouse=True)
def helpers_from_the_start():
    """Most positions here end within the helpers' delay: with none, the
    helpers run on every call these tests make."""
    old = _solver._helper_delay(0)
    yield
    _solver._helper_delay(old)


def _solver_on(pos, threads):
    s = c_solver(16, threads=threads)
    s.set_limits(0, 60.0)
    return s, s.solve(pos._c, *s.bounds(pos._c), s.guess(pos._c))


def test_a_call_shorter_than_the_delay_ends_on_one_thread_and_a_longer_one_starts_helpers():
    pos = patchsolve.Position.from_text(REACH[0][0])
    one, value = _solver_on(pos, 1)
    _solver._helper_delay(one.nodes + 1)  # more than the whole solve: no helper starts
    two, got = _solver_on(pos, 2)
    assert got == value and two.nodes == one.nodes  # the same search, node for node
    _solver._helper_delay(max(1, one.nodes // 4))  # a quarter of it: helpers join for the rest
    two, got = _solver_on(pos, 2)
    assert got == value and two.nodes != one.nodes


@pytest.mark.parametrize("delay", [1, 7, 300])
def test_helpers_joining_in_the_middle_of_a_call_keep_every_value_exact(delay):
    # the call stops at ``delay`` nodes wherever it is and goes on with helpers
    _solver._helper_delay(delay)
    for pos in ALL:
        r = solve(pos, time=60, workers=2)
        assert r.bound == "exact" and r.score == plain_minimax(pos)
    for text, value in REACH[:1]:
        for budget in (0.01, 0.1):
            r = solve(patchsolve.Position.from_text(text), time=budget, workers=2)
            assert r.lower <= value <= r.upper


def test_the_helper_delay_is_checked():
    with pytest.raises(ValueError, match="helper delay"):
        _solver._helper_delay(-1)


def test_more_threads_than_cores_keep_every_value_exact():
    # four threads on two cores race for the table the hardest
    for pos in ALL:
        r = solve(pos, time=60, workers=4)
        assert r.bound == "exact" and r.score == plain_minimax(pos) and r.workers == 4
        assert r.proven == ("win" if plain_wdl(pos) else "loss")


def test_win_loss_and_all_moves_on_threads_agree_with_one():
    for pos in ALL[::3]:
        assert solve(pos, wdl=True, workers=3).proven == solve(pos, wdl=True, workers=1).proven
        a = solve(pos, all_moves=True, workers=3).root_moves
        b = solve(pos, all_moves=True, workers=1).root_moves
        # which placement of a patch is valued exactly follows the table's
        # move, which threads change; the values may not
        exact_a = {d["move"]: d["score"] for d in a if d["bound"] == "exact"}
        exact_b = {d["move"]: d["score"] for d in b if d["bound"] == "exact"}
        assert all(exact_a[m] == exact_b[m] for m in exact_a.keys() & exact_b.keys())
        assert _group_best(a) == _group_best(b)


def _group_best(rows) -> dict:
    best: dict = {}
    for d in rows:
        if d["bound"] == "exact":
            best[d["group"]] = max(best.get(d["group"], d["score"]), d["score"])
    return best


@pytest.mark.parametrize("text,value", REACH)
def test_threads_prove_the_one_thread_value_and_their_intervals_hold_it(text, value):
    pos = patchsolve.Position.from_text(text)
    assert solve(pos, time=60, workers=2).score == value
    for budget in (0.01, 0.1):
        r = solve(pos, time=budget, workers=2)
        assert r.lower <= value <= r.upper


@pytest.fixture
def stall_at_once():
    old = _solver._stall_nodes(1)
    yield
    _solver._stall_nodes(old)


@pytest.mark.parametrize("text,value", REACH)
def test_a_stalled_helper_bracketing_from_far_out_keeps_values_exact(stall_at_once, text, value):
    # the first helper brackets again from -+ 32 after one node: its far
    # tests must leave every value exact and every interval proven
    pos = patchsolve.Position.from_text(text)
    assert solve(pos, time=60, workers=2).score == value
    for budget in (0.01, 0.1, 0.3):
        r = solve(pos, time=budget, workers=2)
        assert r.lower <= value <= r.upper


def test_a_node_limit_with_threads_is_refused_with_the_reason():
    with pytest.raises(LimitError, match="nondeterministic"):
        solve(ALL[0], nodes=1000, workers=2)
    res = CliRunner().invoke(cli, ["solve", ALL[0].to_text(), "--nodes", "1000", "--workers", "2", "-q"])
    assert res.exit_code != 0 and "nondeterministic" in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_default_threads_every_core_under_a_time_limit_one_with_nodes(monkeypatch):
    monkeypatch.setattr(limits, "available_cores", lambda: 3)
    pos = ALL[1]
    assert solve(pos, time=10).workers == 3
    assert solve(pos).workers == 3  # the default budget is a time
    assert solve(pos, nodes=100000).workers == 1
    assert solve(pos, time=10, workers=1).workers == 1


def test_request_stop_stops_every_thread_and_none_is_left():
    far = patchsolve.Position.from_text(
        "original 3,21,10,32,1,18,22,11,13,19,23,28,27,25,2,0 19fffe4f038383c3c1e3f/1c1e0f0783e1f07a3f1fc "
        "12/7 12/10 39/37 - 44,50 - - -"
    )  # minutes on one thread
    r = stop_from_another_thread(lambda: patchsolve.solve(far, time=60, workers=3), 3)
    assert r.interrupted and r.lower <= r.upper and far.is_legal(r.best_move)


def test_cli_solve_reports_its_threads():
    res = CliRunner().invoke(cli, ["solve", ALL[0].to_text(), "--workers", "2", "-q"])
    assert res.exit_code == 0, res.output
    assert "threads 2" in res.output
