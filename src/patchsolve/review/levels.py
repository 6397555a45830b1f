"""Opponents at your level: ``level`` 1 (weakest) to 10 (the full engine).

A person errs in two ways: in what to do (walk, or which of the three
patches to buy) and in where to lay it. Levels 1-9 draw both, in that
order. First the choice: the alpha-beta ranks the moves to a small depth
(one thread, so a level is deterministic) with choice-first MultiPV rows
(the best placement of walking and of each patch, each at that depth, so
their values are comparable), and the level draws one from a softmax over
those values with a temperature in points. Then, if it buys a patch, the
placement: every placement of that patch is valued one ply deep and the
level draws one from a second softmax. The lower the level, the shallower
the search and the warmer both softmaxes. (A node budget instead of a depth
was tried first: with a few hundred nodes the ranked rows never finish
their first depth.) A level thus plays a plausible move that a weaker
player might choose, never a choice outside its own rows, and the same seed
gives the same moves. Level 10 is the engine itself (its usual search and
budget, nothing drawn).

The table below was calibrated by the points lost per move against exact
values on endgame positions and by the ladder tournament published in the
manual (``benchmarks/results/levels.md``).
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
    """What a level searches and how warmly it draws its choice and its
    placement."""

    depth: int
    """Alpha-beta depth of the choice's search (one thread)."""
    temperature: float
    """Points: the softmax over the choices' values (0: always the best)."""
    placement_temperature: float
    """Points: the softmax over the placements of the patch chosen, each
    valued one ply deep (0: always the best placement of the choice's
    search)."""


LEVELS = {
    1: Level(1, 10.0, 6.0),
    2: Level(1, 6.0, 4.0),
    3: Level(1, 4.0, 2.5),
    4: Level(2, 3.0, 1.5),
    5: Level(3, 2.0, 1.0),
    6: Level(4, 1.5, 0.7),
    7: Level(5, 1.0, 0.4),
    8: Level(6, 0.6, 0.2),
    9: Level(8, 0.3, 0.0),
}
CHOICE_ROWS = 8  # MultiPV rows asked: every choice (at most walk and three patches) comes first


def check_level(level) -> int:
    """``level`` as an int in 1..10, or a PatchsolveError."""
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= MAX_LEVEL:
        raise PatchsolveError(f"level must be an integer in 1..{MAX_LEVEL}, not {level!r}")
    return level


def level_move(position, level: int, seed: int = 0, **limits):
    """The move ``level`` plays in ``position`` and the search it came from:
    ``(move, result)``. ``seed`` draws the move (levels 1-9); ``limits`` are
    the full engine's at level 10 (default: its usual time)."""
    from patchsolve.rules.position import as_position
    from patchsolve.search import search
    from patchsolve.search.result import root_move

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
    rng = random.Random(_mix(seed, pos))
    r = search(pos, engine="alphabeta", depth=spec.depth, workers=1, multipv=CHOICE_ROWS, seed=0)
    rows = r.root_moves or [root_move(r.best_move, r.score, kind="choice")]
    choices = [d for d in rows if d.get("kind", "choice") == "choice"]
    move = _draw(choices, spec.temperature, rng)
    if move.kind == "buy" and spec.placement_temperature > 0:
        move = _placement(pos, move, spec.placement_temperature, rng)
    return move, r


def _placement(pos, move, temperature: float, rng: random.Random):
    """A placement of ``move``'s patch drawn from a softmax over every
    placement's value one ply deep (mirror images counted once)."""
    from patchsolve.search import search
    from patchsolve.search.alphabeta import MAX_INCLUDE

    same = [m for m in pos.legal_moves() if m.kind == "buy" and m.patch == move.patch]
    if len(same) < 2 or len(same) > MAX_INCLUDE:
        return move
    r = search(pos, engine="alphabeta", depth=1, workers=1, include=same, seed=0)
    rows = [d for d in r.root_moves if d["move"].patch == move.patch]
    return _draw(rows, temperature, rng) if rows else move


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


__all__ = ["CHOICE_ROWS", "LEVELS", "MAX_LEVEL", "Level", "check_level", "level_move"]
