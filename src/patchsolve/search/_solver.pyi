# Type stub of the Cython module _solver.pyx (its interface is the .pyx):
# every Python-visible name, typed from the source. Values are in the
# solver's units (score margins, doubled plus the tie-break with tie=True).
from collections.abc import Iterable

from typing_extensions import disjoint_base

from patchsolve._core import CoreState

MAX_HASH_MB: int

# @disjoint_base (PEP 800): a cdef class has its own C layout, so no class
# derives from it and another such base at once.
@disjoint_base
class Solver:
    lo: int
    hi: int
    gamma: int
    steps: int
    # Cython's __cinit__ takes the arguments when the object is allocated
    # (tp_new), so they are __new__'s; __init__ is object's.
    def __new__(
        cls,
        hash_mb: int,
        *,
        wdl: bool,
        tie: bool,
        threads: int,
        use_static: bool,
        use_relax: bool,
        use_etc: bool,
        relax_min: int,
        use_hist: bool,
        use_dead_keys: bool,
        relax_pairs: bool,
        use_cover: bool,
        use_pack: bool,
        use_done_keys: bool,
    ) -> Solver: ...
    @property
    def wdl(self) -> bool: ...
    @property
    def tie(self) -> bool: ...
    @property
    def nodes(self) -> int: ...
    @property
    def threads(self) -> int: ...
    @property
    def tt_entries(self) -> int: ...
    @property
    def stats(self) -> dict[str, int]: ...
    def set_limits(self, node_limit: int, seconds: float) -> None: ...
    def bounds(self, s: CoreState) -> tuple[int, int]: ...
    def probe(self, s: CoreState, alpha: int, beta: int) -> int | None: ...
    def solve(
        self,
        s: CoreState,
        lo: int,
        hi: int,
        guess: int,
        spread: int = ...,
        skip: Iterable[int] | None = ...,
        sign: bool = ...,
    ) -> tuple[int, int]: ...
    @property
    def root_cut(self) -> int: ...
    @property
    def root_cut_value(self) -> int: ...
    def tt_bounds(self, s: CoreState) -> tuple[int, int, int] | None: ...
    def guess(self, s: CoreState) -> int: ...

def _helper_delay(n: int | None = ...) -> int: ...
def _stall_nodes(n: int | None = ...) -> int: ...
def _node_setting(n: int, low: int, what: str) -> int: ...
