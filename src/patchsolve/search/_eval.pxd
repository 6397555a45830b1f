# cython: language_level=3
"""What every searcher shares about judging a position (defined in
``_eval.pyx``; the quilt geometry and placement scores it uses are inline
in ``_quilt.pxd``):

- ``evaluate_margin(s, p)``: the tuned static evaluation, the estimated
  final score margin of player ``p``; ``evaluate(s, p)`` the same for the
  player to move, rounded to whole points (alpha-beta's leaves);
- ``greedy(s)``: the greedy one-ply player's move (``players.GreedyPlayer``).
"""

from patchsolve._core cimport CState, move_t

cdef double evaluate_margin(const CState* s, int p) noexcept nogil
cdef int evaluate(const CState* s, int p) noexcept nogil
cdef move_t greedy(const CState* s) noexcept nogil
