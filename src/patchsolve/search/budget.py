"""The time manager: every share of a search's budget, in one place.

A search gets one :class:`~patchsolve.search.limits.Limits`; what each part
of it may spend is cut from that here (the figures behind each share are
in the notes named beside it):

===========================  =================================================
default budgets              ``SEARCH_TIME`` (an engine given no limit),
                             ``CLI_TIME`` (the commands), ``SOLVE_TIME`` (the
                             solver: it cannot know how hard a position is)
the solver first             ``ENDGAME_SHARE`` of the time and nodes, or under
                             a node budget alone nodes of its own
                             (``SOLVER_NODES_SHARE``, :func:`apart`), or
                             ``ENDGAME_NODES`` under a depth or iteration
                             budget: :meth:`TimeManager.first_share`
the reserve                  ``KEEP_SHARE``, kept back to test the engine's
                             move when only a win is proven: :meth:`TimeManager.reserve`
the engine after it          what is left: :meth:`TimeManager.rest`
the solver beside            one thread for the move time less the reserve
                             (under ``BESIDE_MAX_TIME``): :meth:`TimeManager.beside_time`
the hand-over                what the engine left, unless less than
                             ``HAND_OVER_MIN`` of it: :meth:`TimeManager.left_for_hand_over`; less
                             the engine's look at a choice left standing
                             (``STANDING_CHECK_*``): :func:`less_standing_check`
the solver's own slices      ``SIGN_SHARE`` for the win/loss pass,
                             ``BEST_FIRST_SHARE`` and ``CHOICE_SLICE`` for the
                             first slices of the questions (then doubled)
its table                    ``SHORTCUT_HASH_MB`` by the size of the share:
                             :meth:`TimeManager.table_mb`
===========================  =================================================

A share is a plain dict of ``time``, ``nodes`` and ``workers`` until the
solver runs it (:meth:`TimeManager.solver` makes the ``Limits``).

One search's shares come from one :class:`TimeManager`, the time manager:
``patchsolve.search`` makes it once, with the limits checked for the
engine and the engine's threads counted once, and the near-end plan
(``endgame.py``), the engine and the hand-over (``handover.py``) ask it
for each share as the search proceeds, without the limits being passed
again.
"""

from __future__ import annotations

from functools import cached_property

from patchsolve.search.limits import Limits, threads_for

# -- default budgets -------------------------------------------------------------
SEARCH_TIME = 1.0  # seconds: a search (alpha-beta) given no budget
CLI_TIME = 2.0  # seconds: the commands' default (``patchsolve best``, ``eval``)
SOLVE_TIME = 30.0  # seconds: a solve given no budget (the solver cannot know how hard a position is)

# -- the near-end solver ---------------------------------------------------------
ENDGAME_SHARE = 0.25  # of the time budget for the solver tried first ...
SOLVER_NODES_SHARE = 0.83  # ... or under a node budget, solver nodes of its own per node of it ...
ENDGAME_NODES = 200_000  # ... or this many nodes under a depth / iteration budget (deterministic)
KEEP_SHARE = 0.1  # of the budget, kept back to test the engine's move when a win is proven
BESIDE_MAX_TIME = 1.0  # seconds a move: from here the solver first, then the hand-over, gain more
HAND_OVER_MIN = 0.05  # of the budget: less left than this is not handed to the solver
# the engine's look at the one choice left standing: at most this many
# nodes or seconds (the same decisions at 20,000 nodes as at 300,000 in the
# six games and the set position measured; benchmarks/results/standing/)
STANDING_CHECK_NODES = 20_000
STANDING_CHECK_TIME = 0.01
SHORTCUT_HASH_MB = (4, 16)  # the near-end solver's table: small budgets, larger ones
SHORTCUT_SMALL_TIME = 0.5  # seconds of its budget counted as small ...
SHORTCUT_SMALL_NODES = 1_000_000  # ... and nodes

# -- the solver's own slices -----------------------------------------------------
SIGN_SHARE = 0.5  # of the budget, at most, for the win/loss pass before an exact solve
BEST_FIRST_SHARE = 1 / 64  # best=True: the first slice of the budget for each driver (then doubled)
CHOICE_SLICE = 1 / 64  # best_choice: each test's first slice of the budget (then doubled each round)


def apart(limits: Limits) -> bool:
    """Under a node budget alone, the near-end solver's nodes are its own
    and the engine keeps its whole budget: the deterministic counterpart
    of the solver beside the search, which under a time budget gets a core
    of its own for the move's time. SOLVER_NODES_SHARE is the solver's
    nodes per alpha-beta node in the same CPU time near the end (0.83 on
    the perfect-play set), so the solver gets what the engine's budget is
    worth in time. Node budgets stand in for timed play (self-play, the
    level ladders, reviews); counted against the engine's, the solver got
    a quarter of them and threw away wins it proves in a fraction of a
    second (benchmarks/results/tie_break/)."""
    return limits.nodes is not None and limits.time is None


class TimeManager:
    """The time manager of one search: its :class:`Limits`, held, and the
    engine's threads, counted once (:attr:`threads`); asked, without the
    limits, for each share as the search proceeds:

    - :meth:`solver_first`: the limits of the solver tried first near the
      end (``ENDGAME_SHARE``, or nodes of its own: :func:`apart`);
    - :meth:`solver_spent`, then :meth:`engine_share`: the engine's
      limits after it given what it spent, less the reserve (``kept``)
      when it proved a win, and the engine's threads;
    - :meth:`beside` and :meth:`left_after`: the solver beside the search
      and the search beside it, and the reserve left after both;
    - :meth:`hand_over`: the hand-over's share given what the engine spent
      (of the engine's limits, ``engine_limits``), which :meth:`solver`
      makes the solver's ``Limits``.

    ``check``: the limits are checked for ``engine``
    (``Limits.for_engine``) and its threads counted here, as
    ``patchsolve.search`` makes it; else the threads are counted when first
    asked for, unless given (``threads``).
    """

    def __init__(
        self, limits: Limits, engine: str = "alphabeta", threads: int | None = None, check: bool = False
    ) -> None:
        self.limits = limits
        self.engine = engine
        self.own_nodes = apart(limits)
        self.engine_limits = limits  # the engine's: the whole, or the rest after the solver first
        self.kept: dict = {}  # the reserve kept back once the solver first proved a win
        self._left: dict = {}  # the changes to the limits for the engine after the solver first
        if check:
            limits.for_engine(engine)
            if threads is None:
                threads = threads_for(limits, engine)
        if threads is not None:
            self.threads = threads  # held: not counted again

    @cached_property
    def threads(self) -> int:
        """The engine's threads (``limits.threads_for``): counted once, when
        the budget is made with ``check`` (or given), else when first asked
        for."""
        return threads_for(self.limits, self.engine)

    def share(self, part: float, nodes: int) -> dict:
        """``part`` of the time and node budget, or ``nodes`` nodes under a
        depth or iteration budget (deterministic): the solver's share first,
        and the reserve for testing the engine's move."""
        out: dict = {}
        if self.limits.time is not None:
            out["time"] = self.limits.time * part
        if self.limits.nodes is not None:
            out["nodes"] = max(1, int(self.limits.nodes * part))
        if not out:
            out["nodes"] = nodes
        return out

    def first_share(self, workers: int | None) -> dict:
        """The share of the solver tried first on ``workers`` threads:
        ``ENDGAME_SHARE``, or under a node budget alone (``own_nodes``:
        :func:`apart`) ``SOLVER_NODES_SHARE`` nodes of its own per node of
        it."""
        out = self.share(ENDGAME_SHARE, ENDGAME_NODES)
        if self.own_nodes and self.limits.nodes is not None:
            out["nodes"] = max(1, int(self.limits.nodes * SOLVER_NODES_SHARE))
        out["workers"] = workers
        return out

    def solver_first(self, workers: int | None) -> tuple[Limits, int]:
        """The limits of the solver tried first on ``workers`` threads
        (:meth:`first_share`), and the threads its run takes (for a table
        made before it: ``solver.new_table``)."""
        within = self.solver(self.first_share(workers))
        return within, threads_for(within, "solve")

    def reserve(self) -> dict:
        """The share kept back to test the engine's move once a win is
        proven (``proof.keep_the_win``)."""
        return self.share(KEEP_SHARE, ENDGAME_NODES // 4)

    def rest(self, spent: float, solver_nodes: int, kept: dict) -> dict:
        """The changes to the limits for the engine after the solver first
        (``spent`` seconds, ``solver_nodes`` nodes) and the reserve ``kept``;
        under a node budget alone (``own_nodes``) the solver's nodes were
        its own."""
        left: dict = {}
        if self.limits.time is not None:
            left["time"] = max(1e-3, self.limits.time - spent - kept.get("time", 0.0))
        if self.limits.nodes is not None and not self.own_nodes:
            left["nodes"] = max(1, self.limits.nodes - solver_nodes - kept.get("nodes", 0))
        return left

    def solver_spent(self, spent: float, solver_nodes: int, won: bool) -> dict:
        """What the solver first spent (``spent`` seconds, ``solver_nodes``
        nodes) and whether it proved a win (``won``): the engine then gets
        the rest (:meth:`engine_rest`), less the reserve that tests its move,
        which is returned (and kept in ``kept``)."""
        self.kept = self.reserve() if won else {}
        self._left = self.rest(spent, solver_nodes, self.kept)
        return self.kept

    def engine_rest(self) -> Limits:
        """The engine's limits: the whole budget, or what is left after the
        solver first (:meth:`solver_spent`); the hand-over's share is cut
        from them (``engine_limits``)."""
        self.engine_limits = self.limits.replace(**self._left) if self._left else self.limits
        return self.engine_limits

    def engine_share(self) -> tuple[Limits, int]:
        """(The engine's limits, :meth:`engine_rest`, and its threads)."""
        threads = self.threads
        return self.engine_rest(), threads

    def beside_time(self) -> float:
        """The seconds of the solver beside the search, and of the search
        beside it: the move time less the reserve (``beside`` holds: a time
        limit)."""
        return float(self.limits.time or 0.0) * (1 - KEEP_SHARE)

    def beside(self) -> tuple[Limits, Limits, int]:
        """(The solver's limits, the engine's, all the threads) when the
        solver runs beside the search: both for :meth:`beside_time`, the
        solver on one of the threads and the engine on the others."""
        threads = self.threads
        share = self.beside_time()
        within = self.solver({"time": share, "workers": 1})
        self.engine_limits = self.limits.replace(time=share, workers=threads - 1)
        return within, self.engine_limits, threads

    def left_after(self, spent: float) -> dict:
        """The reserve after the solver beside the search: what is left of
        the move time after ``spent`` seconds."""
        return {"time": max(1e-3, float(self.limits.time or 0.0) - spent)}

    def left_for_hand_over(self, used: float, engine_nodes: int) -> dict | None:
        """What is left of the engine's limits after it ran (``used``
        seconds, ``engine_nodes`` nodes), or None: less than
        ``HAND_OVER_MIN`` of a budget left, or no time or node budget."""
        limits = self.engine_limits
        left: dict = {}
        if limits.time is not None:
            left["time"] = limits.time - used
            if left["time"] < HAND_OVER_MIN * limits.time:
                return None
        if limits.nodes is not None:
            left["nodes"] = limits.nodes - engine_nodes
            if left["nodes"] < HAND_OVER_MIN * limits.nodes:
                return None
        return left or None

    def hand_over(self, used: float, engine_nodes: int) -> dict | None:
        """The hand-over's share after the engine (``used`` seconds,
        ``engine_nodes`` nodes) on the engine's threads (its cores are free
        then), or None: :meth:`left_for_hand_over`."""
        left = self.left_for_hand_over(used, engine_nodes)
        return None if left is None else dict(left, workers=self.threads)

    def solver(self, part: dict) -> Limits:
        """The solver's limits for the share ``part`` (time, nodes,
        workers): the search's seed, and a table sized to the share
        (:meth:`table_mb`)."""
        return Limits(hash_mb=self.table_mb(part), seed=self.limits.seed, **part)

    def table_mb(self, part: dict) -> int:
        """A table sized to the solver's share ``part``: a fresh 64 MB table
        costs more in first-touch page faults than a 0.1 s solve takes (at
        0.25 s a move, 11-13 of 21 near-end positions proven with 64 MB,
        15-17 with 4 MB; benchmarks/results/shortcut_table.md)."""
        small = part.get("time", 0) <= SHORTCUT_SMALL_TIME and part.get("nodes", 0) <= SHORTCUT_SMALL_NODES
        mb = SHORTCUT_HASH_MB[0] if small else SHORTCUT_HASH_MB[1]
        return min(mb, self.limits.hash_mb) if self.limits.hash_mb else mb


def less_standing_check(budget: dict) -> dict:
    """``budget`` (in place, and returned) less what is kept back for the
    engine's look at a choice left standing: STANDING_CHECK_TIME and
    STANDING_CHECK_NODES, at most half of it."""
    if "time" in budget:
        budget["time"] = max(budget["time"] - STANDING_CHECK_TIME, budget["time"] / 2)
    if "nodes" in budget:
        budget["nodes"] = max(budget["nodes"] - STANDING_CHECK_NODES, budget["nodes"] // 2)
    return budget


def standing_check(seed: int | None, timed: bool) -> Limits:
    """The alpha-beta's limits for its look at a choice left standing:
    STANDING_CHECK_NODES, one thread, and STANDING_CHECK_TIME when the
    move is ``timed`` (a node budget alone stays deterministic)."""
    time = STANDING_CHECK_TIME if timed else None
    return Limits(nodes=STANDING_CHECK_NODES, time=time, workers=1, hash_mb=1, seed=seed)


def halves(kept: dict) -> dict:
    """Half of the reserve ``kept``: one half tests the engine's move, the
    other looks for a winning move."""
    return {k: v / 2 if k == "time" else max(1, v // 2) for k, v in kept.items()}


def win_test(kept: dict) -> Limits:
    """The limits of a win/loss test within the reserve ``kept``: one
    thread, the small table."""
    return Limits(hash_mb=SHORTCUT_HASH_MB[0], workers=1, **kept)


__all__ = [
    "SEARCH_TIME",
    "CLI_TIME",
    "SOLVE_TIME",
    "ENDGAME_SHARE",
    "SOLVER_NODES_SHARE",
    "ENDGAME_NODES",
    "KEEP_SHARE",
    "BESIDE_MAX_TIME",
    "HAND_OVER_MIN",
    "SIGN_SHARE",
    "TimeManager",
    "apart",
    "less_standing_check",
    "standing_check",
    "halves",
    "win_test",
]
