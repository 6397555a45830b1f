"""Patchwork as a PettingZoo AEC environment (the ``[pettingzoo]`` extra).

Example::

    from patchsolve.interop.env import env
    e = env(render_mode="ansi")          # wrapped like PettingZoo's classic games
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        if termination or truncation:
            action = None
        else:
            action = e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents ``"player_0"`` and ``"player_1"``; ``agent_selection`` is the core's
player to move, so one agent may act several times in a row (Patchwork turns
do not alternate: the token further behind moves, and a leather patch is
placed by who took it). Actions are the numbers of
:mod:`patchsolve.interop.actions`; an observation is a dict with ``"observation"``
(:mod:`patchsolve.interop.observation`, seen by that agent) and ``"action_mask"``
(int8, the legal actions of the agent to move, zeros for the other). Rewards
come at the end (``reward="win"``: +1/-1; ``"margin"``: score difference),
and the final ``infos`` hold the core's ``scores`` and ``winner``.
``render_mode``: ``"ansi"`` returns text (``"human"`` prints it),
``"rgb_array"`` the game's SVG picture (``Game.to_svg``) rendered by
cairosvg. The start of an episode is described in
:mod:`patchsolve.interop.episode` (``reset(seed=..., options={"position": p})``).

``raw_env`` raises IllegalMoveError on an illegal action; ``env()`` adds
PettingZoo's wrappers, which end the game with -1 for the offender instead.
"""

from __future__ import annotations

try:
    from gymnasium import spaces
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # still an ImportError, with the way out
    raise ImportError(
        f"patchsolve.interop.env needs pettingzoo: pip install 'patchsolve[pettingzoo]' ({e})"
    ) from e

from patchsolve.interop import actions
from patchsolve.interop.episode import RENDER_MODES, Episode, check_choice
from patchsolve.interop.gym import SingleAgentEnv, observation_space  # noqa: F401  (SingleAgentEnv re-exported)

AGENTS = ("player_0", "player_1")


def env(**kwargs):
    """The environment with PettingZoo's standard classic-game wrappers."""
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv, EzPickle):
    """Options: ``edition``, ``circle`` (fixed start circle; default: drawn
    from the seeded generator at each reset), ``first_player``, ``reward``
    (``"win"`` or ``"margin"``), ``render_mode``."""

    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": "patchwork_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        edition: str = "revised",
        circle=None,
        first_player: int = 0,
        reward: str = "win",
        render_mode: str | None = None,
    ):
        EzPickle.__init__(self, edition, circle, first_player, reward, render_mode)
        super().__init__()
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.episode = Episode(edition=edition, circle=circle, first_player=first_player, reward=reward)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.action_spaces = {a: spaces.Discrete(actions.NUM_ACTIONS) for a in AGENTS}
        self.observation_spaces = {a: observation_space() for a in AGENTS}

    def observation_space(self, agent):
        """The observation space of ``agent``: a dict of ``observation`` and ``action_mask``."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """The action space of ``agent``: the numbers of :mod:`patchsolve.interop.actions`."""
        return self.action_spaces[agent]

    @property
    def position(self):
        """The current :class:`~patchsolve.Position`."""
        return self.episode.position

    def observe(self, agent):
        """The observation of ``agent`` (its action mask is zeros unless it moves next)."""
        return self.episode.observe(AGENTS.index(agent))

    def reset(self, seed=None, options=None):
        """Start a new game (``seed`` reseeds the circle; ``options={"position": ...}``
        starts from a given position); the agent to move is selected."""
        self.episode.reset(seed, options)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: self.episode.info() for a in self.agents}
        self.agent_selection = AGENTS[self.position.to_move]

    def step(self, action):
        """Play ``action`` for the selected agent (IllegalMoveError if not legal); at
        the end of the game both agents get their rewards and are terminated."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.episode.play(action)
        self._clear_rewards()
        self._cumulative_rewards[agent] = 0.0
        pos = self.position
        if pos.is_over:
            for a, r in zip(AGENTS, self.episode.final_rewards()):
                self.rewards[a] = r
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = AGENTS[pos.to_move]
        self.infos = {a: self.episode.info() for a in self.agents}
        self._accumulate_rewards()

    def render(self):
        """The picture of the game for the ``render_mode`` given at construction."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode")
            return None
        return self.episode.render(self.render_mode)

    def close(self):
        """Nothing to release."""
        pass
