"""patchsolve: a fast engine for the board game Patchwork."""

from patchsolve import errors
from patchsolve.errors import IllegalMoveError, InvalidPositionError, NotationError, PatchsolveError
from patchsolve.patches import PATCHES, Patch
from patchsolve.position import Move, Position
from patchsolve.game import Game
from patchsolve import search  # the package, callable: patchsolve.search(position, ...)
from patchsolve.search import SearchResult, solve

__all__ = [
    "Position",
    "Move",
    "Game",
    "PATCHES",
    "Patch",
    "search",
    "solve",
    "SearchResult",
    "errors",
    "PatchsolveError",
    "NotationError",
    "IllegalMoveError",
    "InvalidPositionError",
]
__version__ = "0.1.0"
