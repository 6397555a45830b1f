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

    ``buttons`` is the cost in buttons (also ``cost``), ``time`` the time
    cost, ``income`` the buttons printed on it; ``shape`` rows joined by
    ``/`` with ``#`` for a square; ``symbol`` its letter in board text."""

    id: int
    name: str
    buttons: int
    time: int
    income: int
    shape: str

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

    def to_dict(self) -> dict:
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
    last_space: int
    income_spaces: tuple[int, ...]
    leather_spaces: tuple[int, ...]


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
