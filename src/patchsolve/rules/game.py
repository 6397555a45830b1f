"""Games and game records.

A :class:`Game` is a start position plus the moves played from it. Its
record is plain text::

    # patchsolve game record          <- '#' starts a comment, to the end of the line
    edition revised                   <- optional, default revised
    first 0                           <- optional: the start player, default 0
    circle 4,8,30,21,...,25,0         <- the 33 patch ids from the neutral token on
    moves                             <- optional marker
    walk 8:0@a1
    12:3@g1 walk leather@e5 ...       <- moves in move notation, one per line or space-separated

Instead of ``edition``/``first``/``circle`` a record may start from any
position with one line ``position <position text>`` (see
:mod:`patchsolve.rules.notation`). Header lines come first; every token after them
is a move. :meth:`Game.to_text` writes this form (moves one per line, with the
final score as a comment).

A move may be followed by variations in parentheses, other lines played
instead of it (see :mod:`patchsolve.rules.tree`); :meth:`Game.from_text` reads
such a record as its main line, :class:`~patchsolve.rules.tree.GameTree` reads
the whole tree.

Errors: a bad header raises :class:`~patchsolve.errors.NotationError`
(naming the header key and token), a move that does not parse or is not legal
raises it or :class:`~patchsolve.errors.IllegalMoveError`, both naming the
move number and the line.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from patchsolve.errors import GameIndexError, IllegalMoveError, NotationError, PatchsolveError
from patchsolve.rules.board import Label, Labels
from patchsolve.rules.patches import DEFAULT_EDITION, EDITION_NAMES
from patchsolve.rules.position import DEFAULT_SEED, Move, Position

HEADER_KEYS = ("edition", "first", "circle", "position")
LEATHER_LABEL = "L"


@functools.lru_cache(maxsize=64)
def _tiling(start: Position) -> Labels | None:
    # cached: the web app rebuilds its game from the start text on every request,
    # and a tiling search that fails spends its whole budget (a fifth of a second)
    return start.labels_or_tiling()


def _start_labels(start: Position) -> Labels:
    labels = start.labels
    if labels is None and (start.quilt(0) or start.quilt(1)):
        labels = _tiling(start)
    return (dict(labels[0]), dict(labels[1])) if labels is not None else ({}, {})


@dataclass(frozen=True)
class Ply:
    """One move of a game (:meth:`Game.replay` yields them)."""

    number: int
    """The move's number, counting from 1."""
    player: int
    """The player who made it (turns do not alternate in Patchwork)."""
    move: Move
    """The move."""
    before: Position
    """The position it was played in."""
    after: Position
    """The position it led to."""


class Game:
    """A start position and the moves played from it.

    >>> g = Game()                          # the built-in start position
    >>> after = g.push("walk")              # returns the new position
    >>> g.push("8:0@a1").buttons(1), len(g), g.position(0) == g.start
    (3, 2, True)
    >>> print(g.to_text())                  # doctest: +ELLIPSIS
    # patchsolve game record
    edition revised
    first 0
    circle 4,8,30,...
    moves
    walk
    8:0@a1
    # unfinished: player 0 to move; scores now -156 / -151
    >>> Game.from_text(g.to_text()) == g
    True
    >>> [str(m) for m in g.moves], g.pop(), len(g)
    (['walk', '8:0@a1'], <Move 8:0@a1>, 1)
    """

    def __init__(self, start: Position | None = None, moves: Iterable[Move | str] = ()) -> None:
        if start is None:
            start = Position.start(seed=DEFAULT_SEED)
        if not isinstance(start, Position):
            raise PatchsolveError(f"start must be a Position, not {type(start).__name__}")
        if isinstance(moves, (str, bytes)) or not hasattr(moves, "__iter__"):
            raise PatchsolveError(f"moves must be a sequence of moves, not {type(moves).__name__}")
        self.start = start
        self._moves: list[Move] = []
        self._positions: list[Position] = [start]
        # per position: the label of each covered square of each quilt
        # (patch id, or "L" for a leather patch); the start's own when it
        # knows them (board text, a set-up), else a tiling of its quilts
        self._labels: list[Labels] = [_start_labels(start)]
        for m in moves:
            self.push(m)

    @classmethod
    def new(
        cls,
        seed: int | None = None,
        circle: Iterable[int] | None = None,
        edition: str = DEFAULT_EDITION,
        first_player: int = 0,
    ) -> Game:
        """A game from a new start position (the arguments of :meth:`Position.start`)."""
        return cls(Position.start(circle=circle, seed=seed, edition=edition, first_player=first_player))

    # -- moves ------------------------------------------------------------
    def push(self, move: Move | str) -> Position:
        """Play ``move`` (a Move or move text) at the end; return the new position."""
        pos = self._positions[-1]
        if isinstance(move, str):
            move = pos.parse_move(move)
        player = pos.to_move
        after = pos.play(move)
        labels = (dict(self._labels[-1][0]), dict(self._labels[-1][1]))
        if move.kind != "walk":
            label: Label = LEATHER_LABEL if move.patch is None else move.patch  # no patch: a leather one
            m, sq = move.mask, 0
            while m:
                if m & 1:
                    labels[player][sq] = label
                m >>= 1
                sq += 1
        self._moves.append(move)
        self._positions.append(after)
        self._labels.append(labels)
        return after

    def pop(self) -> Move:
        """Take back the last move and return it
        (:class:`~patchsolve.errors.GameIndexError`, an IndexError, when there is none)."""
        if not self._moves:
            raise GameIndexError("no move to take back")
        self._positions.pop()
        self._labels.pop()
        return self._moves.pop()

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves played, in order."""
        return tuple(self._moves)

    @property
    def positions(self) -> tuple[Position, ...]:
        """The start and the position after each move (``len(game) + 1``)."""
        return tuple(self._positions)

    def position(self, k: int | None = None) -> Position:
        """The position after ``k`` moves (None: the last; negative counts from
        the end); :class:`~patchsolve.errors.GameIndexError`, an IndexError, for
        a ``k`` the game does not have."""
        if k is None:
            return self._positions[-1]
        if (
            isinstance(k, bool)
            or not isinstance(k, int)
            or not -len(self._positions) <= k < len(self._positions)
        ):
            raise GameIndexError(f"the game has positions 0..{len(self._moves)}, not {k!r}"[:200])
        return self._positions[k]

    def labels(self, k: int | None = None) -> Labels:
        """For each player, square -> patch id (or ``"L"``) after ``k`` moves.

        The patches already on the start's quilts are the start's labels
        (``start.labels``) when it knows them, else a tiling of its quilts by
        the patches that left the circle (``start.labels_or_tiling()``, as
        board text draws them), else unnamed (missing from the dicts)."""
        if k is None:
            k = len(self._moves)
        self.position(k)
        return self._labels[k]

    def to_svg(self, k: int | None = None) -> str:
        """SVG of the position after ``k`` moves, each patch in its own colour."""
        return self.position(k).to_svg(labels=self.labels(k))

    def _repr_svg_(self) -> str:
        return self.to_svg()

    @property
    def end(self) -> Position:
        """The position after the last move."""
        return self._positions[-1]

    def __len__(self) -> int:
        return len(self._moves)

    def replay(self) -> Iterator[Ply]:
        """Yield a :class:`Ply` for each move, in order."""
        for i, move in enumerate(self._moves):
            before = self._positions[i]
            yield Ply(i + 1, before.to_move, move, before, self._positions[i + 1])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.start == other.start and self._moves == other._moves

    def __repr__(self) -> str:
        return f"<Game {len(self)} moves, {'over' if self.end.is_over else 'in progress'}>"

    # -- records ------------------------------------------------------------
    def _is_standard_start(self) -> bool:
        return self.start.fields()["time"] == (0, 0)

    def to_text(self) -> str:
        """The game record: its header (edition, first player and circle, or the start
        position), the moves one per line, and the result as a comment."""
        f = self.start.fields()
        lines = ["# patchsolve game record"]
        if self._is_standard_start():
            lines += [
                f"edition {f['edition']}",
                f"first {f['on_top']}",
                "circle " + ",".join(str(x) for x in f["circle"]),
            ]
        else:
            lines.append(f"position {self.start.to_text()}")
        lines.append("moves")
        lines += [str(m) for m in self._moves]
        lines.append(("# result: " if self.end.is_over else "# unfinished: ") + self.outcome())
        return "\n".join(lines) + "\n"

    def outcome(self) -> str:
        """The final scores and winner, or whose turn it is and the scores now."""
        end = self.end
        s = end.scores()
        if end.is_over:
            return f"player 0 {s[0]}, player 1 {s[1]}; player {end.winner()} wins"
        return f"player {end.to_move} to move; scores now {s[0]} / {s[1]}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary: start, moves and final state."""
        end = self.end
        return {
            "start": self.start.to_text(),
            "moves": [str(m) for m in self._moves],
            "end": end.to_text(),
            "over": end.is_over,
            "scores": list(end.scores()),
            "winner": end.winner() if end.is_over else None,
        }

    @classmethod
    def from_text(cls, text: str) -> Game:
        """Read a game record (see the module docstring): the main line of
        a record with variations (:class:`patchsolve.GameTree` reads them
        all). NotationError or IllegalMoveError name the line and the move
        that fails."""
        start, move_tokens = _split_record(text)
        if any("(" in tok or ")" in tok for tok, _ in move_tokens):
            from patchsolve.rules.tree import GameTree

            return GameTree.from_text(text).main_line()
        game = cls(start)
        for tok, lineno in move_tokens:
            k = len(game) + 1
            try:
                game.push(tok)
            except NotationError as e:  # its field and token named once, by this error
                raise NotationError(
                    f"move {k} (line {lineno}): {e.reason}", field="move", token=tok
                ) from None
            except IllegalMoveError as e:
                raise IllegalMoveError(f"move {k} (line {lineno}): {e}") from None
        return game

    @staticmethod
    def _start_from_header(header: Mapping[str, tuple[str, int]]) -> Position:
        if "position" in header:
            other = [k for k in ("edition", "first", "circle") if k in header]
            if other:
                raise NotationError(
                    "a record has either 'position' or 'edition/first/circle', not both",
                    field=other[0],
                    token=header[other[0]][0],
                )
            return Position.from_text(header["position"][0])
        if "circle" not in header:
            raise NotationError(
                "a game record needs a 'circle <ids>' or a 'position <text>' line", field="circle", token=None
            )
        edition = header.get("edition", (DEFAULT_EDITION, 0))[0]
        if edition not in EDITION_NAMES:
            raise NotationError(
                f"unknown edition (expected {' or '.join(EDITION_NAMES)})", field="edition", token=edition
            )
        first = header.get("first", ("0", 0))[0]
        if first not in ("0", "1"):
            raise NotationError("the first player is 0 or 1", field="first", token=first)
        circle_text = header["circle"][0]
        if not re.match(r"^(0|[1-9][0-9]?)(,(0|[1-9][0-9]?))*$", circle_text):
            raise NotationError("expected comma-separated patch ids", field="circle", token=circle_text)
        circle = [int(x) for x in circle_text.split(",")]
        return Position.start(circle=circle, edition=edition, first_player=int(first))

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> Game:
        """Read a record from a file (UTF-8 text)."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError, TypeError, ValueError) as e:  # TypeError: not a path
            raise NotationError(f"cannot read the game record: {e}", field="file", token=str(path)) from None
        return cls.from_text(text)

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the game record to ``path`` (UTF-8 text); a PatchsolveError
        naming the path when it cannot be written."""
        try:
            Path(path).write_text(self.to_text(), encoding="utf-8")
        except (OSError, TypeError, ValueError) as e:  # TypeError: not a path
            raise PatchsolveError(f"cannot write the game record to {path!r}: {e}"[:300]) from None


def _split_record(text: str) -> tuple[Position, list[tuple[str, int]]]:
    """A record's start position (from its header) and the words after the
    header, each with its line number."""
    if not isinstance(text, str):
        raise NotationError("a game record must be text", field="record", token=repr(text)[:40])
    text = text.removeprefix("\ufeff")  # a byte-order mark, as some Windows editors save one
    header: dict[str, tuple[str, int]] = {}
    move_tokens: list[tuple[str, int]] = []
    in_moves = False
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, rest = (line.split(None, 1) + [""])[:2]  # spaces or tabs
        if not in_moves and key == "moves" and not rest.strip():
            in_moves = True
            continue
        if not in_moves and key in HEADER_KEYS:
            if key in header:
                raise NotationError(f"line {lineno}: header {key!r} given twice", field=key, token=line)
            header[key] = (rest.strip(), lineno)
            continue
        in_moves = True
        move_tokens += [(tok, lineno) for tok in line.split()]
    return Game._start_from_header(header), move_tokens


__all__ = ["Game", "Ply"]
