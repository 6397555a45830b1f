"""The exact endgame solver's driver (Python side of ``_solver.pyx``):
the value, or who wins. The weaker questions -- at least a margin, a best
move, the best choice, every root move valued -- are ``questions.py``'s,
and ``questions.answer`` is ``patchsolve.solve``'s entry.

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

``workers`` (threads; default every core under a time limit, 1 with a node
limit, and more is refused with one): Lazy SMP, helpers running the same
driver into the shared table once a call has searched 2^14 nodes alone
(``_solver.pyx``, "Threads"). Values stay
exact and intervals proven; node counts, and the bounds reached when the
budget runs out, vary from run to run.

``progress``: a callable given a :class:`~patchsolve.search.result.SolveProgress`
(a dict: ``nodes``, ``nps``, ``time``, ``lower``, ``upper``, ``gamma`` --
the test value of the running search --, ``steps``, ``wdl`` -- a win/loss
search runs --, ``move`` while valuing root moves) about once a second.
Bounds and test values are in points, as the result's, whichever search
runs.
"""

from __future__ import annotations

import threading
import time as _time
from collections.abc import Callable
from typing import Any

from patchsolve.errors import LimitError
from patchsolve.rules.position import Move, Position
from patchsolve.search import _solver
from patchsolve.search.budget import SIGN_SHARE
from patchsolve.search.budget import SOLVE_TIME as DEFAULT_SOLVE_TIME
from patchsolve.search.limits import Limits, allocation, threads_for, with_defaults
from patchsolve.search.result import SearchResult, SolveProgress, root_move

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


class _Run:
    """One solve: the C solver, the budget, the clock and progress. The C
    solver (its table) is new, or ``table``: one an earlier run searched,
    whose nodes are not this run's (the C solver counts from its creation)."""

    def __init__(
        self,
        hash_mb: int,
        wdl: bool,
        flags: tuple[bool, ...],
        nodes: int | None,
        seconds: float | None,
        progress: Callable[[SolveProgress], Any] | None,
        threads: int = 1,
        table: Any = None,
    ) -> None:
        if table is None:
            table = c_solver(hash_mb, wdl=wdl, threads=threads, **dict(zip(_FLAG_SWITCHES, flags)))
        self.solver = table
        self.base = self.solver.nodes  # the earlier runs' nodes
        self.threads = self.solver.threads
        self.budget = (nodes or 0, seconds or 0.0)
        self.start = _time.perf_counter()
        self.solver.set_limits(self.base + nodes if nodes else 0, seconds or 0.0)
        self.progress = progress
        self.move: Move | None = None
        self.stopped = False
        self.signing = False  # the win/loss pass runs (progress)
        self.sign: str | None = None  # "win"/"loss" when that pass proved it
        self.sign_move: Move | None = None  # ... and a move proven to win, where its table kept one
        # the root's proven interval while threshold tests run (progress)
        self.known: tuple[int, int] | None = None
        # position text -> (v, move): a fail-high at that position (as the root of a
        # search) proved the move worth at least v
        self.cuts: dict[str, tuple[int, int]] = {}

    @property
    def nodes(self) -> int:
        return self.solver.nodes - self.base

    def elapsed(self) -> float:
        return _time.perf_counter() - self.start

    def report(self) -> None:
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
        info: SolveProgress = {
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
        if self.progress is not None:  # called only by a run that reports
            self.progress(info)

    def sign_bounds(self, pos: Position) -> tuple[int, int]:
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

    def limit_slice(self, share: float | None) -> None:
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

    def call(self, fn: Callable[..., Any], *args: Any) -> Any:
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

    def narrow(
        self, pos: Position, lo: int | None = None, hi: int | None = None, guess: int | None = None
    ) -> tuple[int, int]:
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

    def winning_move(self, pos: Position) -> tuple[Move, int] | None:
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

    def cut_move(self, pos: Position, lo: int) -> Move | None:
        """The move proven worth at least ``lo`` at ``pos`` by a root
        fail-high, or None."""
        cut = self.cuts.get(pos.to_text())
        if cut is None or cut[0] < lo:
            return None
        return _move_of(pos, cut[1])

    def at_least(self, pos: Position, v: int) -> bool | None:
        """True/False: the value of ``pos`` (for its mover) is >= v; None when
        the budget ran out."""
        r = self.call(self.solver.probe, pos._c, v - 1, v)
        return None if r is None else r >= v

    def child_at_least(self, pos: Position, child: Position, w: int) -> bool | None:
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


def _outcome_of(lo: int, hi: int) -> str | None:
    """ "win"/"loss" for the player to move when solver-unit bounds prove it
    (the sign of the value), else None."""
    return "win" if lo > 0 else "loss" if hi < 0 else None


def _flip(pos: Position, child: Position, lo: int, hi: int) -> tuple[int, int]:
    """Bounds of ``child`` for its mover as bounds for ``pos``'s mover."""
    return (lo, hi) if child.to_move == pos.to_move else (-hi, -lo)


# -- lines ---------------------------------------------------------------------


def _tt_move(run: _Run, pos: Position) -> Move | None:
    known = run.solver.tt_bounds(pos._c)
    if known is None:
        return None
    return _move_of(pos, known[2])


def _candidates(run: _Run, pos: Position) -> list:
    first = _tt_move(run, pos)
    moves = pos.legal_moves()
    return ([first] if first is not None else []) + [m for m in moves if m != first]


def _achieving(run: _Run, pos: Position, w: int) -> tuple[Move, Position] | None:
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


def principal_variation(run: _Run, pos: Position, value: int, first: Move | None = None) -> list[Move]:
    """A line of moves each keeping the exact ``value``, to the end of the
    game or as far as the budget allows (``first``: a move already proven
    to keep it)."""
    line = []
    w = value
    while not pos.is_over:
        found: tuple[Move, Position] | None
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


def _result(run: _Run, position: Position, lo: int, hi: int, seed: int | None) -> SearchResult:
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


# -- weaker questions ----------------------------------------------------------


def _root_interval(run: _Run, pos: Position) -> tuple[int, int]:
    """Proven (lo, hi) of ``pos`` from the static bounds and the table."""
    lo, hi = run.solver.bounds(pos._c)
    known = run.solver.tt_bounds(pos._c)
    if known is not None:
        lo, hi = max(lo, known[0]), min(hi, known[1])
    return lo, hi


def _move_of(pos: Position, code: int) -> Move | None:
    """The legal move of ``pos`` with ``code`` (None if there is none)."""
    for m in pos.legal_moves():
        if m.code == code:
            return m
    return None


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


def _new_run(limits: Limits, opts: dict, table: Any = None) -> _Run:
    """A run within ``limits`` (time, nodes; none: DEFAULT_SOLVE_TIME) with
    ``opts`` as ``check_options`` returns them; its table allocated here, or
    ``table`` (``new_table``, made for the same options)."""
    seconds, nodes = limits.time, limits.nodes
    if seconds is None and nodes is None:
        seconds = DEFAULT_SOLVE_TIME
    hash_mb = limits.hash_mb or DEFAULT_HASH_MB
    flags = (opts["static"], opts["relax"], opts["etc"])
    if table is not None:  # its threads are the table's (``new_table``)
        if table.wdl != opts["wdl"] or flags != _DEFAULT_FLAGS:
            raise ValueError("a table handed on is searched with the default exact options only")
        return _Run(hash_mb, opts["wdl"], flags, nodes, seconds, opts["progress"], table.threads, table)
    threads = threads_for(limits, "solve")
    with allocation("solver table", hash_mb):
        return _Run(hash_mb, opts["wdl"], flags, nodes, seconds, opts["progress"], threads)


def new_table(limits: Limits | None = None, *, hash_mb: int | None = None, threads: int = 1) -> Any:
    """A solver table for ``limits`` (``hash_mb``, ``workers``) with the
    default exact options, to hand from one run to the next: what the
    solver tried first near the end proved, the alpha-beta's hand-over finds
    (``run(..., table=)``, ``choice_or_value(..., table=)``;
    benchmarks/results/best_choice/, round 3). Without ``limits``: of
    ``hash_mb`` megabytes (None: the default) on ``threads`` threads, as
    the search's budget counted them (``budget.TimeManager.solver_first``)."""
    if limits is not None:
        hash_mb, threads = limits.hash_mb, threads_for(limits, "solve")
    mb = hash_mb or DEFAULT_HASH_MB
    with allocation("solver table", mb):
        # no budget yet: each run sets its own (``_Run``)
        return c_solver(mb, wdl=False, threads=threads, **dict(zip(_FLAG_SWITCHES, _DEFAULT_FLAGS)))


def run(position: Position, limits: Limits, opts: dict, table: Any = None) -> SearchResult:
    """The exact final margin for the player to move (``position`` not
    over) under perfect play within ``limits`` (time, nodes; none: 30 s),
    or proven bounds on it, or with ``wdl`` who wins (see the module doc);
    ``opts`` as ``check_options`` returns them, asking none of the weaker
    questions (``questions.answer`` asks those); on ``table``
    (``new_table``) if given."""
    asked = [q for q in ("all_moves", "at_least", "best") if opts[q] is not None and opts[q] is not False]
    if asked:
        raise ValueError(f"{', '.join(asked)} is a question for questions.answer, not the driver's run")
    run_ = _new_run(limits, opts, table)
    return value(run_, position, limits.seed, sign_first=opts["sign_first"])


def value(run_: _Run, position: Position, seed: int | None, sign_first: bool = True) -> SearchResult:
    """The value (or, in a win/loss run, who wins) of ``position`` on the
    run ``run_``: first the win/loss pass (``sign_first``, exact runs only),
    then the driver from its interval."""
    lo = hi = None
    if sign_first and not run_.solver.wdl:
        lo, hi = run_.sign_bounds(position)
    lo, hi = run_.narrow(position, lo, hi)
    return _result(run_, position, lo, hi, seed)


__all__ = [
    "run",
    "value",
    "c_solver",
    "C_SWITCHES",
    "new_table",
    "check_options",
    "principal_variation",
]
