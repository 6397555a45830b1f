# cython: language_level=3
"""Quilt patterns (n-tuples) for the learned evaluation, in C without the GIL.

What decides Patchwork is the shape of a quilt against the patches still to
come, and shape is local: an n-tuple evaluation reads small groups of
squares and looks each group's occupancy up in a learned table, as the
n-tuple networks of 2048, Othello and Connect 4 do. Here every group has
nine squares (512 entries a table):

- the 49 3x3 windows, in 10 tables (one per orbit of window positions under
  the board's eight symmetries: corner, edge, centre ... share nothing);
- the 9 rows and 9 columns, in 5 tables (row r, row 8-r, column r and
  column 8-r share one).

Every window or line is looked up once for each symmetry that maps its
orbit's first member onto it, in that symmetry's square order (120 terms
a quilt). The set of terms is closed under the symmetries, so the sum is
the same for a quilt and its rotations and reflections. When the values
are loaded, the terms of each window or line are folded into one table of
its own (67 tables), so an evaluation reads 67 entries.

Two sets of tables: ``a`` (plain) and ``b`` (scaled by the phase of the
game in ``_learned``). The values are fitted by ``patchsolve.training`` and
loaded with the other learned weights (``search/learned.py``). The learned
evaluation memoises the sums with its other quilt terms (``_learned``'s
geometry table), checking the values' epoch.
"""

from libc.stdint cimport uint64_t, uint16_t, uint32_t

from patchsolve._core cimport u128

cdef enum:
    N_WINDOWS = 49
    N_PERMS_MAX = 16

# Segments: windows by their first square (three rows of three), then rows
# (one shift), then columns (nine squares, one bit each).
cdef int SEG_FIRST[PAT_SEGMENTS]
# Terms: segment, permutation, table.
cdef int TERM_SEG[PAT_TERMS]
cdef int TERM_PERM[PAT_TERMS]
cdef int TERM_TABLE[PAT_TERMS]
cdef uint16_t PAT_PERM[N_PERMS_MAX][PAT_SIZE]
cdef double PA[PAT_WEIGHTS]
cdef double PB[PAT_WEIGHTS]
# The same values folded per segment (see ``expand``): 67 x 512 floats a set.
cdef float SEG_A[PAT_SEGMENTS][PAT_SIZE]
cdef float SEG_B[PAT_SEGMENTS][PAT_SIZE]
cdef bint PAT_ON = False
cdef bint PAT_PHASE_ON = False  # any ``b`` value non-zero
cdef uint32_t EPOCH = 1

# The eight symmetries of the 9x9 board, as maps of (row, col).
_SYMS = (
    lambda r, c: (r, c), lambda r, c: (c, 8 - r), lambda r, c: (8 - r, 8 - c), lambda r, c: (8 - c, r),
    lambda r, c: (r, 8 - c), lambda r, c: (8 - r, c), lambda r, c: (c, r), lambda r, c: (8 - c, 8 - r),
)


def _segments():
    """Every segment's nine squares in reading order."""
    segs = [[(r + i, c + j) for i in range(3) for j in range(3)] for r in range(7) for c in range(7)]
    segs += [[(r, j) for j in range(9)] for r in range(9)]
    segs += [[(i, c) for i in range(9)] for c in range(9)]
    return segs


def _terms(segs):
    """(segment, permutation, table) for every lookup, the permutations,
    and a name per table (its orbit's first segment)."""
    by_set = {frozenset(s): k for k, s in enumerate(segs)}
    table_of = {}
    names, terms, perms = [], [], {}
    for k, seg in enumerate(segs):
        if k in table_of:
            continue
        table = len(names)
        kind = "window" if k < N_WINDOWS else "line"
        names.append(f"{kind}_r{seg[0][0]}c{seg[0][1]}")
        for g in _SYMS:
            image = [g(r, c) for r, c in seg]
            target = by_set[frozenset(image)]
            table_of[target] = table
            order = segs[target]
            # bit k of the looked-up index = square image[k] of the segment
            perm = tuple(order.index(sq) for sq in image)
            terms.append((target, perms.setdefault(perm, len(perms)), table))
    return terms, list(perms), names


def _build():
    segs = _segments()
    terms, perms, names = _terms(segs)
    assert len(segs) == PAT_SEGMENTS and len(terms) == PAT_TERMS
    assert len(names) == PAT_TABLES and len(perms) <= N_PERMS_MAX
    cdef int k, i, j, idx
    for k in range(PAT_SEGMENTS):
        r, c = segs[k][0]
        SEG_FIRST[k] = r * 9 + c
    for k, (seg, perm, table) in enumerate(terms):
        TERM_SEG[k] = seg
        TERM_PERM[k] = perm
        TERM_TABLE[k] = table
    for i, perm in enumerate(perms):
        for j in range(PAT_SIZE):
            idx = 0
            for k in range(9):
                if (j >> perm[k]) & 1:
                    idx |= 1 << k
            PAT_PERM[i][j] = idx
    return names


TABLES = _build()


cdef inline void segment_indices(u128 q, int* idx) noexcept nogil:
    """The nine occupancy bits of every segment, in reading order: rows
    first (one shift each), windows and columns from the rows."""
    cdef int row[9]
    cdef int r, c, k = 0
    for r in range(9):
        row[r] = <int>(q >> (9 * r)) & 511
    for r in range(7):
        for c in range(7):
            idx[k] = ((row[r] >> c) & 7) | (((row[r + 1] >> c) & 7) << 3) | (((row[r + 2] >> c) & 7) << 6)
            k += 1
    for r in range(9):
        idx[N_WINDOWS + r] = row[r]
        idx[N_WINDOWS + 9 + r] = 0
    for r in range(9):
        for c in range(9):
            idx[N_WINDOWS + 9 + c] |= ((row[r] >> c) & 1) << r


cdef void term_indices(u128 q, int* out) noexcept nogil:
    """The table entry (table * 512 + index) of every term."""
    cdef int idx[PAT_SEGMENTS]
    cdef int k
    segment_indices(q, idx)
    for k in range(PAT_TERMS):
        out[k] = TERM_TABLE[k] * PAT_SIZE + PAT_PERM[TERM_PERM[k]][idx[TERM_SEG[k]]]


cdef void pattern_compute(u128 q, double* a, double* b) noexcept nogil:
    """The sums, one lookup per segment in its expanded table."""
    cdef int idx[PAT_SEGMENTS]
    cdef int k
    cdef double sa = 0.0, sb = 0.0
    segment_indices(q, idx)
    for k in range(PAT_SEGMENTS):
        sa += SEG_A[k][idx[k]]
    if PAT_PHASE_ON:
        for k in range(PAT_SEGMENTS):
            sb += SEG_B[k][idx[k]]
    a[0] = sa
    b[0] = sb


cdef bint patterns_on() noexcept nogil:
    return PAT_ON


cdef unsigned int pattern_epoch() noexcept nogil:
    return EPOCH


cdef void expand() noexcept nogil:
    """Fold every segment's terms into one table a segment (``SEG_A``,
    ``SEG_B``), so the evaluation does one lookup a segment and no
    permutations."""
    cdef int k, j, t
    for k in range(PAT_SEGMENTS):
        for j in range(PAT_SIZE):
            SEG_A[k][j] = 0.0
            SEG_B[k][j] = 0.0
    for t in range(PAT_TERMS):
        k = TERM_SEG[t]
        for j in range(PAT_SIZE):
            SEG_A[k][j] += PA[TERM_TABLE[t] * PAT_SIZE + PAT_PERM[TERM_PERM[t]][j]]
            SEG_B[k][j] += PB[TERM_TABLE[t] * PAT_SIZE + PAT_PERM[TERM_PERM[t]][j]]


# --------------------------------------------------------------------------
# Python-facing
# --------------------------------------------------------------------------

def set_patterns(a, b):
    """Load the two sets of tables (each PAT_TABLES * 512 values, table by
    table) and switch the patterns on; ``a=None`` switches them off."""
    global PAT_ON, EPOCH
    cdef int i
    if a is None:
        PAT_ON = False
        EPOCH += 1
        return
    if len(a) != PAT_WEIGHTS or len(b) != PAT_WEIGHTS:
        raise ValueError(f"expected {PAT_WEIGHTS} pattern values per set, got {len(a)} and {len(b)}")
    global PAT_PHASE_ON
    PAT_PHASE_ON = False
    for i in range(PAT_WEIGHTS):
        PA[i] = float(a[i])
        PB[i] = float(b[i])
        if PB[i] != 0.0:
            PAT_PHASE_ON = True
    expand()
    PAT_ON = True
    EPOCH += 1  # every memoised sum is stale now


def pattern_weights():
    """The loaded tables ``(a, b)``, or None when the patterns are off."""
    if not PAT_ON:
        return None
    return [PA[i] for i in range(PAT_WEIGHTS)], [PB[i] for i in range(PAT_WEIGHTS)]


def terms(quilt):
    """The table entry of every lookup for a quilt given as an int (bit
    row * 9 + col): what the fit counts."""
    if not isinstance(quilt, int) or not 0 <= quilt < (1 << 81):
        raise ValueError("a quilt is an int of 81 bits")
    cdef u128 q = (<u128>(<uint64_t>(quilt >> 64)) << 64) | <u128>(<uint64_t>(quilt & 0xFFFFFFFFFFFFFFFF))
    cdef int out[PAT_TERMS]
    term_indices(q, out)
    return [out[k] for k in range(PAT_TERMS)]


def values(quilt):
    """The two pattern sums ``(a, b)`` of a quilt given as an int."""
    if not isinstance(quilt, int) or not 0 <= quilt < (1 << 81):
        raise ValueError("a quilt is an int of 81 bits")
    cdef u128 q = (<u128>(<uint64_t>(quilt >> 64)) << 64) | <u128>(<uint64_t>(quilt & 0xFFFFFFFFFFFFFFFF))
    cdef double a, b
    pattern_compute(q, &a, &b)
    return a, b
