# cython: language_level=3
"""What the learned evaluation cimports from ``_patterns.pyx``: the quilt
patterns (n-tuples) and their learned values (see that module's docstring).

Data dictionary
---------------
Segment: nine squares of the quilt read in a fixed order (a 3x3 window row
by row, a row left to right, a column top to bottom); its *index* is the
nine occupancy bits, bit k = the k-th square (0 .. 511).
Term: one segment read through one of the board's eight symmetries, looked
up in one table: ``table * 512 + PAT_PERM[perm][index]``. Each table is
shared by an orbit of segments under the symmetries, so a quilt and its
mirror image or rotation get the same value.
"""

from patchsolve._core cimport u128

cdef enum:
    PAT_SIZE = 512         # entries of one table (nine squares)
    PAT_SEGMENTS = 67      # 49 3x3 windows, 9 rows, 9 columns
    PAT_TERMS = 120        # (segment, symmetry) lookups: 8 per table
    PAT_TABLES = 15        # 10 window orbits, 5 line orbits
    PAT_WEIGHTS = PAT_TABLES * PAT_SIZE

# Whether pattern values are loaded; the two sums of quilt ``q``: ``a``
# (the plain tables) and ``b`` (the tables the learned evaluation scales by
# the phase of the game); and the values' epoch (it changes with every
# load, so a cache of sums knows when its entries are stale). The learned
# evaluation memoises the sums with its other quilt terms.
cdef bint patterns_on() noexcept nogil
cdef void pattern_compute(u128 q, double* a, double* b) noexcept nogil
cdef unsigned int pattern_epoch() noexcept nogil
