"""Opponents at your level: ``level`` 1 (weakest) to 10 (the full engine).

Levels 1-9 search with the alpha-beta to a small depth (one thread, so a
level is deterministic) and rank their moves with MultiPV (8 to 16 rows,
each at that depth, so their values are comparable); then they draw the
move from a softmax over those values with a temperature in points: the
lower the level, the shallower the search and the warmer the softmax. (A
node budget instead of a depth was tried first: with a few hundred nodes the
ranked rows of MultiPV never finish their first depth.) A level thus plays a plausible move that a weaker player might
choose, never a move outside its own top rows (no random blunders), and
the same seed gives the same moves. Level 10 is the engine itself (its
usual search and budget, nothing drawn).

The table below was calibrated by the points lost per move against exact
values on endgame positions and by a ladder tournament
(``benchmarks/results/levels.md``): the points lost grow level by level.
"""

from __future__ import annotations

import math
import random
import zlib
from dataclasses import dataclass

from patchsolve.errors import PatchsolveError

MAX_LEVEL = 10


@dataclass(frozen=True)
class Level:
    """What a level searches and how warmly it draws among its rows."""

    depth: int
    """Alpha-beta depth (one thread)."""
    temperature: float
    """Points: the softmax over the rows' values (0: always the top row)."""
    rows: int = 8
    """MultiPV rows drawn from."""


LEVELS = {
    1: Level(1, 16.0, 16),
    2: Level(1, 10.0, 12),
    3: Level(1, 6.0),
    4: Level(2, 4.0),
    5: Level(3, 3.0),
    6: Level(4, 2.0),
    7: Level(5, 1.3),
    8: Level(6, 0.8),
    9: Level(8, 0.4),
}


def check_level(level) -> int:
    """``level`` as an int in 1..10, or a PatchsolveError."""
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= MAX_LEVEL:
        raise PatchsolveError(f"level must be an integer in 1..{MAX_LEVEL}, not {level!r}")
    return level


def level_move(position, level: int, seed: int = 0, **limits):
    """The move ``level`` plays in ``position`` and the search it came from:
    ``(move, result)``. ``seed`` draws the move (levels 1-9); ``limits`` are
    the full engine's at level 10 (default: its usual time)."""
    from patchsolve.position import as_position
    from patchsolve.search import search

    pos = as_position(position)
    check_level(level)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise PatchsolveError(f"seed must be an integer in 0..2^64-1, not {seed!r}")
    if pos.is_over:
        raise PatchsolveError("the game is over: there is no move to play")
    if level == MAX_LEVEL:
        r = search(pos, **limits)
        return r.best_move, r
    if limits:
        raise PatchsolveError(f"level {level} has its own budget: give limits only at level {MAX_LEVEL}")
    spec = LEVELS[level]
    r = search(pos, engine="alphabeta", depth=spec.depth, workers=1, multipv=spec.rows, seed=0)
    rows = r.root_moves or [{"move": r.best_move, "score": r.score}]
    return _draw(rows, spec.temperature, random.Random(_mix(seed, pos))), r


def _mix(seed: int, pos) -> int:
    """A draw that depends on the seed and the position (not on the move count)."""
    # crc32, not hash(): str hashes change from one process to the next
    return (seed * 0x9E3779B97F4A7C15 ^ zlib.crc32(pos.to_text().encode())) & (2**64 - 1)


def _draw(rows, temperature: float, rng: random.Random):
    if temperature <= 0 or len(rows) == 1:
        return rows[0]["move"]
    top = max(float(d["score"]) for d in rows)
    weights = [math.exp((float(d["score"]) - top) / temperature) for d in rows]
    return rng.choices([d["move"] for d in rows], weights=weights)[0]


__all__ = ["LEVELS", "MAX_LEVEL", "Level", "check_level", "level_move"]
