"""The near-end shortcut: near the end of the game the exact solver is tried
first with a share of the search's budget; when it proves the value, that is
the answer, whatever the engine.

Used by :func:`patchsolve.search` (``dispatch.py``) and by the MCTS player
that keeps its tree (``mcts.MCTSPlayer``); it sits below both and imports
only the solver, so no engine module needs the dispatcher.
"""

from __future__ import annotations

import time as _time

from patchsolve.patches import LAST_SPACE
from patchsolve.position import Position
from patchsolve.search import solver
from patchsolve.search.limits import Limits
from patchsolve.search.result import root_move

ENDGAME_SPACES = 15  # try the exact solver first when a token is this close to 53 ...
ENDGAME_SHARE = 0.25  # ... with this share of the time or node budget ...
ENDGAME_NODES = 200_000  # ... or this many nodes under a depth / iteration budget (deterministic)
SHORTCUT_HASH_MB = (4, 16)  # the solver's table in the shortcut: small budgets, larger ones
SHORTCUT_SMALL_TIME = 0.5  # seconds of shortcut budget counted as small ...
SHORTCUT_SMALL_NODES = 1_000_000  # ... and nodes


def near_end(position: Position) -> bool:
    """Whether the shortcut is tried: the game is not over and a time token
    is within ENDGAME_SPACES of the last space."""
    return not position.is_over and LAST_SPACE - min(position.time(0), position.time(1)) <= ENDGAME_SPACES


def endgame_shortcut(position: Position, limits: Limits, engine: str):
    """The proven answer when the solver finds it within its share of the
    budget, else (None, the limits left for the engine)."""
    budget: dict = {}
    if limits.time is not None:
        budget["time"] = limits.time * ENDGAME_SHARE
    if limits.nodes is not None:
        budget["nodes"] = max(1, int(limits.nodes * ENDGAME_SHARE))
    if not budget:
        budget["nodes"] = ENDGAME_NODES
    # the solver's threads follow the alpha-beta's (every core under a time
    # limit unless workers says otherwise); the MCTS gets one thread, since
    # its workers are processes that may each get here
    budget["workers"] = limits.workers if engine == "alphabeta" else 1
    t0 = _time.perf_counter()
    # ranked moves (multipv > 1) come from the solver's value of every root move
    ranked = (limits.multipv or 1) > 1
    r = _solve_run(
        position,
        Limits(hash_mb=_shortcut_hash_mb(limits, budget), seed=limits.seed, **budget),
        {"all_moves": ranked},
    )
    if r.bound == "exact":
        r.engine = engine
        r.seed = limits.seed
        if ranked:  # the move played first among equals, then as many rows as asked, with every engine's keys
            rows = sorted(r.root_moves, key=lambda d: d["move"] != r.best_move)
            rows = sorted(rows, key=lambda d: (-d["lower"], -d["upper"]))[: limits.multipv]
            r.root_moves = [
                root_move(
                    d["move"], d["score"], d["bound"], proven=d["proven"], lower=d["lower"], upper=d["upper"]
                )
                for d in rows
            ]
        return r, limits
    left = {}
    if limits.time is not None:
        left["time"] = max(1e-3, limits.time - (_time.perf_counter() - t0))
    if limits.nodes is not None:
        left["nodes"] = max(1, limits.nodes - r.nodes)
    return None, limits.replace(**left)


def _shortcut_hash_mb(limits: Limits, budget: dict) -> int:
    """A table sized to the shortcut's small budget: a fresh 64 MB table
    costs more in first-touch page faults than a 0.1 s solve takes (at 0.25 s
    a move, 11-13 of 21 near-end positions proven with 64 MB, 15-17 with 4 MB;
    benchmarks/results/shortcut_table.md)."""
    small = budget.get("time", 0) <= SHORTCUT_SMALL_TIME and budget.get("nodes", 0) <= SHORTCUT_SMALL_NODES
    mb = SHORTCUT_HASH_MB[0] if small else SHORTCUT_HASH_MB[1]
    return min(mb, limits.hash_mb) if limits.hash_mb else mb


def _solve_run(position, limits, options):
    """The solver's run; ``options`` checked (and completed) once, here."""
    return solver.run(position, limits, solver.check_options(options))


__all__ = ["near_end", "endgame_shortcut", "ENDGAME_SPACES", "ENDGAME_SHARE", "ENDGAME_NODES"]
