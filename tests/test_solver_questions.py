"""The solver's weaker questions, as specifications against brute force:
``at_least=K`` ("is the margin at least K?") for every K around the value,
``best=True`` (a move proven best without the exact value) never names a
move that is not optimal, ``best_choice`` (walk or which patch, proven
without valuing placements) never names a choice that is not the best,
every interval contains the exact value, and the answers do not change
under the same node limit.

The endgames are ``test_solver``'s: noisy greedy games of both editions, cut
where a plain minimax in Python can value the whole tree, with leather
patches and open 7x7 bonuses among them.
"""

import random

import pytest

from patchsolve import solve
from patchsolve.errors import PatchsolveError
from patchsolve.search import questions
from patchsolve.search.limits import Limits
from patchsolve.search.questions import (
    _choice_run,
    _ChoiceSearch,
    best_choice,
    choice_of,
    choice_or_value,
)
from patchsolve.search.solver import (
    UNIT,
    WINS,
    _units_at_least,
    _units_at_most,
    c_solver,
)
from test_alphabeta import SMALL, endgame, margin, noisy_greedy_game, plain_minimax
from test_solver import ALL, BONUS, LEATHER, plain_units


def child_value(pos, move):
    """Brute-force value of ``move`` for ``pos``'s player to move."""
    child = pos.play(move)
    if child.is_over:
        return margin(child, pos.to_move)
    v = plain_minimax(child)
    return v if child.to_move == pos.to_move else -v


def child_units(pos, move):
    """Brute-force value of ``move`` for ``pos``'s player to move in the
    solver's units: 2 m + 1 won, 2 m - 1 lost (``test_solver.plain_units``)."""
    child = pos.play(move)
    if child.is_over:
        return 2 * margin(child, pos.to_move) + (1 if child.winner() == pos.to_move else -1)
    v = plain_units(child)
    return v if child.to_move == pos.to_move else -v


def points(units):
    """The margin of a value in solver units."""
    return (units - 1) // 2 if units > 0 else (units + 1) // 2


def test_the_sets_hold_both_editions():
    assert {p.fields()["edition"] for p in ALL} == {"original", "revised"}


# -- at least K ------------------------------------------------------------------------


@pytest.mark.parametrize("delta", [-3, -1, 0, 1, 2])
def test_at_least_answers_every_threshold_around_the_value(delta):
    for pos in ALL:
        v = plain_minimax(pos)
        k = v + delta
        r = solve(pos, at_least=k)
        assert r.threshold == k
        assert r.at_least is (v >= k)
        assert r.lower <= v <= r.upper
        assert (r.lower >= k) if r.at_least else (r.upper < k)
        if r.at_least:  # the move it names keeps the margin
            assert child_value(pos, r.best_move) >= k


@pytest.mark.parametrize("nodes", [1, 30, 300])
def test_at_least_under_a_node_limit_is_right_or_open(nodes):
    for pos in ALL[::2]:
        v = plain_minimax(pos)
        for k in (v - 1, v, v + 1):
            r = solve(pos, at_least=k, nodes=nodes)
            assert r.at_least in (None, v >= k)
            assert r.lower <= v <= r.upper


# -- best move ------------------------------------------------------------------------


@pytest.mark.parametrize("name,positions", [("small", SMALL), ("leather", LEATHER), ("7x7", BONUS)])
def test_a_move_proven_best_is_optimal(name, positions):
    for pos in positions:
        v = plain_minimax(pos)
        r = solve(pos, best=True)
        assert r.proven_best, f"{name}: not proven within the default budget"
        assert child_value(pos, r.best_move) == v
        assert r.lower <= v <= r.upper
        if r.bound == "exact":
            assert r.score == v


@pytest.mark.parametrize("nodes", [1, 30, 300, 3000])
def test_best_under_a_node_limit_never_names_a_worse_move(nodes):
    proved = 0
    for pos in ALL:
        v = plain_minimax(pos)
        r = solve(pos, best=True, nodes=nodes)
        assert r.lower <= v <= r.upper
        assert pos.is_legal(r.best_move)
        if r.proven_best:
            proved += 1
            assert child_value(pos, r.best_move) == v
    if nodes >= 3000:
        assert proved > 0


def test_a_strictly_best_move_is_proven_without_the_exact_value():
    """Where one move is better than every other, the proof may leave the
    value open; the interval then still says how far it is known."""
    open_values = 0
    for pos in ALL:
        values = sorted((child_value(pos, m) for m in pos.legal_moves()), reverse=True)
        if len(values) > 1 and values[0] > values[1]:
            r = solve(pos, best=True)
            assert r.proven_best
            open_values += r.lower < r.upper
            assert r.lower <= values[0] <= r.upper
            # the bound shown is one side of the proven interval
            assert r.score in (r.lower, r.upper)
    assert open_values > 0


# -- the best choice (walk, which patch, the leather patch) ---------------------------


def _choice_values(pos, value=child_value):
    """Brute force: the best value of each choice's moves (in points, or
    in the solver's units with ``value=child_units``)."""
    best: dict = {}
    for m in pos.legal_moves():
        g = choice_of(m)
        best[g] = max(best.get(g, -1000), value(pos, m))
    return best


@pytest.mark.parametrize("offset", [-6, 0, 5])
def test_a_choice_proven_best_is_the_best_choice_and_its_move_beats_every_other_choice(offset):
    """Whatever the first threshold, a proof names a choice no other beats
    (by margin and then by who wins), and a move proven worth at least
    ``lower``, which no move of another choice exceeds; the engine's move
    is kept when its choice is best and it wins where a move of its choice
    wins; the move named wins whenever a move wins."""
    proved = changed = 0
    for pos in ALL:
        values = _choice_values(pos, child_units)
        if len(values) < 2:
            assert best_choice(pos, Limits(nodes=100_000), pos.legal_moves()[0], 0) == (None, 0)
            continue
        v = max(values.values())
        for engine in (pos.legal_moves()[0], pos.legal_moves()[-1]):
            out, nodes = best_choice(pos, Limits(nodes=1_000_000), engine, points(v) + offset)
            assert out is not None and nodes > 0
            move, lower, same, proven = out
            proved += 1
            assert values[choice_of(move)] == v  # the best choice
            assert same == (move == engine)
            if values[choice_of(engine)] < v:
                assert not same
            assert all(points(w) <= lower for g, w in values.items() if g != choice_of(move))
            assert lower <= points(v)
            assert (proven == "win") == (v >= WINS)  # a move of the best choice wins: proven so ...
            if v >= WINS:
                assert child_units(pos, move) >= WINS  # ... and the move named wins
            if not same:
                changed += 1
                assert child_value(pos, move) >= lower >= child_value(pos, engine)
    assert proved > 0 and changed > 0


def test_the_best_choice_under_a_node_limit_is_right_or_open_and_repeats():
    for pos in ALL[::3]:
        values = _choice_values(pos)
        if len(values) < 2:
            continue
        engine = pos.legal_moves()[-1]
        for nodes in (1, 50, 500):
            out, n = best_choice(pos, Limits(nodes=nodes), engine, 0)
            assert best_choice(pos, Limits(nodes=nodes), engine, 0) == (out, n)
            if out is not None:
                assert values[choice_of(out[0])] == max(values.values())


def test_what_the_choice_tests_leave_standing_is_what_they_proved():
    """Cut short, the choice tests leave standing only what they proved: a
    move worth at least its lower bound, which the engine's move does not
    exceed; or a choice where every other, the engine's among them, is
    worth less than the test value. (Two endgames of a few hundred
    thousand nodes, where small budgets cut the tests short; the engine's
    score a little or much above its move's value.)"""
    kinds = {"move": 0, "choice": 0}
    for seed in (26, 29):
        pos = endgame(seed, 10**7, 10**5)
        values: dict = {}
        for engine in (pos.legal_moves()[0], pos.legal_moves()[-1]):
            v = child_value(pos, engine)
            for above, nodes in ((1, 300), (6, 300), (6, 3000)):
                _, proof, standing, _ = choice_or_value(pos, Limits(nodes=nodes), engine, v + above)
                if standing is None:
                    continue
                assert proof is None
                what, lower, below, at_most, proven = standing
                assert v <= at_most  # what the engine's move (or its choice) is proven worth at most
                if lower is not None:
                    kinds["move"] += 1
                    assert choice_of(what) != choice_of(engine)
                    assert child_value(pos, what) >= lower >= at_most
                    assert proven is None or child_units(pos, what) >= WINS
                else:
                    kinds["choice"] += 1
                    assert what != choice_of(engine) and proven is None
                    values = values or _choice_values(pos, child_units)
                    # below the test value: in points at most ``below`` (a lost 0 is below a won one)
                    assert all(w < _units_at_most(below) for g, w in values.items() if g != what)
    assert kinds["move"] > 0 and kinds["choice"] > 0, kinds


def test_what_the_engines_move_alone_is_proven_worth_is_true():
    """The hand-over's test of the engine's move alone (``test_move``)
    bounds that move's value, never past brute force's: a refuted move is
    worth at most its bound, a move that passed at least its lower bound
    (the engine's worst move and its best, in budgets that double as the
    hand-over's; both outcomes seen)."""
    outcomes = {"refuted": 0, "passed": 0}
    for pos in ALL[::3]:
        for engine in (pos.legal_moves()[0], pos.legal_moves()[-1]):
            v = child_units(pos, engine)  # the solver's units
            run = _choice_run(Limits(nodes=20_000))
            search = _ChoiceSearch(run, pos, engine, v + 2 * UNIT, test_move=True)
            share = 1 / 64
            while search.open and not run.exhausted():
                run.limit_slice(share)
                search.go()
                share *= 2
            if search.move_upper < v + 2 * UNIT:
                outcomes["refuted"] += 1
                assert v <= search.move_upper
            assert search.move_lower <= v
            lower = search.lower.get(choice_of(engine))
            if lower is not None and lower[1] == engine.code:
                outcomes["passed"] += 1
                assert lower[0] <= v
    assert outcomes["refuted"] > 0 and outcomes["passed"] > 0, outcomes


def test_once_a_choice_is_proven_worth_l_it_is_raised_to_l_plus_2_before_the_others_are_refuted():
    """A test at a choice's value, or one value above, has no slack: the
    best's bound is often at the value of the choice below it, so the
    first test after it is proven is the best at two values more, then
    the others at one value more than its bound; a choice already proven
    below that threshold is not tested again. (Solver units: the values
    are odd, 2 m -+ 1, and a test at an even t is the test at t + 1.)"""
    pos = next(p for p in ALL if len(_choice_values(p)) >= 3)
    engine = next(m for m in pos.legal_moves() if m.kind == "walk")  # its choice is its move: no tie tests
    search = _ChoiceSearch(_choice_run(Limits(nodes=1_000)), pos, engine, 1)
    first = search._tests()
    assert first[0] == (choice_of(engine), 1) and {t for _, t in first} == {1}
    best, below = first[-1][0], first[-2][0]
    rest = [g for g, _ in first if g not in (best, below)]
    search.lower[best] = (9, None)  # a margin of 4, won
    search.upper[below] = 7
    assert search._tests() == [(best, 12)] + [(g, 10) for g in rest]  # at least 13 (6), 11 (5)
    search.upper[best] = 11  # proven no better than 11: no room to raise
    assert search._tests() == [(g, 10) for g in rest]
    for g in rest:
        search.upper[g] = 9
    assert search._tests() is None and search.proof is not None and not search.open


def test_every_test_the_choice_search_needs_gets_its_turn():
    """A test queued for one threshold may be needed again after the
    threshold moves (the old best's raise becomes its refutation): it keeps
    its place, and the new tests queue behind it instead of waiting for it
    to end."""
    pos = next(p for p in ALL if len(_choice_values(p)) >= 3)
    search = _ChoiceSearch(_choice_run(Limits(nodes=1_000)), pos, pos.legal_moves()[0], 0)
    a, b, c = list(search.codes)[:3]
    search.queue = [(b, 5), (a, 6)]
    search._schedule([(a, 6), (b, 6), (c, 7)])
    assert search.queue == [(a, 6), (b, 6), (c, 7)]
    search.queue = search.queue[1:] + search.queue[:1]  # (a, 6) cut short
    search._schedule([(a, 6), (b, 6), (c, 7)])
    assert search.queue == [(b, 6), (c, 7), (a, 6)]


def test_choice_or_value_starts_the_value_at_the_engines_score_and_the_choices_two_under(monkeypatch):
    """The engine's score (a pruned tree searched to its end) is the value
    driver's first test, and the choice tests start CHOICE_BELOW under it."""
    from patchsolve.search import solver

    seen: dict = {"narrow": [], "choice": []}
    narrow, init = solver._Run.narrow, _ChoiceSearch.__init__

    def spy_narrow(self, p, lo=None, hi=None, guess=None):
        seen["narrow"].append(guess)
        return narrow(self, p, lo, hi, guess)

    def spy_init(self, run, p, move, guess, **kwargs):
        seen["choice"].append(guess)
        init(self, run, p, move, guess, **kwargs)

    monkeypatch.setattr(solver._Run, "narrow", spy_narrow)
    monkeypatch.setattr(_ChoiceSearch, "__init__", spy_init)
    for pos in ALL:
        r, _, _, _ = questions.choice_or_value(pos, Limits(nodes=200_000), pos.legal_moves()[0], 7)
        assert seen["choice"][-1] == _units_at_least(7 - questions.CHOICE_BELOW) == 11  # solver units
        assert r is None or r.score == max(_choice_values(pos).values())
    assert seen["narrow"] and set(seen["narrow"]) == {_units_at_least(7)} == {15}


# -- the root with moves left out (the C test behind both) -----------------------------


def test_leaving_root_moves_out_values_the_others():
    rng = random.Random(7)
    for pos in ALL[::2]:
        moves = pos.legal_moves()
        if len(moves) < 3:
            continue
        out = rng.sample(moves, len(moves) // 2)
        want = max(child_units(pos, m) for m in moves if m not in out)
        s = c_solver(16)
        s.set_limits(0, 0.0)
        lo, hi = s.solve(pos._c, -1000, 1000, 0, 0, [m.code for m in out])
        assert lo == hi == want
        # the root's own table entry is not touched by a partial search
        assert s.tt_bounds(pos._c) is None
        assert s.solve(pos._c, -1000, 1000, 0, 0) == (plain_units(pos),) * 2


def test_a_skip_code_out_of_range_is_refused():
    s = c_solver(1)
    with pytest.raises(ValueError):
        s.solve(SMALL[0]._c, -1000, 1000, 0, 0, [1 << 16])


# -- determinism and arguments --------------------------------------------------------


def test_answers_are_deterministic_under_node_limits():
    mid = noisy_greedy_game(5)[-14]
    for kwargs in ({"nodes": 20000, "best": True}, {"nodes": 20000, "at_least": 3}):
        a, b = solve(mid, **kwargs), solve(mid, **kwargs)
        assert a.to_dict() | {"time": 0, "nps": 0} == b.to_dict() | {"time": 0, "nps": 0}


@pytest.mark.parametrize(
    "kwargs",
    [
        {"at_least": "3"},
        {"at_least": True},
        {"at_least": 2.5},
        {"at_least": 10**6},
        {"best": 1},
        {"best": True, "wdl": True},
        {"at_least": 0, "all_moves": True},
    ],
)
def test_bad_questions_raise_a_patchsolve_error(kwargs):
    with pytest.raises(PatchsolveError):
        solve(SMALL[0], **kwargs)


# -- the engines use the weaker answers (search/endgame.py, proof.py) -------------------


def _win_and_loss_moves(positions):
    """(position, a winning move, a move that loses) for positions won for
    the player to move, by brute force with the tie rule."""
    from test_solver import plain_wdl

    out = []
    for pos in positions:
        wins, losses = [], []
        for m in pos.legal_moves():
            child = pos.play(m)
            won = (
                child.winner() == pos.to_move
                if child.is_over
                else plain_wdl(child) == (child.to_move == pos.to_move)
            )
            (wins if won else losses).append(m)
        if wins and losses:
            out.append((pos, wins[0], losses[0]))
    return out


def test_a_proven_win_keeps_only_a_move_that_keeps_it():
    from patchsolve.search.proof import Proof, keep_the_win
    from patchsolve.search.result import SearchResult

    cases = _win_and_loss_moves(ALL)
    assert cases
    for pos, win, loss in cases:
        proof = Proof("win", 0, 50, move=win, reserve={"nodes": 100000})
        low = keep_the_win(pos, SearchResult(loss, -4.0, "estimate", [loss]), proof)
        assert low.score == 0  # an estimate below the proven interval is raised to it
        kept = keep_the_win(pos, SearchResult(loss, 3.0, "estimate", [loss]), proof)
        assert kept.best_move == win and kept.pv == [win]
        # the engine's estimate of the position stays, within the proven interval
        assert (kept.score, kept.bound, kept.proven, kept.lower) == (3.0, "estimate", "win", 0)
        others = [m for m in pos.legal_moves() if m != win and child_wins(pos, m)]
        if others:  # another winning move is kept, with the engine's estimate
            kept = keep_the_win(pos, SearchResult(others[0], 3.0, "estimate", [others[0]]), proof)
            assert kept.best_move == others[0] and kept.score == 3.0 and kept.proven == "win"


def test_a_move_proven_to_keep_a_winning_value_is_not_swapped_for_the_proofs_win(monkeypatch):
    """The hand-over's exact answer (a move proven to keep a value above 0)
    wins already: it stays, with its exact value, even when the win/loss
    test of it would not end in the reserve (here it never does). A move
    only estimated is swapped for the proof's, and the answer then says
    nothing proven of the new move but that it wins."""
    from patchsolve.search import proof as proofs
    from patchsolve.search.result import SearchResult, root_move

    cases = []  # another move that wins, by an exact value above 0
    for pos, win, _ in _win_and_loss_moves(ALL):
        for m in pos.legal_moves():
            if m != win and _exact_child_value(pos, m) > 0:
                cases.append((pos, win, m, _exact_child_value(pos, m)))
                break
    assert len(cases) >= 3
    tested = []
    monkeypatch.setattr(proofs, "_wins", lambda pos, move, budget: tested.append(move) or False)
    for pos, win, other, value in cases:
        proof = proofs.Proof("win", 0, 50, move=win, reserve={"nodes": 1000})
        rows = [root_move(other, value, "exact", proven="win", phase=10)]
        exact = SearchResult(other, value, "exact", [other], root_moves=rows, proven_best=True)
        kept = proofs.keep_the_win(pos, exact, proof)
        assert (kept.best_move, kept.score, kept.bound, kept.proven_best) == (other, value, "exact", True)
        assert not tested
        # the move not proven (nor its row: an estimate)
        guessed = SearchResult(other, value, "exact", [other], root_moves=[root_move(other, value, phase=10)])
        swapped = proofs.keep_the_win(pos, guessed, proof)
        assert tested == [other]
        tested.clear()
        assert (swapped.best_move, swapped.pv, swapped.bound, swapped.proven_best) == (
            win,
            [win],
            "estimate",
            False,
        )
        assert [r["move"] for r in swapped.root_moves] == [win] and swapped.root_moves[0]["proven"] == "win"


def _exact_child_value(pos, move):
    """The exact margin of ``move``'s child for ``pos``'s player to move."""
    child = pos.play(move)
    v = solve(child, nodes=2_000_000).score
    return v if child.to_move == pos.to_move else -v


def test_ranked_rows_keep_what_the_solver_proved_of_each_move():
    from patchsolve.search.proof import Proof, keep_the_win
    from patchsolve.search.result import SearchResult, root_move

    pos = next(p for p in ALL if len(p.legal_moves()) >= 5)
    a, b, c, d, e = pos.legal_moves()[:5]
    engine_rows = [
        root_move(a, 5, depth=4, phase=10),  # proven worth at most 2: shown as that bound
        root_move(b, 4, depth=4, phase=10),  # proven exactly 3
        root_move(c, 1, depth=4, phase=10),  # proven at least 2: raised to it
        root_move(d, 0, depth=4, phase=10),  # nothing proven: the estimate stands
    ]
    proven = {
        a: root_move(a, 2, "upper", proven=None, lower=-9, upper=2),
        b: root_move(b, 3, "exact", proven="win", lower=3, upper=3),
        c: root_move(c, 2, "lower", proven="win", lower=2, upper=7),
        e: root_move(e, 6, "exact", proven="win", lower=6, upper=6),  # not ranked by the engine: joins
    }
    result = SearchResult(a, 5, "estimate", [a], 4, root_moves=engine_rows)
    proof = Proof(None, 6, 6, rows=proven)
    out = keep_the_win(pos, result, proof)
    rows = out.root_moves  # as many as the engine ranked: d, the lowest, makes way for e
    assert [(r["move"], r["score"], r["bound"]) for r in rows] == [
        (e, 6, "exact"),
        (b, 3, "exact"),
        (c, 2, "lower"),  # at least 2 before at most 2
        (a, 2, "upper"),
    ]
    assert len({frozenset(r) for r in rows}) == 1  # every row has the same keys
    assert (out.best_move, out.pv, out.score, out.bound, out.proven_best) == (e, [e], 6, "exact", True)


def child_wins(pos, move):
    from test_solver import plain_wdl

    child = pos.play(move)
    if child.is_over:
        return child.winner() == pos.to_move
    return plain_wdl(child) == (child.to_move == pos.to_move)


FAR = [
    "revised 4,29,22,27,32,18,8,17,25,9,19,3 1f9fcfffe5f8ee713c100/11f8fe7f3fdce07f3fdfc "
    "1/15 10/11 37/40 - 44,50 - - -",
]


def test_the_solver_first_hands_on_what_it_proved_when_the_value_stays_open():
    from patchsolve import Position
    from patchsolve.search.endgame import endgame_shortcut
    from patchsolve.search.limits import Limits

    pos = Position.from_text(FAR[0])
    for limits in (Limits(nodes=20000), Limits(nodes=20000, time=60)):
        result, left, proof = endgame_shortcut(pos, limits, "alphabeta")
        assert result is None and proof is not None
        assert proof.proven == solve(pos, wdl=True).proven
        # a node budget alone is the engine's whole (the solver's nodes are its own)
        assert left.nodes == 20000 if limits.time is None else left.nodes < 20000
        if proof.proven == "loss":
            assert proof.move is None and proof.upper <= 0


def test_a_review_names_a_proven_win_thrown_away():
    from click.testing import CliRunner

    from patchsolve.cli import cli
    from patchsolve.review.analysis import analyze_game
    from patchsolve.rules.game import Game

    pos, win, loss = _win_and_loss_moves(ALL)[0]
    review = analyze_game(Game(pos, [loss]), nodes=50000)
    m = review.moves[0]
    assert (m.proven_before, m.proven_after) == ("win", "loss")
    assert m.judgement == "blunder"
    review = analyze_game(Game(pos, [win]), nodes=50000)
    assert (review.moves[0].proven_before, review.moves[0].proven_after) == ("win", "win")
    res = CliRunner().invoke(
        cli, ["analyze", "-", "--nodes", "50000", "-q"], input=Game(pos, [loss]).to_text()
    )
    assert res.exit_code == 0, res.output
    assert "threw away a proven win" in res.output


def test_progress_of_a_threshold_test_reports_the_proven_interval(monkeypatch):
    from patchsolve.search import solver

    monkeypatch.setattr(solver, "PROGRESS_EVERY", 0.001)
    mid = noisy_greedy_game(3)[20]
    static = c_solver(1).bounds(mid._c)
    for kwargs in ({"at_least": 0}, {"best": True}):
        seen = []
        r = solve(mid, nodes=300000, progress=seen.append, **kwargs)
        assert seen, "no progress report"
        for d in seen:
            # never the clipped window of a test: a proven interval, only narrowing to the result's
            assert d["lower"] <= r.upper and d["upper"] >= r.lower
            assert d["upper"] - d["lower"] >= r.upper - r.lower
        assert r.upper - r.lower > 1 and r.upper <= static[1]


def test_a_budget_of_one_node_is_a_budget_for_the_win_loss_pass_too():
    mid = noisy_greedy_game(3)[20]
    assert solve(mid, nodes=1).nodes < 10000


# -- a table handed on (the near-end solver's, to the hand-over) -------------------------


def test_a_table_handed_on_keeps_what_was_proven_and_counts_only_its_own_nodes():
    """A second run on a table finds what the first proved (the same exact
    value, in fewer nodes), and its nodes and its node budget are its own."""
    from patchsolve import Position
    from patchsolve.search import solver

    opts = solver.check_options({})
    for pos in LEATHER + BONUS:
        table = solver.new_table(Limits(hash_mb=4, workers=1))
        first = solver.run(pos, Limits(nodes=10**8, workers=1), opts, table)
        again = solver.run(pos, Limits(nodes=10**8, workers=1), opts, table)
        assert first.bound == again.bound == "exact"
        assert first.score == again.score == plain_minimax(pos)
        assert 0 < again.nodes < first.nodes
    far, exact_only = Position.from_text(FAR[0]), solver.check_options({"sign_first": False})
    solver.run(far, Limits(nodes=20_000, workers=1), exact_only, table)  # the table counts 20,000 more
    capped = solver.run(far, Limits(nodes=2000, workers=1), exact_only, table)
    assert capped.bound != "exact" and 2000 <= capped.nodes <= 2000 + 1024  # limits checked every 1,024 nodes


def test_a_table_handed_on_must_be_searched_with_the_options_it_was_made_for():
    from patchsolve.search import solver

    table = solver.new_table(Limits(hash_mb=1))
    with pytest.raises(ValueError):
        solver.run(ALL[0], Limits(nodes=1000), solver.check_options({"wdl": True}), table)


def test_the_solvers_rows_are_ranked_by_the_score_shown_a_bound_as_one():
    """A row proven "at most 3" ranks above an exact 1 (it may be worth
    more) and below an exact 6: the scores read in order, each row says
    what is proven of it, and the move played comes first among equals."""
    from patchsolve.search.proof import solved as _solved
    from patchsolve.search.result import SearchResult

    pos = next(p for p in ALL if len(p.legal_moves()) >= 4)
    a, b, c, d = pos.legal_moves()[:4]
    raw = [  # solver units: 2 m + 1 won, 2 m - 1 lost
        {"move": a, "lo": 3, "hi": 3, "group": 0},
        {"move": b, "lo": -81, "hi": 7, "group": 1},
        {"move": c, "lo": 13, "hi": 13, "group": 2},
        {"move": d, "lo": 13, "hi": 13, "group": 3},
    ]
    rows = questions._root_rows(raw, False)
    assert [(r["move"], r["score"], r["bound"], r["lower"], r["upper"], r["proven"]) for r in rows] == [
        (c, 6, "exact", 6, 6, "win"),
        (d, 6, "exact", 6, 6, "win"),
        (b, 3, "upper", -40, 3, None),
        (a, 1, "exact", 1, 1, "win"),
    ]
    played = SearchResult(d, 6, "exact", [d], root_moves=rows, proven_best=True)
    out = _solved(pos, played, Limits(multipv=3, nodes=1000), "alphabeta")
    assert [r["move"] for r in out.root_moves] == [d, c, b]
