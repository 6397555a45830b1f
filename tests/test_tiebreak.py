"""A margin of 0 is not a draw (RULES: on equal scores the player who reached
53 first wins): the solver orders values by the margin and then by who
wins, everywhere, and the engines' choice among proven moves wins whenever
a winning move exists. Specifications against brute force (the margin
minimax and the win/loss minimax, in Python; the reference rules' on the
smallest trees).

Endgames whose exact margin is 0 come from seeded noisy greedy games of
both editions (``test_alphabeta``'s), cut where the tree is small, with
both players' buttons raised until every patch is affordable and then the
mover's set so that the exact margin is 0 (``zeroed``: the tree is the
same, only the scores move). ``TIES`` are those where moves of margin 0
both win and lose; most are not (``ZERO``).
"""

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import patchsolve
import reference as ref
from patchsolve import Position, _core, solve
from patchsolve.search import _alphabeta as ab
from patchsolve.search import budget, endgame, handover, questions, solver
from patchsolve.search import proof as proofs
from patchsolve.search.limits import Limits
from patchsolve.search.result import rank_key
from test_alphabeta import margin, noisy_greedy_game, plain_minimax, to_ref
from test_solver import plain_wdl

MAX_TREE = 6000  # nodes of a full tree the Python brute force values in well under a second


def with_buttons(pos, buttons):
    """``pos`` with these buttons (straight to the core, as tests/builders.py:
    a raised count may exceed what the time board could have paid)."""
    return Position(_core.CoreState.from_fields({**pos.fields(), "buttons": tuple(buttons)}))


def zeroed(pos, extra=20):
    """``pos`` with ``extra`` more buttons each (every patch affordable, so
    the tree no longer depends on them) and the mover's then set so that the
    exact margin is 0; None when the tree is too big or moves with them."""
    b = [n + extra for n in pos.fields()["buttons"]]
    rich = with_buttons(pos, b)
    n = ab.tree_size(rich._c, MAX_TREE)
    if n < 0:
        return None
    b[rich.to_move] -= plain_minimax(rich)
    out = with_buttons(pos, b)
    if ab.tree_size(out._c, MAX_TREE) != n or plain_minimax(out) != 0:
        return None
    return out


def earliest_zeroed(seed):
    """The earliest position of game ``seed`` that ``zeroed`` makes (the
    largest tree within MAX_TREE), or None."""
    found = None
    for pos in reversed(noisy_greedy_game(seed)[:-1]):
        z = zeroed(pos)
        if z is None:
            break
        found = z
    return found


def tail_zeroed(seed, min_tree=40):
    """Every position of game ``seed``'s tail that ``zeroed`` makes, with
    nobody on 53 yet (the tie-break still open) and a tree of at least
    ``min_tree`` nodes."""
    out = []
    for pos in reversed(noisy_greedy_game(seed)[:-1]):
        z = zeroed(pos)
        if z is None:
            break
        if pos.fields()["first_at_end"] is None and ab.tree_size(z._c, MAX_TREE) >= min_tree:
            out.append(z)
    return out


def outcome(pos, move):
    """Brute force: (margin, won) of ``move`` for ``pos``'s player to move."""
    child = pos.play(move)
    if child.is_over:
        return margin(child, pos.to_move), child.winner() == pos.to_move
    v, w = plain_minimax(child), plain_wdl(child)
    return (v, w) if child.to_move == pos.to_move else (-v, not w)


def moves_of(pos):
    """Brute force: move -> (margin, won), for every legal move."""
    return {m: outcome(pos, m) for m in pos.legal_moves()}


def wins(pos, move):
    return outcome(pos, move)[1]


ZERO = [p for p in (earliest_zeroed(seed) for seed in range(16)) if p is not None]
# games whose tail holds a position where moves of margin 0 both win and lose
# (found by scanning seeds 0-149 with tail_zeroed: 6 of 422 positions)
TIES = [
    next(p for p in tail_zeroed(seed) if {w for v, w in moves_of(p).values() if v == 0} == {True, False})
    for seed in (12, 55, 78, 94, 141)
]

# issue 52: exact margin 0, won by 13:2@d1; 13:6@d2 keeps the margin and loses
P38 = (
    "original 8,19,13,22,6,25,1,10,16,26,29,24 1cfffff3f9fcfa7c381e0/13ffffffffff7f9040201 15/15 12/6 46/42"
    " - 50 - - -"
)


def test_the_sets_are_what_they_say():
    assert {p.fields()["edition"] for p in ZERO} == {"original", "revised"}
    assert {p.fields()["edition"] for p in TIES} == {"original", "revised"}
    assert len(ZERO) >= 12
    for pos in ZERO + TIES:
        assert plain_minimax(pos) == 0


def test_the_sets_hold_won_and_lost_zeros():
    assert {plain_wdl(p) for p in ZERO} == {True, False}


# -- the exact value: margin and outcome ----------------------------------------------


@pytest.mark.parametrize(
    "kwargs", [{}, {"sign_first": False}, {"workers": 1, "nodes": 10**7}, {"hash_mb": 1}]
)
def test_an_exact_zero_says_who_wins_and_plays_a_move_that_wins_when_one_does(kwargs):
    for pos in ZERO + TIES:
        r = solve(pos, **kwargs)
        won = plain_wdl(pos)
        assert (r.score, r.bound, r.lower, r.upper) == (0, "exact", 0, 0)
        assert r.proven == ("win" if won else "loss") and r.proven_best
        assert wins(pos, r.best_move) == won
        # the line keeps the value: it ends at a margin of 0, won as proven
        end = pos
        for m in r.pv:
            end = end.play(m)
        assert end.is_over and margin(end, pos.to_move) == 0
        assert (end.winner() == pos.to_move) == won


def test_the_reference_rules_agree_on_the_smallest_trees():
    def lexi(s):
        """Brute force over the reference rules: the best (margin, won)."""
        p = ref.to_move(s)
        best = (-math.inf, False)
        for move in ref.legal_moves(s):
            child = ref.play(s, move)
            if ref.is_over(child):
                a, b = ref.scores(child)
                v = ((a - b) if p == 0 else (b - a), ref.winner(child) == p)
            else:
                v = lexi(child)
                if ref.to_move(child) != p:
                    v = (-v[0], not v[1])
            best = max(best, v)
        return best

    small = [p for seed in range(8) for p in tail_zeroed(seed, 10) if ab.tree_size(p._c, 300) > 0]
    assert len(small) >= 6 and {p.fields()["edition"] for p in small} == {"original", "revised"}
    for pos in small:
        r = solve(pos)
        assert lexi(to_ref(pos)) == (r.score, r.proven == "win")


def test_every_row_says_who_wins_and_rows_rank_by_margin_then_outcome():
    for pos in ZERO + TIES:
        truth = moves_of(pos)
        r = solve(pos, all_moves=True)
        assert r.proven == ("win" if plain_wdl(pos) else "loss")
        rows = r.root_moves
        assert {d["move"] for d in rows} == set(truth)
        for d in rows:
            v, won = truth[d["move"]]
            assert d["lower"] <= v <= d["upper"]
            if d["bound"] == "exact":
                assert d["score"] == v and d["proven"] == ("win" if won else "loss")
            if d["proven"] is not None:
                assert d["proven"] == ("win" if won else "loss")
        keys = [rank_key(d) for d in rows]
        assert keys == sorted(keys)
        assert rows[0]["move"] == r.best_move and rows[0]["bound"] == "exact"
        assert truth[rows[0]["move"]] == (0, plain_wdl(pos))
        # among exact rows, a won 0 above a lost 0
        exact = [(d["score"], d["proven"] == "win") for d in rows if d["bound"] == "exact"]
        assert exact == sorted(exact, reverse=True)


def test_a_won_zero_ranks_above_a_lost_zero():
    pos = TIES[0]
    won = next(m for m, (v, w) in moves_of(pos).items() if v == 0 and w)
    lost = next(m for m, (v, w) in moves_of(pos).items() if v == 0 and not w)
    raw = [  # solver units: 2 m + 1 won, 2 m - 1 lost
        {"move": lost, "lo": -1, "hi": -1, "group": 0},
        {"move": won, "lo": 1, "hi": 1, "group": 1},
    ]
    rows = questions._root_rows(raw, False)
    assert [(d["move"], d["score"], d["proven"]) for d in rows] == [(won, 0, "win"), (lost, 0, "loss")]
    assert proofs.settled(rows)


def test_the_weaker_questions_order_by_the_tie_break_too():
    for pos in ZERO + TIES:
        won = plain_wdl(pos)
        best = solve(pos, best=True)
        assert best.proven_best and wins(pos, best.best_move) == won
        assert best.proven == ("win" if won else "loss")
        # at_least stays a question about the margin: 0 holds, 1 does not
        assert solve(pos, at_least=0).at_least is True
        assert solve(pos, at_least=1).at_least is False
        assert solve(pos, wdl=True).proven == ("win" if won else "loss")


def test_units_convert_to_margins_exactly():
    for m in range(-12, 13):
        for won in (True,) if m > 0 else (False,) if m < 0 else (True, False):
            v = 2 * m + (1 if won else -1)
            assert solver._margin_bounds(v, v) == (m, m)
            for k in range(-12, 13):
                assert (v >= solver._units_at_least(k)) == (m >= k)
                assert (v <= solver._units_at_most(k)) == (m <= k)
    assert solver._outcome_of(1, 1) == "win" and solver._outcome_of(-1, -1) == "loss"
    assert solver._outcome_of(-1, 1) is None and solver._margin_bounds(-1, 1) == (0, 0)


# -- the engines' choice --------------------------------------------------------------


@pytest.mark.parametrize(
    "limits",
    [
        {"nodes": 20_000},
        {"nodes": 300_000},
        {"time": 0.5},
        {"time": 0.5, "workers": 1},
        {"time": 2.0},
    ],
)
def test_search_plays_a_winning_move_whenever_one_exists(limits):
    for pos in ZERO + TIES:
        r = patchsolve.search(pos, **limits)
        assert wins(pos, r.best_move) == plain_wdl(pos), (pos.to_text(), r.best_move)
        if r.proven is not None:
            assert r.proven == ("win" if plain_wdl(pos) else "loss")


def test_the_choice_tests_play_a_winning_move_whenever_one_exists():
    """Whatever move of margin 0 the engine offers, ``best_choice`` and the
    hand-over's ``choice_or_value`` answer with a move that wins when one
    does, and keep the engine's move only if it wins then."""
    checked = 0
    for pos in TIES:
        won = plain_wdl(pos)
        for engine, (v, engine_wins) in moves_of(pos).items():
            if v != 0:
                continue
            out, _ = questions.best_choice(pos, Limits(nodes=1_000_000), engine, -2)
            _, proof, _, _ = questions.choice_or_value(pos, Limits(nodes=1_000_000), engine, 0)
            for p in (out, proof):
                if p is None:  # one choice only, or the value closed first
                    continue
                checked += 1
                assert wins(pos, p.move) == won and p.proven == ("win" if won else None)
                assert p.same == (p.move == engine) and (engine_wins or not won or not p.same)
    assert checked > 0


def test_p38_the_choice_tests_give_up_the_engines_placement_that_loses_the_tie_break():
    """P38: the engine's 13:6@d2 is a placement of the best patch that keeps
    the margin, 0, and loses on the tie-break where 13:2@d1 wins: proven
    best, the choice is played by a placement that wins."""
    pos = Position.from_text(P38)
    engine = next(m for m in pos.legal_moves() if str(m) == "13:6@d2")
    out, _ = questions.best_choice(pos, Limits(nodes=3_000_000, workers=1), engine, -2)
    assert out is not None and out.move.patch == 13 and not out.same
    assert out.proven == "win" and _wins_exactly(pos, out.move)
    winner = next(m for m in pos.legal_moves() if str(m) == "13:2@d1")
    kept, _ = questions.best_choice(pos, Limits(nodes=3_000_000, workers=1), winner, -2)
    assert kept == (winner, 0, True, "win")


def test_the_hand_over_plays_a_winning_move_when_the_engines_loses_the_tie_break():
    from patchsolve.search.result import SearchResult

    checked = 0
    for pos in TIES:
        truth = moves_of(pos)
        lost = [m for m, (v, w) in truth.items() if v == 0 and not w]
        for engine in lost[:2]:
            result = SearchResult(engine, 0, "estimate", [engine], depth=5, nodes=1000)
            out = handover.hand_over(pos, result, Limits(nodes=2_000_000), 0.0)
            assert wins(pos, out.best_move), (pos.to_text(), engine, out.best_move)
            checked += 1
    assert checked > 0


def test_p38_the_engine_and_the_solver_play_the_tie_break_win():
    pos = Position.from_text(P38)
    r = patchsolve.search(pos, nodes=300_000)
    assert (r.score, r.bound, r.proven) == (0, "exact", "win")
    loser = next(m for m in pos.legal_moves() if str(m) == "13:6@d2")
    assert r.best_move != loser and _wins_exactly(pos, r.best_move)
    assert not _wins_exactly(pos, loser)
    rows = solve(pos, all_moves=True).root_moves
    assert rows[0]["proven"] == "win" and _wins_exactly(pos, rows[0]["move"])
    assert next(d for d in rows if d["move"] == loser)["proven"] == "loss"
    assert solve(pos, all_moves=True).proven == "win"


def _wins_exactly(pos, move):
    """The solver's win/loss value of ``move`` (P38's tree is beyond brute force)."""
    child = pos.play(move)
    if child.is_over:
        return child.winner() == pos.to_move
    w = solve(child, wdl=True, nodes=10**7, workers=1).proven
    return w == ("win" if child.to_move == pos.to_move else "loss")


# issue 52: at --nodes 300000 the engine played 22:1@h3 (+8, its estimate);
# the exact value is +5 with 22:3@g1, and after 22:1@h3 it is -5
P22 = (
    "original 22,18,25,12,2,14,27,0,24,31,29,16,9 1ffffdfcfe7f0f8fc2c3e/1feff7d3e1f0f860301c0 20/26 7/16 41/42"
    " - 44,50 - - -"
)


def test_a_node_budget_gets_the_proof_a_time_budget_gets_and_repeats():
    pos = Position.from_text(P22)
    truth = solve(pos, workers=1, nodes=10**7)
    assert (truth.score, truth.bound) == (5, "exact")
    r = patchsolve.search(pos, nodes=300_000)
    assert (r.score, r.bound, r.proven_best) == (5, "exact", True)
    child = pos.play(r.best_move)
    v = solve(child, workers=1, nodes=10**7).score
    assert (v if child.to_move == pos.to_move else -v) == 5
    again = patchsolve.search(pos, nodes=300_000)
    assert (again.best_move, again.score, again.nodes, again.pv) == (r.best_move, r.score, r.nodes, r.pv)


def test_under_a_node_budget_alone_the_solvers_nodes_are_its_own():
    pos = Position.from_text(P22)
    calls = []
    seen = questions.ask

    def spy(position, limits, options, table=None):
        calls.append(limits)
        return seen(position, limits, options, table)

    old = questions.ask
    questions.ask = spy
    try:
        _, left, _ = endgame.endgame_shortcut(pos, Limits(nodes=100_000), "alphabeta")
        assert calls[0].nodes == int(100_000 * budget.SOLVER_NODES_SHARE)
        assert left.nodes == 100_000  # the engine's whole budget
        calls.clear()
        _, left, _ = endgame.endgame_shortcut(pos, Limits(nodes=100_000, time=60), "alphabeta")
        assert calls[0].nodes == int(100_000 * budget.ENDGAME_SHARE) and left.nodes < 100_000
    finally:
        questions.ask = old


# -- a property -----------------------------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(0, 12), st.booleans())
def test_the_exact_value_is_the_margin_and_the_outcome_of_brute_force(seed, back, zero):
    """Random small endgames (a game's position ``back`` plies before the
    smallest tree's cut, or that position zeroed): the solver's margin is the
    margin minimax, its outcome the win/loss minimax."""
    game = noisy_greedy_game(seed)
    tail = [p for p in game[:-1] if 0 < ab.tree_size(p._c, 2000)]
    if not tail:
        return
    pos = tail[min(back, len(tail) - 1)]
    if zero:
        pos = zeroed(pos) or pos
    r = solve(pos, workers=1, nodes=10**7)
    assert r.bound == "exact" and r.score == plain_minimax(pos)
    assert r.proven == ("win" if plain_wdl(pos) else "loss")


def test_a_margin_proven_exact_with_its_winner_open_is_not_a_proven_win():
    """The budget ran out between a won and a lost 0 (solver units -1 and
    +1): the margin is exact, who wins is not said, and no move is proven."""
    pos = TIES[0]
    run = solver._new_run(Limits(nodes=1000, workers=1), solver.check_options({}))
    r = solver._result(run, pos, -1, 1, None)
    assert (r.score, r.bound, r.lower, r.upper) == (0, "exact", 0, 0)
    assert r.proven is None and not r.proven_best


def test_a_proven_win_without_a_move_finds_one_before_it_plays_an_untested_move():
    """The shortcut proved the win but named no move (the value open): the
    engine's losing move is tested, and a move a win/loss solve proves to
    win is played instead; the engine's winning move is kept."""
    from patchsolve.search.result import SearchResult

    won_positions = [pos for pos in TIES if plain_wdl(pos)]
    assert won_positions
    for pos in won_positions:
        truth = moves_of(pos)
        lost = next(m for m, (v, w) in truth.items() if not w)
        won = next(m for m, (v, w) in truth.items() if w)
        for engine in (lost, won):
            proof = proofs.Proof("win", 0, 9, reserve={"nodes": 200_000})
            r = proofs.keep_the_win(pos, SearchResult(engine, 0, "estimate", [engine]), proof)
            assert wins(pos, r.best_move) and r.proven == "win"
            assert (r.best_move == engine) == (engine == won)
