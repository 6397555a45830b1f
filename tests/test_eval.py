"""The shared evaluation module (search/_eval.pyx): the placement scores
against their definitions square by square, and the greedy player against
its documented rule."""

import random

import pytest

from patchsolve import Position
from patchsolve.arena.players import GreedyPlayer
from patchsolve.rules.patches import EDITIONS, PATCHES
from patchsolve.search import _eval


def neighbours(sq):
    r, c = divmod(sq, 9)
    return [(rr, cc) for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))]


def covered(quilt, rr, cc):
    return quilt >> (rr * 9 + cc) & 1


def on_board(rr, cc):
    return 0 <= rr < 9 and 0 <= cc < 9


def squares(mask):
    return [sq for sq in range(81) if mask >> sq & 1]


def definitions(quilt, mask, hole_penalty):
    after = quilt | mask
    empty_next = {
        rr * 9 + cc
        for sq in squares(mask)
        for rr, cc in neighbours(sq)
        if on_board(rr, cc) and not covered(after, rr, cc)
    }
    contact = sum(
        1
        for sq in squares(mask)
        for rr, cc in neighbours(sq)
        if not on_board(rr, cc) or covered(quilt, rr, cc)
    )
    isolated = sum(
        1
        for sq in range(81)
        if not after >> sq & 1
        and all(not on_board(rr, cc) or covered(after, rr, cc) for rr, cc in neighbours(sq))
    )
    return len(empty_next) + 4 * isolated, contact, isolated, 256 + contact - hole_penalty * isolated


@pytest.mark.parametrize("seed", range(40))
def test_the_placement_scores_follow_their_definitions(seed):
    rng = random.Random(seed)
    quilt = sum(1 << sq for sq in range(81) if rng.random() < rng.choice([0.2, 0.5, 0.8]))
    free = [sq for sq in range(81) if not quilt >> sq & 1] or [0]
    mask = sum(1 << sq for sq in rng.sample(free, min(len(free), rng.randint(1, 6)))) & ~quilt
    hole_penalty = rng.choice([0, 4, 8])
    assert _eval.placement_scores(quilt, mask, hole_penalty) == definitions(quilt, mask, hole_penalty)


def test_a_quilt_outside_the_board_is_refused():
    with pytest.raises(ValueError):
        _eval.placement_scores(1 << 81, 1, 4)


def greedy_value(pos, move):
    """The value GreedyPlayer maximises (its docstring), before tie-breaks."""
    if move.kind == "walk":
        return 0
    if move.kind == "leather":
        return 2
    patch = PATCHES[move.patch]
    t = pos.time(pos.to_move)
    after = min(53, t + patch.time)
    ahead = sum(1 for s in EDITIONS[pos.edition].income_spaces if s > after)
    return 2 * patch.size - patch.buttons + patch.income * ahead - (after - t)


@pytest.mark.parametrize("seed", range(6))
def test_the_greedy_player_takes_a_move_of_the_highest_value_preferring_a_buy_to_walking(seed):
    rng = random.Random(seed)
    pos = Position.start(seed=seed, edition=rng.choice(["revised", "original"]))
    player = GreedyPlayer()
    while not pos.is_over:
        move = player.choose(pos)
        values = {m: greedy_value(pos, m) for m in pos.legal_moves()}
        assert values[move] == max(values.values())
        if values[move] == 0 and any(m.kind != "walk" and v == 0 for m, v in values.items()):
            assert move.kind != "walk"
        pos = pos.play(rng.choice(list(values)) if rng.random() < 0.3 else move)
