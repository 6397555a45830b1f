"""Why a move is worse than the engine's best: measured, not guessed.

:func:`explain` searches the position (the engine's best move and its line)
and the position after the move in question (its line), with the same
horizon: the position at depth ``d``, the position after the move at depth
``d - 1``, so both values look equally far ahead. The difference of the two
values is then broken down in two ways, both read off the ends of the two
principal variations (the positions each search's value comes from):

- **evaluation terms.** The learned evaluation is the score if the game
  ended now plus a weighted sum of features (income ahead, holes, the 7x7
  bonus chance, the next patches that fit, ...; ``patchsolve.search.learned``).
  Each term's contribution is its weight times the difference of the feature
  between the two line ends, for the player who moves; they add up to the
  difference of the two evaluations. What the search saw beyond (an exact
  value from the solver, or a line that ends the game) is the ``search``
  term, so all terms add up to the value difference.
- **consequences.** Concrete facts of each line end for the mover and the
  opponent: buttons, income, empty squares, holes, the 7x7 bonus, the next
  patches that still fit, time and turn; and the three patches the move
  leaves to the opponent.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from patchsolve.errors import PatchsolveError

DEFAULT_DEPTH = 6

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


@dataclass(frozen=True)
class Line:
    """One side of the comparison: a first move, its value for the mover,
    and its principal variation with the facts at its end."""

    move: str
    value: float
    bound: str
    pv: list[str]
    end: dict


@dataclass(frozen=True)
class Explanation:
    """How much worse ``played`` is than ``best``, and why (see the module)."""

    position: str
    player: int
    best: Line
    played: Line
    difference: float  # best.value - played.value, for the mover
    terms: list[dict] = field(default_factory=list)  # {"term", "name", "points"}, largest first
    left_to_opponent: dict = field(default_factory=dict)

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
        out.append("where the difference comes from (points for the mover, at the ends of the two lines):")
        for t in self.terms[:top]:
            if abs(t["points"]) >= 0.05:
                out.append(f"  {t['points']:+6.1f}  {t['name']}")
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
    from patchsolve.notation import FULL
    from patchsolve.patches import PATCHES
    from patchsolve.tiling import components

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


def _value_of(pos, mover, result):
    """The value for ``mover`` of ``pos`` as searched (``result``; None when over)."""
    if pos.is_over:
        s = pos.scores()
        return float(s[mover] - s[1 - mover]), "exact"
    v = float(result.score)
    return (v if pos.to_move == mover else -v), result.bound


def _next_three(pos):
    return [int(p) for p in pos.circle[:3]]


def explain(position, move, depth: int = DEFAULT_DEPTH, **options) -> Explanation:
    """Why ``move`` is worse than the engine's best in ``position``: both
    values at the same horizon (``depth`` plies for the position, one less
    after the move), their difference, and where it comes from (see the
    module). ``options`` go to the alpha-beta engine (e.g. ``threads=1``)."""
    from patchsolve.position import Position, as_position
    from patchsolve.search import search

    pos = Position(position) if isinstance(position, str) else as_position(position)
    if pos.is_over:
        raise PatchsolveError("the game is over: there is no move to explain")
    if isinstance(depth, bool) or not isinstance(depth, int) or not 2 <= depth <= 64:
        raise PatchsolveError(f"depth must be an integer in 2..64, not {depth!r}")
    played = pos.parse_move(move) if isinstance(move, str) else move
    if not pos.is_legal(played):
        raise PatchsolveError(f"{played} is not a legal move in this position")
    mover = pos.to_move
    root = search(pos, engine="alphabeta", depth=depth, **options)
    best = root.best_move
    best_end = _line_end(pos, root.pv)
    best_value, best_bound = float(root.score), root.bound
    child = pos.play(played)
    if str(played) == str(best):
        played_pv, played_value, played_bound = list(root.pv), best_value, best_bound
    else:
        sub = None if child.is_over else search(child, engine="alphabeta", depth=depth - 1, **options)
        played_value, played_bound = _value_of(child, mover, sub)
        played_pv = [played] + ([] if sub is None else list(sub.pv))
    played_end = _line_end(pos, played_pv)
    difference = max(0.0, best_value - played_value) if str(played) != str(best) else 0.0
    terms = _terms(best_end, played_end, mover, best_value - played_value) if difference else []
    return Explanation(
        pos.to_text(),
        mover,
        Line(str(best), best_value, best_bound, [str(m) for m in root.pv], _facts(best_end, mover)),
        Line(str(played), played_value, played_bound, [str(m) for m in played_pv], _facts(played_end, mover)),
        difference,
        terms,
        {"best": _next_three(pos.play(best)), "played": _next_three(child)},
    )


def _terms(best_end, played_end, mover, total) -> list[dict]:
    """The value difference split into the evaluation's terms at the two line
    ends, plus the score if the game ended now, plus what the search saw
    beyond them; largest first."""
    from patchsolve.search import _learned as k

    names = list(k.FEATURES)
    weights = k.learned_weights()
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
    return sorted(out, key=lambda t: -abs(t["points"]))


__all__ = ["Explanation", "Line", "explain"]
