"""Alpha-beta search (Python side).

The hot loop is ``_alphabeta.pyx``; this module turns validated
:class:`~patchsolve.search.limits.Limits` and options into a run of the C
searcher and its codes into a :class:`~patchsolve.search.SearchResult`.
Limits, finished positions and the near-end exact solver are handled once
for every engine by :func:`patchsolve.search` (``dispatch.py``).

``run`` (``patchsolve.search(pos, engine="alphabeta", ...)``)
    Iterative deepening PVS with a transposition table and an evaluation at
    the leaves. ``score`` is the estimated final margin for the player to
    move. Where at least ``prune_depth`` plies are left, only the
    ``placements`` best placements of each patch are searched (fewest free
    squares along the patch's edge, 4 more per isolated hole left);
    ``placements=0`` searches every placement. Within ``rank_plies`` plies
    of the root, once both players together have at most 56 spaces left, a
    patch's placements are instead ranked by the learned evaluation of the
    position after each (the edge count breaking ties), so the placements
    kept there are the evaluation's best (``rank_plies=0``: never). Once ``lmr`` moves of a node
    are searched, each further move (walking excepted) is first searched
    one ply shallower and re-searched only when it beats alpha (``lmr=0``:
    off). Below the root, where pruning applies, a leather patch (a single
    square, placed at once when a player passes a leather space) is tried
    only on the ``leather`` squares ranked best by the same edge count (a
    square completing the 7x7 bonus first); ``leather=0`` tries every
    empty square, as the root always does (and so does ``placements=0``,
    which turns every pruning off).
    The defaults (2 placements everywhere, reductions from the 4th move)
    were chosen by matches: benchmarks/results/search_tuning.md; the
    4 leather squares by a match (64.0% of 400 games against every square
    at 0.1 s): benchmarks/results/search_screens/; the
    ranking by points lost against perfect play and endgame matches:
    benchmarks/results/placement_rank/.
    ``multipv=N`` ranks the N best root moves (MultiPV, as Stockfish
    does): every iteration of the deepening searches the best line, then
    the best of the root moves not found yet, N times, each at the same
    depth and in a full window, the later lines over every placement of
    the root (so N rows whenever N legal moves exist). ``root_moves`` are
    the lines of the deepest iteration whose N lines all finished, sorted
    by value; its first row is ``best_move``. Each row's ``score`` is an
    estimate at ``depth`` plies (``bound="estimate"``, ``depth`` in the
    row), or ``bound="exact"`` when the move ends the game. The values are
    of one search: a row's value is what a search of that move's child
    one ply shallower gives, up to the table's and the pruning's effects
    (equal with ``tt=False, placements=0, lmr=0``). Near the end, the
    exact solver tried first ranks the moves instead (``endgame.py``).
    The deepening stops at an iteration that evaluated no leaf: every
    line ran to the end of the game (within the pruning), so a deeper one
    would search the same tree again. Under a time or node budget what is
    left then goes to the exact solver (``handover.hand_over``).
    ``on_iteration`` (a callable, default None) is given a
    ``SearchResult`` after each finished iteration (its ``nodes`` the
    main thread's): progress without a second search.
    ``learned=False`` uses the hand-tuned evaluation instead of the learned
    one (``search/learned.py``).

    The ``workers`` limit is the number of threads (helpers search the same
    root into one shared table and share the moves being searched, which
    the others put off: simplified ABDADA; the main thread's answer is
    returned). Under a time limit alone it defaults to every core (at most
    ``limits.MAX_DEFAULT_WORKERS``); with a ``nodes`` or ``depth`` limit it is 1,
    and more is refused, since threads make the search nondeterministic
    while those limits promise a reproducible answer.

``KeptTable`` and ``keeping``: the searches inside ``keeping(table)`` share
one searcher, and so one transposition table, from one search to the next
(a pondering player's moves: ``search/ponder.py``).

Exact values are the dedicated solver's (``solver.py``, ``patchsolve.solve``).
"""

from __future__ import annotations

import time as _time
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from patchsolve.errors import IllegalMoveError, LimitError
from patchsolve.rules.position import Move, Position, as_position
from patchsolve.rules.symmetry import mirror_classes
from patchsolve.search import _alphabeta, _eval
from patchsolve.search.budget import SEARCH_TIME
from patchsolve.search.limits import Limits, allocation, threads_for, with_defaults
from patchsolve.search.result import (
    RootMove,
    SearchResult,
    choice_first,
    finished_result,
    phase_of,
    root_move,
    win_probability_of,
)

MAX_DEPTH = 100
MAX_INCLUDE = 256  # moves valued as lines of their own (``include``)
DEFAULT_HASH_MB = 16

# option -> default; limits (time, nodes, ...) are not options
# (the ordering look-ahead ``lookahead`` is retired: benchmarks/results/retired_options.md)
OPTIONS = {
    "placements": 2,
    "prune_depth": 1,
    "rank_plies": 3,
    "tt": True,
    "learned": True,
    "lmr": 3,
    "leather": 4,
    "on_iteration": None,
    "include": (),
}
_INT_RANGES = {
    "placements": (0, 2048),
    "prune_depth": (1, MAX_DEPTH),
    "rank_plies": (0, MAX_DEPTH),
    "lmr": (0, 2048),
    "leather": (0, 81),
}


def check_options(options: dict) -> dict:
    """``options`` completed from ``OPTIONS`` and checked (a ``LimitError``
    names the first bad one)."""
    out = with_defaults(options, OPTIONS, "alpha-beta")
    for name, value in out.items():
        if name in _INT_RANGES:
            lo, hi = _INT_RANGES[name]
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise LimitError(f"{name} must be an integer between {lo} and {hi}, not {value!r}")
        elif name == "on_iteration":
            if value is not None and not callable(value):
                raise LimitError(f"on_iteration must be a callable, not {value!r}")
        elif name == "include":
            if isinstance(value, (str, Move)) or not isinstance(value, (list, tuple)):
                raise LimitError(f"include must be a list of moves, not {value!r}")
            if len(value) > MAX_INCLUDE or not all(isinstance(m, (str, Move)) for m in value):
                raise LimitError(f"include must be a list of at most {MAX_INCLUDE} moves (text or Move)")
        elif not isinstance(value, bool):
            raise LimitError(f"{name} must be True or False, not {value!r}")
    return out


_SEARCHER_OPTIONS = ("tt", "placements", "prune_depth", "rank_plies", "lmr", "leather")  # the C searcher's


def _searcher(hash_mb: int, opts: dict) -> Any:
    with allocation("transposition table", hash_mb):
        return _alphabeta.Searcher(hash_mb, **{k: opts[k] for k in _SEARCHER_OPTIONS})


class KeptTable:
    """The alpha-beta's searcher, and so its transposition table, kept
    from one search to the next (the moves of one game, and the ponder
    between them: ``search/ponder.py``), as Stockfish keeps its hash
    between moves. Searches run inside :func:`keeping` use it when their
    table size and options are the ones it was made with; any other search
    (the hand-over's small checks) gets a fresh table as usual."""

    def __init__(self) -> None:
        self.searcher: Any = None  # an _alphabeta.Searcher once made
        self._made_for: tuple | None = None

    def searcher_for(self, hash_mb: int, opts: dict) -> Any:
        """The kept searcher when it suits ``hash_mb`` and ``opts`` (made on
        first use), else None."""
        # the evaluation too: the table's values are its
        made_for = (hash_mb, opts["learned"], *(opts[k] for k in _SEARCHER_OPTIONS))
        if self.searcher is None:
            self.searcher, self._made_for = _searcher(hash_mb, opts), made_for
        if made_for != self._made_for:
            return None
        # an interrupt left from before (a ponder's stop, or the solver beside
        # proving the value after the search had run out of time) must not
        # stop this run
        self.searcher.resume()
        return self.searcher


_KEPT: ContextVar[KeptTable | None] = ContextVar("patchsolve_kept_table", default=None)


@contextmanager
def keeping(table: KeptTable) -> Iterator[KeptTable]:
    """Alpha-beta searches in this block (in this thread) search on
    ``table``'s kept searcher."""
    token = _KEPT.set(table)
    try:
        yield table
    finally:
        _KEPT.reset(token)


# -- results ----------------------------------------------------------------


def _static(position: Position, nodes: int, elapsed: float, seed: int | None, engine: str) -> SearchResult:
    """No iteration finished: the greedy move, statically valued."""
    move = Move.from_code(_eval.greedy_move(position._c))
    score = _eval.evaluate_state(position._c, position.to_move)
    return SearchResult(
        move,
        score,
        "estimate",
        [move],
        0,
        nodes,
        elapsed,
        nodes / elapsed if elapsed > 0 else 0.0,
        seed,
        engine=engine,
        win_probability=win_probability_of(score, phase_of(position)),
        root_moves=[root_move(move, score, phase=phase_of(position))],
    )


def _rows(position: Position, lines: list[tuple], depth: int) -> list[RootMove]:
    """``SearchResult.root_moves`` from an iteration's lines (value, pv,
    included), best first: each an estimate at ``depth`` plies, or exact
    when the move ends the game (a finished child is valued by its margin);
    a line searched because ``include`` asked for its move says so."""
    rows: list[RootMove] = []
    for value, pv, *asked in lines:
        move = Move.from_code(pv[0])
        child = position.play(move)
        extra: dict = {"pv": [Move.from_code(c) for c in pv]}
        if asked and asked[0]:
            extra["included"] = True
        if child.is_over:
            proven = "win" if child.winner() == position.to_move else "loss"
            rows.append(root_move(move, value, "exact", proven=proven, depth=depth, **extra))
        else:
            rows.append(root_move(move, value, depth=depth, phase=phase_of(position), **extra))
    return rows


def _result(
    position: Position,
    done: list[tuple],
    partial: tuple | None,
    nodes: int,
    elapsed: float,
    seed: int | None,
    engine: str,
    keep: Collection[Move] = (),
) -> SearchResult:
    """The deepest finished iteration's answer; its move, value and PV are
    replaced by those of the interrupted iteration when one of its root
    moves finished: the previous best is searched first there, so whatever
    finished is either it, deeper, or a move proven better at that depth.
    ``depth`` stays that of the last finished iteration. Under MultiPV the
    caller passes no ``partial`` once an iteration finished: the ranked
    rows and the answer then come from that one iteration. A row of a
    move in ``keep`` (``include``) is listed even when its quilt is another
    row's mirror image."""
    if not done and partial is None:
        return _static(position, nodes, elapsed, seed, engine)
    depth = done[-1][0] if done else 0
    row_depth, value, pv, _, _, lines = partial if partial is not None else done[-1]
    moves = [Move.from_code(c) for c in pv]
    nps = nodes / elapsed if elapsed > 0 else 0.0
    return SearchResult(
        moves[0],
        value,
        "estimate",
        moves,
        depth,
        nodes,
        elapsed,
        nps,
        seed,
        engine=engine,
        win_probability=win_probability_of(value, phase_of(position)),
        root_moves=choice_first(position, _rows(position, lines or [(value, pv)], row_depth), keep),
    )


# -- search -----------------------------------------------------------------


def run(
    position: Position,
    limits: Limits,
    opts: dict,
    on_searcher: Callable[[Any], object] | None = None,
    threads: int | None = None,
) -> SearchResult:
    """Iterative deepening within ``limits`` (depth, time, nodes; the first
    reached stops it; none given: one second; the deepest finished
    iteration answers, or the best root move that finished in the
    interrupted one, ``_result``), with the learned evaluation on or off as
    ``learned`` says; ``opts`` as ``check_options`` returns them (the
    dispatcher checks once). ``on_searcher``, when given, is called with
    the C searcher before it runs (its ``interrupt()`` stops the run from
    another thread: the solver beside the search, ``endgame.py``).
    ``threads``: the threads the search's budget counted for these limits
    (``budget.TimeManager.threads``), else ``limits.threads_for``'s."""
    with learned_evaluation(opts["learned"]):
        return _run(position, limits, opts, on_searcher, threads)


def _run(
    position: Position,
    limits: Limits,
    opts: dict,
    on_searcher: Callable[[Any], object] | None = None,
    threads: int | None = None,
) -> SearchResult:
    seconds, nodes, depth = limits.time, limits.nodes, limits.depth
    if seconds is None and nodes is None and depth is None:
        seconds = SEARCH_TIME
    multipv = limits.multipv or 1
    start = _time.perf_counter()
    workers = threads_for(limits, "alphabeta") if threads is None else threads
    hash_mb = limits.hash_mb or DEFAULT_HASH_MB
    kept = _KEPT.get()
    searcher = kept.searcher_for(hash_mb, opts) if kept is not None else None
    if searcher is None:
        searcher = _searcher(hash_mb, opts)
    if on_searcher is not None:
        on_searcher(searcher)
    include = [_legal_code(position, m) for m in opts["include"]]
    kept_rows = [Move.from_code(c) for c in include]
    report = None
    if opts["on_iteration"] is not None:

        def report(entry: tuple) -> None:
            # the main thread's nodes: the helpers' are summed when they stop
            r = _result(
                position,
                [entry],
                None,
                entry[3],
                _time.perf_counter() - start,
                limits.seed,
                "alphabeta",
                kept_rows,
            )
            r.workers = searcher.threads
            opts["on_iteration"](r)

    done = searcher.run(
        position._c,
        depth or MAX_DEPTH,
        nodes or 0,
        seconds or 0.0,
        workers=workers,
        multipv=multipv,
        on_iteration=report,
        asked=include,
        aliases=mirror_classes(position) if multipv > 1 else None,
    )
    partial = searcher.partial if (multipv == 1 and not include) or not done else None
    result = _result(
        position,
        done,
        partial,
        searcher.nodes,
        _time.perf_counter() - start,
        limits.seed,
        "alphabeta",
        kept_rows,
    )
    result.workers = searcher.threads
    return result


def _legal_code(position: Position, move: str | Move) -> int:
    """The code of ``move`` (text or Move), legal in ``position``, or an error naming it."""
    m = position.parse_move(move) if isinstance(move, str) else move
    if not position.is_legal(m):
        raise IllegalMoveError(f"include: {m} is not a legal move in this position")
    return m.code


@contextmanager
def learned_evaluation(on: bool) -> Iterator[None]:
    """The learned evaluation switched off for one search when ``on`` is
    False (it is a process-wide switch in C), restored after."""
    from patchsolve.search import _learned

    saved = _learned.learned_weights(), _learned.learned_patterns()
    if not on:
        _learned.set_learned(None)
    try:
        yield
    finally:
        _learned.set_learned(*saved)


def evaluate(position: Position) -> float:
    """The static evaluation: estimated final score margin for the player
    to move (terms documented in ``_eval.pyx``)."""
    position = as_position(position)
    if position.is_over:
        return finished_result(position, "alphabeta").score
    return _eval.evaluate_state(position._c, position.to_move)


__all__ = ["run", "evaluate", "check_options", "OPTIONS", "KeptTable", "keeping"]
