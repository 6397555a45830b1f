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
    """For each player, 9 rows of 9 chances in [0, 1]: ``grids[p][row][col]``."""
    expected_empty: tuple[float, float]
    """For each player, the mean number of squares still empty at the end."""
    samples: int
    """The continuations played (1 when the game is already over)."""
    epsilon: float
    """The share of random moves in the greedy continuations."""
    seed: int
    """The seed the continuations were drawn from."""

    def value(self, player: int, square: int) -> float:
        """The chance that ``square`` (0 = a1) of ``player``'s quilt ends covered."""
        if isinstance(player, bool) or not isinstance(player, int) or player not in (0, 1):
            raise PatchsolveError(f"player must be 0 or 1, not {player!r}"[:200])
        if isinstance(square, bool) or not isinstance(square, int) or not 0 <= square < SQUARES:
            raise PatchsolveError(f"square must be 0..{SQUARES - 1}, not {square!r}"[:200])
        row, col = divmod(square, BOARD)
        return self.grids[player][row][col]

    def to_dict(self) -> dict:
        """JSON-ready: two 9x9 grids of values in [0, 1] and how they were made."""
        return {
            "grids": [[list(r) for r in g] for g in self.grids],
            "expected_empty": list(self.expected_empty),
            "samples": self.samples,
            "epsilon": self.epsilon,
            "seed": self.seed,
            "method": "greedy continuations with random moves at rate epsilon",
        }


def coverage_map(
    position, samples: int = DEFAULT_SAMPLES, seed: int = 0, epsilon: float = DEFAULT_EPSILON
) -> CoverageMap:
    """The chance that each square of each quilt is covered at the end of the
    game, from ``samples`` greedy continuations of ``position`` (see the module)."""
    from patchsolve.rules.position import Position, as_position
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
    grids = tuple(
        tuple(tuple(counts[p][r * BOARD + c] / runs for c in range(BOARD)) for r in range(BOARD))
        for p in (0, 1)
    )
    empty = tuple(float(SQUARES - sum(counts[p]) / runs) for p in (0, 1))
    return CoverageMap(grids, empty, runs, float(epsilon), seed)  # type: ignore[arg-type]


def _check_map(cmap) -> None:
    if not isinstance(cmap, CoverageMap):
        raise PatchsolveError(f"expected a CoverageMap (from coverage_map), not {type(cmap).__name__}")


def coverage_svg(cmap: CoverageMap, cell: int = 28) -> str:
    """The map as an SVG heat map: both quilts side by side, each square
    shaded from white (covered in every continuation) to red (never
    covered), with its percentage, coordinates a-i / 1-9 around."""
    from html import escape

    _check_map(cmap)
    if isinstance(cell, bool) or not isinstance(cell, int) or not 1 <= cell <= 1000:
        raise PatchsolveError(f"cell must be an integer 1..1000 (pixels), not {cell!r}"[:200])

    pad, gap = 22, 40
    width = 2 * (9 * cell) + gap + 2 * pad
    height = 9 * cell + 2 * pad + 22
    parts = ['<rect width="100%" height="100%" fill="#fff"/>']
    for p in (0, 1):
        x0 = pad + p * (9 * cell + gap)
        y0 = pad + 18
        parts.append(
            f'<text x="{x0}" y="{pad + 6}" font-family="sans-serif" font-size="12" font-weight="bold">'
            f"{escape(f'player {p}: {cmap.expected_empty[p]:.1f} empty squares expected')}</text>"
        )
        for r in range(BOARD):
            parts.append(
                f'<text x="{x0 - 4}" y="{y0 + r * cell + cell * 0.65:.1f}" font-family="sans-serif" '
                f'font-size="9" text-anchor="end" fill="#666">{r + 1}</text>'
            )
            for c in range(BOARD):
                v = cmap.grids[p][r][c]
                shade = int(round(255 * v))  # 255: white (covered), 0: red (a hole that stays)
                fill = f"#ff{shade:02x}{shade:02x}"
                x, y = x0 + c * cell, y0 + r * cell
                parts.append(
                    f'<rect class="square" data-player="{p}" data-square="{r * BOARD + c}" x="{x}" y="{y}" '
                    f'width="{cell}" height="{cell}" fill="{fill}" stroke="#bbb">'
                    f"<title>{'abcdefghi'[c]}{r + 1}: {100 * v:.0f}% covered</title></rect>"
                )
                parts.append(
                    f'<text x="{x + cell / 2:.1f}" y="{y + cell * 0.62:.1f}" font-family="sans-serif" '
                    f'font-size="9" text-anchor="middle" fill="#333">{100 * v:.0f}</text>'
                )
        for c in range(BOARD):
            parts.append(
                f'<text x="{x0 + c * cell + cell / 2:.1f}" y="{y0 + 9 * cell + 12}" font-family="sans-serif" '
                f'font-size="9" text-anchor="middle" fill="#666">{"abcdefghi"[c]}</text>'
            )
    body = "\n".join(parts)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="coverage-map" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">\n{body}\n</svg>\n'
    )


def coverage_text(cmap: CoverageMap) -> str:
    """The map as text: per player a 9x9 grid of percentages, then the
    expected empty squares."""
    _check_map(cmap)
    lines = []
    for p in (0, 1):
        lines.append(
            f"player {p}: {cmap.expected_empty[p]:.1f} empty squares expected at the end "
            "(% of continuations covering each square)"
        )
        lines.append("     " + "".join(f"{ch:>4}" for ch in "abcdefghi"))
        for r in range(BOARD):
            lines.append(f"  {r + 1:>2} " + "".join(f"{100 * v:>4.0f}" for v in cmap.grids[p][r]))
    lines.append(
        f"({cmap.samples} greedy continuations, {100 * cmap.epsilon:.0f}% random moves, seed {cmap.seed})"
    )
    return "\n".join(lines)


__all__ = ["CoverageMap", "coverage_map", "coverage_svg", "coverage_text"]
