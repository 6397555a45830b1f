# cython: language_level=3
"""Cover and packing puzzles on one quilt: the geometry the exact solver's
relaxed games ask about (``_solver.pyx``, "Relaxed quilts"), with no search
state. Each question is a depth-first search over the patches' placements
(``_core.pxd``'s orientations and anchors):

- ``cover_square``: can these patches (each at most once) and this many
  leather patches cover the empty squares of some 7x7 square? It covers the
  lowest uncovered square of the smallest empty region first: each cover is
  tried once, and a small region's squares have the fewest covers, so a
  search that must fail fails there early. A branch ends as soon as more
  squares to cover than there are leather patches lie where no placement
  of the patches left reaches.
- ``pack_all``: can these patches all lie on these squares without overlap?
  It places the largest first and checks that every patch left still fits
  somewhere.
- ``fits_after_any``: which patches still fit after some placement of one.
- ``dead_regions``: the empty regions no patch can ever use.

The two searches give up after COVER_STEPS steps and then say yes: the
solver uses them to forbid things in a game that bounds the real one from
above, so yes is the sound answer. The solver caches their answers.

``fits_after``, ``covers`` and ``packs`` are the Python-facing versions,
for the tests (brute force checks each against the reference rules).
"""

import operator

from libc.stdint cimport uint64_t

from patchsolve._core cimport (
    Tables, u128, CoreState, get_tables, popcount128, fits, ps_ctz128, ps_bit128,
    fits_somewhere, BOARD_SQUARES, N_PATCHES, N_SQUARES7, MAX_OG,
)
from patchsolve.search._quilt cimport neighbours

cdef extern from *:
    """
    static inline int ps_clz64(unsigned long long x) { return __builtin_clzll(x); }
    """
    int ps_clz64(uint64_t x) noexcept nogil

cdef const Tables* T = get_tables()
cdef u128 FULL = T.full


# --------------------------------------------------------------------------
# Covering a 7x7 square
# --------------------------------------------------------------------------

cdef enum:
    MAX_REGIONS = 8            # cover search: regions ordered by size (more: the rest last, together)

ctypedef struct Cover:
    u128 empty                 # squares still free
    uint64_t pids              # patches not yet used
    int area                   # their squares
    int leather                # leather patches still to place
    int steps                  # left before the search gives up (and says yes: sound)
    u128 regions[MAX_REGIONS]  # the empty regions holding squares to cover, smallest first
    int nreg


# COVER_AT[og][sq]: the anchors at which orientation ``og`` covers square
# ``sq`` (its cells are sorted, so the highest anchor is its first cell's).
cdef u128 COVER_AT[MAX_OG][BOARD_SQUARES]


cdef void fill_cover_at() noexcept nogil:
    cdef int og, j, sq, a
    for og in range(T.n_og):
        for sq in range(BOARD_SQUARES):
            COVER_AT[og][sq] = 0
            for j in range(T.og_ncells[og]):
                a = sq - T.og_cells[og][j]
                if a >= 0 and T.og_anchors[og] & ps_bit128(a):
                    COVER_AT[og][sq] |= ps_bit128(a)


fill_cover_at()


cdef inline int highest128(u128 x) noexcept nogil:
    """The highest set square of ``x`` (not 0)."""
    cdef uint64_t hi = <uint64_t>(x >> 64)
    if hi:
        return 127 - ps_clz64(hi)
    return 63 - ps_clz64(<uint64_t>x)


cdef inline u128 region_of(u128 seed, u128 empty) noexcept nogil:
    """The connected region of ``empty`` holding the squares ``seed``."""
    cdef u128 grown
    while True:
        grown = (seed | neighbours(seed)) & empty
        if grown == seed:
            return seed
        seed = grown


cdef bint order_regions(Cover* k, u128 todo, int smallest) noexcept nogil:
    """Sort the empty regions that hold squares of ``todo`` smallest first
    into ``k.regions``. False when the regions too small for every patch
    (``smallest``: the size of the smallest) need more leather patches than
    there are (a patch lies inside one region)."""
    cdef u128 rest = todo, region
    cdef int size, leather = 0, i
    cdef int sizes[MAX_REGIONS]
    k.nreg = 0
    while rest:
        region = region_of(rest & (~rest + 1), k.empty)
        rest &= ~region
        size = popcount128(region)
        if size < smallest:
            leather += popcount128(todo & region)
            if leather > k.leather:
                return False
        if k.nreg == MAX_REGIONS:      # more than fit: the rest in any order
            k.regions[k.nreg - 1] |= region
            continue
        i = k.nreg
        while i > 0 and sizes[i - 1] > size:
            k.regions[i] = k.regions[i - 1]
            sizes[i] = sizes[i - 1]
            i -= 1
        k.regions[i] = region
        sizes[i] = size
        k.nreg += 1
    return True


cdef inline int cover_target(const Cover* k, u128 todo) noexcept nogil:
    """The lowest square of ``todo`` in the first region (smallest first)
    that still has some."""
    cdef int i
    for i in range(k.nreg):
        if todo & k.regions[i]:
            return ps_ctz128(todo & k.regions[i])
    return ps_ctz128(todo)


cdef u128 unreached(u128 empty, uint64_t pids, u128 todo) noexcept nogil:
    """The squares of ``todo`` that no placement of a patch of ``pids`` on
    ``empty`` covers."""
    cdef u128 a
    cdef int pid, og, j
    while pids and todo:
        pid = ps_ctz128(<u128>pids)
        pids &= pids - 1
        for og in range(T.patch_og_start[pid], T.patch_og_start[pid + 1]):
            a = fits(T, empty, og)
            if a:
                for j in range(T.og_ncells[og]):
                    todo &= ~(a << T.og_cells[og][j])
                if not todo:
                    return 0
    return todo


cdef bint coverable(Cover* k, u128 todo) noexcept nogil:
    """Can the empty squares ``todo`` all be covered by ``k.pids`` (each
    once, on ``k.empty``) and ``k.leather`` leather patches?"""
    cdef int target, pid, og, a, size
    cdef uint64_t todo_p, b
    cdef u128 m, bit, anchors
    if todo == 0:
        return True
    if popcount128(todo) > k.leather + k.area:
        return False
    # a square with no empty neighbour takes a leather patch
    if popcount128(todo & ~neighbours(k.empty)) > k.leather:
        return False
    k.steps -= 1
    if k.steps < 0:
        return True
    # a square no placement of the patches left covers takes a leather patch
    if popcount128(unreached(k.empty, k.pids, todo)) > k.leather:
        return False
    target = cover_target(k, todo)
    bit = ps_bit128(target)
    if k.leather > 0:
        k.leather -= 1
        k.empty &= ~bit
        if coverable(k, todo & ~bit):
            k.leather += 1
            k.empty |= bit
            return True
        k.leather += 1
        k.empty |= bit
    todo_p = k.pids
    while todo_p:
        pid = ps_ctz128(<u128>todo_p)
        todo_p &= todo_p - 1
        b = (<uint64_t>1) << pid
        size = T.patch_size[pid]
        for og in range(T.patch_og_start[pid], T.patch_og_start[pid + 1]):
            anchors = COVER_AT[og][target]
            while anchors:     # highest first: the order of the cells that cover ``target``
                a = highest128(anchors)
                anchors &= ~ps_bit128(a)
                m = T.og_shape[og] << a
                if m & ~k.empty:
                    continue
                k.empty &= ~m
                k.pids &= ~b
                k.area -= size
                if coverable(k, todo & ~m):
                    k.empty |= m
                    k.pids |= b
                    k.area += size
                    return True
                k.empty |= m
                k.pids |= b
                k.area += size
    return False


cdef int set_area(uint64_t pids) noexcept nogil:
    """The squares of the patches of ``pids`` (a set of patch ids)."""
    cdef int area = 0
    while pids:
        area += T.patch_size[ps_ctz128(<u128>pids)]
        pids &= pids - 1
    return area


cdef bint cover_square(u128 empty, uint64_t pids, int leather) noexcept nogil:
    """Can the patches ``pids`` (each at most once, on ``empty``) and
    ``leather`` leather patches cover the empty squares of one 7x7 square
    (``empty``'s part of it)? Gives up after COVER_STEPS steps, saying yes."""
    cdef Cover k
    cdef int i, smallest = BOARD_SQUARES + 1
    cdef u128 todo
    k.pids = pids
    k.area = set_area(k.pids)
    k.leather = leather
    k.steps = COVER_STEPS
    pids = k.pids
    while pids:            # the same for every square: coverable restores k
        if T.patch_size[ps_ctz128(<u128>pids)] < smallest:
            smallest = T.patch_size[ps_ctz128(<u128>pids)]
        pids &= pids - 1
    for i in range(N_SQUARES7):
        todo = T.square7[i] & empty
        if popcount128(todo) > k.leather + k.area:
            continue
        k.empty = empty
        if order_regions(&k, todo, smallest) and coverable(&k, todo):
            return True
    return False


# --------------------------------------------------------------------------
# Fitting and packing
# --------------------------------------------------------------------------

cdef bint patch_fits(u128 quilt, int pid) noexcept nogil:
    """Whether some placement of ``pid`` lies on the empty squares of ``quilt``."""
    return fits_somewhere(T, FULL & ~quilt, pid)


cdef inline uint64_t fitting(u128 q, uint64_t cand) noexcept nogil:
    """The patches of ``cand`` (a set of patch ids) that fit quilt ``q``."""
    cdef uint64_t out = 0, todo = cand
    cdef int y
    while todo:
        y = ps_ctz128(<u128>todo)
        todo &= todo - 1
        if patch_fits(q, y):
            out |= (<uint64_t>1) << y
    return out


cdef uint64_t fits_after_any(u128 quilt, int pid, uint64_t cand) noexcept nogil:
    """The patches of ``cand`` that still fit in ``quilt`` after at
    least one placement of ``pid``: the others can never be placed in any
    child of ``pid``'s group (the quilt only fills up)."""
    cdef uint64_t found = 0
    cdef u128 empty = FULL & ~quilt, after
    cdef int og, a
    for og in range(T.patch_og_start[pid], T.patch_og_start[pid + 1]):
        after = fits(T, empty, og)
        while after and (cand & ~found):
            a = ps_ctz128(after)
            after &= after - 1
            found |= fitting(quilt | (T.og_shape[og] << a), cand & ~found)
        if not (cand & ~found):
            break
    return found


cdef bint pack_rest(Cover* k, uint64_t todo) noexcept nogil:
    """Can the patches ``todo`` all lie on ``k.empty`` without overlap?"""
    cdef int pid = -1, q, og, best = 0
    cdef uint64_t f = todo, rest
    cdef u128 a, m
    if todo == 0:
        return True
    k.steps -= 1
    if k.steps < 0:
        return True
    while f:
        q = ps_ctz128(<u128>f)
        f &= f - 1
        if not patch_fits(FULL & ~k.empty, q):
            return False
        if T.patch_size[q] > best:
            best = T.patch_size[q]
            pid = q
    rest = todo & ~((<uint64_t>1) << pid)
    for og in range(T.patch_og_start[pid], T.patch_og_start[pid + 1]):
        a = fits(T, k.empty, og)
        while a:
            m = T.og_shape[og] << ps_ctz128(a)
            a &= a - 1
            k.empty &= ~m
            if pack_rest(k, rest):
                k.empty |= m
                return True
            k.empty |= m
    return False


cdef bint pack_all(u128 empty, uint64_t pids) noexcept nogil:
    """Can the patches ``pids`` all lie on ``empty`` without overlap? Gives
    up after COVER_STEPS steps, saying yes."""
    cdef Cover k
    k.empty = empty
    k.steps = COVER_STEPS
    return pack_rest(&k, pids)


cdef bint region_alive(u128 region, uint64_t fits_) noexcept nogil:
    """Some patch of ``fits_`` has a placement inside ``region``."""
    cdef u128 outside = FULL & ~region
    cdef int size = popcount128(region), pid
    while fits_:
        pid = ps_ctz128(<u128>fits_)
        fits_ &= fits_ - 1
        if T.patch_size[pid] <= size and patch_fits(outside, pid):
            return True
    return False


cdef u128 dead_regions(u128 empty, uint64_t fits_) noexcept nogil:
    """Empty squares in connected regions that hold no placement of any
    patch of ``fits_``: only leather can ever cover them."""
    cdef u128 dead = 0, comp
    while empty:
        comp = region_of(empty & (~empty + 1), empty)
        if not region_alive(comp, fits_):
            dead |= comp
        empty &= ~comp
    return dead


# --------------------------------------------------------------------------
# Python-facing versions, for the tests
# --------------------------------------------------------------------------

def _patch_set(pids):
    """The bit set of patch ids ``pids``, checked."""
    cdef uint64_t mask = 0
    for pid in pids:
        pid = operator.index(pid)
        if not 0 <= pid < N_PATCHES:
            raise ValueError(f"no patch {pid}")
        mask |= (<uint64_t>1) << <int>pid
    return mask


def _check_player(player):
    if not 0 <= player < 2:
        raise ValueError(f"player {player}: not 0 or 1")


def fits_after(CoreState s not None, int player, int pid):
    """Bit mask of the circle's other patches that still fit in
    ``player``'s quilt after some placement of ``pid``."""
    cdef uint64_t cand = 0
    cdef int k
    _check_player(player)
    if not 0 <= pid < N_PATCHES:
        raise ValueError(f"no patch {pid}")
    for k in range(s.s.n_circle):
        if s.s.circle[k] != pid:
            cand |= (<uint64_t>1) << s.s.circle[k]
    return fits_after_any(s.s.quilt[player], pid, cand)


def covers(CoreState s not None, int player, pids, int leather):
    """Whether the patches ``pids`` (each at most once) and ``leather``
    leather patches can cover the empty squares of one 7x7 square of
    ``player``'s quilt (what a relaxed game asks before it grants the
    bonus)."""
    cdef uint64_t mask = _patch_set(pids)
    _check_player(player)
    if not 0 <= leather <= 100:
        raise ValueError(f"leather {leather}: not in 0..100")
    return bool(cover_square(FULL & ~s.s.quilt[player], mask, leather))


def packs(CoreState s not None, int player, pids):
    """Whether the patches ``pids`` can all lie on the empty squares of
    ``player``'s quilt without overlap (what a relaxed game asks before it
    allows a buy)."""
    cdef uint64_t mask = _patch_set(pids)
    _check_player(player)
    return bool(pack_all(FULL & ~s.s.quilt[player], mask))
