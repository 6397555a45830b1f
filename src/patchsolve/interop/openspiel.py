"""Patchwork as an OpenSpiel game, backed by the Cython core.

Importing this module registers the game with ``pyspiel`` (the optional
``open_spiel`` package: ``pip install 'patchsolve[openspiel]'``)::

    import pyspiel
    import patchsolve.interop.openspiel

    game = pyspiel.load_game("patchwork")                        # Position.start(seed=0)
    game = pyspiel.load_game("patchwork", {"seed": 7, "edition": "original", "first_player": 1})
    game = pyspiel.load_game("patchwork(circle=4;8;30;...;0)")   # ';' or ',' between the 33 ids

Parameters: ``edition`` (``revised``/``original``), ``seed`` (the circle is
``patchsolve.rules.position.random_circle(seed)``), ``circle`` (the 33 ids from
the neutral token on; overrides ``seed`` when not empty) and ``first_player``
(0/1, whose token starts on top).

Two players, sequential (the player to move is the core's: turns do not
alternate), deterministic, perfect information, zero-sum, terminal rewards.
Utility: +1 for the winner, -1 for the loser, as the rules decide the winner
(higher score; on equal scores, who reached the last space first). Patchwork
has no draw, so win/loss is what the game itself rewards; the final score
margin is zero-sum too but would value a tie-break win at 0, so it is left to
``state.position.scores()``.

Actions are the numbers of :mod:`patchsolve.interop.actions`; the observation
tensor is :func:`patchsolve.interop.observation.observation` (its dict views are the
layout's named parts); ``observation_string`` and ``str(state)`` are the
position notation. States serialize as their action history (OpenSpiel's
default), so ``pyspiel.deserialize_game_and_state`` replays them.
"""

from __future__ import annotations

import numpy as np

try:
    import pyspiel
except ImportError as e:  # still an ImportError, with the way out
    raise ImportError(
        f"patchsolve.interop.openspiel needs open_spiel: pip install 'patchsolve[openspiel]' ({e})"
    ) from e

from patchsolve.errors import InvalidPositionError, PatchsolveError
from patchsolve.interop import actions
from patchsolve.interop.observation import OBSERVATION_LAYOUT, OBSERVATION_SIZE, observation
from patchsolve.rules.patches import EDITIONS, LAST_SPACE, PATCHES
from patchsolve.rules.position import DEFAULT_SEED, Position

SHORT_NAME = "patchwork"
DEFAULT_PARAMS = {"edition": "revised", "seed": DEFAULT_SEED, "circle": "", "first_player": 0}

# Every move but a leather placement advances the mover's token at least one
# space, and each leather patch on the board is placed at most once.
MAX_GAME_LENGTH = 2 * LAST_SPACE + max(len(e.leather_spaces) for e in EDITIONS.values())

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Patchwork (patchsolve)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)

GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=actions.NUM_ACTIONS,
    max_chance_outcomes=0,
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=0.0,
    max_game_length=MAX_GAME_LENGTH,
)


def parse_circle(text: str) -> tuple[int, ...]:
    """``"4,8,30,..."`` (or ``;``-separated, as OpenSpiel's game strings
    cannot hold commas) -> patch ids; InvalidPositionError if not ids."""
    tokens = [t for t in text.replace(";", ",").split(",") if t.strip()]
    try:
        return tuple(int(t) for t in tokens)
    except ValueError:
        raise InvalidPositionError(
            f"circle must be patch ids 0..{len(PATCHES) - 1} separated by ',' or ';', not {text!r}"
        ) from None


def start_position(params: dict) -> Position:
    """The start position the game parameters describe (validated)."""
    p = {**DEFAULT_PARAMS, **(params or {})}
    circle = parse_circle(p["circle"]) if p["circle"] else None
    return Position.start(circle=circle, seed=p["seed"], edition=p["edition"], first_player=p["first_player"])


class PatchworkGame(pyspiel.Game):
    """The game: parameters as in the module docstring."""

    def __init__(self, params=None):
        params = {**DEFAULT_PARAMS, **(params or {})}
        self.start = start_position(params)  # validates before pyspiel sees them
        if params["circle"]:
            # ';' keeps str(game) loadable: OpenSpiel's game strings split parameters at ','
            params["circle"] = ";".join(map(str, parse_circle(params["circle"])))
        super().__init__(GAME_TYPE, GAME_INFO, params)

    def new_initial_state(self):
        """A state at the game's start position."""
        return PatchworkState(self, self.start)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer of :mod:`patchsolve.interop.observation` (for the default or a
        public-information observation type), else OpenSpiel's generic one."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return PositionObserver(params)
        from open_spiel.python.observation import IIGObserverForPublicInfoGame

        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class PatchworkState(pyspiel.State):
    """A game state: a :class:`~patchsolve.Position` (``state.position``)."""

    def __init__(self, game, position: Position):
        super().__init__(game)
        self.position = position

    def current_player(self):
        """The player to move, or ``pyspiel.PlayerId.TERMINAL`` at the end."""
        if self.position.is_over:
            return pyspiel.PlayerId.TERMINAL
        return self.position.to_move

    def _legal_actions(self, player):
        if player != self.current_player():
            return []
        return actions.legal_actions(self.position)

    def _apply_action(self, action):
        self.position = self.position.play(actions.action_to_move(action))

    def _action_to_string(self, player, action):
        return str(actions.action_to_move(action))

    def is_terminal(self):
        """Whether the game is over."""
        return self.position.is_over

    def returns(self):
        """+1 for the winner and -1 for the loser at the end, else zeros."""
        if not self.position.is_over:
            return [0.0, 0.0]
        w = self.position.winner()
        return [1.0 if w == 0 else -1.0, 1.0 if w == 1 else -1.0]

    def __str__(self):
        return self.position.to_text()


class PositionObserver:
    """The observation tensor of :mod:`patchsolve.interop.observation`, with one
    dict view per named part of its layout (the quilts as 2 x 9 x 9)."""

    def __init__(self, params):
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {name: self.tensor[s] for name, s in OBSERVATION_LAYOUT.items()}
        self.dict["quilts"] = self.dict["quilts"].reshape(2, 9, 9)

    def set_from(self, state, player):
        """Fill the tensor with ``player``'s observation of ``state``."""
        self.tensor[:] = observation(state.position, player)

    def string_from(self, state, player):
        """The position of ``state`` in notation."""
        return state.position.to_text()


class PatchsolveBot(pyspiel.Bot):
    """An OpenSpiel bot that plays patchsolve's engine: ``engine`` and
    ``limits`` go to :func:`patchsolve.search` (e.g. ``engine="alphabeta",
    nodes=20000`` for a deterministic player, or ``time=0.1``)."""

    def __init__(self, engine: str = "alphabeta", **limits):
        pyspiel.Bot.__init__(self)
        self.engine = engine
        self.limits = limits

    def step(self, state):
        """The action of the engine's best move in ``state``."""
        from patchsolve.search import search

        result = search(state.position, engine=self.engine, **self.limits)
        return actions.move_to_action(result.best_move)

    def restart_at(self, state):
        """Nothing to reset: each step searches afresh."""
        pass

    def provides_policy(self):
        """False: the bot gives a move, not a policy."""
        return False


class CorePlayoutEvaluator:
    """An evaluator for OpenSpiel's ``MCTSBot`` whose rollouts run in the
    Cython core (``n`` uniform random playouts per leaf, seeded) instead of
    stepping Python states; the value is the win rate as +1/-1 returns."""

    def __init__(self, n: int = 10, seed: int = 0):
        if not isinstance(n, int) or n < 1:
            raise PatchsolveError(f"n must be a positive int, not {n!r}")
        self.n = n
        self._seed = seed & 0xFFFFFFFFFFFFFFFF
        self._calls = 0

    def evaluate(self, state):
        """The returns of ``state``: exact at the end, else the win rate of ``n``
        random playouts run in the core, as +1/-1 values for the two players."""
        if state.is_terminal():
            return np.array(state.returns())
        self._calls += 1
        seed = (self._seed + 0x9E3779B97F4A7C15 * self._calls) & 0xFFFFFFFFFFFFFFFF
        _, wins0, _ = state.position._c.playouts(self.n, seed)
        v0 = 2.0 * wins0 / self.n - 1.0
        return np.array([v0, -v0])

    def prior(self, state):
        """A uniform prior over the legal actions."""
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


pyspiel.register_game(GAME_TYPE, PatchworkGame)

__all__ = [
    "PatchworkGame",
    "PatchworkState",
    "PatchsolveBot",
    "CorePlayoutEvaluator",
    "SHORT_NAME",
    "DEFAULT_PARAMS",
    "MAX_GAME_LENGTH",
    "start_position",
]
