"""The OpenSpiel game (patchsolve.interop.openspiel); runs where open_spiel is installed."""

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import patchsolve as ps  # noqa: E402
import patchsolve.interop.openspiel as pso  # noqa: E402
from patchsolve.interop import actions as A  # noqa: E402
from patchsolve.interop.observation import observation  # noqa: E402
from patchsolve.rules.position import random_circle  # noqa: E402


def test_load_default_is_the_built_in_start():
    game = pyspiel.load_game("patchwork")
    assert game.new_initial_state().position == ps.Position.start(seed=0)
    assert game.num_distinct_actions() == A.NUM_ACTIONS
    assert game.observation_tensor_shape() == [len(observation(ps.Position.start(), 0))]
    t = game.get_type()
    assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert t.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC


def test_parameters():
    game = pyspiel.load_game("patchwork", {"seed": 7, "edition": "original", "first_player": 1})
    assert game.new_initial_state().position == ps.Position.start(seed=7, edition="original", first_player=1)
    circle = random_circle(3)
    for text in (",".join(map(str, circle)), ";".join(map(str, circle))):
        g = pyspiel.load_game("patchwork", {"circle": text, "seed": 99})
        assert g.new_initial_state().position.circle == circle
    g = pyspiel.load_game(f"patchwork(circle={';'.join(map(str, circle))})")
    assert g.new_initial_state().position.circle == circle


@pytest.mark.parametrize(
    "params", [{"edition": "deluxe"}, {"circle": "1,2,3"}, {"circle": "a,b"}, {"first_player": 2}]
)
def test_bad_parameters(params):
    with pytest.raises(ps.PatchsolveError):
        pso.PatchworkGame(params)


def test_random_sim_test_with_serialization():
    for params in ({}, {"seed": 5, "edition": "original", "first_player": 1}):
        pyspiel.random_sim_test(
            pyspiel.load_game("patchwork", params), num_sims=3, serialize=True, verbose=False
        )


def test_random_games_match_the_core():
    """Legal actions are the core's legal moves at every step; the returns
    follow the core's winner; the observation is the shared one."""
    game = pyspiel.load_game("patchwork", {"seed": 11})
    rng = random.Random(4)
    for _ in range(3):
        state = game.new_initial_state()
        pos = state.position
        while not state.is_terminal():
            assert state.current_player() == pos.to_move
            legal = state.legal_actions()
            assert state.legal_actions(1 - pos.to_move) == []
            assert legal == sorted(A.move_to_action(m) for m in pos.legal_moves())
            assert np.array_equal(np.array(state.legal_actions_mask(), dtype=bool), A.legal_action_mask(pos))
            assert np.array_equal(state.observation_tensor(pos.to_move), observation(pos, pos.to_move))
            assert state.observation_string(0) == pos.to_text()
            action = rng.choice(legal)
            assert state.action_to_string(pos.to_move, action) == str(A.action_to_move(action))
            state.apply_action(action)
            pos = pos.play(A.action_to_move(action))
            assert state.position == pos
        w = pos.winner()
        assert state.returns() == [1.0 if w == 0 else -1.0, 1.0 if w == 1 else -1.0]
        assert state.move_number() <= game.max_game_length()


def test_serialize_round_trip():
    game = pyspiel.load_game("patchwork", {"seed": 2, "first_player": 1})
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(15):
        state.apply_action(rng.choice(state.legal_actions()))
    g2, s2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert s2.position == state.position and s2.history() == state.history()
    assert str(g2) == str(game)


def test_serialize_with_a_circle_given_with_commas():
    circle = random_circle(6)
    game = pyspiel.load_game("patchwork", {"circle": ",".join(map(str, circle))})
    state = game.new_initial_state().child(0)
    g2, s2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert s2.position == state.position and g2.new_initial_state().position.circle == circle
    assert pyspiel.load_game(str(game)).new_initial_state().position == game.new_initial_state().position
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_bot_and_core_evaluator_in_mcts():
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("patchwork", {"seed": 3})
    state = game.new_initial_state()
    bot = pso.PatchsolveBot("alphabeta", nodes=2000)
    a = bot.step(state)
    assert a == A.move_to_action(ps.search(state.position, engine="alphabeta", nodes=2000).best_move)
    picks = []
    for _ in range(2):  # same seeds, same move
        ev = pso.CorePlayoutEvaluator(5, seed=9)
        m = mcts.MCTSBot(game, 2.0, 40, ev, random_state=np.random.RandomState(1))
        picks.append(m.step(state))
    assert picks[0] == picks[1] and picks[0] in state.legal_actions()
    with pytest.raises(ps.PatchsolveError):
        pso.CorePlayoutEvaluator(0)


def test_example_mcts_against_alphabeta_runs():
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "examples" / "openspiel_mcts.py"
    out = subprocess.run(
        [
            sys.executable,
            str(script),
            "--games",
            "1",
            "--simulations",
            "20",
            "--rollouts",
            "2",
            "--ab-nodes",
            "500",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lines = out.splitlines()
    assert len(lines) == 3 and "of 2 games" in lines[-1]
    assert all("scores" in line for line in lines[:2])
