"""One game as the environments (``patchsolve.interop.env``, ``patchsolve.interop.gym``) see
it: the start drawn at reset, action numbers in, observations, rewards and
pictures out. No third-party dependency beyond numpy (the RGB picture needs
``cairosvg``, in the ``[pettingzoo]`` extra).

Start of an episode: ``options={"position": p}`` at reset (a Position or its
text) starts from ``p``; else the ``circle`` given to the environment, else
a circle drawn from the environment's generator, which ``reset(seed=...)``
seeds (so the same seed gives the same circles).

Rewards, only when the game ends: ``reward="win"`` gives +1 to the winner and
-1 to the loser (the rules' winner, tie-break included); ``reward="margin"``
gives each player its final score minus the opponent's.
"""

from __future__ import annotations

import io

import numpy as np

from patchsolve.errors import PatchsolveError
from patchsolve.interop import actions
from patchsolve.interop.observation import observation
from patchsolve.rules.game import Game
from patchsolve.rules.position import Position, random_circle

REWARDS = ("win", "margin")
RENDER_MODES = ("human", "ansi", "rgb_array")  # human: the ansi text printed


def check_choice(name: str, value, choices) -> None:
    """Refuse ``value`` unless it is one of ``choices`` (PatchsolveError naming ``name``)."""
    if value not in choices:
        raise PatchsolveError(f"{name} must be one of {', '.join(map(repr, choices))}, not {value!r}")


class Episode:
    """The configuration of an environment's games, and the current one."""

    def __init__(self, edition: str = "revised", circle=None, first_player: int = 0, reward: str = "win"):
        check_choice("reward", reward, REWARDS)
        if circle is not None:
            circle = tuple(circle)
        Position.start(circle=circle, seed=0, edition=edition, first_player=first_player)  # validates
        self.edition, self.circle, self.first_player, self.reward = edition, circle, first_player, reward
        self.rng = np.random.default_rng()
        self.game = Game(self.start_position(None))

    def start_position(self, options) -> Position:
        """The start of a new episode (see the module docstring)."""
        given = (options or {}).get("position")
        if given is not None:
            pos = given if isinstance(given, Position) else Position.from_text(given)
            if pos.is_over:
                raise PatchsolveError("an episode cannot start from a finished game")
            return pos
        circle = self.circle if self.circle is not None else random_circle(int(self.rng.integers(2**63)))
        return Position.start(circle=circle, edition=self.edition, first_player=self.first_player)

    def reset(self, seed=None, options=None) -> None:
        """Start a new game; ``seed`` reseeds the circle generator, ``options`` may
        give a ``position`` to start from."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.game = Game(self.start_position(options))

    @property
    def position(self) -> Position:
        """The current position of the game."""
        return self.game.end

    def play(self, action) -> None:
        """Play action number ``action`` (IllegalMoveError if not legal)."""
        self.game.push(actions.action_to_move(action))

    def is_legal(self, action) -> bool:
        """Whether action number ``action`` is legal now (False for any number that
        is not an action)."""
        try:
            return self.position.is_legal(actions.action_to_move(action))
        except PatchsolveError:
            return False

    def observe(self, player: int) -> dict:
        """``{"observation": float32 vector, "action_mask": int8 vector}``;
        the mask is all zeros unless ``player`` moves next."""
        pos = self.position
        legal = actions.legal_action_mask(pos) if not pos.is_over and pos.to_move == player else None
        return {
            "observation": observation(pos, player),
            "action_mask": (
                np.zeros(actions.NUM_ACTIONS, np.int8) if legal is None else legal.astype(np.int8)
            ),
        }

    def final_rewards(self) -> tuple[float, float]:
        """Each player's reward for the finished game."""
        pos = self.position
        if self.reward == "margin":
            s = pos.scores()
            return (float(s[0] - s[1]), float(s[1] - s[0]))
        w = pos.winner()
        return (1.0 if w == 0 else -1.0, 1.0 if w == 1 else -1.0)

    def info(self) -> dict:
        """The core's scores and winner at the end; whose move it is meanwhile."""
        pos = self.position
        if pos.is_over:
            return {"scores": pos.scores(), "winner": pos.winner()}
        return {"to_move": pos.to_move}

    def render(self, mode):
        """``"ansi"``: the last move, the board and the notation as text (printed
        under ``"human"``); ``"rgb_array"``: a picture of the game (needs cairosvg)."""
        if mode == "human":
            print(self.render("ansi"))
            return None
        if mode == "ansi":
            pos = self.position
            last = f"last move: {self.game.moves[-1]}\n" if self.game.moves else ""
            return f"{last}{pos}\n{pos.to_text()}\n"
        if mode == "rgb_array":
            return svg_to_rgb(self.game.to_svg())
        return None


def svg_to_rgb(svg: str) -> np.ndarray:
    """An H x W x 3 uint8 picture of an SVG (cairosvg renders, Pillow decodes)."""
    try:
        import cairosvg
        from PIL import Image
    except (ImportError, OSError) as e:  # OSError: cairosvg without the libcairo2 system library
        raise PatchsolveError(
            f"rgb_array rendering needs cairosvg, Pillow and libcairo2 "
            f"(pip install 'patchsolve[pettingzoo]'): {e}"
        ) from None

    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
