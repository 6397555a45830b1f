"""The time manager (``search/budget.py``'s ``TimeManager``): one per
search, made by ``patchsolve.search`` with the engine's threads counted
once, and its shares as the budget's rules state them."""

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
def test_the_time_managers_shares_follow_the_budget_rules(given):
    """Each share as the module's table states it: the solver first gets
    ENDGAME_SHARE (or, under a node budget alone, SOLVER_NODES_SHARE nodes
    of its own; ENDGAME_NODES under a depth or iteration budget), the
    reserve KEEP_SHARE, the engine what is left, the hand-over what the
    engine left unless under HAND_OVER_MIN of it."""
    manager = TimeManager(given, "alphabeta" if given.iterations is None else "mcts")
    own = given.nodes is not None and given.time is None
    assert manager.own_nodes == own

    def part_of(share: float, nodes: int) -> dict:
        out = {}
        if given.time is not None:
            out["time"] = given.time * share
        if given.nodes is not None:
            out["nodes"] = max(1, int(given.nodes * share))
        return out or {"nodes": nodes}

    first = part_of(budget.ENDGAME_SHARE, budget.ENDGAME_NODES)
    if own:
        first["nodes"] = int(given.nodes * budget.SOLVER_NODES_SHARE)
    within, _ = manager.solver_first(given.workers)
    assert (within.time, within.nodes, within.workers, within.seed) == (
        first.get("time"),
        first.get("nodes"),
        given.workers,
        given.seed,
    )
    small = first.get("time", 0) <= 0.5 and first.get("nodes", 0) <= 1_000_000
    assert within.hash_mb == min(4 if small else 16, given.hash_mb or 64)
    reserve = part_of(budget.KEEP_SHARE, budget.ENDGAME_NODES // 4)
    assert manager.reserve() == reserve
    kept = manager.solver_spent(0.01, 1234, True)
    assert kept == reserve
    left = {}
    if given.time is not None:
        left["time"] = given.time - 0.01 - reserve["time"]
    if given.nodes is not None and not own:
        left["nodes"] = given.nodes - 1234 - reserve["nodes"]
    engine = manager.engine_rest()
    assert engine == (given.replace(**left) if left else given)
    after = {}
    if engine.time is not None:
        after["time"] = engine.time - 0.02
    if engine.nodes is not None:
        after["nodes"] = engine.nodes - 100
    assert manager.left_for_hand_over(0.02, 100) == (after or None)
    assert manager.left_for_hand_over(engine.time or 0, engine.nodes or 0) is None  # nothing left
    if given.time is not None:
        assert manager.beside_time() == given.time * (1 - budget.KEEP_SHARE)
        assert manager.left_after(0.1) == {"time": given.time - 0.1}
