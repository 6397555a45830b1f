"""Slow, obviously-correct reference implementation of the Patchwork rules.

Written independently from the repository's RULES.md, for differential
tests against the fast engine. Section names in docstrings ("Whose turn",
"Actions A/B", "Events", "7x7 bonus", "End and score") refer to RULES.md.

Quilts are frozensets of (row, col) cells; the circle is a tuple of patch ids.
Masks (bit index row*9+col, row 0 top, col 0 left) appear only at the API
boundary: in moves, in `snapshot` and in `all_placements`.

A move is a tuple (kind, patch, mask):
    ("walk", None, 0)          action A, advance and receive buttons
    ("buy", patch_id, mask)    action B, mask = squares the patch covers
    ("leather", None, 1 << sq) place a leather patch just taken
`legal_moves` lists them in a fixed order: walk, then buys by circle position
(and ascending mask), or leather squares in ascending order.
"""

import csv
import random
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "src" / "patchsolve" / "data"
SIZE = 9  # Components: 9x9 quilt boards
ALL_CELLS = frozenset((r, c) for r in range(SIZE) for c in range(SIZE))
BONUS_SIDE, BONUS_POINTS = 7, 7  # 7x7 bonus
START_BUTTONS = 5  # Setup


def _cells_of(shape):
    """Covered cells of a `patches.csv` shape (rows joined by '/', '#' = covered)."""
    return frozenset(
        (r, c) for r, row in enumerate(shape.split("/")) for c, ch in enumerate(row) if ch == "#"
    )


def _load_patches():
    with open(DATA / "patches.csv", newline="") as f:
        return {
            int(row["id"]): dict(
                cost=int(row["buttons"]),
                time=int(row["time"]),
                income=int(row["income"]),
                cells=_cells_of(row["shape"]),
            )
            for row in csv.DictReader(f)
        }


def _load_editions():
    def spaces(text):
        return tuple(int(x) for x in text.split(";"))

    with open(DATA / "timeboard.csv", newline="") as f:
        return {
            row["edition"]: dict(
                last=int(row["last_space"]),
                income=spaces(row["income_spaces"]),
                leather=spaces(row["leather_spaces"]),
            )
            for row in csv.DictReader(f)
        }


PATCHES = _load_patches()
EDITIONS = _load_editions()


def square(cell):
    """Bit index of a cell: row*9+col."""
    return cell[0] * SIZE + cell[1]


def to_mask(cells):
    """API boundary: cell set -> int with bit row*9+col."""
    return sum(1 << square(cell) for cell in cells)


def to_cells(mask):
    """API boundary: int mask -> cell set."""
    return frozenset(cell for cell in ALL_CELLS if mask >> square(cell) & 1)


@cache
def placement_cells(patch_id):
    """Action B: every distinct placement (any rotation or reflection, fully
    inside the 9x9) of a patch on an empty quilt, as cell sets. Orientations
    giving the same covered cells count once."""
    orientations, cells = set(), PATCHES[patch_id]["cells"]
    for _ in range(4):
        cells = frozenset((c, -r) for r, c in cells)  # rotate 90 degrees
        for shape in (cells, frozenset((r, -c) for r, c in cells)):  # and its mirror image
            r0, c0 = min(r for r, _ in shape), min(c for _, c in shape)
            orientations.add(frozenset((r - r0, c - c0) for r, c in shape))
    return sorted(
        {
            frozenset((r + dr, c + dc) for r, c in shape)
            for shape in orientations
            for dr in range(SIZE)
            for dc in range(SIZE)
            if all(r + dr < SIZE and c + dc < SIZE for r, c in shape)
        },
        key=to_mask,
    )


def all_placements(patch_id):
    """Every distinct placement of a patch on an empty quilt, as masks."""
    return [to_mask(cells) for cells in placement_cells(patch_id)]


@dataclass(frozen=True)
class RefState:
    """A full position. Per-player fields are (player 0, player 1) tuples.
    `on_top` is the token that arrived last on a shared space (meaningful only
    while both tokens share a space); `leather` holds the time-board spaces
    still carrying a leather patch; `pending_leather` is the player who must
    place a leather patch just taken."""

    edition: str
    circle: tuple
    quilts: tuple
    buttons: tuple
    income: tuple
    time: tuple
    leather: frozenset
    bonus_owner: object = None
    first_at_end: object = None
    pending_leather: object = None
    on_top: int = 0


def _set(pair, player, value):
    """Copy of a (player 0, player 1) pair with one player's entry replaced."""
    return tuple(value if p == player else pair[p] for p in (0, 1))


def start(circle, edition="revised", first_player=0):
    """Setup: empty quilts, 5 buttons, income 0, both tokens on space 0 with
    the start player's token on top, leather patches on the edition's spaces."""
    circle = tuple(circle)
    if edition not in EDITIONS or first_player not in (0, 1):
        raise ValueError("unknown edition or first player")
    if len(set(circle)) != len(circle) or not set(circle) <= set(PATCHES):
        raise ValueError("circle must hold distinct patch ids")
    return RefState(
        edition,
        circle,
        (frozenset(), frozenset()),
        (START_BUTTONS,) * 2,
        (0, 0),
        (0, 0),
        frozenset(EDITIONS[edition]["leather"]),
        on_top=first_player,
    )


def is_over(s):
    """End and score: both tokens on the last space and no leather placement pending."""
    last = EDITIONS[s.edition]["last"]
    return s.time == (last, last) and s.pending_leather is None


def to_move(s):
    """Whose turn: the player who must place a leather patch (Events: placed
    immediately); else the token further behind; on a shared space the token
    on top. Returns 0 once the game is over."""
    if is_over(s):
        return 0
    if s.pending_leather is not None:
        return s.pending_leather
    if s.time[0] != s.time[1]:
        return 0 if s.time[0] < s.time[1] else 1
    return s.on_top


def legal_moves(s):
    """Actions A and B, or only leather placements on empty squares when a
    leather patch must be placed. Empty list when the game is over."""
    if is_over(s):
        return []
    player = to_move(s)
    quilt = s.quilts[player]
    if s.pending_leather is not None:
        return [("leather", None, 1 << square(cell)) for cell in sorted(ALL_CELLS - quilt, key=square)]
    moves = [("walk", None, 0)]
    for patch_id in s.circle[:3]:  # Action B: one of the (up to) three next patches
        if PATCHES[patch_id]["cost"] <= s.buttons[player]:
            moves += [
                ("buy", patch_id, to_mask(cells)) for cells in placement_cells(patch_id) if not cells & quilt
            ]
    return moves


def _has_bonus_square(quilt):
    """7x7 bonus: the quilt fully covers one of the 9 possible 7x7 squares."""
    span = range(SIZE - BONUS_SIDE + 1)
    return any(
        all((r0 + r, c0 + c) in quilt for r in range(BONUS_SIDE) for c in range(BONUS_SIDE))
        for r0 in span
        for c0 in span
    )


def _place(s, player, cells):
    """Put cells on a quilt; the first player to cover a 7x7 square takes the bonus."""
    quilt = s.quilts[player] | cells
    s = replace(s, quilts=_set(s.quilts, player, quilt))
    if s.bonus_owner is None and _has_bonus_square(quilt):
        s = replace(s, bonus_owner=player)
    return s


def _move_token(s, player, new_time):
    """Move a token forward (never past the last space) and resolve Events:
    button income for each income space moved onto or past, the leather patch
    on a crossed leather space (taken, then placed or, on a full quilt,
    discarded), the "on top" rule and who reached the last space first."""
    edition = EDITIONS[s.edition]
    old = s.time[player]
    new = min(new_time, edition["last"])
    crossed = set(range(old + 1, new + 1))
    earned = s.income[player] * len(crossed & set(edition["income"]))
    s = replace(
        s, time=_set(s.time, player, new), buttons=_set(s.buttons, player, s.buttons[player] + earned)
    )
    if new == s.time[1 - player]:
        s = replace(s, on_top=player)
    if new == edition["last"] and s.first_at_end is None:
        s = replace(s, first_at_end=player)
    taken = crossed & s.leather
    assert len(taken) <= 1, "RULES.md: at most one leather patch can be taken per move"
    if taken:
        s = replace(s, leather=s.leather - taken)
        if s.quilts[player] != ALL_CELLS:
            s = replace(s, pending_leather=player)
    return s


def play(s, move):
    """Apply one legal move (ValueError otherwise)."""
    move = tuple(move)
    if move not in legal_moves(s):
        raise ValueError(f"illegal move {move!r}")
    kind, patch_id, mask = move
    player = to_move(s)
    if kind == "leather":  # Events: place the leather patch just taken
        return replace(_place(s, player, to_cells(mask)), pending_leather=None)
    if kind == "walk":  # Action A: opponent's space + 1, 1 button per space moved
        target = min(s.time[1 - player] + 1, EDITIONS[s.edition]["last"])
        s = replace(s, buttons=_set(s.buttons, player, s.buttons[player] + target - s.time[player]))
        return _move_token(s, player, target)
    patch = PATCHES[patch_id]  # Action B: buy, pay, place, then move by the time cost
    k = s.circle.index(patch_id)
    s = replace(
        s,
        circle=s.circle[k + 1 :] + s.circle[:k],
        buttons=_set(s.buttons, player, s.buttons[player] - patch["cost"]),
        income=_set(s.income, player, s.income[player] + patch["income"]),
    )
    s = _place(s, player, to_cells(mask))
    return _move_token(s, player, s.time[player] + patch["time"])


def snapshot(s):
    """Plain-data view of a state for comparison against the fast engine."""
    return {
        "edition": s.edition,
        "circle": tuple(s.circle),
        "quilts": tuple(to_mask(q) for q in s.quilts),
        "buttons": tuple(s.buttons),
        "income": tuple(s.income),
        "time": tuple(s.time),
        "to_move": to_move(s),
        "is_over": is_over(s),
        "leather": tuple(sorted(s.leather)),
        "bonus_owner": s.bonus_owner,
        "first_at_end": s.first_at_end,
        "pending_leather": s.pending_leather,
        "on_top": s.on_top if s.time[0] == s.time[1] else None,
    }


def scores(s):
    """End and score: buttons + 7 for the bonus - 2 x empty squares."""
    return tuple(
        s.buttons[p] + (BONUS_POINTS if s.bonus_owner == p else 0) - 2 * len(ALL_CELLS - s.quilts[p])
        for p in (0, 1)
    )


def winner(s):
    """End and score: the higher score wins; on equal scores the player who
    reached the last space first. Only defined for a finished game."""
    if not is_over(s):
        raise ValueError("the game is not over")
    a, b = scores(s)
    return s.first_at_end if a == b else (0 if a > b else 1)


def random_game(circle, seed, edition="revised", first_player=0):
    """States from the start to the end of a game whose moves are drawn
    uniformly from legal_moves by random.Random(seed)."""
    rng = random.Random(seed)
    states = [start(circle, edition, first_player)]
    while not is_over(states[-1]):
        states.append(play(states[-1], rng.choice(legal_moves(states[-1]))))
    return states
