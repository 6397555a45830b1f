"""Alpha-beta search (Python side).

The hot loop is ``_alphabeta.pyx``; this module turns validated
:class:`~patchsolve.search.limits.Limits` and options into a run of the C
searcher and its codes into a :class:`~patchsolve.search.SearchResult`.
Limits, finished positions and the near-end exact shortcut are handled once
for every engine by :func:`patchsolve.search` (``dispatch.py``).

``run`` (``patchsolve.search(pos, engine="alphabeta", ...)``)
    Iterative deepening PVS with a transposition table and an evaluation at
    the leaves. ``score`` is the estimated final margin for the player to
    move. Where at least ``prune_depth`` plies are left, only the
    ``placements`` best placements of each patch are searched (fewest free
    squares along the patch's edge, 4 more per isolated hole left);
    ``placements=0`` searches every placement. Once ``lmr`` moves of a node
    are searched, each further move (walking excepted) is first searched
    one ply shallower and re-searched only when it beats alpha (``lmr=0``:
    off).
    The defaults (2 placements everywhere, reductions from the 4th move)
    were chosen by matches: benchmarks/results/search_tuning.md.
    ``multipv=N`` values the N best root moves one by one (half the budget
    goes to the main search).
    ``learned=False`` uses the hand-tuned evaluation instead of the learned
    one (``search/learned.py``).

    The ``workers`` limit is the number of threads (Lazy SMP: helpers search
    the same root into one shared table; the main thread's answer is
    returned). Under a time limit alone it defaults to every core (at most
    ``limits.MAX_DEFAULT_WORKERS``); with a ``nodes`` or ``depth`` limit it is 1,
    and more is refused, since threads make the search nondeterministic
    while those limits promise a reproducible answer.

Exact values are the dedicated solver's (``solver.py``, ``patchsolve.solve``).
"""

from __future__ import annotations

import time as _time
from contextlib import contextmanager

from patchsolve.errors import LimitError
from patchsolve.position import Move, as_position
from patchsolve.search import _alphabeta, _eval
from patchsolve.search.limits import allocation, threads_for, with_defaults
from patchsolve.search.stop import stop_requested
from patchsolve.search.result import SearchResult, finished_result, root_move, win_probability_of

MAX_DEPTH = 100
DEFAULT_TIME = 1.0         # search with no budget given
DEFAULT_HASH_MB = 16
MULTIPV_SHARE = 0.5        # with multipv > 1, the main search's share of the budget

# option -> default; limits (time, nodes, ...) are not options
# (the ordering look-ahead ``lookahead`` is retired: benchmarks/results/retired_options.md)
OPTIONS = {"placements": 2, "prune_depth": 1, "tt": True, "learned": True, "lmr": 3}
_INT_RANGES = {"placements": (0, 2048), "prune_depth": (1, MAX_DEPTH), "lmr": (0, 2048)}


def check_options(options: dict) -> dict:
    out = with_defaults(options, OPTIONS, "alpha-beta")
    for name, value in out.items():
        if name in _INT_RANGES:
            lo, hi = _INT_RANGES[name]
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise LimitError(f"{name} must be an integer between {lo} and {hi}, not {value!r}")
        elif not isinstance(value, bool):
            raise LimitError(f"{name} must be True or False, not {value!r}")
    return out


def _searcher(hash_mb, opts):
    with allocation("transposition table", hash_mb):
        return _alphabeta.Searcher(hash_mb, tt=opts["tt"], placements=opts["placements"],
                                   prune_depth=opts["prune_depth"], lmr=opts["lmr"])


def _mover_value(position, child, value):
    """A child's value for the root's player to move (turns need not alternate)."""
    return value if child.to_move == position.to_move else -value


# -- results ----------------------------------------------------------------

def _static(position, nodes, elapsed, seed, engine) -> SearchResult:
    """No iteration finished: the greedy move, statically valued."""
    move = Move.from_code(_eval.greedy_move(position._c))
    score = _eval.evaluate_state(position._c, position.to_move)
    return SearchResult(move, score, "estimate", [move], 0, nodes, elapsed, nodes / elapsed if elapsed > 0 else 0.0,
                        seed, engine=engine, win_probability=win_probability_of(score),
                        root_moves=[root_move(move, score)])


def _result(position, done, partial, nodes, elapsed, seed, engine) -> SearchResult:
    """The deepest finished iteration's answer; its move, value and PV are
    replaced by those of the interrupted iteration when one of its root
    moves finished: the previous best is searched first there, so whatever
    finished is either it, deeper, or a move proven better at that depth.
    ``depth`` stays that of the last finished iteration."""
    if not done and partial is None:
        return _static(position, nodes, elapsed, seed, engine)
    depth = done[-1][0] if done else 0
    _, value, pv, _, _ = partial if partial is not None else done[-1]
    moves = [Move.from_code(c) for c in pv]
    nps = nodes / elapsed if elapsed > 0 else 0.0
    return SearchResult(moves[0], value, "estimate", moves, depth, nodes, elapsed, nps, seed, engine=engine,
                        win_probability=win_probability_of(value), root_moves=[root_move(moves[0], value)])


# -- search -----------------------------------------------------------------

def run(position, limits, opts) -> SearchResult:
    """Iterative deepening within ``limits`` (depth, time, nodes; the first
    reached stops it; none given: one second; the deepest finished
    iteration answers, or the best root move that finished in the
    interrupted one, ``_result``), with the learned evaluation on or off as
    ``learned`` says; ``opts`` as ``check_options`` returns them (the
    dispatcher checks once)."""
    with learned_evaluation(opts["learned"]):
        return _run(position, limits, opts)


def _run(position, limits, opts) -> SearchResult:
    seconds, nodes, depth = limits.time, limits.nodes, limits.depth
    if seconds is None and nodes is None and depth is None:
        seconds = DEFAULT_TIME
    multipv = limits.multipv or 1
    share = MULTIPV_SHARE if multipv > 1 else 1.0
    start = _time.perf_counter()
    workers = threads_for(limits, "alphabeta")
    searcher = _searcher(limits.hash_mb or DEFAULT_HASH_MB, opts)
    done = searcher.run(position._c, depth or MAX_DEPTH,
                        int(nodes * share) or 1 if nodes else 0, seconds * share if seconds else 0.0,
                        workers=workers)
    used = searcher.nodes
    result = _result(position, done, searcher.partial, used, _time.perf_counter() - start, limits.seed,
                     "alphabeta")
    result.workers = searcher.threads
    if multipv > 1 and not stop_requested():
        left_nodes = None if nodes is None else max(1, nodes - used)
        left_time = None if seconds is None else max(1e-3, seconds - (_time.perf_counter() - start))
        reached = done[-1][0] if done else 1
        result.root_moves = _multipv(position, searcher, result, multipv, opts, reached,
                                     left_nodes, left_time, workers)
        result.nodes = used + sum(d.pop("_nodes", 0) for d in result.root_moves)
        result.time = _time.perf_counter() - start
        result.nps = result.nodes / result.time if result.time > 0 else 0.0
    return result


@contextmanager
def learned_evaluation(on: bool):
    """The learned evaluation switched off for one search when ``on`` is
    False (it is a process-wide switch in C), restored after."""
    from patchsolve.search import _learned

    saved = _learned.learned_weights()
    if not on:
        _learned.set_learned(None)
    try:
        yield
    finally:
        _learned.set_learned(saved)


def _multipv(position, searcher, result, count, opts, depth, nodes, seconds, workers=1) -> list[dict]:
    """The ``count`` best root moves, each valued by a search of its child
    one ply shallower than the main search reached (the candidates are the
    searcher's own: every patch's ``placements`` best placements and walk)."""
    best = result.best_move
    candidates = [Move.from_code(c) for c in _alphabeta.ordered_moves(position._c, opts["placements"])]
    candidates = [m for m in candidates if m != best]
    rows = [result.root_moves[0]]
    if not candidates:
        return rows
    child_depth = max(1, min(depth, MAX_DEPTH) - 1)
    per_nodes = None if nodes is None else max(1, nodes // len(candidates))
    per_time = None if seconds is None else max(1e-3, seconds / len(candidates))
    for move in candidates:
        if stop_requested():
            break
        child = position.play(move)
        if child.is_over:
            a, b = child.scores()
            v = (a - b) if position.to_move == 0 else (b - a)
            rows.append(root_move(move, v, "exact", proven="win" if child.winner() == position.to_move else "loss"))
            continue
        done = searcher.run(child._c, child_depth, per_nodes or 0, per_time or 0.0, workers=workers)
        v = done[-1][1] if done else _eval.evaluate_state(child._c, child.to_move)
        rows.append(root_move(move, _mover_value(position, child, v), _nodes=searcher.nodes))
    head, rest = rows[0], sorted(rows[1:], key=lambda d: -d["score"])
    return [head] + rest[:count - 1]


def evaluate(position) -> int:
    """The static evaluation: estimated final score margin for the player
    to move (terms documented in ``_eval.pyx``)."""
    position = as_position(position)
    if position.is_over:
        return finished_result(position, "alphabeta").score
    return _eval.evaluate_state(position._c, position.to_move)


__all__ = ["run", "evaluate", "check_options", "OPTIONS"]
