"""Alpha-beta search and the exact endgame solver (Python side).

The hot loop is ``_alphabeta.pyx``; this module validates limits (bad
limits raise :class:`InvalidLimitError`, a :class:`PatchsolveError`) and
turns codes into :class:`~patchsolve.Move` objects in a
:class:`~patchsolve.search.SearchResult`.

``search_alphabeta(position, depth=, time=, nodes=, ...)``
    Iterative deepening PVS with a transposition table and an evaluation at
    the leaves. ``score`` is the estimated final score margin for the player
    to move (``bound="estimate"``). Where at least ``prune_depth`` plies are
    left, only the ``placements`` best placements of each patch are searched
    (by the placement heuristic: fewest free squares along the patch's edge,
    4 more per isolated hole left on the quilt); nearer the leaves every
    placement is searched. ``placements=0`` searches every placement.

``solve(position, time=, nodes=, ...)``
    The old exact mode (``patchsolve.solve`` and the endgame shortcut now use
    ``search/solver.py``; this one stays as a second, independent exact
    search for tests and the before/after benchmark).
    The game-theoretic final score margin under perfect play (both players
    maximise their own margin), searching to the end with no heuristic
    pruning. ``bound="exact"`` when proven; when the budget runs out first
    the result has ``bound="estimate"`` (the deepest finished heuristic
    iteration), which is how a position "beyond the budget" is reported.
    Two exact reductions keep it fast (both in ``_alphabeta.pyx``): a buy
    that takes its player to space 53 is searched once per patch (twice if
    some placements take the 7x7 bonus), since that quilt never changes
    again; and a relaxed game in which one player's quilt geometry is
    ignored gives an upper bound for a whole group of placements, which
    skips the group when it cannot raise alpha. The PV always runs to the
    end of the game (no TT cut-offs at PV nodes).
"""

from __future__ import annotations

import math
import time as _time

from patchsolve.errors import PatchsolveError
from patchsolve.patches import LAST_SPACE
from patchsolve.position import Move, Position
from patchsolve.search import _alphabeta
from patchsolve.search.result import SearchResult

EXACT_DEPTH = 127          # the depth the core reports for the exact iteration
MAX_DEPTH = 100
DEFAULT_TIME = 1.0         # search with no limit given
DEFAULT_SOLVE_TIME = 30.0  # solve with no limit given (solve cannot know how hard a position is)
SEARCH_OPTIONS = ("depth", "time", "nodes", "hash_mb", "placements", "prune_depth", "tt", "seed",
                  "endgame_solve")
ENDGAME_SPACES = 15        # try an exact solve first when a token is this close to 53
ENDGAME_SHARE = 0.25       # ... with this share of the budget
ENDGAME_NODES = 200_000    # ... or this many nodes when only a depth is given
SOLVE_OPTIONS = ("time", "nodes", "hash_mb", "tt", "seed", "presearch")


class InvalidLimitError(PatchsolveError):
    """A search limit or option that is missing, of the wrong type or out of range."""


# -- validation -------------------------------------------------------------

def _check_options(given: dict, known: tuple, what: str) -> None:
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise InvalidLimitError(f"unknown {what} option(s) {', '.join(unknown)} (known: {', '.join(known)})")


def _int(name: str, value, lo: int, hi: int):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidLimitError(f"{name} must be an integer, not {value!r}")
    if not lo <= value <= hi:
        raise InvalidLimitError(f"{name} must be between {lo} and {hi}, not {value}")
    return value


def _seconds(value):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidLimitError(f"time must be a number of seconds, not {value!r}")
    if not math.isfinite(value) or value <= 0 or value > 1e6:
        raise InvalidLimitError(f"time must be a positive number of seconds (at most 1e6), not {value}")
    return float(value)


def _bool(name: str, value) -> bool:
    if not isinstance(value, bool):
        raise InvalidLimitError(f"{name} must be True or False, not {value!r}")
    return value


def _position(position) -> Position:
    if not isinstance(position, Position):
        raise InvalidLimitError(f"expected a patchsolve.Position, not {type(position).__name__}")
    return position


# -- results ----------------------------------------------------------------

def _finished(position: Position, seed) -> SearchResult:
    """A finished game: its margin for the core's player to move (the last
    to arrive), proven."""
    a, b = position.scores()
    me = position.to_move
    margin = (a - b) if me == 0 else (b - a)
    return SearchResult(None, margin, "exact", [], 0, 0, 0.0, 0.0, seed, engine="alphabeta")


def _result(position, done, searcher, elapsed, seed, exact_wanted) -> SearchResult:
    nodes = searcher.nodes
    nps = nodes / elapsed if elapsed > 0 else 0.0
    if not done:  # not even depth 1 finished: the greedy move, statically valued
        code = _alphabeta.greedy_move(position._c)
        score = _alphabeta.evaluate_state(position._c, position.to_move)
        return SearchResult(Move.from_code(code), score, "estimate", [Move.from_code(code)], 0,
                            nodes, elapsed, nps, seed, engine="alphabeta")
    depth, value, pv, _, seldepth = done[-1]
    exact = depth == EXACT_DEPTH
    moves = [Move.from_code(c) for c in pv]
    return SearchResult(moves[0], value, "exact" if exact else "estimate", moves,
                        seldepth if exact else depth, nodes, elapsed, nps, seed, engine="alphabeta")


# -- API --------------------------------------------------------------------

def search_alphabeta(position, depth=None, time=None, nodes=None, hash_mb=16, placements=4,
                     prune_depth=2, tt=True, seed=None, endgame_solve=True, **other) -> SearchResult:
    """Best move by iterative-deepening alpha-beta within the limits
    (``depth`` plies, ``time`` seconds, ``nodes``; the first reached stops
    it, and the deepest finished iteration answers). With no limit given it
    searches for one second. ``hash_mb`` is the TT memory budget.
    Near the end (a token within 15 spaces of 53) it first tries an exact
    solve with a quarter of the budget and returns the proven value when
    that succeeds (``endgame_solve=False`` turns this off).
    Deterministic: ``seed`` is only recorded."""
    _check_options(other, SEARCH_OPTIONS, "alpha-beta")
    position = _position(position)
    depth = _int("depth", depth, 1, MAX_DEPTH)
    seconds = _seconds(time)
    nodes = _int("nodes", nodes, 1, 2**62)
    hash_mb = _int("hash_mb", hash_mb, 1, 4096)
    placements = _int("placements", placements, 0, 2048)
    prune_depth = _int("prune_depth", prune_depth, 1, MAX_DEPTH)
    tt = _bool("tt", tt)
    endgame_solve = _bool("endgame_solve", endgame_solve)
    seed = _int("seed", seed, -2**63, 2**64)
    if depth is None and seconds is None and nodes is None:
        seconds = DEFAULT_TIME
    if position.is_over:
        return _finished(position, seed)
    start = _time.perf_counter()
    if endgame_solve and LAST_SPACE - min(position.time(0), position.time(1)) <= ENDGAME_SPACES:
        proven = _try_solve(position, seconds, nodes, hash_mb, seed)
        if proven.bound == "exact":
            proven.engine = "alphabeta"
            return proven
        if nodes is not None:
            nodes = max(1, nodes - proven.nodes)
    searcher = _alphabeta.Searcher(hash_mb, tt, placements, prune_depth)
    left = None if seconds is None else max(1e-3, seconds - (_time.perf_counter() - start))
    done = searcher.run(position._c, depth or MAX_DEPTH, False, nodes or 0, left or 0.0)
    return _result(position, done, searcher, _time.perf_counter() - start, seed, False)


def _try_solve(position, seconds, nodes, hash_mb, seed) -> SearchResult:
    """An exact solve within a share of the budget (check its bound)."""
    budget = {}
    if seconds is not None:
        budget["time"] = seconds * ENDGAME_SHARE
    if nodes is not None:
        budget["nodes"] = max(1, int(nodes * ENDGAME_SHARE))
    if not budget:
        budget["nodes"] = ENDGAME_NODES
    from patchsolve.search.solver import solve as exact_solve

    return exact_solve(position, hash_mb=hash_mb, seed=seed, **budget)


def evaluate(position) -> int:
    """The static evaluation: estimated final score margin for the player
    to move (terms documented in ``_alphabeta.pyx``, "Evaluation")."""
    position = _position(position)
    if position.is_over:
        return _finished(position, None).score
    return _alphabeta.evaluate_state(position._c, position.to_move)


def solve(position, time=None, nodes=None, hash_mb=64, tt=True, seed=None, presearch=2,
          **other) -> SearchResult:
    """Exact final score margin for the player to move under perfect play,
    and a best move, within ``time`` seconds / ``nodes`` (default: 30 s).
    ``presearch`` shallow full-width iterations first seed the TT with good
    moves. ``bound`` is "exact" when proven, else "estimate" (over budget)."""
    _check_options(other, SOLVE_OPTIONS, "solve")
    position = _position(position)
    seconds = _seconds(time)
    nodes = _int("nodes", nodes, 1, 2**62)
    hash_mb = _int("hash_mb", hash_mb, 1, 4096)
    tt = _bool("tt", tt)
    seed = _int("seed", seed, -2**63, 2**64)
    presearch = _int("presearch", presearch, 0, 10)
    if seconds is None and nodes is None:
        seconds = DEFAULT_SOLVE_TIME
    if position.is_over:
        return _finished(position, seed)
    start = _time.perf_counter()
    searcher = _alphabeta.Searcher(hash_mb, tt, 0, MAX_DEPTH)
    done = searcher.run(position._c, presearch, True, nodes or 0, seconds or 0.0,
                        1 if presearch else EXACT_DEPTH)
    result = _result(position, done, searcher, _time.perf_counter() - start, seed, True)
    result.engine = "alphabeta-solve"
    return result


__all__ = ["search_alphabeta", "solve", "evaluate", "InvalidLimitError"]
