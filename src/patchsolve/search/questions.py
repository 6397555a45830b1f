"""The solver's weaker questions, on the driver of ``solver.py``: each
proves less than the value, and costs less. ``answer`` is
``patchsolve.solve``'s entry: it asks the question the options name, or
the driver for the value (``wdl``: who wins).

``at_least=K``
    Proves only whether the margin is at least ``K`` points: one null-window
    test at ``K`` (far cheaper than the value when the value is not near
    ``K``). ``at_least`` is True/False (None when the budget ran out) and
    ``threshold`` is ``K``; ``lower``/``upper`` bound the margin, and a "yes"
    names a move that keeps it (``best_move``). (A margin of at least ``K``
    is a value of at least 2 K - 1 units for K <= 0, 2 K + 1 above.)

``best=True``
    Proves a best move without its exact value (best node search): tests at
    a threshold ``t`` collect the root moves worth at least ``t`` (each test
    leaves out the moves already found); one such move with every other
    below ``t`` is proven best: its lower bound meets every other move's
    upper bound. Two or more raise the threshold; none lowers it. With
    ties for best it ends with the exact value. ``proven_best`` is True when
    proven; ``lower``/``upper`` bound the margin. Thresholds are in units,
    so a move proven best wins wherever a move wins.

``best_choice`` / ``choice_or_value`` (the alpha-beta's hand-over, ``handover.py``)
    Which choice is best -- walking, buying one patch (any placement),
    placing the leather patch -- proven by threshold tests of each choice
    alone, without valuing placements; ``choice_or_value`` alternates
    those tests with the exact driver on one table. The engine's move of
    the choice proven best is kept unless it loses where another move of
    its choice wins (``_ChoiceSearch``, the tie tests).

``all_moves=True``
    Also values every legal root move (``root_moves``: dicts with ``move``,
    ``score``, ``bound``, ``lower``, ``upper``, ``proven`` -- who wins, set on
    every exact row --, best first by margin and then by who wins:
    ``result.rank_key``), after solving
    the root: its value bounds every row from above and its proven move
    gets that value, even when the budget cuts the rows short. Within a patch,
    the best placement is valued exactly and any other only as far as needed
    to show it is no better (``bound="upper"``) or to value it exactly when
    it ties or beats the best so far; placements of a final buy that end
    alike share one value.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from patchsolve.rules.patches import LAST_SPACE
from patchsolve.rules.position import Move, Position
from patchsolve.search import solver
from patchsolve.search.budget import BEST_FIRST_SHARE, CHOICE_SLICE
from patchsolve.search.result import RootMove, SearchResult, choice_of, rank_key, root_move
from patchsolve.search.solver import (
    MAX_THRESHOLD,
    UNIT,
    WINS,
    _achieving,
    _candidates,
    _flip,
    _leaf,
    _margin_bounds,
    _margin_lower,
    _margin_upper,
    _move_of,
    _new_run,
    _outcome_of,
    _result,
    _root_interval,
    _Run,
    _tt_move,
    _units_at_least,
    _units_at_most,
    check_options,
)
from patchsolve.search.stop import stop_requested

if TYPE_CHECKING:
    from patchsolve.search.limits import Limits

NO_MOVE_LEFT = -(1 << 20)  # the best value of no move at all (below every margin)
CHOICE_BELOW = 2  # choice_or_value: the choice tests' first threshold, this far below the engine's score


def answer(position: Position, limits: Limits, opts: dict, table: Any = None) -> SearchResult:
    """What ``opts`` (as ``solver.check_options`` returns them) ask of
    ``position`` (not over) within ``limits`` (time, nodes; none: 30 s):
    every root move valued (``all_moves``), whether the margin is at least
    a value (``at_least``), a best move (``best``), else the value
    (``solver.run``); on ``table`` (``solver.new_table``) if given."""
    if not (opts["all_moves"] or opts["at_least"] is not None or opts["best"]):
        return solver.run(position, limits, opts, table)
    run = _new_run(limits, opts, table)
    if opts["all_moves"]:
        return _solve_all(run, position, limits.seed)
    if opts["at_least"] is not None:
        return _at_least_result(run, position, opts["at_least"], limits.seed)
    lo = hi = None
    if opts["sign_first"] and not opts["wdl"]:
        lo, hi = run.sign_bounds(position)
    return _best_result(run, position, limits.seed, lo, hi)


def ask(position: Position, limits: Limits, options: dict, table: Any = None) -> SearchResult:
    """``answer`` with ``options`` checked (and completed) here: the
    near-end path's solver runs."""
    return answer(position, limits, check_options(options), table)


# -- every root move -----------------------------------------------------------


def _final_buy(pos: Position, move: Move, child: Position) -> bool:
    """``move`` (``child`` after it) buys a patch that leaves its player on
    53 with nothing left to place: its placements end alike except for the
    7x7 bonus, and the solver searches one of them for each outcome."""
    return move.patch is not None and child.time(pos.to_move) >= LAST_SPACE and not child.pending_leather


def _final_buy_class(pos: Position, move: Move, child: Position) -> tuple[int | None, Any] | None:
    """A key shared by the final buys (``_final_buy``) that end alike."""
    if child.is_over or not _final_buy(pos, move, child):
        return None
    return move.patch, child.fields()["bonus_owner"]


def _value_children(run: _Run, position: Position) -> list[dict]:
    """Every root move valued (see the module doc), in legal-move order."""
    rows: list[dict] = []
    group_best: dict = {}
    shared: dict = {}
    for move in _candidates(run, position):
        run.move = move
        child = position.play(move)
        group = choice_of(move)
        klass = _final_buy_class(position, move, child)
        if child.is_over:
            v = _leaf(position, child)
            lo, hi = v, v
        elif klass is not None and klass in shared:
            lo, hi = shared[klass]
        else:
            lo, hi = _child_bounds(run, position, child, group_best.get(group))
            if klass is not None and lo >= hi:
                shared[klass] = (lo, hi)
        if lo >= hi and (group not in group_best or lo > group_best[group]):
            group_best[group] = lo
        rows.append({"move": move, "group": group, "lo": lo, "hi": hi})
    run.move = None
    return rows


def _child_bounds(run: _Run, position: Position, child: Position, floor: int | None) -> tuple[int, int]:
    """Bounds of ``child`` for the root's mover: exact, or (with ``floor``,
    the group's best so far) just shown to be below it."""
    slo, shi = _flip(position, child, *run.solver.bounds(child._c))
    if floor is not None and not run.solver.wdl:
        if shi < floor:
            return slo, shi
        # null window: is the child worth at least the group's best?
        ok = run.child_at_least(position, child, floor)
        if ok is None:
            return slo, shi
        if not ok:
            known = run.solver.tt_bounds(child._c)
            hi = floor - 1
            if known is not None:
                hi = min(hi, _flip(position, child, known[0], known[1])[1])
            return slo, hi
        # worth at least the best so far: is it more?
        if child.to_move == position.to_move:
            lo, hi = run.narrow(child, lo=floor, guess=floor + 1)
        else:
            lo, hi = run.narrow(child, hi=-floor, guess=-floor)
        return _flip(position, child, lo, hi)
    lo, hi = run.narrow(child)
    return _flip(position, child, lo, hi)


def row_units(row: Mapping[str, Any]) -> tuple[int, int]:
    """A ranked row's proven bounds (``lower``/``upper`` in points, and
    ``proven``) in solver units: the solver's rows convert back exactly, so
    rows compare by margin and then by who wins."""
    lo, hi = _units_at_least(row["lower"]), _units_at_most(row["upper"])
    if row.get("proven") == "win":
        lo = max(lo, WINS)
    elif row.get("proven") == "loss":
        hi = min(hi, -WINS)
    return lo, hi


def _root_rows(rows: list, wdl: bool) -> list[RootMove]:
    """Rows in solver units as the result's (margins, ``proven`` the
    outcome where the bounds prove it: always on an exact row), ranked by
    ``result.rank_key``."""
    out = []
    for r in rows:
        mlo, mhi = _margin_bounds(r["lo"], r["hi"])
        if mlo >= mhi:
            score, bound = mlo, "exact"
        elif wdl and (r["lo"] > 0 or r["hi"] < 0):
            score, bound = (mlo, "lower") if r["lo"] > 0 else (mhi, "upper")
        else:
            score, bound = mhi, "upper"
        proven = _outcome_of(r["lo"], r["hi"])
        out.append(root_move(r["move"], score, bound, proven=proven, lower=mlo, upper=mhi, group=r["group"]))
    out.sort(key=rank_key)
    return out


def _solve_all(run: _Run, position: Position, seed: int | None) -> SearchResult:
    """Every root move valued, the root itself first: its value bounds
    every move from above, and its best move, first in the table, starts
    its group's floor (cut short by the budget, the value and a move
    proven to keep it are then known even if the other rows are not)."""
    root_lo, root_hi = run.narrow(position)
    cut = run.cuts.get(position.to_text())  # (v, code): the root's fail-high proved that move worth v
    rows = _value_children(run, position)
    for row in rows:
        row["hi"] = min(row["hi"], root_hi)
        if cut is not None and row["move"].code == cut[1]:
            row["lo"] = max(row["lo"], cut[0])
    lo = max(root_lo, max(r["lo"] for r in rows))
    hi = min(root_hi, max(r["hi"] for r in rows))
    r = _result(run, position, lo, hi, seed)
    rows = sorted(rows, key=lambda d: d["move"] != r.best_move)  # the move played first among equals
    r.root_moves = _root_rows(rows, run.solver.wdl)
    return r


# -- weaker questions ----------------------------------------------------------


def _test(run: _Run, pos: Position, t: int, skip: Iterable[int] = ()) -> tuple[bool, int, Any] | None:
    """One test "is the best root move of ``pos``, leaving out the codes in
    ``skip``, worth at least ``t``?" on every thread: (True, its fail-soft
    lower bound, the move code), (False, its upper bound, None), or None
    when the budget ran out."""
    lo, hi = run.call(run.solver.solve, pos._c, t - 1, t, t, 0, list(skip))
    if lo >= t:
        return True, lo, run.solver.root_cut
    if hi < t:
        return False, hi, None
    return None


def _answer(pos: Position, seed: int | None, run: _Run, lo: int, hi: int, best: Move | None) -> SearchResult:
    """A result for the proven interval [lo, hi] (solver units) with
    ``best`` (a move, or None: the table's guess)."""
    if best is None:
        best = _tt_move(run, pos) or pos.legal_moves()[0]
    proven = _outcome_of(lo, hi)
    lo, hi = _margin_bounds(lo, hi)
    if lo >= hi:
        score, bound = lo, "exact"
    else:
        guess = run.solver.guess(pos._c) // UNIT
        score, bound = (lo, "lower") if abs(guess - lo) <= abs(hi - guess) else (hi, "upper")
    elapsed = run.elapsed()
    r = SearchResult(
        best,
        score,
        bound,
        [best],
        0,
        run.nodes,
        elapsed,
        run.nodes / elapsed if elapsed > 0 else 0.0,
        seed,
        engine="solve",
    )
    r.lower, r.upper = lo, hi
    r.workers = run.threads
    r.proven = proven
    return r


def _at_least_result(run: _Run, pos: Position, k: int, seed: int | None) -> SearchResult:
    """Is the margin of ``pos`` for its mover at least ``k``? (module doc)"""
    lo, hi = _root_interval(run, pos)
    t = _units_at_least(k)
    move = None
    if lo < t <= hi:
        run.known = (lo, hi)
        out = _test(run, pos, t)
        if out is not None and out[0]:
            lo = out[1]
            move = _move_of(pos, out[2])
        elif out is not None:
            hi = out[1]
    r = _answer(pos, seed, run, lo, hi, move)
    r.engine = "solve-at-least"
    r.threshold = k
    r.at_least = True if lo >= t else False if hi < t else None
    if r.at_least is True and move is None:
        found = _achieving(run, pos, t)
        if found is not None:
            r.best_move, r.pv = found[0], [found[0]]
    return r


def _best_result(
    run: _Run, pos: Position, seed: int | None, lo: int | None = None, hi: int | None = None
) -> SearchResult:
    """A move proven best, or among the best (module doc), and the proven
    interval of the value (within [lo, hi] when given: the win/loss pass's).

    Two drivers take turns on one table, each with slices of the budget that
    double (1/64, 1/64, 2/64, 2/64, ...): the best node search, cheap when one
    move stands out, and the exact driver, which proves a best move as soon
    as the value closes and is the cheaper where moves tie or nearly tie
    (benchmarks/results/solve_reach.md, round 8)."""
    moves = pos.legal_moves()
    slo, shi = _root_interval(run, pos)
    lo, hi = max(slo, lo if lo is not None else slo), min(shi, hi if hi is not None else shi)
    found = moves[0] if len(moves) == 1 else None
    bns = _BestNodeSearch(run, pos, moves, lo, hi)
    share = BEST_FIRST_SHARE
    while found is None and bns.lo < bns.hi and not run.exhausted():
        run.limit_slice(share)
        found = bns.go()
        if found is not None or bns.lo >= bns.hi or run.exhausted():
            break
        run.limit_slice(share)
        run.known = None  # the exact driver's own bounds are the root's
        bns.narrow(*run.narrow(pos, bns.lo, bns.hi))
        share *= 2
    run.limit_slice(None)
    lo, hi = bns.lo, bns.hi
    if lo >= hi:
        r = _result(run, pos, lo, hi, seed)  # proven_best: whether its move is proven to keep the value
    else:
        r = _answer(pos, seed, run, lo, hi, found)
        r.proven_best = found is not None
    r.engine = "solve-best"
    r.proven = r.proven or run.sign
    return r


class _BestNodeSearch:
    """The root interval [lo, hi] narrowed by threshold tests stepping as
    ``mtd`` does (``_solver.pyx``, "Driver": from the evaluation, steps of one
    doubled from the third in one direction), each test collecting the moves
    worth at least its threshold. Resumable: ``go`` returns when a move is
    proven best (that move), the interval closes or the budget slice ends
    (None), and keeps what each move is proven worth."""

    def __init__(self, run: _Run, pos: Position, moves: list, lo: int, hi: int):
        self.run, self.pos, self.moves = run, pos, moves
        self.lo, self.hi = lo, hi
        self.upper: dict = {}  # move code -> proven upper bound of its value
        self.lower: dict = {}  # move code -> proven lower bound
        self.g = run.solver.guess(pos._c)
        self.step, self.streak = 1, 0
        self.last: bool | None = None  # the direction of the last test (None: none yet)

    def narrow(self, lo: int, hi: int) -> None:
        """Proven bounds of the root found by another driver."""
        self.lo, self.hi = max(self.lo, lo), min(self.hi, hi)

    def go(self) -> Move | None:
        while self.lo < self.hi:
            self.run.known = (self.lo, self.hi)
            t = min(max(self.g, self.lo + 1), self.hi)
            skip = {c for c, u in self.upper.items() if u < t}
            winners: list = []
            rest = None  # upper bound of every move neither skipped nor a winner
            while len(winners) < 2:
                if len(skip) + len(winners) == len(self.moves):
                    rest = NO_MOVE_LEFT
                    break
                out = _test(self.run, self.pos, t, skip | set(winners))
                if out is None:
                    return None
                if not out[0]:
                    rest = out[1]
                    break
                winners.append(out[2])
                self.lower[out[2]] = max(self.lower.get(out[2], out[1]), out[1])
            if rest is not None:
                for m in self.moves:
                    if m.code not in skip and m.code not in winners:
                        self.upper[m.code] = min(self.upper.get(m.code, rest), rest)
            if len(winners) == 1 and rest is not None:  # worth at least t, every other move less
                self.lo = max(self.lo, self.lower[winners[0]])
                return _move_of(self.pos, winners[0])
            if winners:
                self._next(True, max(self.lower[c] for c in winners))
            else:  # no winner: the inner loop left by a break that set rest
                assert rest is not None
                self._next(False, rest)
        return None

    def _next(self, up: bool, v: int) -> None:
        """The next threshold after a test that failed high (``up``) or low
        with the fail-soft value ``v``."""
        if up:
            self.lo = max(self.lo, v)
        else:
            self.hi = min(self.hi, v)
        self.streak = self.streak + 1 if up == self.last else 1
        self.step = self.step * 2 if self.streak >= 3 else 1
        self.last = up
        self.g = v + self.step if up else v - self.step + 1


class ChoiceProof(NamedTuple):
    """A choice proven best (``best_choice``), in points: ``move`` to play,
    what it is proven worth at least (``lower``, a margin), whether it is
    the engine's own move (``same``: its choice is the best and its
    placement was not shown to lose where another of the choice wins), and
    ``proven``: "win" when that bound proves the move wins (a margin of at
    least ``lower``, won), else None."""

    move: Move
    lower: int
    same: bool
    proven: str | None = None


class Standing(NamedTuple):
    """What the choice tests left standing when the budget ran out
    (``_ChoiceSearch.standing``), in points: another choice's ``move``
    proven worth at least ``lower`` (``below`` None), or the one choice
    ``move`` not shown below the test value ``below`` (``lower`` None);
    ``at_most``: what the engine's move is proven worth at most;
    ``proven``: "win" when ``lower`` proves the move wins."""

    move: Any
    lower: int | None
    below: int | None
    at_most: int
    proven: str | None = None


def best_choice(position: Position, limits: Limits, move: Move, guess: int) -> tuple[ChoiceProof | None, int]:
    """Which choice of ``position`` -- walking, buying one patch (any of its
    placements), placing the leather patch -- is the best, proven without
    valuing placements (they often tie, which makes the value dear:
    benchmarks/results/best_choice/). ``move`` is the engine's; ``guess``
    the first threshold in points, a little below the value (see
    ``_ChoiceSearch``).

    Returns (a ``ChoiceProof``: ``move`` itself when its choice is proven
    best, else a move of the best choice, proven worth at least as much as
    any move of another choice -- or None when the budget runs out first
    or there is only one choice; and the nodes searched)."""
    run = _choice_run(limits)
    search = _ChoiceSearch(run, position, move, _units_at_least(guess))
    share = CHOICE_SLICE
    while search.open and not run.exhausted() and not stop_requested():
        run.limit_slice(share)
        if search.go():
            break
        share *= 2
    search.finish()
    return search.proof_in_points(), run.nodes


def choice_or_value(
    position: Position, limits: Limits, move: Move, score: int, table: Any = None
) -> tuple[SearchResult | None, ChoiceProof | None, Standing | None, int]:
    """``best_choice`` and the exact value taking turns on one table, each
    with slices of the budget that double (as ``best=True``'s drivers); once
    the choice is proven the value has the rest. ``move`` and ``score`` are
    the engine's (``score`` in points): the choice tests start CHOICE_BELOW
    under ``score``, the value's first test is at ``score`` (the value of a
    pruned tree searched to its end is a far better guess than the
    evaluation: benchmarks/results/best_choice/, round 2). ``table``: a
    solver table (``new_table``) to search on, what an earlier run proved
    in it kept. (The exact result when the value closes, else None; the
    choice proof (``ChoiceProof``) or None; what the tests left standing
    when the budget ran out first (``Standing``), or None; the nodes
    searched.)"""
    run = _choice_run(limits, table)
    search = _ChoiceSearch(run, position, move, _units_at_least(score - CHOICE_BELOW), test_move=True)
    lo, hi = _root_interval(run, position)
    share = CHOICE_SLICE
    while lo < hi and not run.exhausted() and not stop_requested():
        if search.open:
            run.limit_slice(share)
            search.go()
            if run.exhausted() or stop_requested():
                break
        run.limit_slice(share)
        lo, hi = run.narrow(position, lo, hi, _units_at_least(score))
        share *= 2
    run.limit_slice(None)
    search.finish()
    if lo >= hi:
        return _result(run, position, lo, hi, limits.seed), search.proof_in_points(), None, run.nodes
    return None, search.proof_in_points(), search.standing(), run.nodes


def _choice_run(limits: Limits, table: Any = None) -> _Run:
    """A value-mode run for the choice questions within ``limits``, with
    the solver's default options (on ``table`` if given)."""
    return _new_run(limits, check_options({}), table)


_MOVE = "the engine's move"  # _ChoiceSearch's queue: a test of the engine's move alone


class _ChoiceSearch:
    """Which choice is best (``best_choice``), resumable: ``go`` searches
    within the run's current limits and returns True once it is proven.
    Thresholds and bounds are in solver units (``guess`` too), so a choice
    whose best placement wins a margin of 0 beats one whose best loses it.

    Each choice is tested alone ("is its best placement worth at least
    t?", the other root moves left out), from ``guess`` down, until one
    fails high. Then the other choices are tested at one value more than
    the best is proven worth, until none reaches it; and first the best
    itself two values more. A test at a choice's value, or one above it,
    has no slack and costs most; the best's proven bound is often at the
    value of the choice below it, and raising it gives each refutation
    slack (benchmarks/results/best_choice/, round 2). A test the limits
    cut short goes to the back of the queue: the next call starts with the
    next test (so one dear test does not hold up the others), and the
    table keeps what the cut test learnt.

    With ``test_move`` (the hand-over's, which may play another choice's
    move when the budget runs out: ``standing``), the engine's move alone
    is tested first at each threshold: from the start, and at the target
    once another choice leads. A single placement is refuted far sooner
    than its whole patch; once it is, a move of a choice proven worth as
    much is never worse than it (benchmarks/results/move_test/).

    The engine's own choice proven best keeps the engine's placement,
    which is not valued -- unless it loses where another placement of its
    choice wins (a margin of 0 is won by who reaches 53 first, and two
    placements of one patch often tie in points): once the choice is
    proven best, and unless every move is proven to lose, the tie tests
    (``_tie_tests``) ask at ``WINS`` whether the engine's move wins and
    whether a move of its choice does. A choice proven to win is played by
    a move proven to win: the engine's if its test passed, else the move
    that proved the choice (also when the budget cuts the tie tests
    short: ``finish``)."""

    def __init__(self, run: _Run, pos: Position, move: Move, guess: int, test_move: bool = False):
        self.run, self.pos, self.move = run, pos, move
        self.codes: dict = {}
        for m in pos.legal_moves():
            self.codes.setdefault(choice_of(m), set()).add(m.code)
        self.everything = {c for cs in self.codes.values() for c in cs}
        self.mine = choice_of(move)
        # a move alone in its choice (walking) is its choice's test already;
        # a final buy alone may not be among the solver's root moves
        self.testable = len(self.codes[self.mine]) > 1 and not _final_buy(pos, move, pos.play(move))
        self.test_move = test_move and self.testable
        self.move_upper = UNIT * MAX_THRESHOLD + 1  # the engine's move alone is proven worth at most this
        self.move_lower = NO_MOVE_LEFT  # ... and at least this
        self.order = [self.mine] + [g for g in self.codes if g != self.mine]
        self.upper = dict.fromkeys(self.codes, run.solver.bounds(pos._c)[1])
        self.lower: dict = {}  # choice -> (proven worth at least, the move that proved it)
        self.t = guess
        self.queue: list = []  # the tests to run: (choice, threshold)
        self.decided: int | str | None = None  # the choice proven best, while the tie tests run
        self.proof: tuple | None = None  # (move, lower in solver units, same)
        self.open = len(self.codes) > 1

    def go(self) -> bool:
        while self.open:
            tests = self._tests()
            if tests is None:
                return True
            self._schedule(tests)
            g, t = self.queue[0]
            keep = {self.move.code} if g is _MOVE else self.codes[g]
            out = _test(self.run, self.pos, t, self.everything - keep)
            if out is None:  # cut short: the next test first next time
                self.queue = self.queue[1:] + self.queue[:1]
                return False
            if g is _MOVE:
                self._moved(out)
            elif not out[0]:
                self.upper[g] = min(self.upper[g], out[1])
            elif out[2] in self.codes[g]:
                self.lower[g] = (out[1], out[2])
            else:  # no move named (cannot happen at a root that leaves moves out)
                self.open = False
        return False

    def _schedule(self, tests: list) -> None:
        """The queue for ``tests``: those already queued keep their order
        (the ones cut short at the back), the new ones after them, so
        every test gets its turn."""
        self.queue = [x for x in self.queue if x in tests] + [x for x in tests if x not in self.queue]

    def _tests(self) -> list[tuple[int | str, int]] | None:
        """The tests that can prove the best choice from what is known, in
        order, then the tie tests; None once it is proven."""
        if self.decided is None:
            tests = self._choice_tests()
            if tests is not None:
                return tests
        tests = self._tie_tests()
        if tests:
            return tests
        # decided: set by _choice_tests when it returned None (mypy cannot follow that)
        self._proven(self.decided)  # type: ignore[arg-type]
        return None

    def _choice_tests(self) -> list[tuple[int | str, int]] | None:
        """The tests that can prove the best choice from what is known, in
        order; None once it is proven (``decided``)."""
        if not self.lower:
            self.t = min(self.t, max(self.upper.values()))  # no choice reaches t: test the highest
            tests = [(g, self.t) for g in self.order if self.upper[g] >= self.t]
            if self.test_move and self._move_at_most() >= self.t:
                tests.insert(0, (_MOVE, self.t))
            return tests
        best = self._best()
        target = self.lower[best][0] + 1
        tests = [(g, target) for g in self.order if g != best and self.upper[g] >= target]
        if not tests:
            self.decided = best
            return None
        if self.upper[best] >= target + UNIT:
            tests.insert(0, (best, target + UNIT))
        if self.test_move and best != self.mine and self._move_at_most() >= target:
            tests.insert(0, (_MOVE, target))
        return tests

    def _tie_tests(self) -> list[tuple[int | str, int]] | None:
        """The engine's choice proven best (``decided``): the tests, at
        ``WINS``, that tell whether the engine's move wins where a move of
        its choice does -- its own (once its choice or the root is proven
        to win), else its choice's (which move of it wins, if one does) --
        or None when nothing is left to ask: another choice is best, the
        engine's move is proven to win, every move is proven to lose, or
        the engine's move loses where the choice's proven move wins."""
        best = self.decided
        if best != self.mine or not self.testable or self._move_wins():
            return None
        lower = self.lower[best][0]
        root_lo, root_hi = _root_interval(self.run, self.pos)
        if min(root_hi, self.upper[best]) < WINS:
            return None
        if self.move_upper >= WINS and (lower >= WINS or root_lo >= WINS):
            return [(_MOVE, WINS)]
        if lower < WINS:
            return [(best, WINS)]
        return None

    def _move_wins(self) -> bool:
        """The engine's move alone is proven to win (its own test, or the
        test of its choice that it passed)."""
        lower, code = self.lower.get(self.mine, (NO_MOVE_LEFT, None))
        return self.move_lower >= WINS or (code == self.move.code and lower >= WINS)

    def finish(self) -> None:
        """The budget ran out during the tie tests: the proof from what
        they had shown (a choice proven to win is played by a move proven
        to win)."""
        if self.open and self.decided is not None:
            self._proven(self.decided)

    def _move_at_most(self) -> int:
        """What the engine's move is proven worth at most: its choice's
        bound, or its own."""
        return min(self.upper[self.mine], self.move_upper)

    def _moved(self, out: tuple[bool, int, Any]) -> None:
        """Note the engine's move's test: its bound, or its choice's."""
        if not out[0]:
            self.move_upper = min(self.move_upper, out[1])
            return
        self.move_lower = max(self.move_lower, out[1])
        if self.mine not in self.lower or out[1] > self.lower[self.mine][0]:
            self.lower[self.mine] = (out[1], self.move.code)

    def standing(self) -> Standing | None:
        """What the tests left standing against the engine's choice when
        the budget ran out before a proof (a ``Standing``, in points), or
        None:

        - another choice's ``move`` is proven worth at least ``lower``, and
          the engine's move (its choice, or the move alone) at most
          ``at_most`` <= ``lower``: never worse than the engine's move;
        - every choice but this one (``move``: the choice), the engine's
          among them (proven worth at most ``at_most``), is proven worth
          less than the test value ``below``, and this one was not (its
          test did not end). Not a proof: the engine's own estimate of its
          move was shown too high, and this is the one choice that may
          still reach it (benchmarks/results/standing/)."""
        if not self.open:
            return None
        if self.lower:
            best = self._best()
            lower, code = self.lower[best]
            at_most = self._move_at_most()
            if best != self.mine and at_most <= lower:
                return Standing(
                    _move_of(self.pos, code),
                    _margin_lower(lower),
                    None,
                    _margin_upper(at_most),
                    "win" if lower >= WINS else None,
                )
            return None
        at_most = self.upper[self.mine]  # the guess needs the whole choice below t
        left = [g for g in self.codes if self.upper[g] >= self.t]
        if at_most < self.t and len(left) == 1:
            return Standing(left[0], None, _margin_lower(self.t), _margin_upper(at_most))
        return None

    def _best(self) -> int | str:
        """The choice proven worth the most so far (the engine's among equals)."""
        return max(self.lower, key=lambda g: (self.lower[g][0], g == self.mine))

    def _proven(self, best: int | str) -> None:
        lower, code = self.lower[best]
        if best == self.mine and (lower < WINS or self._move_wins()):
            self.proof = (self.move, lower, True)
        else:  # another choice, or a move of the engine's that wins where its own is not shown to
            self.proof = (_move_of(self.pos, code), lower, False)
        self.open = False

    def proof_in_points(self) -> ChoiceProof | None:
        """The proof as a ``ChoiceProof`` (margins), or None."""
        if self.proof is None:
            return None
        move, lower, same = self.proof
        return ChoiceProof(move, _margin_lower(lower), same, "win" if lower >= WINS else None)


__all__ = [
    "answer",
    "ask",
    "best_choice",
    "choice_or_value",
    "ChoiceProof",
    "Standing",
    "row_units",
    "choice_of",
]
