"""The PettingZoo AEC environment (patchsolve.interop.env); runs where pettingzoo is installed."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

import patchsolve as ps  # noqa: E402
from patchsolve.interop import actions as A  # noqa: E402
from patchsolve.interop.env import AGENTS, env, raw_env  # noqa: E402


# the api_test's advice for non-dict observations; PettingZoo's classic games get it too
@pytest.mark.filterwarnings(
    "ignore:Observation space for each agent", "ignore:Observation is not a NumPy array"
)
def test_pettingzoo_api_test():
    api_test(env(), num_cycles=300)
    api_test(raw_env(edition="original", first_player=1), num_cycles=300)


def test_pettingzoo_seed_test():
    seed_test(env, num_cycles=100)


def test_random_episodes_follow_the_core_and_end_with_its_scores():
    rng = np.random.default_rng(3)
    for seed in range(3):
        e = env()
        e.reset(seed=seed)
        finals = {}
        order = []
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            if term:
                finals[agent] = (reward, info)
                end = e.unwrapped.position
                e.step(None)
                continue
            pos = e.unwrapped.position
            assert agent == AGENTS[pos.to_move]
            assert np.array_equal(obs["action_mask"].astype(bool), A.legal_action_mask(pos))
            order.append(agent)
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert end.is_over and set(finals) == set(AGENTS) and e.agents == []
        w = end.winner()
        for k, agent in enumerate(AGENTS):
            reward, info = finals[agent]
            assert reward == (1 if w == k else -1)
            assert info["scores"] == end.scores() and info["winner"] == w
        # turns do not alternate: somebody moved twice in a row
        assert any(a == b for a, b in zip(order, order[1:]))


def test_margin_reward():
    e = raw_env(reward="margin")
    e.reset(seed=5)
    rng = np.random.default_rng(0)
    finals = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term:
            finals[agent] = reward
            s = e.position.scores()
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert finals == {"player_0": s[0] - s[1], "player_1": s[1] - s[0]}


def test_seeded_reset_draws_the_same_circle_and_options_start_anywhere():
    a, b = raw_env(), raw_env()
    a.reset(seed=9)
    b.reset(seed=9)
    assert a.position == b.position
    b.reset(seed=10)
    assert a.position != b.position
    fixed = ps.rules.position.random_circle(4)
    c = raw_env(circle=fixed, first_player=1)
    c.reset(seed=1)
    assert c.position == ps.Position.start(circle=fixed, first_player=1)
    assert c.agent_selection == "player_1"
    mid = ps.Position.start(seed=2).play("walk").play("walk")
    c.reset(options={"position": mid.to_text()})
    assert c.position == mid and c.agent_selection == AGENTS[mid.to_move]


def test_illegal_actions():
    e = raw_env()
    e.reset(seed=1)
    pos = e.position
    illegal = next(a for a in range(A.NUM_ACTIONS) if not A.legal_action_mask(pos)[a])
    with pytest.raises(ps.IllegalMoveError):
        e.step(illegal)
    w = env()
    w.reset(seed=1)
    mover = w.agent_selection
    w.step(illegal)  # PettingZoo's wrapper: the game ends, -1 for the offender
    assert w.terminations[mover] and w.rewards[mover] == -1


@pytest.mark.parametrize(
    "kwargs",
    [
        {"edition": "deluxe"},
        {"reward": "points"},
        {"render_mode": "svg"},
        {"first_player": 3},
        {"circle": (1, 2, 3)},
    ],
)
def test_bad_options(kwargs):
    with pytest.raises(ps.PatchsolveError):
        raw_env(**kwargs)


def test_render_text():
    e = raw_env(render_mode="ansi")
    e.reset(seed=1)
    e.step(0)
    text = e.render()
    assert text.startswith("last move: walk") and e.position.to_text() in text


def test_render_rgb_draws_patch_colours():
    pytest.importorskip("cairosvg")
    from patchsolve.rules.render import patch_colour

    e = raw_env(render_mode="rgb_array", circle=ps.rules.position.random_circle(1))
    e.reset(seed=1)
    pos = e.position
    buy = next(m for m in pos.legal_moves() if m.kind == "buy")
    e.step(A.move_to_action(buy))
    img = e.render()
    assert img.ndim == 3 and img.shape[2] == 3 and img.dtype == np.uint8
    want = np.array([int(patch_colour(buy.patch)[i : i + 2], 16) for i in (1, 3, 5)])
    assert (np.abs(img.reshape(-1, 3).astype(int) - want).max(axis=1) <= 2).sum() > 100


def test_pettingzoo_render_test():
    pytest.importorskip("cairosvg")
    render_test(
        lambda render_mode: raw_env(render_mode=render_mode, circle=ps.rules.position.random_circle(0))
    )


def test_readme_researchers_examples_run():
    pytest.importorskip("pyspiel")
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    section = text[text.index("## For researchers") :]
    section = section[: section.index("\n## ", 1)]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 2
    scope = {}
    for block in blocks:
        exec(block, scope)
    assert scope["e"].unwrapped.position.is_over and scope["obs"]["observation"].shape == (432,)
