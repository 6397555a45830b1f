"""The adapters' action numbering and numeric observation (patchsolve.interop.actions,
patchsolve.interop.observation), on random games."""

import random

import numpy as np
import pytest

import patchsolve as ps
from patchsolve.interop import actions as A
from patchsolve.interop.observation import (
    OBSERVATION_HIGH,
    OBSERVATION_LAYOUT,
    OBSERVATION_LOW,
    OBSERVATION_SIZE,
    observation,
)
from patchsolve.rules.patches import PATCHES


def random_game(seed: int, edition: str = "revised"):
    """Every position of one uniform random game, the final one included."""
    rng = random.Random(seed)
    pos = ps.Position.start(seed=seed, edition=edition, first_player=seed % 2)
    out = [pos]
    while not pos.is_over:
        pos = pos.play(rng.choice(pos.legal_moves()))
        out.append(pos)
    return out


GAMES = [random_game(s, "revised" if s % 2 else "original") for s in range(6)]


def test_layout_numbers():
    assert A.NUM_ACTIONS == 82 + sum(len(ps._core.placements(p)) for p in range(len(PATCHES)))
    assert A.action_to_move(0).kind == "walk"
    assert str(A.action_to_move(1)) == "leather@a1" and str(A.action_to_move(81)) == "leather@i9"
    assert str(A.action_to_move(82)) == "0:0@a1"
    last = A.action_to_move(A.NUM_ACTIONS - 1)
    assert (
        last.patch == len(PATCHES) - 1
        and last.orientation == ps.rules.position.orientation_count(last.patch) - 1
    )


def test_every_action_round_trips():
    seen = set()
    for a in range(A.NUM_ACTIONS):
        m = A.action_to_move(a)
        assert A.move_to_action(m) == a
        seen.add(m.code)
    assert len(seen) == A.NUM_ACTIONS


def test_buy_actions_ordered_by_patch_orientation_square():
    keys = [
        (m.patch, m.orientation, m.square) for m in map(A.action_to_move, range(A.FIRST_BUY, A.NUM_ACTIONS))
    ]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


@pytest.mark.parametrize("bad", [-1, A.NUM_ACTIONS, 10**9, 1.0, "walk", None, True])
def test_bad_action_numbers(bad):
    with pytest.raises(ps.PatchsolveError):
        A.action_to_move(bad)


def test_bad_moves_and_codes():
    with pytest.raises(ps.PatchsolveError):
        A.move_to_action("walk")
    for code in (-1, 82, 127, 128 + 81, 10**6):
        with pytest.raises(ps.PatchsolveError):
            A.code_to_action(code)


def test_legal_moves_round_trip_and_mask_on_random_games():
    for game in GAMES:
        for pos in game:
            moves = pos.legal_moves()
            acts = [A.move_to_action(m) for m in moves]
            assert [A.action_to_move(a) for a in acts] == moves
            mask = A.legal_action_mask(pos)
            assert mask.dtype == bool and mask.shape == (A.NUM_ACTIONS,)
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(acts) == A.legal_actions(pos)
        assert not A.legal_action_mask(game[-1]).any()


def test_observation_layout_covers_vector():
    slices = sorted(OBSERVATION_LAYOUT.values(), key=lambda s: s.start)
    assert slices[0].start == 0 and slices[-1].stop == OBSERVATION_SIZE
    assert all(a.stop == b.start for a, b in zip(slices, slices[1:]))


def test_observation_matches_fields_on_random_games():
    L = OBSERVATION_LAYOUT
    for game in GAMES[:3]:
        for pos in game[::5] + [game[-1]]:
            f = pos.fields()
            for player in (0, 1):
                o = observation(pos, player)
                assert o.dtype == np.float32 and o.shape == (OBSERVATION_SIZE,)
                assert (o >= OBSERVATION_LOW).all() and (o <= OBSERVATION_HIGH).all()
                quilts = o[L["quilts"]].reshape(2, 81)
                for k, p in enumerate((player, 1 - player)):
                    assert sum(1 << int(i) for i in np.flatnonzero(quilts[k])) == f["quilts"][p]
                    assert o[L["buttons"]][k] == f["buttons"][p]
                    assert o[L["time"]][k] == f["time"][p]
                circle = o[L["circle"]].reshape(33, 6)
                n = len(f["circle"])
                assert circle[:n, 1].tolist() == list(f["circle"]) and circle[:n, 0].all()
                assert not circle[n:].any()
                assert np.flatnonzero(o[L["leather"]]).tolist() == list(f["leather"])
                assert o[L["to_move"]][0] == (not pos.is_over and pos.to_move == player)
                assert o[L["seat"]][0] == player


def test_observation_sees_the_other_side():
    pos = GAMES[1][20]
    L = OBSERVATION_LAYOUT
    a, b = observation(pos, 0), observation(pos, 1)
    assert (a[L["quilts"]][:81] == b[L["quilts"]][81:]).all()
    assert a[L["to_move"]][0] + b[L["to_move"]][0] == 1


@pytest.mark.parametrize("bad", [2, -1, True, "0", None])
def test_observation_bad_player(bad):
    with pytest.raises(ps.PatchsolveError):
        observation(GAMES[0][0], bad)
