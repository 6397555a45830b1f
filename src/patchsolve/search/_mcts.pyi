# Type stub of the Cython module _mcts.pyx (its interface is the .pyx): every
# Python-visible name, typed from the source. Move codes are ints.
from typing import TypedDict

from typing_extensions import disjoint_base

from patchsolve._core import CoreState

class _NodeStatsBase(TypedDict):
    visits: int
    value: float
    wins: float
    margin: float
    proven: int
    move: int
    patch: int
    mm: float

class _NodeStats(_NodeStatsBase, total=False):
    """A child's statistics (``Searcher.root_children``); a patch node also
    has its placements' statistics and its candidate count."""

    children: list[_NodeStatsBase]
    n_cand: int

# @disjoint_base (PEP 800): a cdef class has its own C layout, so no class
# derives from it and another such base at once.
@disjoint_base
class Searcher:
    @property
    def total_iterations(self) -> int: ...
    # Cython's __cinit__ takes the arguments when the object is allocated
    # (tp_new), so they are __new__'s; __init__ is object's.
    def __new__(cls, max_nodes: int) -> Searcher: ...
    def configure(
        self,
        tree: str,
        policy: str,
        value: str,
        blend: float,
        margin_scale: float,
        c: float,
        pw_c: float,
        pw_alpha: float,
        solver: bool,
        epsilon: float,
        samples: int,
        time_weight: float,
        hole_penalty: int,
        leaf: str,
        minimax: float,
    ) -> None: ...
    def set_root(self, cs: CoreState, reuse: bool = ..., max_plies: int = ...) -> int: ...
    def run(self, iterations: int, seconds: float, seed: int) -> tuple[int, float]: ...
    def root_children(self) -> list[_NodeStats]: ...
    def pv(self, max_moves: int = ..., min_visits: int = ...) -> list[int]: ...
    def best_placement(self, cs: CoreState, patch: int) -> int: ...
    @property
    def n_nodes(self) -> int: ...

def heuristic_policy_move(
    cs: CoreState, seed: int, epsilon: float, samples: int, time_weight: float, hole_penalty: int
) -> int: ...
