"""Why a move is worse than the engine's best: measured, not guessed.

:func:`explain` takes both values from :func:`patchsolve.review.measure`
(one search of the position values the best move and the move in question
at the same depth; near the end the exact solver proves them), so it gives
the same difference as the game review for the same move and budget. The
difference is then broken down in two ways, both read off the ends of the
two lines (the positions each value comes from):

- **terms**, in points for the player who moves: positive where the best
  move's line is better, so they add up to the difference. The learned
  evaluation is the score if the game ended now plus a weighted sum of
  features (income ahead, holes, the 7x7 bonus chance, the next patches that
  fit, ...; ``patchsolve.search.learned``): each feature's part is its weight
  times its difference between the two line ends. What the search saw beyond
  the line ends (an exact value from the solver, a line that ends the game)
  is the ``search`` term. Terms are grouped by what they are about (the
  quilt, buttons and income, time, the 7x7 bonus, ...), so that parts which
  cancel each other (empty squares now against squares that can still be
  filled) are shown as their net; each group lists its largest parts.
- **consequences.** Concrete facts of each line end for the mover and the
  opponent: buttons, income, empty squares, holes, the 7x7 bonus, the next
  patches that still fit, time and turn; and the three patches the move
  leaves to the opponent.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from patchsolve.errors import PatchsolveError

# The learned evaluation's features, by base name: "<name>_diff" and
# "<name>_phase" (the same difference weighted by the share of the game left).
TERM_NAMES = {
    "income_ahead": "income still to collect",
    "spaces_left": "time left to use",
    "fillable": "squares that can still be filled",
    "holes": "holes (empty regions no patch can fill)",
    "bonus7": "chance of the 7x7 bonus",
    "buttons_cap": "buttons in hand (up to 12)",
    "next_fit": "next three patches affordable and fitting",
    "next_gain": "best gain among the next three patches",
    "dead_patches": "patches of the circle that no longer fit",
    "lookahead": "placements the coming patches still have",
    "blocks2x2": "empty 2x2 blocks",
    "empty": "empty squares",
    "tempo": "having the move",
    "gap": "time gap between the players",
    "pending": "a leather patch to place",
}


# What each term is about: the groups a difference is shown in (their net
# first, so that parts that cancel each other do not mislead).
GROUPS = {
    "quilt": (
        "the quilt (squares, holes, room for the patches to come)",
        (
            "empty_now",
            "fillable",
            "holes",
            "blocks2x2",
            "empty",
            "lookahead",
            "dead_patches",
            "next_fit",
        ),
    ),
    "buttons": ("buttons and income", ("buttons", "buttons_cap", "income_ahead", "next_gain")),
    "time": ("time and turn", ("spaces_left", "tempo", "gap")),
    "bonus": ("the 7x7 bonus", ("bonus_claimed", "bonus7")),
    "leather": ("leather patches", ("pending",)),
    "search": ("what the search saw beyond the lines' ends", ("search",)),
}
GROUP_OF = {term: g for g, (_, terms) in GROUPS.items() for term in terms}


@dataclass(frozen=True)
class Line:
    """One side of the comparison: a first move, its value for the mover,
    and its principal variation with the facts at its end."""

    move: str
    """The line's first move (notation)."""
    value: float
    """Its value for the player who moves."""
    bound: str
    """What kind of number the value is: exact, lower, upper or estimate."""
    pv: list[str]
    """The line, its first move first."""
    end: dict
    """Facts at the line's end, each a pair (mover, opponent)."""


@dataclass(frozen=True)
class Explanation:
    """How much worse ``played`` is than ``best``, and why (see the module).
    Points are for the player who moves (``player``): a positive term is
    where the best move's line is better."""

    position: str
    """The position explained (notation)."""
    player: int
    best: Line
    played: Line
    difference: float
    """``best.value - played.value``, for the mover (the review's loss)."""
    terms: list[dict] = field(default_factory=list)
    """{"term", "name", "group", "points"}, largest first."""
    left_to_opponent: dict = field(default_factory=dict)
    """The three patches each move leaves to the opponent."""
    groups: list[dict] = field(
        default_factory=list
    )  # {"group", "name", "points", "terms"}, largest net first
    """The terms summed by what they are about, the largest net first."""
    budget: dict = field(default_factory=dict)
    """The measure's budget (review.Budget.to_dict())."""
    depth: int = 0
    """The search depth both values come from (0: the solver proved them)."""

    def to_dict(self) -> dict:
        """JSON-ready."""
        return asdict(self)

    def text(self, top: int = 6) -> str:
        """A few lines for a person: the two moves, the difference, the largest terms."""

        def kind(line):
            return "" if line.bound == "estimate" else f" ({line.bound})"

        out = [
            f"best {self.best.move}: {self.best.value:+.1f}{kind(self.best)}   "
            f"played {self.played.move}: {self.played.value:+.1f}{kind(self.played)}   "
            f"difference {self.difference:.1f} points"
        ]
        if self.difference == 0:
            out.append("the move played is as good as the engine's best")
            return "\n".join(out)
        out.append(
            "where the difference comes from, at the ends of the two lines (points for the player who "
            "moves; + where the best line is better; the groups add up to the difference):"
        )
        for g in self.groups[:top]:
            if abs(g["points"]) < 0.05:
                continue
            parts = [t for t in g["terms"] if abs(t["points"]) >= 0.05]
            inner = (
                ""
                if len(parts) <= 1
                else "  (" + ", ".join(f"{t['name']} {t['points']:+.1f}" for t in parts[:3]) + ")"
            )
            out.append(f"  {g['points']:+6.1f}  {g['name']}{inner}")
        b, p = self.best.end, self.played.end
        facts = [("buttons", "buttons"), ("income", "income"), ("empty squares", "empty"), ("holes", "holes")]
        out.append(
            "line ends (mover / opponent):  "
            + "   ".join(
                f"{label} {b[key][0]}/{b[key][1]} vs {p[key][0]}/{p[key][1]}" for label, key in facts
            )
        )
        if b["bonus_owner"] != p["bonus_owner"]:
            out.append(
                f"  7x7 bonus: {_owner(b['bonus_owner'])} after the best line, "
                f"{_owner(p['bonus_owner'])} after the move played"
            )
        opp = self.left_to_opponent
        out.append(
            f"left to the opponent: patches {opp['best']} after the best move, {opp['played']} after "
            "the move played"
        )
        return "\n".join(out)


def _owner(o):
    return {None: "nobody", 0: "the mover", 1: "the opponent"}[o]


def _facts(pos, mover: int) -> dict:
    """Facts at a line end, each a pair (mover, opponent)."""
    order = (mover, 1 - mover)
    holes = [_holes(pos, x) for x in order]
    owner = pos.bonus_owner
    return {
        "buttons": [pos.buttons(x) for x in order],
        "income": [pos.income(x) for x in order],
        "empty": [81 - bin(pos.quilt(x)).count("1") for x in order],
        "holes": holes,
        "time": [pos.time(x) for x in order],
        "to_move": None if pos.is_over else ("mover" if pos.to_move == mover else "opponent"),
        "bonus_owner": None if owner is None else (0 if owner == mover else 1),
        "score_now": [pos.scores()[x] for x in order],
        "over": pos.is_over,
    }


def _holes(pos, player: int) -> int:
    """Empty squares of the quilt in 4-connected regions smaller than every
    patch left in the circle: squares no patch can fill any more."""
    from patchsolve.rules.notation import FULL
    from patchsolve.rules.patches import PATCHES
    from patchsolve.rules.tiling import components

    sizes = [PATCHES[pid].size for pid in pos.circle]
    smallest = min(sizes) if sizes else 99
    regions = (c.bit_count() for c in components(FULL & ~pos.quilt(player)))
    return sum(n for n in regions if n < smallest)


SCORE_PARTS = [
    ("buttons", "buttons now"),
    ("empty_now", "empty squares now (-2 each)"),
    ("bonus_claimed", "the 7x7 bonus (claimed)"),
]


def _score_parts(pos, mover: int) -> dict:
    """The score if the game ended now, mover minus opponent, in its parts."""
    o = 1 - mover
    owner = pos.bonus_owner
    return {
        "buttons": float(pos.buttons(mover) - pos.buttons(o)),
        "empty_now": -2.0 * (bin(pos.quilt(o)).count("1") - bin(pos.quilt(mover)).count("1")),
        "bonus_claimed": 0.0 if owner is None else (7.0 if owner == mover else -7.0),
    }


def _line_end(pos, pv):
    end = pos
    for m in pv:
        end = end.play(m)
    return end


def _next_three(pos):
    return [int(p) for p in pos.circle[:3]]


def explain(position, move, budget=None, **limits) -> Explanation:
    """Why ``move`` is worse than the engine's best in ``position``: both
    values from :func:`patchsolve.review.measure` within ``budget`` (a
    :class:`~patchsolve.review.Budget`, or ``nodes=`` / ``depth=``; the
    review's default), so the difference is the review's loss; and where it
    comes from, at the ends of the two lines (see the module)."""
    from patchsolve.review.judge import measure
    from patchsolve.rules.position import Position, as_position

    pos = Position(position) if isinstance(position, str) else as_position(position)
    if pos.is_over:
        raise PatchsolveError("the game is over: there is no move to explain")
    played = pos.parse_move(move) if isinstance(move, str) else move
    m = measure(pos, played, budget, **limits)
    mover = pos.to_move
    best_end = _line_end(pos, m.best.pv)
    played_end = _line_end(pos, m.played.pv)
    terms = _terms(best_end, played_end, mover, m.best.value - m.played.value) if m.loss else []
    return Explanation(
        pos.to_text(),
        mover,
        Line(m.best.move, m.best.value, m.best.bound, list(m.best.pv), _facts(best_end, mover)),
        Line(m.played.move, m.played.value, m.played.bound, list(m.played.pv), _facts(played_end, mover)),
        m.loss,
        terms,
        {"best": _next_three(pos.play(m.best.move)), "played": _next_three(pos.play(played))},
        _groups(terms),
        m.budget.to_dict(),
        0 if m.exact else m.depth,
    )


def _groups(terms: list[dict]) -> list[dict]:
    """The terms summed by group (``GROUPS``), the largest net first, each
    with its parts, largest first."""
    out = []
    for g, (name, _) in GROUPS.items():
        mine = [t for t in terms if t["group"] == g]
        if mine:
            out.append({"group": g, "name": name, "points": sum(t["points"] for t in mine), "terms": mine})
    return sorted(out, key=lambda g: -abs(g["points"]))


def _terms(best_end, played_end, mover, total) -> list[dict]:
    """The value difference split into the evaluation's terms at the two line
    ends, plus the score if the game ended now, plus what the search saw
    beyond them; largest first."""
    from patchsolve.search import _learned as k

    names = list(k.FEATURES)
    weights = k.learned_weights()
    if weights is None:  # off (no weights file, or switched off): its terms explain nothing
        raise PatchsolveError("the learned evaluation is off: the move cannot be split into its terms")
    fb = k.features(best_end._c, mover)
    fp = k.features(played_end._c, mover)
    by_term: dict[str, float] = {}
    for name, w, a, b in zip(names, weights, fb, fp):
        base = name.rsplit("_", 1)[0] if name.endswith(("_diff", "_phase")) else name
        by_term[base] = by_term.get(base, 0.0) + w * (a - b)
    now = [_score_parts(best_end, mover), _score_parts(played_end, mover)]
    out = [{"term": t, "name": name, "points": now[0][t] - now[1][t]} for t, name in SCORE_PARTS]
    eval_total = sum(t["points"] for t in out) + sum(by_term.values())
    out += [{"term": t, "name": TERM_NAMES.get(t, t), "points": v} for t, v in by_term.items()]
    out.append(
        {"term": "search", "name": "what the search saw beyond the lines' ends", "points": total - eval_total}
    )
    for t in out:
        t["group"] = GROUP_OF[t["term"]]
    return sorted(out, key=lambda t: -abs(t["points"]))


__all__ = ["Explanation", "Line", "explain"]
