"""The exact endgame solver (Python side of ``_solver.pyx``).

``patchsolve.solve(position, time=, nodes=, hash_mb=, workers=, wdl=, all_moves=, progress=)``
    The final score margin for the player to move under perfect play, and
    who wins: both players maximise their own margin, and among equal
    margins prefer a win (a margin of 0 is won by the player who reached 53
    first: RULES). The C driver narrows a proven interval by null-window
    searches (``_solver.pyx``, "Driver") on values that order outcomes by
    the margin and then by who wins (2 m + 1 won, 2 m - 1 lost: "units"
    below); the result gives the margin, ``proven`` who wins. When the
    interval closes, ``bound="exact"`` and ``proven`` is set; a margin
    proven exact whose outcome is not (the budget ran out between a won
    and a lost 0) is ``bound="exact"`` with ``proven`` None. When the budget
    runs out first the interval is still proven: ``lower``/``upper`` hold it
    and ``score``/``bound`` give one side of it (``bound="lower"``: the
    value is at least ``score``; ``"upper"``: at most), the side nearer the
    evaluation; ``best_move`` is then the solver's best guess, not proven.

``wdl=True``
    Proves only who wins (RULES: on equal scores the player who reached 53
    first wins): one null-window search on win/loss values. ``proven`` is
    "win"/"loss" for the player to move; ``lower``/``upper`` bound the margin
    (a win proves a margin of at least 0, a loss at most 0).

``sign_first=True`` (the default; exact and best-move solves)
    First proves who wins with a win/loss pass (at most SIGN_SHARE of the
    budget, on the run's table: its values are the exact search's, so what
    it proves serves the exact tests after it): a win proves a margin of at
    least 0, a loss at most 0, and the exact search starts from that
    interval. Its nodes count in ``nodes``. Measured in
    benchmarks/results/solve_reach.md and benchmarks/results/tie_break/: a
    proven side of 0 more often when the budget runs out; ``proven`` then
    still names the winner when the pass proved it.

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

``best_choice`` / ``choice_or_value`` (the alpha-beta's hand-over, ``shortcut.py``)
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

``workers`` (threads; default every core under a time limit, 1 with a node
limit, and more is refused with one): Lazy SMP, helpers running the same
driver into the shared table once a call has searched 2^14 nodes alone
(``_solver.pyx``, "Threads"). Values stay
exact and intervals proven; node counts, and the bounds reached when the
budget runs out, vary from run to run.

``progress``: a callable given a dict (``nodes``, ``nps``, ``time``,
``lower``, ``upper``, ``gamma`` -- the test value of the running search --,
``steps``, ``wdl`` -- a win/loss search runs --, ``move`` while valuing root
moves) about once a second. Bounds and test values are in points, as the
result's, whichever search runs.
"""

from __future__ import annotations

import threading
import time as _time
from typing import Any, NamedTuple

from patchsolve.errors import LimitError
from patchsolve.patches import LAST_SPACE
from patchsolve.position import Move, Position
from patchsolve.search import _solver
from patchsolve.search.limits import allocation, threads_for, with_defaults
from patchsolve.search.result import SearchResult, choice_of, rank_key, root_move
from patchsolve.search.stop import stop_requested

DEFAULT_SOLVE_TIME = 30.0  # no budget given: a solver cannot know how hard a position is
DEFAULT_HASH_MB = 64
PROGRESS_EVERY = 1.0  # seconds between progress reports
BRACKET = 8  # first bracketing tests at the evaluation -+ this (_solver.pyx "Driver")
# The C solver's switches, the one table of their defaults (``_solver.Solver``
# takes each by keyword and defaults none; ``c_solver`` builds one). The
# prunings and orderings switch off for measurements only: the value never
# depends on them (``_solver.pyx``'s module doc says what each does).
C_SWITCHES: dict[str, Any] = {
    "wdl": False,  # the driver stops once the sign (who wins) is proven
    "tie": True,  # values with the tie-break, 2 margin -+ 1 (False: margins alone, for measurements)
    "threads": 1,  # Lazy SMP: threads - 1 helper pthreads beside each long solve
    "use_static": True,  # static bounds (score floor and ceiling)
    "use_relax": True,  # relaxed games bound a group of moves
    "use_etc": False,  # enhanced transposition cut-offs
    "relax_min": 2,  # a group is relaxed only with at least this many moves left in it
    "use_hist": True,  # killer moves and the history of cut-offs in the ordering
    "use_dead_keys": True,  # table keys ignore where a decided-bonus quilt's isolated holes lie
    "relax_pairs": True,  # a group's relaxed game drops the patches no placement of it leaves room for
    "use_cover": True,  # relaxed games: the bonus only once the bought patches can cover a 7x7 square
    "use_pack": True,  # relaxed games: a buy only if all the patches bought can lie on the quilt together
    "use_done_keys": True,  # table keys keep only the empty count of a quilt on the last space
}


def c_solver(hash_mb: int, **switches: Any) -> Any:
    """A C solver (``_solver.Solver``) with a table of ``hash_mb`` megabytes
    and the ``C_SWITCHES`` that ``switches`` do not set, all by keyword."""
    unknown = sorted(set(switches) - set(C_SWITCHES))
    if unknown:
        raise TypeError(f"not a C solver switch: {', '.join(unknown)} (solver.C_SWITCHES)")
    return _solver.Solver(hash_mb, **{**C_SWITCHES, **switches})


# options (the limits time, nodes, hash_mb, seed come through Limits); static,
# relax and etc switch prunings for measurements: the value never depends on them
OPTIONS = {
    "wdl": False,
    "all_moves": False,
    "progress": None,
    "static": C_SWITCHES["use_static"],
    "relax": C_SWITCHES["use_relax"],
    "etc": C_SWITCHES["use_etc"],
    "sign_first": True,
    "at_least": None,
    "best": False,
}
_FLAG_SWITCHES = ("use_static", "use_relax", "use_etc")  # the C switches of OPTIONS' static, relax, etc
_DEFAULT_FLAGS = (OPTIONS["static"], OPTIONS["relax"], OPTIONS["etc"])
QUESTIONS = ("wdl", "at_least", "best")  # one at a time (all_moves goes with none or wdl)
MAX_THRESHOLD = 1000  # points; every margin is far inside
NO_MOVE_LEFT = -(1 << 20)  # the best value of no move at all (below every margin)
SIGN_SHARE = 0.5  # of the budget, at most, for the win/loss pass before an exact solve
BEST_FIRST_SHARE = 1 / 64  # best=True: the first slice of the budget for each driver (then doubled)
CHOICE_SLICE = 1 / 64  # best_choice: each test's first slice of the budget (then doubled each round)
CHOICE_BELOW = 2  # choice_or_value: the choice tests' first threshold, this far below the engine's score


class _Run:
    """One solve: the C solver, the budget, the clock and progress. The C
    solver (its table) is new, or ``table``: one an earlier run searched,
    whose nodes are not this run's (the C solver counts from its creation)."""

    def __init__(self, hash_mb, wdl, flags, nodes, seconds, progress, threads=1, table=None):
        if table is None:
            table = c_solver(hash_mb, wdl=wdl, threads=threads, **dict(zip(_FLAG_SWITCHES, flags)))
        self.solver = table
        self.base = self.solver.nodes  # the earlier runs' nodes
        self.threads = self.solver.threads
        self.budget = (nodes or 0, seconds or 0.0)
        self.start = _time.perf_counter()
        self.solver.set_limits(self.base + nodes if nodes else 0, seconds or 0.0)
        self.progress = progress
        self.move = None
        self.stopped = False
        self.signing = False  # the win/loss pass runs (progress)
        self.sign = None  # "win"/"loss" when that pass proved it
        self.sign_move = None  # ... and a move proven to win, where its table kept one
        self.known = None  # the root's proven interval while threshold tests run (progress)
        # position text -> (v, move): a fail-high at that position (as the root of a
        # search) proved the move worth at least v
        self.cuts: dict[str, tuple[int, int]] = {}

    @property
    def nodes(self) -> int:
        return self.solver.nodes - self.base

    def elapsed(self) -> float:
        return _time.perf_counter() - self.start

    def report(self):
        """One progress report. The bounds and the test value are in points
        (margins for the player to move, as in the result), converted from
        the solver's units (2 margin -+ 1): a test at ``gamma`` proves the
        margin at least the ``gamma`` reported."""
        t = self.elapsed()
        s = self.solver
        n = self.nodes
        lo, hi = s.lo, s.hi
        if self.known is not None:
            # a threshold test runs on a clipped window: the root's proven interval is kept here
            lo, hi = self.known
        lower, upper = _margin_bounds(lo, hi)
        info = {
            "nodes": n,
            "time": t,
            "nps": n / t if t > 0 else 0.0,
            "lower": lower,
            "upper": upper,
            "gamma": _margin_lower(s.gamma),
            "steps": s.steps,
            "wdl": s.wdl or self.signing,
            "move": None if self.move is None else str(self.move),
        }
        self.progress(info)

    def sign_bounds(self, pos: Position):
        """Proven bounds of ``pos`` (solver units) from a win/loss pass (far
        cheaper than the exact value; benchmarks/results/solve_reach.md)
        within SIGN_SHARE of the budget, on the run's own table (its units
        are the exact solve's, so what it proves serves the exact tests
        after it); the exact solver then gets the rest."""
        nodes, seconds = self.budget
        # 0 is "no limit" to the C solver: a tiny node budget must stay a budget
        self.solver.set_limits(
            self.base + max(1, int(nodes * SIGN_SHARE)) if nodes else 0, seconds * SIGN_SHARE
        )
        self.signing = True
        lo, hi = _root_interval(self, pos)
        if lo < 0 < hi:
            lo, hi = self.call(self.solver.solve, pos._c, lo, hi, 1, 0, None, True)
        self.signing = False
        self.sign = _outcome_of(lo, hi)
        known = self.solver.tt_bounds(pos._c)
        if known is not None and known[0] > 0:  # the root's cut-off move proved the win
            self.sign_move = _move_of(pos, known[2])
        spent = self.elapsed()
        self.solver.set_limits(
            self.base + nodes if nodes else 0,
            max(seconds - spent, 1e-6) if seconds else 0.0,
        )
        return lo, hi

    def limit_slice(self, share):
        """Limit the next calls to ``share`` of the whole budget more, within
        what is left of it (None: all that is left)."""
        nodes, seconds = self.budget
        n, t = 0, 0.0
        if nodes:
            cap = self.base + nodes  # the solver counts from self.base
            n = cap if share is None else min(cap, self.solver.nodes + max(1, int(nodes * share)))
        if seconds:
            left = max(seconds - self.elapsed(), 1e-6)
            t = left if share is None else min(left, seconds * share)
        self.solver.set_limits(n, t)

    def exhausted(self) -> bool:
        """The whole budget is spent."""
        nodes, seconds = self.budget
        return bool((nodes and self.nodes >= nodes) or (seconds and self.elapsed() >= seconds))

    def call(self, fn, *args):
        """``fn(*args)`` (a C call that releases the GIL), with progress
        reports from this thread while it runs in another."""
        if self.progress is None:
            out = fn(*args)
        else:
            box = []
            worker = threading.Thread(target=lambda: box.append(fn(*args)), daemon=True)
            worker.start()
            while True:
                worker.join(PROGRESS_EVERY)
                if not worker.is_alive():
                    break
                self.report()
            out = box[0]
        return out

    def narrow(self, pos: Position, lo=None, hi=None, guess=None):
        """Proven (lo, hi) of ``pos`` (not over) for its player to move, in
        the solver's units, narrowed by the driver within the budget (the
        first test at ``guess``, by default the evaluation)."""
        slo, shi = _root_interval(self, pos)
        if lo is not None:
            slo = max(slo, lo)
        if hi is not None:
            shi = min(shi, hi)
        if slo >= shi:
            return slo, shi
        given = guess
        if guess is None:
            guess = 1 if self.solver.wdl else self.solver.guess(pos._c)
        # a given first test (all-moves: "better than the best so far?") is
        # searched straight away, without bracketing
        spread = BRACKET * UNIT if given is None else 0
        lo, hi = self.call(self.solver.solve, pos._c, slo, shi, guess, spread)
        if self.solver.root_cut >= 0:
            # a root fail-high proved its move worth at least root_cut_value (keep the strongest)
            key, cut = pos.to_text(), (self.solver.root_cut_value, self.solver.root_cut)
            if key not in self.cuts or cut[0] >= self.cuts[key][0]:
                self.cuts[key] = cut
        return lo, hi

    def winning_move(self, pos: Position):
        """(A move of ``pos`` proven to win, what it is proven worth at
        least in solver units) -- a root fail-high's (``cuts``) or the
        win/loss pass's -- or None."""
        cut = self.cuts.get(pos.to_text())
        if cut is not None and cut[0] >= WINS:
            move = _move_of(pos, cut[1])
            if move is not None:
                return move, cut[0]
        if self.sign == "win" and self.sign_move is not None:
            return self.sign_move, WINS
        return None

    def cut_move(self, pos: Position, lo: int):
        """The move proven worth at least ``lo`` at ``pos`` by a root
        fail-high, or None."""
        cut = self.cuts.get(pos.to_text())
        if cut is None or cut[0] < lo:
            return None
        return _move_of(pos, cut[1])

    def at_least(self, pos: Position, v: int):
        """True/False: the value of ``pos`` (for its mover) is >= v; None when
        the budget ran out."""
        r = self.call(self.solver.probe, pos._c, v - 1, v)
        return None if r is None else r >= v

    def child_at_least(self, pos: Position, child: Position, w: int):
        """``at_least`` for ``child`` (not over), with ``w`` a value for
        ``pos``'s mover: negated across a change of the player to move."""
        if child.to_move == pos.to_move:
            return self.at_least(child, w)
        ok = self.at_least(child, -w + 1)
        return None if ok is None else not ok


# -- units ---------------------------------------------------------------------
#
# Inside, every value is in the solver's units (``_solver.pyx``, "Values"):
# 2 m + 1 when the player to move wins with the margin m, 2 m - 1 when it
# loses (m > 0 always wins, m < 0 always loses, m = 0 is +1 or -1 by who
# reached 53 first): odd numbers ordered by the margin and then by the
# outcome, so every comparison, threshold and ranking below orders moves of
# equal margin by who wins. Margins appear only where a result is made
# (``_margin_bounds``, ``_units_at_least``). A test at an even value t is
# the test at t + 1: no value lies between.

UNIT = 2  # solver units a point
WINS = 1  # the least value that wins: a test at it asks "does it win?"


def _leaf(root: Position, end: Position) -> int:
    """A finished child's value for ``root``'s player to move, in solver units."""
    a, b = end.scores()
    me = root.to_move
    m = (a - b) if me == 0 else (b - a)
    return 2 * m + (1 if end.winner() == me else -1)


def _units_at_least(k: int) -> int:
    """The least value in solver units of a margin of at least ``k``
    points: "margin >= k" is "value >= this" (a margin of 0 may be a loss,
    -1; from 1 on every margin wins)."""
    return 2 * k - 1 if k <= 0 else 2 * k + 1


def _units_at_most(k: int) -> int:
    """The greatest value in solver units of a margin of at most ``k``."""
    return 2 * k + 1 if k >= 0 else 2 * k - 1


def _margin_lower(lo: int) -> int:
    """What "value >= lo" (solver units) proves of the margin: at least this."""
    return lo // 2 if lo > 0 else min(0, (lo + 2) // 2)


def _margin_upper(hi: int) -> int:
    """What "value <= hi" (solver units) proves of the margin: at most this."""
    return -_margin_lower(-hi)


def _margin_bounds(lo: int, hi: int) -> tuple[int, int]:
    """Solver-unit bounds as margin bounds."""
    return _margin_lower(lo), _margin_upper(hi)


def _outcome_of(lo: int, hi: int):
    """ "win"/"loss" for the player to move when solver-unit bounds prove it
    (the sign of the value), else None."""
    return "win" if lo > 0 else "loss" if hi < 0 else None


def _flip(pos: Position, child: Position, lo: int, hi: int) -> tuple[int, int]:
    """Bounds of ``child`` for its mover as bounds for ``pos``'s mover."""
    return (lo, hi) if child.to_move == pos.to_move else (-hi, -lo)


# -- lines ---------------------------------------------------------------------


def _tt_move(run: _Run, pos: Position):
    known = run.solver.tt_bounds(pos._c)
    if known is None:
        return None
    return _move_of(pos, known[2])


def _candidates(run: _Run, pos: Position) -> list:
    first = _tt_move(run, pos)
    moves = pos.legal_moves()
    return ([first] if first is not None else []) + [m for m in moves if m != first]


def _achieving(run: _Run, pos: Position, w: int):
    """A move of ``pos`` whose child is worth ``w`` (the exact value of
    ``pos`` for its mover) -- (move, child), or None when the budget ran out."""
    for move in _candidates(run, pos):
        child = pos.play(move)
        if child.is_over:
            if _leaf(pos, child) >= w:
                return move, child
            continue
        ok = run.child_at_least(pos, child, w)
        if ok is None:
            return None
        if ok:
            return move, child
    return None


def principal_variation(run: _Run, pos: Position, value: int, first=None) -> list:
    """A line of moves each keeping the exact ``value``, to the end of the
    game or as far as the budget allows (``first``: a move already proven
    to keep it)."""
    line = []
    w = value
    while not pos.is_over:
        if first is not None:
            found, first = (first, pos.play(first)), None
        else:
            found = _achieving(run, pos, w)
        if found is None:
            break
        move, child = found
        line.append(move)
        if not child.is_over and child.to_move != pos.to_move:
            w = -w
        pos = child
    return line


# -- results -------------------------------------------------------------------


def _result(run: _Run, position: Position, lo: int, hi: int, seed) -> SearchResult:
    """The result for the proven interval [lo, hi] (solver units) of
    ``position``: exact (margin and outcome) when it closed, with a line
    keeping the value; a margin proven exact whose outcome is not (lo = -1,
    hi = 1) is "exact" with ``proven`` None."""
    wdl = run.solver.wdl
    closed = lo >= hi or (wdl and (lo > 0 or hi < 0))
    if closed and not wdl:
        # the root fail-high that proved lo proved its move too: no budget needed to find it
        pv = principal_variation(run, position, lo, run.cut_move(position, lo))
    elif closed and lo > 0:
        found = _achieving(run, position, 1)
        pv = [found[0]] if found else []
    else:
        pv = []
    # open (or closed without a proven move): a move proven to win is a
    # better guess than the table's
    win = None if closed else run.winning_move(position)
    best = pv[0] if pv else ((win and win[0]) or _tt_move(run, position) or position.legal_moves()[0])
    mlo, mhi = _margin_bounds(lo, hi)
    if mlo >= mhi:
        score, bound = mlo, "exact"
    elif closed:  # a win/loss proof
        score, bound = (mlo, "lower") if lo > 0 else (mhi, "upper")
    else:
        guess = run.solver.guess(position._c) // UNIT
        score, bound = (mlo, "lower") if abs(guess - mlo) <= abs(mhi - guess) else (mhi, "upper")
    elapsed = run.elapsed()
    nodes = run.nodes
    r = SearchResult(
        best,
        score,
        bound,
        pv or [best],
        0,
        nodes,
        elapsed,
        nodes / elapsed if elapsed > 0 else 0.0,
        seed,
        engine="solve-wdl" if wdl else "solve",
    )
    r.lower, r.upper = mlo, mhi
    r.workers = run.threads
    r.proven = _outcome_of(lo, hi) or run.sign
    if closed and not wdl:
        r.proven_best = bool(pv)  # else the value is exact but best_move only the table's guess
    r.depth = len(pv)
    if win is not None:
        # the value is open, but this move is proven to keep the win (by a margin of at least m)
        move, m = win[0], _margin_lower(win[1])
        r.root_moves = [root_move(move, m, "lower", proven="win", lower=m, upper=mhi, group=move.patch)]
    return r


# -- every root move -----------------------------------------------------------


def _final_buy(pos: Position, move: Move, child: Position) -> bool:
    """``move`` (``child`` after it) buys a patch that leaves its player on
    53 with nothing left to place: its placements end alike except for the
    7x7 bonus, and the solver searches one of them for each outcome."""
    return move.patch is not None and child.time(pos.to_move) >= LAST_SPACE and not child.pending_leather


def _final_buy_class(pos: Position, move: Move, child: Position):
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


def _child_bounds(run: _Run, position: Position, child: Position, floor):
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


def row_units(row: dict) -> tuple[int, int]:
    """A ranked row's proven bounds (``lower``/``upper`` in points, and
    ``proven``) in solver units: the solver's rows convert back exactly, so
    rows compare by margin and then by who wins."""
    lo, hi = _units_at_least(row["lower"]), _units_at_most(row["upper"])
    if row.get("proven") == "win":
        lo = max(lo, WINS)
    elif row.get("proven") == "loss":
        hi = min(hi, -WINS)
    return lo, hi


def _root_rows(rows: list, wdl: bool) -> list[dict]:
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
        out.append(
            {
                "move": r["move"],
                "score": score,
                "bound": bound,
                "lower": mlo,
                "upper": mhi,
                "proven": proven,
                "group": r["group"],
            }
        )
    out.sort(key=rank_key)
    return out


def _solve_all(run: _Run, position: Position, seed) -> SearchResult:
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


def _root_interval(run: _Run, pos: Position) -> tuple[int, int]:
    """Proven (lo, hi) of ``pos`` from the static bounds and the table."""
    lo, hi = run.solver.bounds(pos._c)
    known = run.solver.tt_bounds(pos._c)
    if known is not None:
        lo, hi = max(lo, known[0]), min(hi, known[1])
    return lo, hi


def _test(run: _Run, pos: Position, t: int, skip=()):
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


def _answer(pos: Position, seed, run: _Run, lo: int, hi: int, best) -> SearchResult:
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


def _at_least_result(run: _Run, pos: Position, k: int, seed) -> SearchResult:
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


def _move_of(pos: Position, code: int):
    """The legal move of ``pos`` with ``code`` (None if there is none)."""
    for m in pos.legal_moves():
        if m.code == code:
            return m
    return None


def _best_result(run: _Run, pos: Position, seed, lo=None, hi=None) -> SearchResult:
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

    def go(self):
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
            self._next(bool(winners), max(self.lower[c] for c in winners) if winners else rest)
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


def best_choice(position: Position, limits, move: Move, guess: int):
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


def choice_or_value(position: Position, limits, move: Move, score: int, table=None):
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


def _choice_run(limits, table=None) -> _Run:
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
        self.decided = None  # the choice proven best, while the tie tests run
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

    def _tests(self):
        """The tests that can prove the best choice from what is known, in
        order, then the tie tests; None once it is proven."""
        if self.decided is None:
            tests = self._choice_tests()
            if tests is not None:
                return tests
        tests = self._tie_tests()
        if tests:
            return tests
        self._proven(self.decided)
        return None

    def _choice_tests(self):
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

    def _tie_tests(self):
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

    def _moved(self, out) -> None:
        """Note the engine's move's test: its bound, or its choice's."""
        if not out[0]:
            self.move_upper = min(self.move_upper, out[1])
            return
        self.move_lower = max(self.move_lower, out[1])
        if self.mine not in self.lower or out[1] > self.lower[self.mine][0]:
            self.lower[self.mine] = (out[1], self.move.code)

    def standing(self):
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

    def _best(self):
        """The choice proven worth the most so far (the engine's among equals)."""
        return max(self.lower, key=lambda g: (self.lower[g][0], g == self.mine))

    def _proven(self, best) -> None:
        lower, code = self.lower[best]
        if best == self.mine and (lower < WINS or self._move_wins()):
            self.proof = (self.move, lower, True)
        else:  # another choice, or a move of the engine's that wins where its own is not shown to
            self.proof = (_move_of(self.pos, code), lower, False)
        self.open = False

    def proof_in_points(self):
        """The proof as a ``ChoiceProof`` (margins), or None."""
        if self.proof is None:
            return None
        move, lower, same = self.proof
        return ChoiceProof(move, _margin_lower(lower), same, "win" if lower >= WINS else None)


# -- API -----------------------------------------------------------------------


def check_options(options: dict) -> dict:
    """The solver's options completed with the defaults, each checked."""
    out = with_defaults(options, OPTIONS, "solve")
    for name, value in out.items():
        if name == "progress":
            if value is not None and not callable(value):
                raise LimitError(f"progress must be a callable, not {value!r}")
        elif name == "at_least":
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_THRESHOLD
            ):
                raise LimitError(
                    f"at_least must be a whole number of points in -{MAX_THRESHOLD}..{MAX_THRESHOLD}, not {value!r}"
                )
        elif not isinstance(value, bool):
            raise LimitError(f"{name} must be True or False, not {value!r}")
    asked = [q for q in QUESTIONS if out[q] is not None and out[q] is not False]
    if out["all_moves"] and asked and asked != ["wdl"]:
        asked.append("all_moves")
    if len(asked) > 1:
        raise LimitError(f"ask one question at a time, not {' and '.join(asked)}")
    return out


def _new_run(limits, opts: dict, table=None) -> _Run:
    """A run within ``limits`` (time, nodes; none: DEFAULT_SOLVE_TIME) with
    ``opts`` as ``check_options`` returns them; its table allocated here, or
    ``table`` (``new_table``, made for the same options)."""
    seconds, nodes = limits.time, limits.nodes
    if seconds is None and nodes is None:
        seconds = DEFAULT_SOLVE_TIME
    hash_mb = limits.hash_mb or DEFAULT_HASH_MB
    flags = (opts["static"], opts["relax"], opts["etc"])
    threads = threads_for(limits, "solve")
    if table is not None:
        if table.wdl != opts["wdl"] or flags != _DEFAULT_FLAGS:
            raise ValueError("a table handed on is searched with the default exact options only")
        return _Run(hash_mb, opts["wdl"], flags, nodes, seconds, opts["progress"], threads, table)
    with allocation("solver table", hash_mb):
        return _Run(hash_mb, opts["wdl"], flags, nodes, seconds, opts["progress"], threads)


def new_table(limits):
    """A solver table for ``limits`` (``hash_mb``, ``workers``) with the
    default exact options, to hand from one run to the next: what the
    near-end shortcut proved, the alpha-beta's hand-over finds
    (``run(..., table=)``, ``choice_or_value(..., table=)``;
    benchmarks/results/best_choice/, round 3)."""
    return _new_run(limits, check_options({})).solver


def run(position: Position, limits, opts: dict, table=None) -> SearchResult:
    """The exact final margin for the player to move (``position`` not
    over) under perfect play within ``limits`` (time, nodes; none: 30 s),
    or proven bounds on it (see the module doc); ``opts`` as
    ``check_options`` returns them; on ``table`` (``new_table``) if given."""
    run_ = _new_run(limits, opts, table)
    if opts["all_moves"]:
        return _solve_all(run_, position, limits.seed)
    if opts["at_least"] is not None:
        return _at_least_result(run_, position, opts["at_least"], limits.seed)
    lo = hi = None
    if opts["sign_first"] and not opts["wdl"] and opts["at_least"] is None:
        lo, hi = run_.sign_bounds(position)
    if opts["best"]:
        return _best_result(run_, position, limits.seed, lo, hi)
    lo, hi = run_.narrow(position, lo, hi)
    return _result(run_, position, lo, hi, limits.seed)


__all__ = [
    "run",
    "c_solver",
    "C_SWITCHES",
    "new_table",
    "check_options",
    "principal_variation",
    "best_choice",
    "choice_or_value",
    "choice_of",
    "ChoiceProof",
    "Standing",
    "row_units",
]
