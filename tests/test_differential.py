"""The Cython core against the slow pure-Python reference (tests/reference.py).

Over many seeded random games, at every ply: the set of legal moves as
(kind, patch, mask) and every field of the state agree; the moves are then
played in both. Run thousands with ``pytest --diff-games 5000``.
"""

import random

import reference as ref
from patchsolve import Position
from patchsolve.rules.position import random_circle


def core_snapshot(pos: Position) -> dict:
    f = pos.fields()
    return {
        "edition": f["edition"],
        "circle": f["circle"],
        "quilts": f["quilts"],
        "buttons": f["buttons"],
        "income": f["income"],
        "time": f["time"],
        "is_over": pos.is_over,
        "to_move": None if pos.is_over else pos.to_move,
        "leather": f["leather"],
        "bonus_owner": f["bonus_owner"],
        "first_at_end": f["first_at_end"],
        "pending_leather": f["pending_leather"],
        "on_top": f["on_top"],
    }


def ref_snapshot(s) -> dict:
    snap = dict(ref.snapshot(s))
    if snap["is_over"]:
        snap["to_move"] = None
    return snap


def as_triple(move):
    return (move.kind, move.patch, move.mask)


def play_both(game_seed: int):
    """Play one random game in both engines, comparing at every ply."""
    rng = random.Random(game_seed)
    edition = rng.choice(["revised", "original"])
    first = rng.randrange(2)
    circle = random_circle(game_seed)
    pos = Position.start(circle=circle, edition=edition, first_player=first)
    s = ref.start(circle, edition=edition, first_player=first)
    plies = 0
    while True:
        assert core_snapshot(pos) == ref_snapshot(s), f"game {game_seed} ply {plies}"
        core_moves = {as_triple(m): m for m in pos.legal_moves()}
        ref_moves = ref.legal_moves(s)
        assert len(core_moves) == len(ref_moves), f"game {game_seed} ply {plies}: duplicate or missing moves"
        assert set(core_moves) == set(ref_moves), f"game {game_seed} ply {plies}"
        if not ref_moves:
            assert pos.is_over and ref.is_over(s)
            assert pos.scores() == ref.scores(s)
            assert pos.winner() == ref.winner(s)
            return plies
        # Prefer buys a little so games reach full quilts, the bonus and discards.
        buys = [m for m in ref_moves if m[0] == "buy"]
        move = rng.choice(buys) if buys and rng.random() < 0.7 else rng.choice(ref_moves)
        pos = pos.play(core_moves[move])
        s = ref.play(s, move)
        plies += 1


def test_core_agrees_with_reference_over_random_games(diff_games):
    for seed in range(diff_games):
        play_both(seed)


# ---------------------------------------------------------------------------
# Dense positions: random play from the start rarely fills a quilt, so the
# 7x7 bonus and the discarded leather patch are compared from constructed
# late-game positions (not all reachable, but every rule still applies).
# ---------------------------------------------------------------------------

from patchsolve import _core  # noqa: E402


def dense_fields(seed: int) -> dict:
    rng = random.Random(seed)
    edition = rng.choice(["revised", "original"])
    quilts = []
    for _ in range(2):
        density = rng.choice([0.6, 0.8, 0.9, 0.97, 1.0])
        q = 0
        for sq in range(81):
            if rng.random() < density:
                q |= 1 << sq
        # sometimes leave exactly a 7x7 square one cell short
        if rng.random() < 0.5:
            r0, c0 = rng.randrange(3), rng.randrange(3)
            for r in range(7):
                for c in range(7):
                    q |= 1 << ((r0 + r) * 9 + c0 + c)
            q &= ~(1 << ((r0 + rng.randrange(7)) * 9 + c0 + rng.randrange(7)))
        quilts.append(q)
    times = [rng.randrange(30, 54), rng.randrange(30, 54)]
    leather_all = ref.EDITIONS[edition]["leather"]
    leather = tuple(sorted(s for s in leather_all if s > max(times)))
    circle = list(range(33))
    rng.shuffle(circle)
    circle = tuple(circle[: rng.randrange(0, 12)])
    on_top = rng.randrange(2) if times[0] == times[1] else None
    first_at_end = None
    if 53 in times:
        first_at_end = 0 if times[0] == 53 and (times[1] != 53 or rng.random() < 0.5) else 1
    return {
        "edition": edition,
        "circle": circle,
        "quilts": tuple(quilts),
        "buttons": (rng.randrange(0, 30), rng.randrange(0, 30)),
        "income": (rng.randrange(0, 20), rng.randrange(0, 20)),
        "time": tuple(times),
        "on_top": on_top,
        "leather": leather,
        "bonus_owner": None,
        "first_at_end": first_at_end,
        "pending_leather": None,
    }


def ref_from_fields(f: dict):
    return ref.RefState(
        f["edition"],
        tuple(f["circle"]),
        tuple(frozenset(ref.to_cells(q)) for q in f["quilts"]),
        tuple(f["buttons"]),
        tuple(f["income"]),
        tuple(f["time"]),
        frozenset(f["leather"]),
        bonus_owner=f["bonus_owner"],
        first_at_end=f["first_at_end"],
        pending_leather=f["pending_leather"],
        on_top=f["on_top"] if f["on_top"] is not None else 0,
    )


def test_core_agrees_with_reference_from_dense_positions(diff_games):
    seen_bonus = seen_discard = 0
    for seed in range(diff_games):
        f = dense_fields(seed)
        pos = Position(_core.CoreState.from_fields(f))
        s = ref_from_fields(f)
        rng = random.Random(seed)
        while True:
            assert core_snapshot(pos) == ref_snapshot(s), f"dense {seed}"
            core_moves = {as_triple(m): m for m in pos.legal_moves()}
            ref_moves = ref.legal_moves(s)
            assert len(core_moves) == len(ref_moves) and set(core_moves) == set(ref_moves), f"dense {seed}"
            if not ref_moves:
                assert pos.scores() == ref.scores(s) and pos.winner() == ref.winner(s)
                break
            move = rng.choice(ref_moves)
            before = pos.fields()
            pos = pos.play(core_moves[move])
            s = ref.play(s, move)
            after = pos.fields()
            seen_bonus += before["bonus_owner"] is None and after["bonus_owner"] is not None
            seen_discard += (
                len(after["leather"]) < len(before["leather"]) and after["pending_leather"] is None
            )
    if diff_games >= 100:
        # the test is only worth its name if it reached the rare rules
        assert seen_bonus > 0 and seen_discard > 0, (seen_bonus, seen_discard)
