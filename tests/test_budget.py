"""The time manager (``search/budget.py``'s ``TimeManager``): one per
search, made by ``patchsolve.search`` with the engine's threads counted
once, and its shares the module functions' for the same limits."""

import pytest

import patchsolve
from patchsolve.search import alphabeta, bench, budget, endgame, limits, solver
from patchsolve.search.budget import TimeManager
from patchsolve.search.limits import Limits

# ply 29 of a noisy greedy game: 14 spaces from the end, not proven at once
# (benchmarks/tools/limit_trace.py)
NEAR = bench.noisy_greedy_game(1)[29]


def test_a_search_near_the_end_makes_one_time_manager_and_counts_its_threads_once(monkeypatch):
    assert endgame.near_end(NEAR)
    made, counted = [], []
    init, count = TimeManager.__init__, limits.threads_for

    def spy_init(self, *args, **kwargs):
        made.append(self)
        init(self, *args, **kwargs)

    def spy_count(lim, engine):
        counted.append((lim, engine))
        return count(lim, engine)

    monkeypatch.setattr(TimeManager, "__init__", spy_init)
    for module in (budget, alphabeta, solver):  # every module that counts threads
        monkeypatch.setattr(module, "threads_for", spy_count)
    r = patchsolve.search(NEAR, nodes=200_000)
    assert len(made) == 1
    # by the time manager alone: the engine's threads, and the near-end solver's (its
    # share has limits of its own); the engine and the solver are handed them
    assert [engine for _, engine in counted] == ["alphabeta", "solve"]
    again = patchsolve.search(NEAR, nodes=200_000)
    assert (again.best_move, again.score, again.nodes) == (r.best_move, r.score, r.nodes)


@pytest.mark.parametrize(
    "given",
    [
        Limits(time=0.5),
        Limits(nodes=200_000),
        Limits(nodes=200_000, time=3),
        Limits(depth=6),
        Limits(iterations=500),
        Limits(time=2, hash_mb=2, seed=7, workers=3),
    ],
)
def test_the_time_managers_shares_are_the_module_functions(given):
    manager = TimeManager(given, "alphabeta" if given.iterations is None else "mcts")
    own = budget.apart(given)
    assert manager.own_nodes == own
    within, _ = manager.solver_first(given.workers)
    part = budget.solver_first(given, own, given.workers)
    assert within == budget.solver_limits(given, part)
    assert manager.reserve() == budget.reserve(given)
    kept = manager.solver_spent(0.01, 1234, True)
    assert kept == budget.reserve(given)
    left = budget.engine_rest(given, 0.01, 1234, kept, own)
    assert manager.engine_rest() == (given.replace(**left) if left else given)
    assert manager.left_for_hand_over(0.02, 100) == budget.hand_over(manager.engine_limits, 0.02, 100)
    if given.time is not None:
        assert manager.beside_time() == budget.beside_time(given)
        assert manager.left_after(0.1) == budget.left_after(given, 0.1)
