# cython: language_level=3
"""What every searcher shares about judging a position (defined in
``_eval.pyx``; the placement scores inline here, as they run once per
generated move):

- ``evaluate_margin(s, p)``: the tuned static evaluation, the estimated
  final score margin of player ``p``; ``evaluate(s, p)`` the same for the
  player to move, rounded to whole points (alpha-beta's leaves);
- two placement scores of covering squares ``m`` of a quilt:
  ``placement_badness`` (lower is better; alpha-beta's move ordering and
  placement pruning, the greedy player's tie-break) and ``placement_score``
  (higher is better; the MCTS's widening order and playout placements);
- ``greedy(s)``: the greedy one-ply player's move (``players.GreedyPlayer``).
"""

from patchsolve._core cimport (
    CState, u128, move_t, popcount128, PS_FULL, PS_COL0, PS_COL8, PS_ROW0, PS_ROW8,
)

cdef double evaluate_margin(const CState* s, int p) noexcept nogil
cdef int evaluate(const CState* s, int p) noexcept nogil
cdef move_t greedy(const CState* s) noexcept nogil


cdef inline u128 neighbours(u128 m) noexcept nogil:
    """Squares orthogonally next to ``m`` (may include ``m`` itself)."""
    return ((((m << 1) & ~PS_COL0) | ((m >> 1) & ~PS_COL8) | (m << 9) | (m >> 9)) & PS_FULL)


cdef inline int isolated(u128 empty) noexcept nogil:
    """Empty squares with no empty orthogonal neighbour: only a leather patch
    can ever fill them."""
    return popcount128(empty & ~neighbours(empty))


cdef inline int placement_badness(u128 quilt, u128 m) noexcept nogil:
    """Lower is better: the empty squares next to the patch plus 4 per
    isolated empty square left on the quilt. Patches that hug the border and
    other patches and leave no single holes score best."""
    cdef u128 empty = PS_FULL & ~(quilt | m)
    return popcount128(neighbours(m) & empty) + 4 * isolated(empty)


cdef inline int contact(u128 m, u128 quilt) noexcept nogil:
    """Edges of the squares ``m`` that touch the quilt or the board's border:
    high = compact, leaves few awkward holes."""
    return (popcount128(((m & ~PS_COL0) >> 1) & quilt) + popcount128(m & PS_COL0)
            + popcount128(((m & ~PS_COL8) << 1) & quilt) + popcount128(m & PS_COL8)
            + popcount128((m >> 9) & quilt) + popcount128(m & PS_ROW0)
            + popcount128(((m << 9) & PS_FULL) & quilt) + popcount128(m & PS_ROW8))


cdef inline int placement_score(u128 m, u128 quilt, int hole_penalty) noexcept nogil:
    """Higher is better: ``contact`` minus ``hole_penalty`` per isolated
    empty square left, offset by 256 to stay positive."""
    if hole_penalty == 0:
        return 256 + contact(m, quilt)
    return 256 + contact(m, quilt) - hole_penalty * isolated(PS_FULL & ~(quilt | m))
