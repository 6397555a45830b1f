"""A single-agent Gymnasium environment: one seat of Patchwork against a
patchsolve opponent (needs ``gymnasium``, in the ``[pettingzoo]`` extra).

    from patchsolve.interop.gym import SingleAgentEnv
    e = SingleAgentEnv(opponent="alphabeta:nodes=5000", seat=0)
    e = gymnasium.make("patchsolve/Patchwork-v0", opponent="greedy")   # the same, registered
    obs, info = e.reset(seed=1)
    obs, reward, terminated, truncated, info = e.step(action)

``opponent`` is a player spec as ``patchsolve tournament`` takes them
(``"alphabeta:nodes=5000"``, ``"alphabeta:time=0.1"``, ``"mcts:iterations=2000"``,
``"greedy"``, ``"random"``; see :mod:`patchsolve.arena.players`) or a
:class:`patchsolve.arena.players.Player`. A node or iteration budget keeps episodes
reproducible; a time budget does not. ``seat`` is the agent's player (0 or 1,
or ``None``: alternate, starting with 0 after each seeded reset).

Observation: the dict of ``patchsolve.interop.env`` (``"observation"`` float32
vector, ``"action_mask"`` int8 over the action numbers of
:mod:`patchsolve.interop.actions`); ``info["action_mask"]`` holds the same mask. The
opponent's moves are played inside ``step`` and ``reset`` until the agent is
to move again (turns do not alternate) or the game ends. The reward is 0
until the end, then as ``reward`` says (``"win"``: +1/-1, ``"margin"``: the
agent's score minus the opponent's). An illegal action ends the episode with
reward -1 (``info["illegal_action"]``) when ``illegal="lose"`` (the default,
as random actions are nearly always illegal in a 7,431-action space), or
raises IllegalMoveError when ``illegal="raise"``.
"""

from __future__ import annotations

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as e:  # still an ImportError, with the way out
    raise ImportError(
        f"patchsolve.interop.gym needs gymnasium: pip install 'patchsolve[pettingzoo]' ({e})"
    ) from e

from patchsolve.errors import PatchsolveError
from patchsolve.interop import actions
from patchsolve.interop.episode import RENDER_MODES, Episode, check_choice
from patchsolve.interop.observation import OBSERVATION_HIGH, OBSERVATION_LOW

ILLEGAL = ("lose", "raise")


def observation_space() -> spaces.Dict:
    """The observation space shared by the PettingZoo and Gymnasium environments."""
    return spaces.Dict(
        {
            "observation": spaces.Box(low=OBSERVATION_LOW, high=OBSERVATION_HIGH, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(actions.NUM_ACTIONS,), dtype=np.int8),
        }
    )


def _opponent(spec, seed: int):
    from patchsolve.arena.players import Player, make_player

    if isinstance(spec, Player):
        return spec
    if isinstance(spec, str):
        return make_player(spec, seed=seed)
    raise PatchsolveError(f"opponent must be a player spec or a Player, not {spec!r}")


class SingleAgentEnv(gymnasium.Env):
    """Options: ``opponent``, ``seat``, ``edition``, ``circle``,
    ``first_player``, ``reward``, ``illegal``, ``render_mode`` (above)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(
        self,
        opponent="alphabeta:nodes=5000",
        seat: int | None = 0,
        edition: str = "revised",
        circle=None,
        first_player: int = 0,
        reward: str = "win",
        illegal: str = "lose",
        render_mode: str | None = None,
        opponent_seed: int = 0,
    ):
        check_choice("seat", seat, (0, 1, None))
        check_choice("illegal", illegal, ILLEGAL)
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.opponent = _opponent(opponent, opponent_seed)
        self._own_opponent = self.opponent is not opponent  # built here from a spec: ours to close
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.illegal = illegal
        self.render_mode = render_mode
        self.episode = Episode(edition=edition, circle=circle, first_player=first_player, reward=reward)
        self.action_space = spaces.Discrete(actions.NUM_ACTIONS)
        self.observation_space = observation_space()
        self._episodes = 0
        self._done = True  # until the first reset

    @property
    def position(self):
        """The current :class:`~patchsolve.Position`."""
        return self.episode.position

    def reset(self, seed=None, options=None):
        """Start a new episode: the opponent moves first when it is to move.
        Returns ``(observation, info)``; without a fixed ``seat`` the seat
        alternates from episode to episode."""
        super().reset(seed=seed)
        if seed is not None:
            self._episodes = 0
        if self.fixed_seat is None:
            self.seat = self._episodes % 2
        self._episodes += 1
        self.episode.reset(seed, options)
        self.opponent.new_game()
        self._opponent_moves()
        self._done = False
        obs = self._observe()
        return obs, self._info(obs)

    def step(self, action):
        """Play ``action``, then the opponent's moves until it is the agent's turn
        or the game ends. Returns ``(observation, reward, terminated, truncated,
        info)``; an illegal action ends the episode with -1 (or raises, with
        ``illegal="raise"``)."""
        if self._done:
            raise PatchsolveError("the episode is over: call reset()")
        if not self.episode.is_legal(action):
            if self.illegal == "raise":
                self.episode.play(action)  # raises the error that says why
            self._done = True
            obs = self._observe()
            return obs, -1.0, True, False, {**self._info(obs), "illegal_action": True}
        self.episode.play(action)
        self._opponent_moves()
        self._done = self.position.is_over
        reward = self.episode.final_rewards()[self.seat] if self._done else 0.0
        obs = self._observe()
        return obs, reward, self._done, False, self._info(obs)

    def _opponent_moves(self) -> None:
        while not self.position.is_over and self.position.to_move != self.seat:
            self.episode.game.push(self.opponent.choose(self.position))

    def _observe(self) -> dict:
        return self.episode.observe(self.seat)

    def _info(self, obs: dict) -> dict:
        return {**self.episode.info(), "seat": self.seat, "action_mask": obs["action_mask"]}

    def close(self):
        """Close the opponent when this environment made it from a player spec."""
        if self._own_opponent:
            self.opponent.close()

    def render(self):
        """The picture of the game for the ``render_mode`` given at construction."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        return self.episode.render(self.render_mode)


ENV_ID = "patchsolve/Patchwork-v0"  # registered by ``import patchsolve`` (see its __init__)
if ENV_ID not in gymnasium.registry:
    gymnasium.register(ENV_ID, entry_point=SingleAgentEnv)  # type: ignore[arg-type]
