"""A map of the quilts' future: for every square of each quilt, the chance
that it is covered when the game ends.

It is estimated from ``samples`` continuations of the position to the end
of the game, each played by the core's greedy player (the bench's reference
player: it scans every placement and picks by score now, income ahead and
time spent) that instead plays a uniformly random legal move with
probability ``epsilon``. The noise makes the continuations differ; the
greedy choices make them plausible. A square's value is the share of
continuations in which it ends covered, so:

- a square already covered is 1;
- a square that no continuation can reach is 0: a quilt whose player has
  reached the last space, or a hole no patch left can fill;
- the expected empty squares of a player is the sum of ``1 - value`` over
  the quilt (each worth -2 points at the end).

The continuations model plausible play, not the engine's full search: the
map shows where holes are likely to stay, not a proof. Same position, seed
and sample count, same map.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from patchsolve.errors import PatchsolveError

BOARD = 9
SQUARES = BOARD * BOARD
DEFAULT_SAMPLES = 1000
DEFAULT_EPSILON = 0.15


@dataclass(frozen=True)
class CoverageMap:
    """Per player, a 9x9 grid (rows 1..9 top to bottom, columns a..i) of the
    chance each square is covered at the end; and the expected empty squares."""

    grids: tuple[tuple[tuple[float, ...], ...], tuple[tuple[float, ...], ...]]
    expected_empty: tuple[float, float]
    samples: int
    epsilon: float
    seed: int

    def value(self, player: int, square: int) -> float:
        """The chance that ``square`` (0 = a1) of ``player``'s quilt ends covered."""
        row, col = divmod(square, BOARD)
        return self.grids[player][row][col]

    def to_dict(self) -> dict:
        """JSON-ready: two 9x9 grids of values in [0, 1] and how they were made."""
        return {"grids": [[list(r) for r in g] for g in self.grids],
                "expected_empty": list(self.expected_empty),
                "samples": self.samples, "epsilon": self.epsilon, "seed": self.seed,
                "method": "greedy continuations with random moves at rate epsilon"}


def coverage_map(position, samples: int = DEFAULT_SAMPLES, seed: int = 0,
                 epsilon: float = DEFAULT_EPSILON) -> CoverageMap:
    """The chance that each square of each quilt is covered at the end of the
    game, from ``samples`` greedy continuations of ``position`` (see the module)."""
    from patchsolve.position import Position, as_position
    from patchsolve.search import _eval

    pos = Position(position) if isinstance(position, str) else as_position(position)
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= 1_000_000:
        raise PatchsolveError(f"samples must be an integer in 1..1000000, not {samples!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise PatchsolveError(f"seed must be an integer in 0..2^64-1, not {seed!r}")
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not 0.0 <= epsilon <= 1.0:
        raise PatchsolveError(f"epsilon must be a number in [0, 1], not {epsilon!r}")
    counts = [[0] * SQUARES, [0] * SQUARES]
    rng = random.Random(seed)
    runs = 1 if pos.is_over else samples
    for _ in range(runs):
        end = pos._c if pos.is_over else _eval.policy_playout(pos._c, rng.getrandbits(64), float(epsilon))
        quilts = end.fields()["quilts"]
        for p in (0, 1):
            q = int(quilts[p])
            row = counts[p]
            while q:
                low = q & -q
                row[low.bit_length() - 1] += 1
                q ^= low
    grids = tuple(tuple(tuple(counts[p][r * BOARD + c] / runs for c in range(BOARD)) for r in range(BOARD))
                  for p in (0, 1))
    empty = tuple(float(SQUARES - sum(counts[p]) / runs) for p in (0, 1))
    return CoverageMap(grids, empty, runs, float(epsilon), seed)  # type: ignore[arg-type]


__all__ = ["CoverageMap", "coverage_map"]
