# Type stub of the Cython module _alphabeta.pyx (its interface is the .pyx):
# every Python-visible name, typed from the source. Move codes and keys are
# ints; values are in the evaluation's units (score margins).
from collections.abc import Callable, Iterable
from typing import Literal

from typing_extensions import disjoint_base

from patchsolve._core import CoreState

# One line of an iteration: (value, pv codes, asked about: a line of its own).
_Line = tuple[int, list[int], bool]
# One iteration of ``Searcher.run``: (depth, value, pv codes, nodes, seldepth, lines).
_Iteration = tuple[int, int, list[int], int, int, list[_Line]]
# ``Searcher.partial``: an interrupted iteration, its lines None.
_Partial = tuple[int, int, list[int], int, int, None]

def _line_value(line: _Line) -> int: ...

# @disjoint_base (PEP 800): a cdef class has its own C layout, so no class
# derives from it and another such base at once.
@disjoint_base
class Searcher:
    partial: _Partial | None
    # Cython's __cinit__ takes the arguments when the object is allocated
    # (tp_new), so they are __new__'s; __init__ is object's.
    def __new__(
        cls,
        hash_mb: int,
        *,
        tt: bool,
        placements: int,
        prune_depth: int,
        lmr: int,
        rank_plies: int,
        leather: int,
    ) -> Searcher: ...
    def interrupt(self) -> None: ...
    def resume(self) -> None: ...
    @property
    def tt_entries(self) -> int: ...
    def probe(
        self, position: CoreState
    ) -> tuple[int, int, Literal["lower", "upper", "exact"], int] | None: ...
    def run(
        self,
        root: CoreState,
        depth: int,
        node_limit: int,
        seconds: float,
        first_depth: int = ...,
        workers: int = ...,
        multipv: int = ...,
        on_iteration: Callable[[_Iteration], object] | None = ...,
        asked: Iterable[int] = ...,
        aliases: dict[int, list[int]] | None = ...,
    ) -> list[_Iteration]: ...
    @property
    def nodes(self) -> int: ...
    @property
    def threads(self) -> int: ...

def key_of(s: CoreState) -> int: ...
def child_key_of(s: CoreState, key: int, move: int) -> int: ...
def tree_size(s: CoreState, limit: int) -> int: ...
def minimax(s: CoreState, depth: int = ...) -> tuple[int, int]: ...
def ordered_moves(s: CoreState, placements: int, rank: bool = ..., leather: int = ...) -> list[int]: ...
