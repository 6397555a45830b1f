# cython: language_level=3
"""What the C searchers (``_alphabeta``, ``_solver``) share about a search
as such, header only: the bounds of their values and depth, and how often
and by what they stop. Their contexts (``Ctx``) differ; each keeps
``nodes``, ``node_limit``, ``deadline`` and ``halt`` and asks ``limit_hit``.
"""

from libc.stdint cimport uint64_t

from patchsolve._core cimport limits_reached
from patchsolve.search._threads cimport atomic_load

cdef enum:
    INF = 30000            # beyond every value either searcher returns
    MAX_PLY = 160          # > the longest remaining game (every non-leather move advances time)
    CHECK_EVERY = 1023     # the limits are checked once every CHECK_EVERY + 1 nodes


cdef inline bint limit_hit(uint64_t nodes, uint64_t node_limit, double deadline, int* halt) noexcept nogil:
    """A search must stop: its node limit (0: none) or deadline (0: none) is
    reached, a stop was requested (``_core.limits_reached``), or, in a Lazy
    SMP thread, the ``halt`` flag is set (NULL: no other thread)."""
    return limits_reached(nodes, node_limit, deadline) or (halt != NULL and atomic_load(halt))
