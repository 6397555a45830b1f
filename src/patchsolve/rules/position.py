"""Position and Move: the python-chess-like facade over the Cython core.

A :class:`Position` is immutable: :meth:`Position.play` returns a new one.
Everything a user passes in is checked here before it reaches C.

Move text (``str(move)``, read back by :meth:`Position.parse_move`):

- ``walk``: advance and receive buttons (RULES action A);
- ``<patch>:<orientation>@<square>``, e.g. ``7:2@c3``: buy patch 7 (action B)
  in its orientation 2 with the top-left corner of its bounding box on
  square c3;
- ``leather@<square>``, e.g. ``leather@e5``: place a taken leather patch.

Squares are a column letter ``a``-``i`` (left to right) and a row number
``1``-``9`` (top to bottom): ``a1`` is bit 0 of a quilt mask, ``i9`` bit 80.
Orientations of a patch are numbered 0.. in a fixed order (rotations of the
printed shape, then of its mirror image, duplicates dropped);
:func:`patchsolve.rules.position.orientation_count` tells how many a patch has.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from patchsolve import _core
from patchsolve.errors import (
    IllegalMoveError,
    InvalidPositionError,
    LimitError,
    NotationError,
    PatchsolveError,
)
from patchsolve.rules import board, notation, tiling, validation
from patchsolve.rules.board import Label, Labels
from patchsolve.rules.patches import (
    BOARD,
    DEFAULT_EDITION,
    EDITION_NAMES,
    EDITIONS,
    PATCHES,
    START_BUTTONS,
    START_PATCH,
)

COLUMNS = "abcdefghi"
_SQUARE = re.compile(r"^([a-i])([1-9])$")
DEFAULT_SEED = 0  # the built-in start position is Position.start(seed=DEFAULT_SEED)


MAX_PERFT_DEPTH = 64  # far beyond what finishes; what the core's recursion takes
MAX_SEED = 2**64 - 1  # the range of every seed, as the search limits and the CLI take it


def check_seed(seed: object, name: str = "seed") -> int:
    """``seed`` when it is an integer 0..2**64-1 (the range the search
    limits take), else a :class:`~patchsolve.errors.LimitError` naming it."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise LimitError(f"{name} must be an integer from 0 to 2**64-1, not {seed!r}"[:200])
    return seed


def square_name(square: int) -> str:
    """``0`` -> ``"a1"``; row 1 is the top row."""
    row, col = divmod(square, BOARD)
    return f"{COLUMNS[col]}{row + 1}"


def parse_square(text: str) -> int:
    """``"a1"`` -> ``0``; a NotationError naming the token otherwise."""
    m = _SQUARE.match(text)
    if not m:
        raise NotationError("bad square (expected a1..i9)", field="square", token=text)
    return (int(m.group(2)) - 1) * BOARD + COLUMNS.index(m.group(1))


def orientation_count(patch: int) -> int:
    """How many distinct orientations patch ``patch`` has (1, 2, 4 or 8)."""
    return _core.orientation_count(patch)


@dataclass(frozen=True, eq=False)
class Move:
    """One move, made from its text (:meth:`from_text`), by a position
    (:meth:`Position.legal_moves`, :meth:`Position.parse_move`) or from its
    code (:meth:`from_code`); ``str(move)`` is its text. Two moves are equal
    when their codes are. A move alone is not legal or illegal: that is for
    a position to say (:meth:`Position.is_legal`).

    >>> move = Move.from_text("7:2@c3")
    >>> move.kind, move.patch, move.orientation, square_name(move.square)
    ('buy', 7, 2, 'c3')
    >>> str(move), move == Move.from_code(move.code)
    ('7:2@c3', True)
    >>> Move.from_text("walk").kind, Move.from_text("leather@e5").mask == 1 << parse_square("e5")
    ('walk', True)
    """

    code: int
    """The core's number for the move: 0 is the walk, 1..81 a leather patch
    on square code - 1, then one code per patch, orientation and square."""
    kind: str
    """``"walk"``, ``"buy"`` (a patch from the circle) or ``"leather"`` (a
    1x1 leather patch, placed when a token passes a leather space)."""
    patch: int | None
    """The id (0..32) of the bought patch; None for a walk or a leather patch."""
    mask: int
    """The squares the patch covers, an 81-bit mask (bit 0 = a1, bit 80 = i9);
    0 for a walk."""
    orientation: int | None
    """The bought patch's orientation, 0.. (:func:`orientation_count`); None
    for a walk or a leather patch."""
    square: int | None
    """The square (0..80: ``a1`` is 0, ``i9`` is 80; :func:`square_name`)
    of the top-left corner of the patch's bounding box (a leather patch's
    own square); None for a walk."""

    @classmethod
    def from_code(cls, code: int) -> Move:
        """The move with the core's move code (see ``code``);
        :class:`~patchsolve.errors.IllegalMoveError` when no move has it."""
        if not isinstance(code, int) or isinstance(code, bool) or not -(2**31) <= code < 2**31:
            raise IllegalMoveError(f"not a move code: {code!r}")
        try:
            return cls(code, *_core.move_info(code))
        except ValueError as e:
            raise IllegalMoveError(str(e)) from None

    @classmethod
    def from_text(cls, text: str) -> Move:
        """The move written as ``text``: ``walk``, ``<patch>:<orientation>@<square>``
        or ``leather@<square>`` (the counterpart of python-chess's
        ``Move.from_uci``). Only the text is checked: a patch id 0..32, an
        orientation it has, a square whose placement stays on the quilt.
        Whether the move is legal is the position's to say
        (:meth:`Position.parse_move` does both). Bad text raises
        :class:`~patchsolve.errors.NotationError` naming the token.

        >>> Move.from_text("8:0@a1")
        <Move 8:0@a1>
        >>> Move.from_text("8:0@j1")
        Traceback (most recent call last):
        ...
        patchsolve.errors.NotationError: bad square 'j1' (expected a1..i9) (field 'move', token '8:0@j1')
        """
        return parse_move_text(text)

    def __str__(self) -> str:
        if self.kind == "walk":
            return "walk"
        assert self.square is not None  # a buy or a leather patch has its square
        if self.kind == "leather":
            return f"leather@{square_name(self.square)}"
        return f"{self.patch}:{self.orientation}@{square_name(self.square)}"

    def __repr__(self) -> str:
        return f"<Move {self}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.code == other.code

    def __hash__(self) -> int:
        return hash(("Move", self.code))


_BUY = re.compile(r"^(\d{1,2}):(\d)@([a-i][1-9])$")
_LEATHER = re.compile(r"^leather@([a-i][1-9])$")
_LOOSE_SQUARE = re.compile(r"^(?:\d{1,2}:\d|leather)@(.*)$")


def parse_move_text(text: str) -> Move:
    """Read move text (no position needed to read it; legality is separate)."""
    if not isinstance(text, str):
        raise NotationError("a move must be text", field="move", token=repr(text))
    t = text.strip()
    if t == "walk":
        return Move.from_code(0)
    m = _LEATHER.match(t)
    if m:
        return Move.from_code(parse_square(m.group(1)) + 1)
    m = _BUY.match(t)
    if m:
        patch, orientation, square = int(m.group(1)), int(m.group(2)), parse_square(m.group(3))
        try:
            return Move.from_code(_core.buy_move_code(patch, orientation, square))
        except ValueError as e:
            raise NotationError(str(e), field="move", token=t) from None
    m = _LOOSE_SQUARE.match(t)
    if m and not _SQUARE.match(m.group(1)):  # the form is right but the square is not
        raise NotationError(f"bad square {m.group(1)!r} (expected a1..i9)", field="move", token=t)
    raise NotationError(
        "bad move (expected walk, <patch>:<orientation>@<square> or leather@<square>)", field="move", token=t
    )


def random_circle(seed: int | None = None) -> tuple[int, ...]:
    """A shuffled circle with the 1x2 (id 0) last, as in the real setup;
    ``seed`` 0..2**64-1 (None: the system's randomness)."""
    rng = random.Random(None if seed is None else check_seed(seed))
    ids = [p.id for p in PATCHES if p.id != START_PATCH]
    rng.shuffle(ids)
    return tuple(ids) + (START_PATCH,)


def _check_start_circle(circle: Iterable[int]) -> tuple[int, ...]:
    try:
        ids = tuple(circle)
    except TypeError:
        raise InvalidPositionError(f"circle must be a sequence of patch ids, not {circle!r}") from None
    problems = []
    bad = [x for x in ids if not (isinstance(x, int) and 0 <= x < len(PATCHES))]
    if bad:
        problems.append(f"unknown patch ids {bad} (ids are 0..{len(PATCHES) - 1})")
    seen, dups = set(), []
    for x in ids:
        if x in seen and x not in dups:
            dups.append(x)
        seen.add(x)
    if dups:
        problems.append(f"duplicate patch ids {dups}")
    if len(ids) != len(PATCHES):
        problems.append(f"a start circle holds all {len(PATCHES)} patches, got {len(ids)}")
    if problems:
        raise InvalidPositionError(problems)
    return ids


def _check_edition(edition: str) -> str:
    if edition not in EDITION_NAMES:
        raise InvalidPositionError(f"unknown edition {edition!r} (known: {', '.join(EDITION_NAMES)})")
    return edition


class Position:
    """A Patchwork position (immutable).

    ``Position(text)`` reads a position in any of its text forms: the one-line
    notation, JSON, or board text (:mod:`patchsolve.rules.board`); bad text raises
    :class:`NotationError` or :class:`InvalidPositionError`.

    >>> p = Position.start(seed=0)             # the built-in start position
    >>> p.to_move, p.buttons(0), p.circle[:3]
    (0, 5, (4, 8, 30))
    >>> [str(m) for m in p.legal_moves()[:3]], len(p.legal_moves())
    (['walk', '4:0@a1', '4:0@b1'], 743)
    >>> q = p.play("8:0@a1")                   # a Move or its text; a new position
    >>> q.to_move, q.buttons(0), q.income(0), q.time(0)
    (1, 3, 2, 6)
    >>> Position(q.to_text()) == Position(q.to_json()) == Position(q.to_board()) == q
    True
    >>> q.to_board().splitlines()[3:5]
    ['player 0 buttons 3 time 6   # income 2', '888......']
    >>> q.play("99:0@a1")
    Traceback (most recent call last):
    ...
    patchsolve.errors.NotationError: no patch 99 (field 'move', token '99:0@a1')

    A position may know which patch lies on which square (``labels``): one
    read from board text does, and so does every position reached by ``play``
    from one that does (``Position.start()`` does). Labels are not part of
    equality: two positions with the same fields are equal.
    """

    __slots__ = ("_c", "_labels")
    _c: _core.CoreState
    _labels: Labels | None

    def __init__(self, source: str | _core.CoreState) -> None:
        """Read ``source``, position text in any of its forms (see :meth:`parse`)."""
        if isinstance(source, _core.CoreState):  # the engines' and the tests' direct route
            self._c, self._labels = source, None
            return
        if not isinstance(source, str):
            raise NotationError(
                "a Position is made from position text (notation, JSON or board text)",
                field="position",
                token=f"{type(source).__name__} {source!r}"[:60],
            )
        other = Position.parse(source)
        self._c, self._labels = other._c, other._labels

    @classmethod
    def _make(cls, core: _core.CoreState, labels: Labels | None = None) -> Position:
        pos = cls.__new__(cls)
        pos._c, pos._labels = core, labels
        return pos

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read notation, JSON (starts with ``{``) or board text, whichever
        ``text`` is; ``#`` comment lines and a leading byte-order mark are
        skipped."""
        if not isinstance(text, str):
            raise NotationError("a position must be text", field="position", token=repr(text)[:60])
        text = text.removeprefix(board.BOM)  # as some Windows editors save a file
        if board.looks_like_board(text):
            return cls.from_board(text)
        lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
        body = " ".join(lines).strip()
        if not body:
            raise NotationError("no position given (empty text)", field="position", token="")
        if body.startswith("{"):
            return cls.from_json(body)
        return cls.from_text(body)

    @classmethod
    def from_board(cls, text: str) -> Position:
        """Read board text (see :mod:`patchsolve.rules.board`); the position keeps
        the labels drawn."""
        fields, labels = board.fields_from_board(text)
        return cls._make(_core.CoreState.from_fields(fields), labels)

    def to_board(self) -> str:
        """Board text of this position (see :mod:`patchsolve.rules.board`)."""
        return board.format_board(self.fields(), self.labels_or_tiling())

    @property
    def labels(self) -> Labels | None:
        """For each player, square -> patch id or ``"L"``, when known (else None)."""
        if self._labels is None:
            return None
        return (dict(self._labels[0]), dict(self._labels[1]))

    def labels_or_tiling(self) -> Labels | None:
        """The labels, else a tiling found by :mod:`patchsolve.rules.tiling` within
        ``board.TILING_BUDGET`` nodes, else None."""
        if self._labels is not None:
            return self._labels
        try:
            return tiling.tile_quilts(self.fields(), budget=board.TILING_BUDGET)
        except tiling.TilingError:
            return None

    # -- construction ---------------------------------------------------
    @classmethod
    def start(
        cls,
        circle: Iterable[int] | None = None,
        seed: int | None = None,
        edition: str = DEFAULT_EDITION,
        first_player: int = 0,
    ) -> Position:
        """The start position (RULES "Setup"). ``circle`` lists the 33 ids
        from the neutral token on; None draws one from ``seed`` (0..2**64-1;
        None: a new random circle each call). ``first_player`` (0 or 1) moves
        first.

        >>> Position.start(seed=7).circle[:3]
        (29, 10, 20)
        >>> Position.start(seed=7) == Position.start(seed=7)
        True
        """
        edition = _check_edition(edition)
        if isinstance(first_player, bool) or not isinstance(first_player, int) or first_player not in (0, 1):
            raise InvalidPositionError(f"first_player must be 0 or 1, not {first_player!r}")
        if seed is not None:
            check_seed(seed)
        circle = random_circle(seed) if circle is None else _check_start_circle(circle)
        fields = {
            "edition": edition,
            "circle": circle,
            "quilts": (0, 0),
            "buttons": (START_BUTTONS, START_BUTTONS),
            "income": (0, 0),
            "time": (0, 0),
            "on_top": first_player,
            "leather": tuple(EDITIONS[edition].leather_spaces),
            "bonus_owner": None,
            "first_at_end": None,
            "pending_leather": None,
        }
        return cls._make(_core.CoreState.from_fields(fields), ({}, {}))

    @classmethod
    def from_fields(cls, fields: Mapping[str, Any]) -> Position:
        """Build from plain values (see :func:`Position.fields`), validated."""
        validation.validate_fields(fields)
        return cls(_core.CoreState.from_fields(fields))

    @classmethod
    def from_text(cls, text: str) -> Position:
        """The position written in the one-line notation (:mod:`patchsolve.rules.notation`)."""
        return cls.from_fields(notation.parse_position(text))

    def to_text(self) -> str:
        """The one-line notation of this position; ``Position.from_text`` reads it back."""
        return notation.format_position(self.fields())

    @classmethod
    def from_json(cls, data: str | bytes | bytearray | Mapping[str, Any]) -> Position:
        """Read the JSON form (a str or a decoded dict); see patchsolve.rules.notation."""
        return cls.from_fields(notation.fields_from_json(data))

    def to_json(self) -> str:
        """The position's fields as JSON; ``Position.from_json`` reads it back."""
        return json.dumps(notation.fields_to_json(self.fields()))

    def to_svg(self, labels: Sequence[Mapping[int, Label]] | None = None) -> str:
        """An SVG picture: both quilts, the time track, the next patches
        (``labels`` as :func:`patchsolve.rules.render.position_svg` takes them)."""
        from patchsolve.rules import render  # the drawing code is loaded only when a picture is asked for

        return render.position_svg(self, labels=labels)

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def fields(self) -> dict[str, Any]:
        """Every field of the position as plain values."""
        # a plain dict: the core types its own per key (a TypedDict, which
        # mypy does not take for a dict[Any, Any])
        return dict(self._c.fields())

    # -- state ----------------------------------------------------------
    @property
    def to_move(self) -> int:
        """The player to move, 0 or 1."""
        return self._c.to_move

    @property
    def is_over(self) -> bool:
        """True once both tokens are on the last space."""
        return self._c.is_over

    @property
    def circle(self) -> tuple[int, ...]:
        """The patch ids of the circle, from the neutral token on."""
        return self.fields()["circle"]

    @property
    def edition(self) -> str:
        """``"revised"`` or ``"original"``: which time board is printed."""
        return self.fields()["edition"]

    @property
    def bonus_owner(self) -> int | None:
        """The player holding the 7x7 bonus tile, or None."""
        return self.fields()["bonus_owner"]

    @property
    def first_at_end(self) -> int | None:
        """The player who reached the last space first, or None."""
        return self.fields()["first_at_end"]

    @property
    def pending_leather(self) -> bool:
        """True when the player to move must place a leather patch now."""
        return self.fields()["pending_leather"] is not None

    @property
    def leather(self) -> tuple[int, ...]:
        """The leather spaces still holding a 1x1 patch."""
        return self.fields()["leather"]

    def _player(self, p: object) -> int:
        if isinstance(p, bool) or not isinstance(p, int) or p not in (0, 1):
            raise PatchsolveError(f"player must be 0 or 1, not {p!r}"[:200])
        return p

    def quilt(self, p: int) -> int:
        """Player ``p``'s quilt as an 81-bit mask (bit 0 = a1, row 1 on top)."""
        return self.fields()["quilts"][self._player(p)]

    def buttons(self, p: int) -> int:
        """Player ``p``'s buttons."""
        return self.fields()["buttons"][self._player(p)]

    def income(self, p: int) -> int:
        """Player ``p``'s button income (the buttons printed on the patches of the quilt)."""
        return self.fields()["income"][self._player(p)]

    def time(self, p: int) -> int:
        """Player ``p``'s space on the time board (0..53)."""
        return self.fields()["time"][self._player(p)]

    def scores(self) -> tuple[int, int]:
        """Score of each player if the game ended now (RULES "End and score")."""
        return self._c.scores()

    def winner(self) -> int:
        """The winner after the tie-break; only for a finished game (else a
        :class:`~patchsolve.errors.PatchsolveError`)."""
        if not self.is_over:
            raise PatchsolveError("the game is not over: there is no winner yet")
        return self._c.winner()

    # -- moves ----------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every legal move, walk first (a finished game has none)."""
        return [Move.from_code(c) for c in self._c.legal_codes()]

    def is_legal(self, move: object) -> bool:
        """Is ``move`` (a :class:`Move`) legal here? Anything else, text
        included, is not: read text with :meth:`parse_move`."""
        return isinstance(move, Move) and _valid_code(move.code) and self._c.is_legal(move.code)

    def parse_move(self, text: str) -> Move:
        """Read a move in this position; IllegalMoveError if it is not legal."""
        move = parse_move_text(text)
        if not self.is_legal(move):
            raise IllegalMoveError(f"illegal move {text.strip()!r}: {self._why_illegal(move)}")
        return move

    def _why_illegal(self, move: Move) -> str:
        if self.is_over:
            return "the game is over"
        f = self.fields()
        p = self.to_move
        if f["pending_leather"] is not None and move.kind != "leather":
            return "a leather patch must be placed first"
        if move.kind == "leather":
            if f["pending_leather"] is None:
                return "no leather patch to place"
            return "that square is covered"
        if move.kind == "buy":
            assert move.patch is not None
            if move.patch not in f["circle"][:3]:
                return f"patch {move.patch} is not among the next three {list(f['circle'][:3])}"
            if PATCHES[move.patch].buttons > f["buttons"][p]:
                return f"patch {move.patch} costs {PATCHES[move.patch].buttons}, player {p} has {f['buttons'][p]} buttons"  # noqa: E501
            return "it overlaps the quilt"
        return "not legal here"

    def play(self, move: Move | str) -> Position:
        """The position after ``move`` (a Move or move text)."""
        if isinstance(move, str):
            move = self.parse_move(move)
        if not isinstance(move, Move) or not _valid_code(move.code):
            raise IllegalMoveError(f"not a move: {move!r}"[:200])
        if not self._c.is_legal(move.code):
            raise IllegalMoveError(f"illegal move {move}: {self._why_illegal(move)}")
        return Position._make(self._c.play(move.code), self._labels_after(move))

    def _labels_after(self, move: Move) -> Labels | None:
        if self._labels is None or move.kind == "walk":
            return self._labels
        p = self.to_move
        mine = dict(self._labels[p])
        label: Label = "L" if move.patch is None else move.patch  # no patch: a leather one (not a walk)
        m = move.mask
        while m:
            low = m & -m
            mine[low.bit_length() - 1] = label
            m ^= low
        return (mine, self._labels[1]) if p == 0 else (self._labels[0], mine)

    def perft(self, depth: int) -> int:
        """Move sequences of length ``depth`` (a finished game is one leaf)."""
        if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= MAX_PERFT_DEPTH:
            raise LimitError(f"perft depth must be an integer from 0 to {MAX_PERFT_DEPTH}, not {depth!r}")
        return self._c.perft(depth)

    def random_playout(self, seed: int = 0) -> Position:
        """The final position of a uniform random playout (run in C) drawn
        from ``seed`` (0..2**64-1)."""
        return Position(self._c.random_playout(check_seed(seed)))

    # -- dunder ---------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._c == other._c

    def __hash__(self) -> int:
        return hash(self._c)

    def __repr__(self) -> str:
        try:
            return f"Position.from_text({self.to_text()!r})"
        except Exception:  # a repr must not fail (debuggers call it): still show the thing
            f = self.fields()
            return (
                f"<Position to_move={self.to_move} time={f['time']} buttons={f['buttons']} "
                f"income={f['income']} circle={f['circle'][:3]}...>"
            )

    def __str__(self) -> str:
        f = self.fields()
        lines = []
        for p in (0, 1):
            q = f["quilts"][p]
            lines.append(
                f"player {p}: time {f['time'][p]} buttons {f['buttons'][p]} income {f['income'][p]}"
                + ("  (to move)" if not self.is_over and self.to_move == p else "")
            )
            for r in range(BOARD):
                lines.append("  " + " ".join("#" if q >> (r * BOARD + c) & 1 else "." for c in range(BOARD)))
        lines.append("next: " + " ".join(str(x) for x in f["circle"][:3]))
        return "\n".join(lines)


def _valid_code(code: object) -> bool:
    """A move code the core may be handed (a forged ``Move`` may hold anything)."""
    return isinstance(code, int) and not isinstance(code, bool) and 0 <= code < 2**31


def as_position(position: object) -> Position:
    """``position`` itself when it is a :class:`Position`, else a
    :class:`~patchsolve.errors.PatchsolveError` naming what was given: the
    check every search entry (``patchsolve.search``, ``patchsolve.solve``,
    the players) makes before a position reaches C."""
    if not isinstance(position, Position):
        raise PatchsolveError(f"expected a patchsolve.Position, not {type(position).__name__}")
    return position
