"""The alpha-beta searcher and the exact endgame solver, as specifications.

Endgames come from seeded games of a noisy greedy player (its move, or a
uniformly random one 15% of the time), cut where the full game tree below
is small enough for a plain minimax in Python (and, smaller still, for the
pure-Python reference rules).
"""

import math
import random
import time

import pytest
import reference as ref

import patchsolve
from patchsolve import Move, Position, bench
from patchsolve.errors import PatchsolveError
from patchsolve.search import _alphabeta as ab, _eval
from patchsolve.errors import LimitError as InvalidLimitError
from patchsolve import solve


# -- positions ----------------------------------------------------------------

def noisy_greedy_game(seed):
    return bench.noisy_greedy_game(seed, mixed_editions=True)


def endgame(seed, max_tree, min_tree=2):
    """The earliest position of the game whose full tree has at most
    ``max_tree`` nodes (None if it is too small to be interesting)."""
    game = noisy_greedy_game(seed)
    chosen = None
    for pos in reversed(game[:-1]):
        n = ab.tree_size(pos._c, max_tree)
        if n < 0:
            break
        chosen = (pos, n)
    if chosen is None or chosen[1] < min_tree:
        return None
    return chosen[0]


def endgames(count, max_tree, min_tree=2, first_seed=0):
    out, seed = [], first_seed
    while len(out) < count:
        pos = endgame(seed, max_tree, min_tree)
        if pos is not None:
            out.append(pos)
        seed += 1
    return out


SMALL = endgames(25, 3000, min_tree=20)
TINY = endgames(8, 250, min_tree=10, first_seed=1000)


def margin(pos, player):
    a, b = pos.scores()
    return a - b if player == 0 else b - a


# -- references -----------------------------------------------------------------

def plain_minimax(pos, depth=-1):
    """Every move, no pruning; a child's value is negated only when the
    player to move changes; a finished game is worth the mover's margin."""
    p = pos.to_move
    if depth == 0:
        return _eval.evaluate_state(pos._c, p)
    best = -math.inf
    for move in pos.legal_moves():
        child = pos.play(move)
        if child.is_over:
            v = margin(child, p)
        else:
            v = plain_minimax(child, depth - 1)
            if child.to_move != p:
                v = -v
        best = max(best, v)
    return best


def to_ref(pos):
    f = pos.fields()
    cells = lambda q: ref.to_cells(q)  # noqa: E731
    return ref.RefState(f["edition"], tuple(f["circle"]), tuple(cells(q) for q in f["quilts"]),
                        tuple(f["buttons"]), tuple(f["income"]), tuple(f["time"]), frozenset(f["leather"]),
                        f["bonus_owner"], f["first_at_end"], f["pending_leather"], f["on_top"] or 0)


def reference_minimax(s):
    """Brute force over the pure-Python reference rules."""
    p = ref.to_move(s)
    best = -math.inf
    for move in ref.legal_moves(s):
        child = ref.play(s, move)
        if ref.is_over(child):
            a, b = ref.scores(child)
            v = a - b if p == 0 else b - a
        else:
            v = reference_minimax(child)
            if ref.to_move(child) != p:
                v = -v
        best = max(best, v)
    return best


# -- exact values -----------------------------------------------------------------

def test_solve_equals_plain_minimax_on_small_endgames():
    for pos in SMALL:
        assert solve(pos).score == plain_minimax(pos)


def test_solve_is_exact_and_the_same_with_and_without_its_prunings():
    for pos in SMALL:
        full, plain = solve(pos), solve(pos, static=False, relax=False, etc=True)
        assert full.bound == plain.bound == "exact"
        assert full.score == plain.score


def test_solve_agrees_with_the_reference_rules_brute_force():
    for pos in TINY:
        assert solve(pos).score == reference_minimax(to_ref(pos))


def test_the_pv_is_legal_and_reaches_the_exact_score():
    for pos in SMALL:
        result = solve(pos)
        end = pos
        for move in result.pv:
            end = end.play(move)  # raises on an illegal move
        assert end.is_over
        assert margin(end, pos.to_move) == result.score
        assert result.best_move == result.pv[0]


def test_depth_limited_search_without_pruning_equals_plain_minimax_with_the_evaluation():
    for pos in SMALL[:12]:
        for depth in (1, 2):
            result = patchsolve.search(pos, engine="alphabeta", depth=depth, placements=0, tt=False,
                                       endgame_solve=False)
            assert result.score == plain_minimax(pos, depth), (pos.fields(), depth)


def test_without_reductions_a_depth_3_search_is_plain_minimax():
    for pos in SMALL[:6]:
        result = patchsolve.search(pos, engine="alphabeta", depth=3, placements=0, tt=False, lmr=0, endgame_solve=False)
        assert result.score == plain_minimax(pos, 3), pos.fields()


def test_late_move_reductions_search_fewer_nodes_and_still_play_legal_moves():
    fewer = 0
    for pos in SMALL[:6]:
        full = patchsolve.search(pos, engine="alphabeta", depth=4, lmr=0, endgame_solve=False)
        reduced = patchsolve.search(pos, engine="alphabeta", depth=4, lmr=1, endgame_solve=False)
        assert reduced.best_move in pos.legal_moves()
        fewer += reduced.nodes < full.nodes
    assert fewer >= 4


def test_the_c_minimax_matches_the_python_one():
    for pos in SMALL[:8]:
        assert ab.minimax(pos._c)[0] == plain_minimax(pos)


# -- keys -------------------------------------------------------------------------

def test_incremental_zobrist_keys_match_keys_computed_from_scratch():
    rng = random.Random(7)
    for seed in range(6):
        for pos in noisy_greedy_game(seed)[:-1]:
            key = ab.key_of(pos._c)
            codes = pos._c.legal_codes()
            for code in rng.sample(codes, min(8, len(codes))):
                assert ab.child_key_of(pos._c, key, code) == ab.key_of(pos._c.play(code))


# -- limits and results ---------------------------------------------------------

MIDGAME = noisy_greedy_game(3)[12]


def test_time_limit_is_honoured():
    start = time.perf_counter()
    result = patchsolve.search(MIDGAME, engine="alphabeta", time=0.25)
    assert time.perf_counter() - start < 0.25 + 0.15
    assert MIDGAME.is_legal(result.best_move)


def test_time_limit_is_honoured_near_the_end_too():
    for seed in range(3):
        pos = noisy_greedy_game(seed)[-12]
        start = time.perf_counter()
        result = patchsolve.search(pos, engine="alphabeta", time=0.2)
        assert time.perf_counter() - start < 0.2 + 0.15
        assert pos.is_legal(result.best_move)


def test_node_limit_is_honoured():
    result = patchsolve.search(MIDGAME, engine="alphabeta", nodes=20000)
    assert result.nodes <= 20000 + 4096
    assert MIDGAME.is_legal(result.best_move)


def test_depth_limit_and_result_fields():
    result = patchsolve.search(MIDGAME, engine="alphabeta", depth=2)
    assert result.depth == 2 and result.bound == "estimate"
    assert MIDGAME.is_legal(result.best_move) and result.pv[0] == result.best_move
    assert result.nodes > 0 and result.time >= 0 and result.nps >= 0
    assert isinstance(result.score, int)


def test_search_near_the_end_returns_the_proven_value():
    for pos in SMALL[:5]:
        result = patchsolve.search(pos, engine="alphabeta", time=1.0)
        assert result.bound == "exact" and result.score == solve(pos).score
        assert pos.is_legal(result.best_move)


def test_evaluate_estimates_the_margin_for_the_player_to_move():
    from patchsolve.search.alphabeta import evaluate

    assert evaluate(MIDGAME) == _eval.evaluate_state(MIDGAME._c, MIDGAME.to_move)
    assert -200 < evaluate(MIDGAME) < 200


def test_deeper_pv_is_a_legal_sequence():
    result = patchsolve.search(MIDGAME, engine="alphabeta", depth=3)
    assert len(result.pv) >= 3
    pos = MIDGAME
    for move in result.pv:
        pos = pos.play(move)


def test_a_finished_game_has_no_move_and_an_exact_score():
    end = noisy_greedy_game(1)[-1]
    for result in (solve(end), patchsolve.search(end, engine="alphabeta", depth=2)):
        assert result.best_move is None and result.bound == "exact"
        assert result.score == margin(end, end.to_move)


@pytest.mark.parametrize("limits", [
    {"depth": 0}, {"depth": -1}, {"depth": "3"}, {"depth": 2.0}, {"depth": True}, {"depth": 10**6},
    {"time": 0}, {"time": -1}, {"time": float("nan")}, {"time": float("inf")}, {"time": "1"},
    {"nodes": 0}, {"nodes": 1.5}, {"hash_mb": 0}, {"hash_mb": 10**9}, {"placements": -1},
    {"tt": "yes"}, {"iterations": 10}, {"bogus": 1},
])
def test_bad_limits_raise_a_patchsolve_error(limits):
    with pytest.raises(InvalidLimitError):
        patchsolve.search(MIDGAME, engine="alphabeta", **limits)
    with pytest.raises(PatchsolveError):
        patchsolve.search(MIDGAME, engine="alphabeta", **limits)


@pytest.mark.parametrize("limits", [{"time": 0}, {"nodes": -5}, {"depth": 3}, {"hash_mb": "x"}])
def test_bad_solve_limits_raise_a_patchsolve_error(limits):
    with pytest.raises(PatchsolveError):
        patchsolve.solve(MIDGAME, **limits)


def test_a_non_position_raises_a_patchsolve_error():
    with pytest.raises(PatchsolveError):
        patchsolve.search("not a position", engine="alphabeta", depth=1)


# -- the exact solver's bounds are exact ---------------------------------------------

def test_an_interrupted_iteration_answers_with_the_best_root_move_it_finished():
    """The node limit stops iteration d; the root moves that finished in it
    were searched d plies (without a table, pruning or reductions their
    values are exactly minimax), and the best of them is the answer."""
    replaced = partial_answers = 0
    for pos in endgames(10, 300000, min_tree=20000, first_seed=50):
        for budget in (1, 2049, 5121, 10241):
            searcher = ab.Searcher(16, tt=False, placements=0, prune_depth=100, lmr=0)
            done = searcher.run(pos._c, 99, budget, 0.0)
            if searcher.partial is None:
                continue
            partial_answers += 1
            depth, value, pv = searcher.partial[:3]
            assert depth == (done[-1][0] + 1 if done else 1)
            child = pos.play(Move.from_code(pv[0]))
            if child.is_over:
                exact = margin(child, pos.to_move)
            else:
                exact = ab.minimax(child._c, depth - 1)[0]
                exact = exact if child.to_move == pos.to_move else -exact
            assert value == exact, (pos.to_text(), budget)
            result = patchsolve.search(pos, engine="alphabeta", nodes=budget, placements=0, tt=False, lmr=0,
                                       endgame_solve=False)
            assert (result.best_move.code, result.score) == (pv[0], value)
            assert result.depth == (done[-1][0] if done else 0)
            replaced += not done or done[-1][2][0] != pv[0]
    assert partial_answers >= 20 and replaced >= 1


def test_full_width_search_is_plain_minimax():
    """Without pruning, reductions or a table, the PVS windows change no value."""
    for pos in SMALL[:10]:
        for depth in (2, 3):
            searcher = ab.Searcher(16, tt=False, placements=0, prune_depth=100, lmr=0)
            assert searcher.run(pos._c, depth, 0, 30.0)[-1][1] == ab.minimax(pos._c, depth)[0]


def test_solve_set_values_are_reproduced():
    import json
    from pathlib import Path

    from patchsolve._core import CoreState

    entries = json.loads((Path(__file__).resolve().parent / "data" / "solve_set.json").read_text())
    checked = 0
    for e in entries:
        if e["value"] is None or e["plies_left"] > 6:
            continue
        f = dict(e["fields"], circle=tuple(e["fields"]["circle"]), quilts=tuple(e["fields"]["quilts"]))
        for k in ("buttons", "income", "time", "leather"):
            f[k] = tuple(f[k])
        assert solve(Position(CoreState.from_fields(f)), time=10).score == e["value"]
        checked += 1
    assert checked >= 8
