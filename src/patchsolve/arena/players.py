"""Players: something that picks a move in a position, named by a spec string.

Spec strings (used by ``patchsolve tournament`` and the benchmarks)::

    random                       uniform over legal moves (seeded)
    greedy                       one-ply heuristic, documented in GreedyPlayer
    alphabeta:depth=4            alpha-beta; keys are passed to patchsolve.search
    alphabeta:time=0.5           (one thread; alphabeta:time=0.5,workers=2 for two)
    alphabeta:time=0.5,ponder=1  keeps its table between moves and searches on the opponent's
                                 time (search/ponder.py; a time limit alone)
    mcts:time=1,policy=heuristic MCTS; keys are passed to MCTSPlayer (tree kept between
                                 moves) or, with workers=N > 1, to patchsolve.search
    mcts:iterations=20000
    level:3                      the opponent of level 1..10 (patchsolve.review.levels); level 10 takes
                                 the full engine's limits, e.g. level:10,time=0.5
    ext[PYTHON]:SPEC             SPEC played by another installation of patchsolve (another
                                 version, in the virtual environment whose interpreter is
                                 PYTHON), in a subprocess; see ProcessPlayer

Every player takes a ``seed`` so a game can be replayed exactly.
"""

from __future__ import annotations

import random
from typing import Any

from patchsolve.errors import PatchsolveError
from patchsolve.rules.position import Move, Position
from patchsolve.search import _eval
from patchsolve.search.mcts import MCTSTree


class Player:
    """Base class: ``choose(position) -> Move``; ``spec`` names it."""

    spec = "player"

    def choose(self, position):
        """The move this player plays in ``position``."""
        raise NotImplementedError

    def new_game(self) -> None:
        """Forget anything kept from the previous game (e.g. a search tree)."""

    def close(self) -> None:
        """Release what the player holds (a subprocess)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}>"


class RandomPlayer(Player):
    """Uniform over the legal moves."""

    def __init__(self, seed: int = 0):
        self.spec = "random"
        self.rng = random.Random(seed)

    def choose(self, position):
        """A legal move drawn uniformly (seeded)."""
        moves = position.legal_moves()
        return moves[self.rng.randrange(len(moves))]


class GreedyPlayer(Player):
    """One-ply greedy: the move that most improves

        value = buttons - 2 x empty squares
                + income x (income spaces still ahead of the token)
                - spaces moved on the time board

    i.e. "the score if the game ended now, plus the income still to come,
    with time priced at one button a space" (walking is worth exactly 0:
    it trades one space for one button). A buy is worth
    2 x size - cost + income x (income spaces ahead after the move) - time.
    Placing a leather patch is worth 2. Ties between placements go to the
    one with most contact (edges of the quilt or covered squares), then to
    the first in move order; ties between a buy and walking go to the buy.
    Runs in C (``search/_eval.pyx``: ``greedy``). Deterministic: the seed is
    accepted for a uniform interface only.
    """

    def __init__(self, seed: int = 0):
        self.spec = "greedy"

    def choose(self, position):
        """The greedy player's move (see the class)."""
        return Move.from_code(_eval.greedy_move(position._c))


class SearchPlayer(Player):
    """A player that runs ``patchsolve.search`` with fixed limits (MCTS
    searches take the player's seed unless the limits give one)."""

    def __init__(self, engine: str, seed: int = 0, **limits):
        if engine == "mcts":
            limits.setdefault("seed", seed)
        opts = ",".join(f"{k}={v}" for k, v in limits.items())
        self.spec = engine + (":" + opts if opts else "")
        ponder = limits.pop("ponder", 0)
        if engine == "alphabeta":
            # one thread unless the spec says workers=N: a match gives each side one core
            limits.setdefault("workers", 1)
        from patchsolve.search.limits import split

        split(limits)[0].for_engine(engine)  # a bad limit fails when the spec is read, not mid-game
        self.engine = engine
        self.limits = limits
        self.ponderer = None
        if ponder not in (0, 1, False, True):
            raise PatchsolveError(f"ponder must be 0 or 1, not {ponder!r}")
        if ponder:
            if engine != "alphabeta":
                raise PatchsolveError("ponder=1 is an alpha-beta option")
            from patchsolve.search.ponder import Ponderer

            self.ponderer = Ponderer(**limits)

    def search(self, position, **options):
        """The search behind ``choose`` (``options`` passed on to
        ``patchsolve.search``); with ``ponder=1`` on the kept table, and
        the opponent's turn pondered after it."""
        if self.ponderer is None:
            from patchsolve.search import search

            return search(position, engine=self.engine, **options, **self.limits)
        r = self.ponderer.search(position, **options)
        if r.best_move is not None:
            after = position.play(r.best_move)
            if after.to_move != position.to_move:  # else this player moves again at once
                self.ponderer.start(after)
        return r

    def choose(self, position):
        """The engine's best move under this player's limits."""
        return self.search(position).best_move

    def new_game(self) -> None:
        """Forget the kept table (``ponder=1``): a new game."""
        if self.ponderer is not None:
            self.ponderer.clear()

    def close(self) -> None:
        """Stop pondering."""
        if self.ponderer is not None:
            self.ponderer.stop()


class MCTSPlayer(MCTSTree, Player):
    """The MCTS as a player that keeps its tree between moves
    (:class:`patchsolve.search.mcts.MCTSTree`; the ``mcts`` player spec
    builds one): its move is the one :meth:`search` finds, and
    :meth:`new_game` drops the tree.

    >>> player = MCTSPlayer(time=0.5, seed=1)
    >>> move = player.choose(position)
    """

    def __init__(self, reuse: bool = True, endgame_solve: bool = True, **kwargs: Any) -> None:
        super().__init__(reuse=reuse, endgame_solve=endgame_solve, **kwargs)
        given = ",".join(f"{k}={v}" for k, v in kwargs.items())
        self.spec = "mcts" + (":" + given if given else "")  # as the spec strings write it

    def choose(self, position: Position) -> Move:
        """The move :meth:`search` finds."""
        return self.search(position).best_move


# Runs in the other interpreter: only what every patchsolve version has
# (make_player, Position.from_text, Player.new_game) may be used; make_player
# is in patchsolve.arena.players, or patchsolve.players before the arena
# package; Position in patchsolve.rules.position, or patchsolve.position
# before the rules package.
_WORKER = r"""
import json, sys
try:
    from patchsolve.arena.players import make_player
except ImportError:
    from patchsolve.players import make_player
try:
    from patchsolve.rules.position import Position
except ImportError:
    from patchsolve.position import Position
player = make_player(sys.argv[1], seed=int(sys.argv[2]))
for line in sys.stdin:
    req = json.loads(line)
    if req["cmd"] == "choose":
        reply = {"move": str(player.choose(Position.from_text(req["position"])))}
    elif req["cmd"] == "new_game":
        player.new_game()
        reply = {}
    elif req["cmd"] == "where":
        import patchsolve
        reply = {"path": patchsolve.__file__}
    else:
        break
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
"""


class ProcessPlayer(Player):
    """A player of another patchsolve installation (e.g. an older version
    built into its own virtual environment), driven over a pipe: one JSON
    request a line (``choose`` with the position's text, ``new_game``), one
    JSON reply. Used to measure a change against the previous version."""

    def __init__(self, python: str, spec: str, seed: int = 0):
        import os
        import subprocess

        self.spec = f"ext[{python}]:{spec}"
        # without our PYTHONPATH: inherited, it would make the other
        # interpreter import this patchsolve instead of its own
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        try:
            self._proc = subprocess.Popen(
                [python, "-c", _WORKER, spec, str(seed)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
            )
        except OSError as e:
            raise PatchsolveError(f"cannot start {python}: {e.strerror}") from None

    def _ask(self, request: dict) -> dict:
        import json

        stdin, stdout, stderr = self._proc.stdin, self._proc.stdout, self._proc.stderr
        assert stdin is not None and stdout is not None and stderr is not None  # all three are pipes
        try:
            stdin.write(json.dumps(request) + "\n")
            stdin.flush()
            line = stdout.readline()
        except OSError:
            line = ""
        if not line:
            err = stderr.read().strip().splitlines()
            raise PatchsolveError(f"player {self.spec} stopped: {err[-1] if err else 'no output'}")
        return json.loads(line)

    def choose(self, position):
        """The other installation's move, asked over the pipe."""
        return position.parse_move(self._ask({"cmd": "choose", "position": position.to_text()})["move"])

    def new_game(self) -> None:
        """Tell the other installation's player that a new game starts."""
        self._ask({"cmd": "new_game"})

    def where(self) -> str:
        """The file of the patchsolve package the other interpreter imports
        (to show a match is against the installation meant)."""
        return self._ask({"cmd": "where"})["path"]

    def close(self) -> None:
        """End the subprocess (its pipes closed, killed after 5 s)."""
        if self._proc.poll() is None:
            try:
                if self._proc.stdin is not None:
                    self._proc.stdin.close()
            except OSError:
                pass
            try:
                self._proc.wait(timeout=5)
            except Exception:
                self._proc.kill()
        for stream in (self._proc.stdout, self._proc.stderr):
            if stream is not None:
                stream.close()

    def __del__(self):
        proc = getattr(self, "_proc", None)
        if proc is not None and proc.poll() is None:
            proc.kill()


def option_value(text: str):
    """An option value as written in a spec: true/false, an int, a float, else the text."""
    if text.lower() in ("true", "false"):  # solver=false, endgame_solve=true
        return text.lower() == "true"
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, dict]:
    """``"mcts:time=1,policy=heuristic"`` -> ``("mcts", {"time": 1, "policy": "heuristic"})``."""
    if not isinstance(spec, str) or not spec.strip():
        raise PatchsolveError(f"empty player spec {spec!r}")
    name, _, rest = spec.strip().partition(":")
    opts = {}
    for item in filter(None, rest.split(",")):
        key, eq, val = item.partition("=")
        if not eq or not key.strip() or not val.strip():
            raise PatchsolveError(f"bad option {item!r} in player spec {spec!r} (expected key=value)")
        opts[key.strip()] = option_value(val.strip())
    return name, opts


PLAYERS = ("random", "greedy", "alphabeta", "mcts", "level")


class LevelPlayer(Player):
    """The opponent of a level (:mod:`patchsolve.review.levels`): deterministic for
    a seed (its draws follow the seed and the position)."""

    def __init__(self, level: int, seed: int = 0, **limits):
        from patchsolve.review.levels import MAX_LEVEL, check_level

        self.level = check_level(level)
        self.seed = seed
        if self.level < MAX_LEVEL and limits:
            raise PatchsolveError(f"level {level} has its own budget: give limits only at level {MAX_LEVEL}")
        if self.level == MAX_LEVEL:
            limits.setdefault(
                "workers", 1
            )  # one thread, as alphabeta:... players: a match gives each side a core
        self.limits = limits

    def choose(self, position):
        """The level's move (see :func:`patchsolve.review.levels.level_move`)."""
        from patchsolve.review.levels import level_move

        return level_move(position, self.level, seed=self.seed % 2**64, **self.limits)[0]


def make_player(spec: str, seed: int = 0) -> Player:
    """Build a player from its spec string (see the module docstring)."""
    if isinstance(spec, str) and spec.strip().startswith("ext["):
        python, sep, inner = spec.strip()[4:].partition("]:")
        if not sep or not python or not inner:
            raise PatchsolveError(f"bad player spec {spec!r} (expected ext[PYTHON]:SPEC)")
        return ProcessPlayer(python, inner, seed)
    if isinstance(spec, str) and spec.strip().startswith("level:"):
        first, _, rest = spec.strip()[len("level:") :].partition(",")
        if not first.strip().isdigit():
            raise PatchsolveError(f"bad player spec {spec!r} (expected level:N, N in 1..10)")
        level = LevelPlayer(int(first), seed=seed, **parse_spec("level:" + rest)[1])
        level.spec = spec.strip()
        return level
    name, opts = parse_spec(spec)
    if name in ("random", "greedy"):
        if opts:
            raise PatchsolveError(f"player {name!r} takes no options, got {sorted(opts)}")
        return (RandomPlayer if name == "random" else GreedyPlayer)(seed)
    player: Player
    if name == "mcts" and opts.get("workers", 1) == 1:
        opts.pop("workers", None)
        opts.setdefault("seed", seed)  # the player's seed unless the spec gives one
        player = MCTSPlayer(**opts)  # one process: keep the tree between moves
    elif name in ("alphabeta", "mcts"):
        player = SearchPlayer(name, seed=seed, **opts)

    else:
        raise PatchsolveError(f"unknown player {name!r} in spec {spec!r} (known: {', '.join(PLAYERS)})")
    player.spec = spec.strip()
    return player
