# cython: language_level=3
"""Quilt geometry, inline for the hot loops (header only, like ``_order.pxd``):
what the evaluations (``_eval``, ``_learned``), the searchers' move ordering
(``_alphabeta``, ``_solver``, ``_mcts``) and the packing checks (``_packing``)
ask of a quilt's squares. Pure functions of bitboards (``_core.pxd``'s
layout); they cimport nothing but the core, so every module can cimport them.

- ``neighbours``, ``isolated``: the squares next to a set, the empty squares
  only a leather patch can fill;
- two placement scores of covering squares ``m`` of a quilt:
  ``placement_badness`` (lower is better; alpha-beta's move ordering and
  placement pruning, the solver's ordering) and ``placement_score`` (higher
  is better, from ``contact``; the MCTS's widening order and playout
  placements, the greedy player's tie-break);
- ``best7``: the 7x7 progress the evaluations weigh.
"""

from patchsolve._core cimport (
    Tables, u128, popcount128, PS_FULL, PS_COL0, PS_COL8, PS_ROW0, PS_ROW8, N_SQUARES7,
)


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


cdef inline int best7(const Tables* t, u128 q) noexcept nogil:
    """Most squares covered in any of the nine 7x7 squares (0 below 36
    covered squares, where no 7x7 square can be near complete)."""
    cdef int i, c, b = 0
    if popcount128(q) < 36:
        return 0
    for i in range(N_SQUARES7):
        c = popcount128(q & t.square7[i])
        if c > b:
            b = c
    return b
