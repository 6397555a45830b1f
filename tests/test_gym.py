"""The single-agent Gymnasium environment (patchsolve.interop.gym); runs where gymnasium is installed."""

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import patchsolve as ps  # noqa: E402
from patchsolve.interop import actions as A  # noqa: E402
from patchsolve.interop.gym import SingleAgentEnv  # noqa: E402
from patchsolve.interop.observation import observation  # noqa: E402

OPPONENT = "alphabeta:nodes=2000"


@pytest.mark.parametrize("seat", [0, 1, None])
def test_gymnasium_env_checker(seat):
    check_env(SingleAgentEnv(opponent=OPPONENT, seat=seat), skip_render_check=True)


def test_registered_env_and_render_modes():
    import gymnasium

    from patchsolve.interop.gym import ENV_ID

    pytest.importorskip("cairosvg")
    for mode in ("ansi", "rgb_array"):
        e = gymnasium.make(ENV_ID, opponent="greedy", render_mode=mode)
        check_env(e.unwrapped)
        e.reset(seed=1)
        picture = e.render()
        assert isinstance(picture, str) if mode == "ansi" else picture.shape[2] == 3


def run_episode(e, seed, rng):
    """Random legal actions; checks each step; returns (actions, final reward, info)."""
    obs, info = e.reset(seed=seed)
    taken = []
    while True:
        pos = e.position
        assert pos.to_move == e.seat and not pos.is_over
        assert np.array_equal(obs["action_mask"].astype(bool), A.legal_action_mask(pos))
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        assert np.array_equal(obs["observation"], observation(pos, e.seat))
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(a)
        obs, reward, term, trunc, info = e.step(a)
        assert not trunc
        if term:
            return taken, reward, info
        assert reward == 0


@pytest.mark.parametrize("seat", [0, 1])
def test_episodes_end_with_the_scores_of_the_core(seat):
    e = SingleAgentEnv(opponent=OPPONENT, seat=seat)
    taken, reward, info = run_episode(e, seed=seat + 3, rng=np.random.default_rng(1))
    end = e.position
    assert end.is_over and info["scores"] == end.scores()
    assert reward == (1.0 if end.winner() == seat else -1.0)
    # the opponent's moves are the engine's
    game = e.episode.game
    for before, move in zip(game.positions, game.moves):
        if before.to_move != seat:
            assert move == ps.search(before, engine="alphabeta", nodes=2000).best_move
    with pytest.raises(ps.PatchsolveError):
        e.step(taken[0])


def test_node_budget_opponent_is_reproducible_and_margin_reward():
    runs = []
    for _ in range(2):
        e = SingleAgentEnv(opponent=OPPONENT, seat=1, reward="margin")
        taken, reward, info = run_episode(e, seed=8, rng=np.random.default_rng(2))
        runs.append((taken, reward, e.episode.game.moves))
        s = info["scores"]
        assert reward == s[1] - s[0]
    assert runs[0] == runs[1]


def test_alternating_seat():
    e = SingleAgentEnv(opponent="random", seat=None)
    seats = []
    for k in range(3):
        e.reset(seed=1 if k == 0 else None)
        seats.append(e.seat)
    assert seats == [0, 1, 0]


def test_illegal_action():
    e = SingleAgentEnv(opponent=OPPONENT)
    obs, _ = e.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, term, trunc, info = e.step(illegal)
    assert reward == -1 and term and info["illegal_action"]
    with pytest.raises(ps.PatchsolveError):
        e.step(0)
    strict = SingleAgentEnv(opponent=OPPONENT, illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(ps.IllegalMoveError):
        strict.step(illegal)
    with pytest.raises(ps.PatchsolveError):
        strict.step(A.NUM_ACTIONS)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"opponent": "deep_blue"},
        {"opponent": 3},
        {"seat": 2},
        {"illegal": "ignore"},
        {"reward": "points"},
        {"render_mode": "svg"},
    ],
)
def test_bad_options(kwargs):
    with pytest.raises(ps.PatchsolveError):
        SingleAgentEnv(**kwargs)


def test_player_object_as_opponent_is_left_open():
    from patchsolve.arena.players import GreedyPlayer

    class Counting(GreedyPlayer):
        closed = 0

        def close(self):
            self.closed += 1

    mine = Counting()
    e = SingleAgentEnv(opponent=mine, seat=1)
    obs, info = e.reset(seed=2)
    assert e.position.to_move == 1 and len(e.episode.game.moves) >= 1
    e.close()
    assert mine.closed == 0
    built = SingleAgentEnv(opponent="greedy")
    built.opponent = Counting()  # stands in for the player built from the spec
    built.close()
    assert built.opponent.closed == 1


@pytest.mark.parametrize("imports", ["import gymnasium, patchsolve", "import patchsolve, gymnasium"])
def test_make_works_after_import_patchsolve_in_either_order(imports):
    import os
    import subprocess
    import sys

    code = (
        f"{imports}\n"
        "e = gymnasium.make('patchsolve/Patchwork-v0', opponent='random')\n"
        "obs, info = e.reset(seed=1)\n"
        "print(type(e.unwrapped).__name__, obs['observation'].shape[0] > 0)\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)),
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["SingleAgentEnv", "True"]


def test_import_patchsolve_does_not_import_gymnasium():
    import os
    import subprocess
    import sys

    r = subprocess.run(
        [sys.executable, "-c", "import sys, patchsolve; print('gymnasium' in sys.modules)"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)),
    )
    assert r.returncode == 0 and r.stdout.strip() == "False", r.stderr
