"""Throughput of the research adapters: uniform random games through the
action numbering, the OpenSpiel game, the PettingZoo environment and the
Gymnasium environment (against greedy), next to the Python API itself.

    python benchmarks/bench_adapters.py [--games 20]

Needs the [openspiel] and [pettingzoo] extras. Prints figures; asserts none.
"""

import argparse
import time

import numpy as np

import patchsolve as ps
from patchsolve.interop import actions
from patchsolve.interop.observation import observation


def timed(label, games, run):
    t = time.perf_counter()
    plies = sum(run(k) for k in range(games))
    dt = time.perf_counter() - t
    print(f"{label:<44}: {games / dt:8.1f} games/s  {plies / dt:9.0f} steps/s")


def api_game(k):
    rng = np.random.default_rng(k)
    pos, n = ps.Position.start(seed=k), 0
    while not pos.is_over:
        moves = pos.legal_moves()
        pos, n = pos.play(moves[rng.integers(len(moves))]), n + 1
    return n


def actions_game(k):
    """Mask and observation at every step, as a learning agent sees it."""
    rng = np.random.default_rng(k)
    pos, n = ps.Position.start(seed=k), 0
    while not pos.is_over:
        mask = actions.legal_action_mask(pos)
        observation(pos, pos.to_move)
        pos, n = pos.play(actions.action_to_move(int(rng.choice(np.flatnonzero(mask))))), n + 1
    return n


def openspiel_game(k):
    import pyspiel

    import patchsolve.interop.openspiel  # noqa: F401

    rng = np.random.default_rng(k)
    state, n = pyspiel.load_game("patchwork", {"seed": k}).new_initial_state(), 0
    while not state.is_terminal():
        state.observation_tensor(state.current_player())
        state.apply_action(int(rng.choice(state.legal_actions())))
        n += 1
    return n


def pettingzoo_game(k):
    from patchsolve.interop.env import env

    rng = np.random.default_rng(k)
    e, n = env(), 0
    e.reset(seed=k)
    for _ in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
    return n


def gym_game(k):
    from patchsolve.interop.gym import SingleAgentEnv

    rng = np.random.default_rng(k)
    e = SingleAgentEnv(opponent="greedy", seat=k % 2)
    obs, _ = e.reset(seed=k)
    n, done = 0, False
    while not done:
        obs, _, done, _, _ = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        n += 1
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    args = ap.parse_args()
    g = args.games
    timed("Position API, random moves", g, api_game)
    timed("action numbering + mask + observation", g, actions_game)
    timed("OpenSpiel state + observation_tensor", g, openspiel_game)
    timed("PettingZoo env() (wrapped), random legal", g, pettingzoo_game)
    timed("Gymnasium vs greedy (agent steps)", g, gym_game)


if __name__ == "__main__":
    main()
