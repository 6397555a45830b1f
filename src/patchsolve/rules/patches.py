"""The patch catalogue and the time-board editions (RULES.md "Components").

The data ship with the package (``patchsolve/data``), copied from the
canonical CSVs; ids 0-32 are the ids every interface uses.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from importlib import resources

BOARD = 9
LAST_SPACE = 53
START_BUTTONS = 5
BONUS_POINTS = 7
BONUS_SIZE = 7
# A patch's symbol in drawings and in board text: its id as a base-33 digit,
# 0-9 then A-X without L, because L stands for a leather patch.
SYMBOLS = "0123456789ABCDEFGHIJKMNOPQRSTUVWX"
LEATHER_SYMBOL = "L"


@dataclass(frozen=True)
class Patch:
    """One regular patch: costs, income and shape (``cells`` as (row, col)).

    >>> p = PATCHES[8]
    >>> p.name, p.buttons, p.time, p.income, p.shape, p.size
    ('L4_expensive', 4, 6, 2, '###/#..', 4)
    """

    id: int
    """Its number, 0..32: the index in :data:`PATCHES`, and the id every
    interface uses (move text ``8:0@a1``, the circle of the notation)."""
    name: str
    """A short name (``L4_expensive``), unique; board text takes it in a circle."""
    buttons: int
    """The cost in buttons (also :attr:`cost`)."""
    time: int
    """The time cost: the spaces its buyer's token moves on."""
    income: int
    """The buttons printed on it: what it adds to its owner's income."""
    shape: str
    """The shape in orientation 0: rows joined by ``/``, ``#`` a square and
    ``.`` none (``"##/#."``)."""

    @property
    def cells(self) -> tuple[tuple[int, int], ...]:
        """The ``(row, col)`` of each square of the shape, row by row."""
        return tuple(
            (r, c) for r, line in enumerate(self.shape.split("/")) for c, ch in enumerate(line) if ch == "#"
        )

    @property
    def size(self) -> int:
        """The number of squares."""
        return self.shape.count("#")

    @property
    def cost(self) -> int:
        """The cost in buttons (the same as ``buttons``)."""
        return self.buttons

    @property
    def symbol(self) -> str:
        """The patch's symbol in board text: its id as a base-33 digit."""
        return SYMBOLS[self.id]

    def to_dict(self) -> dict[str, int | str]:
        """A JSON-ready dict (what ``patchsolve patches --json`` prints per patch)."""
        return {
            "id": self.id,
            "symbol": self.symbol,
            "name": self.name,
            "cost": self.buttons,
            "time": self.time,
            "income": self.income,
            "size": self.size,
            "shape": self.shape,
        }


@dataclass(frozen=True)
class Edition:
    """A printing of the time board: where income and leather patches lie."""

    name: str
    """``"revised"`` or ``"original"``."""
    last_space: int
    """The last space of the track (53)."""
    income_spaces: tuple[int, ...]
    """The spaces whose crossing pays a player their income, ascending."""
    leather_spaces: tuple[int, ...]
    """The spaces holding a 1x1 leather patch at the start, ascending."""


def _read(name: str) -> list[dict[str, str]]:
    text = (resources.files("patchsolve") / "data" / name).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def _load_patches() -> tuple[Patch, ...]:
    rows = _read("patches.csv")
    patches = tuple(
        Patch(int(r["id"]), r["name"], int(r["buttons"]), int(r["time"]), int(r["income"]), r["shape"])
        for r in rows
    )
    assert [p.id for p in patches] == list(range(len(patches))), "patch ids must be 0..n-1 in order"
    return patches


def _load_editions() -> dict[str, Edition]:
    def spaces(text: str) -> tuple[int, ...]:
        return tuple(int(x) for x in text.split(";") if x)

    return {
        r["edition"]: Edition(
            r["edition"], int(r["last_space"]), spaces(r["income_spaces"]), spaces(r["leather_spaces"])
        )
        for r in _read("timeboard.csv")
    }


PATCHES: tuple[Patch, ...] = _load_patches()
EDITIONS: dict[str, Edition] = _load_editions()
EDITION_NAMES: tuple[str, ...] = ("revised", "original")  # index = the core's edition number
DEFAULT_EDITION = "revised"
START_PATCH = 0  # the 1x2: the neutral token starts just clockwise of it

assert set(EDITION_NAMES) == set(EDITIONS), "timeboard.csv must hold exactly the known editions"
