"""The search contract, the same for every engine: one Limits record with
one LimitError, one SearchResult (score for the player to move, proven,
root_moves, win_probability), the exact solver near the end, and stopping."""

import json
import threading

import pytest

import patchsolve
import patchsolve as ps
from patchsolve import LimitError, Limits, PatchsolveError, Position
from patchsolve.search import ENGINES, bench, budget, dispatch

BUDGET = {"alphabeta": {"depth": 2}, "mcts": {"iterations": 300}}


def game(seed):
    return bench.noisy_greedy_game(seed, mixed_editions=True)


def margin_for_mover(pos):
    a, b = pos.scores()
    return a - b if pos.to_move == 0 else b - a


MIDGAME = game(3)[20]
ENDS = [game(s)[-1] for s in range(4)]
NEAR_END = [g[-6] for g in map(game, range(10, 14))]


# -- finished positions ------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("end", ENDS, ids=range(len(ENDS)))
def test_a_finished_game_is_its_margin_for_the_player_to_move_proven(engine, end):
    r = patchsolve.search(end, engine=engine, **BUDGET[engine])
    assert r.best_move is None and r.bound == "exact"
    assert r.score == margin_for_mover(end) == patchsolve.solve(end).score
    assert r.proven == ("win" if end.winner() == end.to_move else "loss")
    assert r.win_probability == (1.0 if r.proven == "win" else 0.0)


# -- one result -----------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_every_engine_fills_the_same_result_fields(engine):
    r = patchsolve.search(MIDGAME, engine=engine, multipv=3, **BUDGET[engine])
    assert MIDGAME.is_legal(r.best_move) and r.pv and r.pv[0] == r.best_move
    assert r.bound == "estimate" and r.proven is None and r.interrupted is False
    assert 0.0 <= r.win_probability <= 1.0
    assert len(r.root_moves) >= 3 and r.root_moves[0]["move"] == r.best_move
    for row in r.root_moves:
        assert {"move", "score", "bound", "win_probability", "proven", "visits"} <= set(row)
        assert MIDGAME.is_legal(row["move"]) and 0.0 <= row["win_probability"] <= 1.0
    assert len({row["move"] for row in r.root_moves}) == len(r.root_moves)
    data = json.loads(json.dumps(r.to_dict()))
    assert data["proven"] is None and data["interrupted"] is False and data["best_move"] == str(r.best_move)


@pytest.mark.parametrize("pos", NEAR_END[:2])
def test_the_solver_s_rows_have_every_engine_s_keys(pos):
    """``solve(all_moves=True)``'s rows are RootMove records like every
    engine's: a proven row's win probability is 1 or 0, a bound's None."""
    from patchsolve.search.result import RootMove

    r = ps.solve(pos, all_moves=True, nodes=2_000_000)
    assert r.root_moves
    for row in r.root_moves:
        assert set(RootMove.__required_keys__) <= set(row) <= set(RootMove.__annotations__)
        assert row["visits"] is None
        if row["proven"] is not None:
            assert row["win_probability"] == float(row["proven"] == "win")
        else:
            assert row["win_probability"] is None


def test_a_root_move_with_an_unknown_key_is_refused():
    from patchsolve.search.result import root_move

    with pytest.raises(TypeError, match="scroe"):
        root_move(MIDGAME.legal_moves()[0], 1.0, scroe=2)


def test_alpha_beta_values_each_of_the_top_root_moves_like_a_search_of_its_child():
    r = patchsolve.search(MIDGAME, engine="alphabeta", depth=3, multipv=4, endgame_solve=False)
    assert len(r.root_moves) == 4
    for row in r.root_moves[1:]:
        child = MIDGAME.play(row["move"])
        v = patchsolve.search(child, engine="alphabeta", depth=2, endgame_solve=False).score
        assert row["score"] == (v if child.to_move == MIDGAME.to_move else -v)
    scores = [row["score"] for row in r.root_moves[1:]]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize("phase", [0, 30, 60, 106])
def test_alpha_beta_win_probability_grows_with_its_score(phase):
    from patchsolve.search.result import win_probability_of

    assert win_probability_of(0, phase) == pytest.approx(0.5, abs=0.05)
    assert (
        0.0
        < win_probability_of(-20, phase)
        < win_probability_of(-1, phase)
        < win_probability_of(1, phase)
        < win_probability_of(20, phase)
        < 1.0
    )


def test_the_same_lead_is_surer_late_in_the_game():
    from patchsolve.search.result import win_probability_of

    for lead in (2, 5, 10):
        assert win_probability_of(lead, 106) < win_probability_of(lead, 50) < win_probability_of(lead, 5)


def test_an_estimate_reports_the_calibrated_win_probability_of_its_position():
    from patchsolve.search.result import phase_of, win_probability_of

    pos = Position.start(seed=3)
    r = patchsolve.search(pos, engine="alphabeta", nodes=5000)
    assert r.bound == "estimate"
    assert r.win_probability == pytest.approx(win_probability_of(r.score, phase_of(pos)))
    assert phase_of(pos) == 106


# -- the exact solver near the end ---------------------------------------------------


@pytest.mark.parametrize("pos", NEAR_END, ids=range(len(NEAR_END)))
def test_near_the_end_every_engine_answers_with_the_solver_s_proven_value(pos):
    exact = patchsolve.solve(pos, nodes=budget.ENDGAME_NODES)
    assert exact.bound == "exact"
    for engine in ENGINES:
        r = patchsolve.search(pos, engine=engine, **BUDGET[engine])
        assert r.bound == "exact" and r.score == exact.score and r.engine == engine
        assert r.proven in ("win", "loss") and pos.is_legal(r.best_move)


def test_without_the_shortcut_an_engine_estimates():
    r = patchsolve.search(NEAR_END[0], engine="alphabeta", depth=1, endgame_solve=False)
    assert r.bound == "estimate"


# -- limits -------------------------------------------------------------------------------

BAD_LIMITS = [
    {"time": 0},
    {"time": -1},
    {"time": 2e6},
    {"time": float("nan")},
    {"time": float("inf")},
    {"time": "1"},
    {"seed": -1},
    {"seed": 2**64},
    {"seed": 1.5},
    {"multipv": 0},
    {"multipv": 10**9},
    {"hash_mb": 0},
    {"hash_mb": 10**9},
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("limits", BAD_LIMITS, ids=[str(x) for x in BAD_LIMITS])
def test_a_limit_out_of_range_is_one_limit_error_for_every_engine(engine, limits):
    with pytest.raises(LimitError):
        patchsolve.search(MIDGAME, engine=engine, **limits)


@pytest.mark.parametrize(
    "engine,limits",
    [
        ("mcts", {"iterations": 99999999999999999999999}),
        ("mcts", {"iterations": 0}),
        ("mcts", {"workers": 0}),
        ("mcts", {"workers": 10**6}),
        ("mcts", {"max_nodes": 2**40}),
        ("mcts", {"depth": 3}),
        ("mcts", {"nodes": 5}),
        ("alphabeta", {"depth": 0}),
        ("alphabeta", {"depth": 10**6}),
        ("alphabeta", {"nodes": 2**70}),
        ("alphabeta", {"iterations": 10}),
        ("alphabeta", {"workers": 2, "nodes": 1000}),
        ("alphabeta", {"workers": 3, "depth": 4}),
        ("alphabeta", {"bogus": 1}),
        ("mcts", {"bogus": 1}),
    ],
)
def test_engine_limits_are_checked_before_any_search(engine, limits):
    with pytest.raises(LimitError) as e:
        patchsolve.search(MIDGAME, engine=engine, **limits)
    assert next(iter(limits)) in str(e.value)


def test_limits_are_a_validated_record():
    assert Limits(time=2, seed=3).given() == {"time": 2.0, "seed": 3}
    assert Limits(time=1).replace(nodes=5).given() == {"time": 1.0, "nodes": 5}
    with pytest.raises(LimitError):
        Limits(depth=True)
    assert issubclass(LimitError, PatchsolveError)
    assert "time=1.5" in repr(Limits(time=1.5))


def test_a_table_that_cannot_be_allocated_is_a_limit_error():
    with open("/proc/sys/vm/overcommit_memory") as fh:
        if fh.read().strip() == "1":
            pytest.skip("the kernel grants any allocation here")
    with pytest.raises(LimitError, match="allocate"):
        patchsolve.search(MIDGAME, engine="alphabeta", depth=1, hash_mb=65536)


def test_perft_depth_out_of_range_is_a_limit_error():
    pos = Position.start(seed=0)
    for depth in (-1, 65, 99999999999999999999, 2.0):
        with pytest.raises(LimitError):
            pos.perft(depth)


def test_a_non_position_is_refused_by_every_entry():
    for call in (
        lambda: patchsolve.search("start"),
        lambda: patchsolve.solve(None),
        lambda: patchsolve.search(MIDGAME, engine="minimax"),
    ):
        with pytest.raises(PatchsolveError):
            call()


def test_as_position_passes_a_position_and_names_anything_else():
    from patchsolve.rules.position import as_position
    from patchsolve.search.alphabeta import evaluate
    from patchsolve.search.mcts import MCTSTree

    assert as_position(MIDGAME) is MIDGAME
    for bad, name in (("start", "str"), (None, "NoneType"), (MIDGAME.fields(), "dict")):
        with pytest.raises(PatchsolveError, match=f"not {name}$"):
            as_position(bad)
    for entry in (evaluate, MCTSTree(iterations=10).search):
        with pytest.raises(PatchsolveError, match="expected a patchsolve.Position"):
            entry("start")


# -- stopping -------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_a_stopped_search_returns_its_best_legal_move_so_far(engine):
    timer = threading.Timer(0.3, patchsolve.request_stop)
    timer.start()
    r = patchsolve.search(Position.start(seed=2), engine=engine, time=60)
    timer.join()
    assert r.interrupted and r.time < 30
    assert Position.start(seed=2).is_legal(r.best_move)
    again = patchsolve.search(Position.start(seed=2), engine=engine, **BUDGET[engine])
    assert not again.interrupted  # the next search starts afresh


def test_a_stopped_solve_says_so_and_proves_nothing():
    pos = game(5)[15]
    timer = threading.Timer(0.3, patchsolve.request_stop)
    timer.start()
    r = patchsolve.solve(pos, time=60)
    timer.join()
    assert r.interrupted and r.bound != "exact"


def test_patchsolve_search_is_a_plain_function():
    import types

    import patchsolve.search.mcts as mcts_module

    assert isinstance(patchsolve.search, types.FunctionType)
    assert mcts_module.__name__ == "patchsolve.search.mcts"
    assert patchsolve.search is dispatch.search


def test_no_module_of_search_climbs_back_to_the_dispatcher():
    """The engines, the solver and the near-end path sit below ``dispatch``:
    none imports it, not even lazily (only the package's public API does)."""
    import ast
    from pathlib import Path

    climbers = []
    for path in Path(dispatch.__file__).parent.glob("*.py"):
        if path.stem in ("__init__", "dispatch"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            if any(n == "patchsolve.search.dispatch" for n in names):
                climbers.append(f"{path.name}:{node.lineno}")
    assert climbers == []


def test_a_limits_object_is_the_budget_as_the_keywords_are():
    pos = ps.Position.start()
    by_object = ps.search(pos, ps.Limits(depth=2))
    by_keyword = ps.search(pos, depth=2)
    assert by_object.best_move == by_keyword.best_move and by_object.nodes == by_keyword.nodes
    assert ps.search(pos, "mcts", limits=ps.Limits(iterations=50, seed=1)).best_move is not None
    assert ps.solve(ps.Position.start(), ps.Limits(nodes=100)).bound != "exact"


def test_limits_given_twice_are_refused():
    with pytest.raises(ps.LimitError):
        ps.search(ps.Position.start(), limits=ps.Limits(depth=2), depth=3)
    with pytest.raises(ps.LimitError):
        ps.search(ps.Position.start(), limits={"depth": 2})
