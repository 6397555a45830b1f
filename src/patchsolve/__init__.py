"""patchsolve: a fast engine for the board game Patchwork."""

from patchsolve import errors
from patchsolve.errors import (IllegalMoveError, InvalidPositionError, LimitError, NotationError,
                               PatchsolveError)
from patchsolve.patches import PATCHES, Patch
from patchsolve.position import Move, Position
from patchsolve.game import Game
from patchsolve.search import Limits, SearchResult, request_stop, solve
from patchsolve.search import search  # the function (binds over the subpackage's name)

# ``import patchsolve.search.mcts as m`` resolves its last step through the
# attribute's __name__ (then sys.modules): name the function as the package
# it stands for so that form keeps working.
search.__name__ = "patchsolve.search"

__all__ = [
    "Position",
    "Move",
    "Game",
    "PATCHES",
    "Patch",
    "search",
    "solve",
    "request_stop",
    "Limits",
    "SearchResult",
    "errors",
    "PatchsolveError",
    "NotationError",
    "IllegalMoveError",
    "InvalidPositionError",
    "LimitError",
]
__version__ = "0.2.0"
