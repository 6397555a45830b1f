"""The review graph of a game (``analyze --svg``, the web app's review tab).

Two panels over the plies 0..n: player 0's margin (points) and player 0's win
probability. Every move classed inaccuracy, mistake or blunder (the review's
classes, the same the table counts) is a dot on the margin line after that
move, coloured by its class (``CLASS_FILL``), its area growing with the loss
and its ring the mover's colour. Each ply has an invisible column carrying
``data-ply="k"`` (the position after k moves) so a page can jump to it.
Below the panels, one line per player: the accuracy and the count of each
class (:mod:`patchsolve.review.analysis`).
"""

from __future__ import annotations

import math
from html import escape

from patchsolve.rules.render import _PLAYER_FILL

WIDTH, LEFT, RIGHT = 760, 56, 16
CLASS_FILL = {"inaccuracy": "#f2c14e", "mistake": "#e8833a", "blunder": "#c0392b"}
PANEL_H, TOP, GAP = 170, 30, 46


def _axis_max(values) -> float:
    """A symmetric margin axis in steps of 10 points, at least +-10."""
    top = max([10.0] + [abs(v) for v in values])
    return 10.0 * math.ceil(top / 10.0)


def _polyline(points, colour, width=2) -> str:
    text = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    return f'<polyline points="{text}" fill="none" stroke="{colour}" stroke-width="{width}"/>'


def _text(x, y, s, size=11, anchor="start", fill="#333", weight="normal") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-family="sans-serif" font-size="{size}" '
        f'text-anchor="{anchor}" fill="{fill}" font-weight="{weight}">{escape(str(s))}</text>'
    )


def _grid(y0, ticks, inner) -> list[str]:
    parts = [f'<rect x="{LEFT}" y="{y0}" width="{inner}" height="{PANEL_H}" fill="#fbf9f4" stroke="#bbb"/>']
    for y, label in ticks:
        parts.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + inner}" y2="{y:.1f}" stroke="#e3ddd0"/>')
        parts.append(_text(LEFT - 6, y + 4, label, size=10, anchor="end", fill="#666"))
    return parts


def review_svg(review) -> str:
    """An SVG document of a :class:`patchsolve.review.analysis.GameReview`."""
    n = len(review.moves)
    margins = [review.start.margin0] + [m.margin0 for m in review.moves]
    wins = [review.start.win0] + [m.win0 for m in review.moves]
    inner = WIDTH - LEFT - RIGHT
    step = inner / max(1, n)

    def xs(k):
        return LEFT + k * step

    amax = _axis_max(margins)
    y_margin0 = TOP
    y_win0 = TOP + PANEL_H + GAP

    def ym(v):
        return y_margin0 + PANEL_H / 2 - v / amax * (PANEL_H / 2)

    def yw(p):
        return y_win0 + PANEL_H - p * PANEL_H

    height = y_win0 + PANEL_H + 34 + 36
    parts = [
        '<rect width="100%" height="100%" fill="#fff"/>',
        _text(
            LEFT,
            TOP - 10,
            f"Player 0's margin (points); dots: inaccuracy, mistake, blunder (ring: the mover; size: points "
            f"lost); {review.budget.text()}",
            size=12,
            weight="bold",
        ),
    ]
    for p in (0, 1):
        x = WIDTH - RIGHT - 150 + 80 * p
        parts.append(f'<circle cx="{x}" cy="{TOP - 14}" r="5" fill="{_PLAYER_FILL[p]}" stroke="#222"/>')
        parts.append(_text(x + 8, TOP - 10, f"player {p}", size=10))
    parts += _grid(y_margin0, [(ym(v), f"{v:+.0f}") for v in (amax, amax / 2, 0, -amax / 2, -amax)], inner)
    parts.append(_polyline([(xs(k), ym(v)) for k, v in enumerate(margins)], "#333"))
    parts.append(_text(LEFT, y_win0 - 10, "Player 0's win probability", size=12, weight="bold"))
    parts += _grid(y_win0, [(yw(p), f"{100 * p:.0f}%") for p in (1, 0.75, 0.5, 0.25, 0)], inner)
    parts.append(_polyline([(xs(k), yw(p)) for k, p in enumerate(wins)], _PLAYER_FILL[0]))
    label_every = max(1, math.ceil(n / 12))
    for k in range(0, n + 1, label_every):
        parts.append(_text(xs(k), y_win0 + PANEL_H + 14, k, size=10, anchor="middle", fill="#666"))
    parts.append(
        _text(LEFT + inner / 2, y_win0 + PANEL_H + 28, "move", size=10, anchor="middle", fill="#666")
    )
    parts += _summary_lines(review, y_win0 + PANEL_H + 48)
    parts += _hit_columns(review, xs, step, y_margin0, y_win0 + PANEL_H - y_margin0)
    parts += _mistake_marks(review, xs, ym)
    body = "\n".join(parts)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="review-graph" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}">\n{body}\n</svg>\n'
    )


def _hit_columns(review, xs, step, y0, h) -> list[str]:
    parts = []
    for k in range(len(review.moves) + 1):
        tip = "start" if k == 0 else _move_tip(review.moves[k - 1])
        parts.append(
            f'<rect class="ply-hit" data-ply="{k}" x="{xs(k) - step / 2:.1f}" y="{y0}" '
            f'width="{step:.1f}" height="{h}" fill="transparent"><title>{escape(tip)}</title></rect>'
        )
    return parts


def _summary_lines(review, y) -> list[str]:
    parts = []
    for row in review.summary():
        c = row["classes"]
        acc = "-" if row["accuracy"] is None else f"{row['accuracy']:.1f}"
        text = (
            f"player {row['player']}: accuracy {acc}, average loss {row['average_loss']:.1f} points; "
            f"{c['inaccuracy']} inaccuracies, {c['mistake']} mistakes, {c['blunder']} blunders; "
            f"{row['forced']} forced"
        )
        parts.append(
            f'<circle cx="{LEFT + 5}" cy="{y - 4}" r="5" fill="{_PLAYER_FILL[row["player"]]}" stroke="#222"/>'
        )
        parts.append(_text(LEFT + 16, y, text, size=11))
        y += 16
    return parts


def _move_tip(m) -> str:
    forced = ", forced" if m.forced else ""
    return (
        f"{m.number}. player {m.player}: {m.move} (engine: {m.best_move or '-'}), {m.judgement}{forced}, "
        f"loss {m.loss:.1f}, win probability lost {100 * m.win_loss:.0f}%, margin {m.margin0:+.1f}, "
        f"win {100 * m.win0:.0f}%"
    )


def _mistake_marks(review, xs, ym) -> list[str]:
    parts = []
    for m in review.mistakes():
        r = 3.0 + 1.6 * math.sqrt(m.loss)
        x, y = xs(m.number), ym(m.margin0)
        parts.append(
            f'<circle class="mistake {m.judgement}" data-ply="{m.number}" data-class="{m.judgement}" '
            f'cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{CLASS_FILL[m.judgement]}" fill-opacity="0.85" '
            f'stroke="{_PLAYER_FILL[m.player]}" stroke-width="2.5">'
            f"<title>{escape(_move_tip(m))}</title></circle>"
        )
        parts.append(_text(x, y - r - 3, f"-{m.loss:.0f}{m.flag}", size=9, anchor="middle", fill="#222"))
    return parts


__all__ = ["review_svg"]
