# cython: language_level=3
"""Declarations of the rules core, for searchers that ``cimport`` it.

Data dictionary
---------------
Quilt (``u128``): an 81-bit bitboard held in one unsigned 128-bit integer
(two 64-bit words: bits 0-63 in the low word, bits 64-80 in the high word;
bits 81-127 are always zero). Bit index = row * 9 + col, row 0 at the top,
col 0 at the left::

        col: 0  1  2  3  4  5  6  7  8
    row 0:   0  1  2  3  4  5  6  7  8
    row 1:   9 10 11 12 13 14 15 16 17
    ...
    row 8:  72 73 74 75 76 77 78 79 80

Orientation (``og``): one distinct rotation/reflection of one patch, numbered
globally 0 .. n_og-1, grouped by patch (``patch_og_start[p]`` to
``patch_og_start[p+1]``). ``og_shape[og]`` is its mask with the top-left of
its bounding box on square 0; placed with its bounding box's top-left on
square ``a`` it covers ``og_shape[og] << a``. ``og_anchors[og]`` is the set of
anchors ``a`` that keep it inside the 9x9 board.

Move code (``move_t``, int32)::

    0             walk (advance and receive buttons)
    1 .. 81       place a leather patch on square code - 1
    >= 128        buy: orientation (code >> 7) - 1, anchor square code & 127

A ``CState`` is a plain value: copy it to keep a position (copy-make).
"""

from libc.stdint cimport uint64_t, int16_t, int32_t, int8_t, uint8_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

# The 128-bit helpers, one copy for every module that cimports the core
# (static inline C: compiled into each, no call across modules).
cdef extern from *:
    """
    typedef unsigned __int128 ps_u128;
    static inline int ps_popcount128(ps_u128 x) {
        return __builtin_popcountll((unsigned long long)x)
             + __builtin_popcountll((unsigned long long)(x >> 64));
    }
    static inline int ps_ctz128(ps_u128 x) {
        unsigned long long lo = (unsigned long long)x;
        return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((unsigned long long)(x >> 64));
    }
    /* index of the r-th (0-based) set bit of x; x has more than r set bits */
    static inline int ps_select64(unsigned long long x, int r) {
        int base = 0;
        for (;;) {
            int c = __builtin_popcountll(x & 0xFFFFull);
            if (r < c) break;
            r -= c; x >>= 16; base += 16;
        }
        while (r-- > 0) x &= x - 1;
        return base + __builtin_ctzll(x);
    }
    static inline int ps_select128(ps_u128 x, int r) {
        unsigned long long lo = (unsigned long long)x;
        int c = __builtin_popcountll(lo);
        if (r < c) return ps_select64(lo, r);
        return 64 + ps_select64((unsigned long long)(x >> 64), r - c);
    }
    static inline ps_u128 ps_make128(unsigned long long lo, unsigned long long hi) {
        return ((ps_u128)hi << 64) | (ps_u128)lo;
    }
    static inline unsigned long long ps_lo64(ps_u128 x) { return (unsigned long long)x; }
    static inline unsigned long long ps_hi64(ps_u128 x) { return (unsigned long long)(x >> 64); }
    static inline int ps_popcount64(unsigned long long x) { return __builtin_popcountll(x); }
    static inline ps_u128 ps_bit128(int i) { return ((ps_u128)1) << i; }
    static inline unsigned long long ps_mulhi64(unsigned long long a, unsigned long long b) {
        return (unsigned long long)(((ps_u128)a * b) >> 64);
    }
    /* quilt geometry (bit row*9+col): the 81 squares, the first and last column and row */
    #define PS_FULL (((ps_u128)0x1ffffULL << 64) | 0xffffffffffffffffULL)
    #define PS_COL0 (((ps_u128)0x100ULL << 64) | 0x8040201008040201ULL)
    #define PS_COL8 (((ps_u128)0x10080ULL << 64) | 0x4020100804020100ULL)
    #define PS_ROW0 ((ps_u128)0x1ffULL)
    #define PS_ROW8 ((ps_u128)0x1ff00ULL << 64)
    """
    # Cython only needs to know it is an unsigned integer; C sees 128 bits.
    ctypedef unsigned long long u128 "ps_u128"

    int ps_popcount128(u128 x) nogil
    int ps_ctz128(u128 x) nogil
    int ps_select128(u128 x, int r) nogil
    u128 ps_make128(uint64_t lo, uint64_t hi) nogil
    uint64_t ps_lo64(u128 x) nogil
    uint64_t ps_hi64(u128 x) nogil
    u128 ps_bit128(int i) nogil
    int ps_popcount64(uint64_t x) nogil
    uint64_t ps_mulhi64(uint64_t a, uint64_t b) nogil
    const u128 PS_FULL
    const u128 PS_COL0
    const u128 PS_COL8
    const u128 PS_ROW0
    const u128 PS_ROW8

ctypedef int32_t move_t

cdef enum:
    BOARD_SQUARES = 81
    LAST_SPACE = 53
    N_PATCHES = 33
    MAX_OG = 264          # 33 patches x at most 8 orientations
    MAX_CELLS = 8         # the largest patch covers 8 squares
    MAX_MOVES = 2048      # more than the 1345 legal moves a position can have
    NO_PLAYER = -1
    MOVE_WALK = 0
    BUY_SHIFT = 7

# The rule constants (RULES.md; Python: ``patches.BONUS_POINTS``, ``BONUS_SIZE``).
cdef enum:
    BONUS_POINTS = 7      # "7x7 bonus": the tile's points
    BONUS_SIZE = 7        # ... for the first quilt to cover a whole 7 x 7 block
    BONUS_SQUARES = 49    # BONUS_SIZE ** 2: fewer covered squares never hold a block
    N_SQUARES7 = 9        # the 7 x 7 blocks of the 9 x 9 quilt, (9 - 7 + 1) ** 2
    PATCHES_AHEAD = 3     # "Buy": the patches in front of the neutral token a player may choose from
    EMPTY_PENALTY = 2     # "End and score": points lost per empty square (a square covered is worth 2)

ctypedef struct CState:
    u128 quilt[2]          # covered squares per player
    uint64_t leather       # bit s set = time-board space s still holds a leather patch
    int16_t buttons[2]
    int8_t income[2]       # buttons printed on the patches of each quilt
    int8_t time[2]         # time-board space, 0 .. 53
    int8_t on_top          # whose token is on top when both share a space, else -1
    int8_t pending         # player who must now place a leather patch, else -1
    int8_t bonus           # owner of the 7x7 bonus tile, else -1
    int8_t first_end       # first player to reach space 53, else -1
    int8_t edition         # 0 = revised, 1 = original
    int8_t n_circle        # patches left in the circle
    uint8_t circle[33]     # circle[0] lies directly in front of the neutral token;
                           # entries from n_circle on are 0 (keeps the key canonical)

ctypedef struct Tables:
    int n_og
    int16_t og_patch[MAX_OG]
    int8_t og_index[MAX_OG]            # orientation number within its patch
    int8_t og_ncells[MAX_OG]
    int8_t og_cells[MAX_OG][MAX_CELLS]  # square offsets r*9+c from the anchor
    u128 og_shape[MAX_OG]
    u128 og_anchors[MAX_OG]
    int16_t patch_og_start[N_PATCHES + 1]
    int8_t patch_cost[N_PATCHES]
    int8_t patch_time[N_PATCHES]
    int8_t patch_income[N_PATCHES]
    int8_t patch_size[N_PATCHES]
    u128 full                          # the 81 squares
    u128 square7[N_SQUARES7]           # the nine 7x7 squares
    uint64_t income_spaces             # bit s = space s pays income
    uint64_t leather_spaces[2]         # per edition, at the start

cdef const Tables* get_tables() noexcept nogil


# Small helpers every module shares (inline: defined here, compiled into each).

cdef inline int popcount128(u128 x) noexcept nogil:
    return ps_popcount128(x)


cdef inline u128 fits(const Tables* t, u128 empty, int og) noexcept nogil:
    """Anchors where orientation ``og`` lies on empty squares only: an anchor
    ``a`` is good when every cell offset ``d`` has square ``a + d`` empty, i.e.
    bit ``a`` of ``empty >> d``. The anchor set keeps the shift from wrapping."""
    cdef u128 v = t.og_anchors[og]
    cdef int i
    for i in range(t.og_ncells[og]):
        v &= empty >> t.og_cells[og][i]
    return v


cdef inline int patches_ahead(const CState* s) noexcept nogil:
    """How many patches the player to move may choose from: the
    PATCHES_AHEAD in front of the neutral token (``s.circle[0 ..]``), fewer
    near the end."""
    return PATCHES_AHEAD if s.n_circle > PATCHES_AHEAD else s.n_circle


cdef inline bint can_afford(const Tables* t, const CState* s, int p, int pid) noexcept nogil:
    """Player ``p`` has the buttons patch ``pid`` costs."""
    return t.patch_cost[pid] <= s.buttons[p]


cdef inline int affordable_ahead(const Tables* t, const CState* s, int p, int* pids) noexcept nogil:
    """The patches ahead (``patches_ahead``) that player ``p`` can pay for,
    in circle order, written to ``pids`` (room for PATCHES_AHEAD); returns
    how many. Whether they fit the quilt is the caller's question."""
    cdef int k, pid, n = 0
    for k in range(patches_ahead(s)):
        pid = s.circle[k]
        if can_afford(t, s, p, pid):
            pids[n] = pid
            n += 1
    return n


cdef inline bint fits_somewhere(const Tables* t, u128 empty, int pid) noexcept nogil:
    """Some orientation of patch ``pid`` lies on the squares ``empty``."""
    cdef int og
    for og in range(t.patch_og_start[pid], t.patch_og_start[pid + 1]):
        if fits(t, empty, og):
            return True
    return False


cdef inline bint completes_bonus(const Tables* t, const CState* s, u128 q) noexcept nogil:
    """Quilt ``q`` takes the still free 7x7 bonus: it covers a whole 7 x 7
    block (RULES "7x7 bonus")."""
    cdef int i
    if s.bonus >= 0 or ps_popcount128(q) < BONUS_SQUARES:
        return False
    for i in range(N_SQUARES7):
        if (q & t.square7[i]) == t.square7[i]:
            return True
    return False


cdef inline int income_ahead(const Tables* t, int time) noexcept nogil:
    """Income spaces strictly after time-board space ``time``."""
    return ps_popcount64(t.income_spaces >> (time + 1))


cdef inline move_t buy_code(int og, int anchor) noexcept nogil:
    return ((og + 1) << BUY_SHIFT) | anchor


cdef inline uint64_t mix64(uint64_t x) noexcept nogil:
    """The splitmix64 finaliser: a cheap, well-mixing 64-bit hash step."""
    x ^= x >> 30
    x *= 0xBF58476D1CE4E5B9ULL
    x ^= x >> 27
    x *= 0x94D049BB133111EBULL
    x ^= x >> 31
    return x

cdef inline int to_move(const CState* s) noexcept nogil:
    """RULES "Whose turn": a pending leather placement first; else the token
    further behind; on the same space the token on top."""
    if s.pending >= 0:
        return s.pending
    if s.time[0] < s.time[1]:
        return 0
    if s.time[1] < s.time[0]:
        return 1
    return s.on_top


cdef inline bint is_over(const CState* s) noexcept nogil:
    return s.time[0] == LAST_SPACE and s.time[1] == LAST_SPACE and s.pending < 0


cdef inline int score(const CState* s, int player) noexcept nogil:
    cdef int empty = BOARD_SQUARES - ps_popcount128(s.quilt[player])
    return s.buttons[player] + (BONUS_POINTS if s.bonus == player else 0) - EMPTY_PENALTY * empty


cdef inline u128 move_mask_of(const Tables* t, move_t m) noexcept nogil:
    """The squares move ``m`` covers (``move_mask``, inline for the hot loops)."""
    if m == MOVE_WALK:
        return 0
    if m <= BOARD_SQUARES:
        return ps_bit128(m - 1)
    return t.og_shape[(m >> BUY_SHIFT) - 1] << (m & 127)


cdef inline int move_patch_of(const Tables* t, move_t m) noexcept nogil:
    """The patch move ``m`` buys, -1 if none (``move_patch``, inline)."""
    if m < (1 << BUY_SHIFT):
        return -1
    return t.og_patch[(m >> BUY_SHIFT) - 1]

cdef int gen_moves(const CState* s, move_t* out) noexcept nogil
cdef int count_moves(const CState* s) noexcept nogil
cdef bint is_legal(const CState* s, move_t m) noexcept nogil
cdef void apply_move(CState* s, move_t m) noexcept nogil
cdef int winner(const CState* s) noexcept nogil
cdef uint64_t state_key(const CState* s) noexcept nogil
cdef u128 move_mask(move_t m) noexcept nogil
cdef int move_patch(move_t m) noexcept nogil
cdef uint64_t rng_next(uint64_t* state) noexcept nogil
cdef uint64_t rng_below(uint64_t* state, uint64_t n) noexcept nogil
cdef move_t random_move(const CState* s, uint64_t* rng) noexcept nogil
cdef int random_playout(CState* s, uint64_t* rng) noexcept nogil
cdef uint64_t perft(const CState* s, int depth) noexcept nogil

# One stop flag for every search in the process: set by Ctrl-C (while a
# search runs, SIGINT only sets it) or by request_stop(); searches poll it
# with their time limit and return their best so far.
cdef bint stop_requested() noexcept nogil

cdef class CoreState:
    cdef CState s
    cdef CoreState _copy(self)


cdef inline double monotonic_now() noexcept nogil:
    """Seconds on the monotonic clock (the searches' deadlines)."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline bint limits_reached(uint64_t nodes, uint64_t node_limit, double deadline) noexcept nogil:
    """A search's node limit (0: none) or deadline (0: none) is reached, or
    a stop was requested: what every searcher polls."""
    if node_limit and nodes >= node_limit:
        return True
    if stop_requested():
        return True
    return deadline > 0 and monotonic_now() >= deadline


cdef inline int margin(const CState* s, int p) noexcept nogil:
    """Player ``p``'s score minus the opponent's."""
    return score(s, p) - score(s, 1 - p)
