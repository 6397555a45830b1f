# cython: language_level=3
"""The rules core: bitboard quilts, placement tables, state, move generation,
make-move, keys, random playouts and perft. Layouts are drawn in _core.pxd.

Everything in the hot path is ``noexcept nogil`` and trusts its input; the
Python-facing ``CoreState`` checks every user-derived number before it
reaches C (positions are validated in Python before ``from_fields``).
"""

from libc.string cimport memset, memcpy
from libc.stdint cimport uint64_t, uint16_t, uint8_t

cdef extern from *:
    """
    #include <signal.h>
    static volatile sig_atomic_t ps_stop_flag = 0;
    static void ps_on_sigint(int sig) { (void)sig; ps_stop_flag = 1; }
    static int ps_install_sigint(void) {
        struct sigaction sa;
        sa.sa_handler = ps_on_sigint;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        return sigaction(SIGINT, &sa, NULL) == 0;
    }
    """
    int ps_stop_flag
    int ps_install_sigint() nogil

from patchsolve.rules.patches import PATCHES, EDITIONS, EDITION_NAMES, BOARD

# --------------------------------------------------------------------------
# Tables, built once at import from the patch catalogue
# --------------------------------------------------------------------------

cdef Tables T


cdef const Tables* get_tables() noexcept nogil:
    return &T


def _orientations(cells):
    """Distinct orientations of a set of (row, col) cells, each normalised to
    its bounding box, in a fixed order (rotations, then mirrored rotations)."""
    out = []
    cur = list(cells)
    for _flip in range(2):
        for _rot in range(4):
            r0 = min(r for r, _c in cur)
            c0 = min(c for _r, c in cur)
            shape = tuple(sorted((r - r0, c - c0) for r, c in cur))
            if shape not in out:
                out.append(shape)
            cur = [(c, -r) for r, c in cur]      # rotate 90 degrees
        cur = [(r, -c) for r, c in cur]          # mirror
    return out


cdef u128 _mask_of(cells, int anchor_row, int anchor_col):
    cdef u128 m = 0
    for r, c in cells:
        m |= ps_bit128((anchor_row + r) * BOARD + anchor_col + c)
    return m


def _build_tables():
    memset(&T, 0, sizeof(Tables))
    cdef int og = 0
    cdef int r, c, i
    cdef u128 anchors
    if len(PATCHES) != N_PATCHES:
        raise RuntimeError(f"expected {N_PATCHES} patches, found {len(PATCHES)}")
    for patch in PATCHES:
        T.patch_og_start[patch.id] = og
        T.patch_cost[patch.id] = patch.buttons
        T.patch_time[patch.id] = patch.time
        T.patch_income[patch.id] = patch.income
        T.patch_size[patch.id] = patch.size
        if patch.size > MAX_CELLS:
            raise RuntimeError(f"patch {patch.id} has more than {MAX_CELLS} squares")
        for index, shape in enumerate(_orientations(patch.cells)):
            h = 1 + max(r for r, _c in shape)
            w = 1 + max(c for _r, c in shape)
            T.og_patch[og] = patch.id
            T.og_index[og] = index
            T.og_ncells[og] = len(shape)
            for i, (r, c) in enumerate(shape):
                T.og_cells[og][i] = r * BOARD + c
            T.og_shape[og] = _mask_of(shape, 0, 0)
            anchors = 0
            for r in range(BOARD - h + 1):
                for c in range(BOARD - w + 1):
                    anchors |= ps_bit128(r * BOARD + c)
            T.og_anchors[og] = anchors
            og += 1
    T.patch_og_start[N_PATCHES] = og
    T.n_og = og
    T.full = ps_bit128(BOARD_SQUARES) - 1
    i = 0
    for r in range(BOARD - BONUS_SIZE + 1):
        for c in range(BOARD - BONUS_SIZE + 1):
            T.square7[i] = _mask_of([(rr, cc) for rr in range(BONUS_SIZE) for cc in range(BONUS_SIZE)], r, c)
            i += 1
    for e, name in enumerate(EDITION_NAMES):
        edition = EDITIONS[name]
        if edition.last_space != LAST_SPACE:
            raise RuntimeError("the core assumes the last space is 53")
        T.leather_spaces[e] = sum(1 << s for s in edition.leather_spaces)
        income = sum(1 << s for s in edition.income_spaces)
        if e and income != T.income_spaces:
            raise RuntimeError("the core assumes both editions pay income on the same spaces")
        T.income_spaces = income


_build_tables()


# --------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------

cdef u128 move_mask(move_t m) noexcept nogil:
    return move_mask_of(&T, m)


cdef int move_patch(move_t m) noexcept nogil:
    return move_patch_of(&T, m)


# --------------------------------------------------------------------------
# Turn order and the end
# --------------------------------------------------------------------------

# to_move, is_over and score are inline in _core.pxd (every search calls them at every node).


cdef int winner(const CState* s) noexcept nogil:
    cdef int a = score(s, 0), b = score(s, 1)
    if a != b:
        return 0 if a > b else 1
    return s.first_end if s.first_end >= 0 else 0


# --------------------------------------------------------------------------
# Move generation
# --------------------------------------------------------------------------

cdef int gen_moves(const CState* s, move_t* out) noexcept nogil:
    """Write every legal move into ``out`` (room for MAX_MOVES); return the
    count. Order: walk, then buys by circle position, orientation, anchor;
    or, when a leather patch is pending, the empty squares in order."""
    cdef int n = 0, k, na, og, a, pid, p
    cdef int ahead[PATCHES_AHEAD]
    cdef u128 empty, v
    if is_over(s):
        return 0
    p = to_move(s)
    empty = T.full & ~s.quilt[p]
    if s.pending >= 0:
        while empty:
            a = ps_ctz128(empty)
            empty &= empty - 1
            out[n] = a + 1
            n += 1
        return n
    out[0] = MOVE_WALK
    n = 1
    na = affordable_ahead(&T, s, p, ahead)
    for k in range(na):
        pid = ahead[k]
        for og in range(T.patch_og_start[pid], T.patch_og_start[pid + 1]):
            v = fits(&T, empty, og)
            while v:
                a = ps_ctz128(v)
                v &= v - 1
                out[n] = buy_code(og, a)
                n += 1
    return n


cdef move_t _nth_move(const CState* s, int r, uint64_t* rng) noexcept nogil:
    """The r-th move of gen_moves' order without writing the list; with
    ``rng`` given, r is drawn uniformly first. Returns -1 when there is none."""
    cdef u128 valid[24]
    cdef int ogs[24]
    cdef int nv = 0, total, k, na, og, pid, p, c, i
    cdef int ahead[PATCHES_AHEAD]
    cdef u128 empty, v
    if is_over(s):
        return -1
    p = to_move(s)
    empty = T.full & ~s.quilt[p]
    if s.pending >= 0:
        total = ps_popcount128(empty)
        if rng != NULL:
            r = <int>rng_below(rng, total)
        if r < 0 or r >= total:
            return -1
        return ps_select128(empty, r) + 1
    total = 1
    na = affordable_ahead(&T, s, p, ahead)
    for k in range(na):
        pid = ahead[k]
        for og in range(T.patch_og_start[pid], T.patch_og_start[pid + 1]):
            v = fits(&T, empty, og)
            if v:
                valid[nv] = v
                ogs[nv] = og
                nv += 1
                total += ps_popcount128(v)
    if rng != NULL:
        r = <int>rng_below(rng, total)
    if r < 0 or r >= total:
        return -1
    if r == 0:
        return MOVE_WALK
    r -= 1
    for i in range(nv):
        c = ps_popcount128(valid[i])
        if r < c:
            return buy_code(ogs[i], ps_select128(valid[i], r))
        r -= c
    return -1


cdef int count_moves(const CState* s) noexcept nogil:
    cdef int n = 0, k, na, og, pid, p
    cdef int ahead[PATCHES_AHEAD]
    cdef u128 empty
    if is_over(s):
        return 0
    p = to_move(s)
    empty = T.full & ~s.quilt[p]
    if s.pending >= 0:
        return ps_popcount128(empty)
    n = 1
    na = affordable_ahead(&T, s, p, ahead)
    for k in range(na):
        pid = ahead[k]
        for og in range(T.patch_og_start[pid], T.patch_og_start[pid + 1]):
            n += ps_popcount128(fits(&T, empty, og))
    return n


cdef bint is_legal(const CState* s, move_t m) noexcept nogil:
    """Checks any int32 safely: decodes it only after range checks."""
    cdef int p, og, a, k, pid
    if is_over(s) or m < 0:
        return False
    p = to_move(s)
    if s.pending >= 0:
        return 1 <= m <= BOARD_SQUARES and not (s.quilt[p] & ps_bit128(m - 1))
    if m == MOVE_WALK:
        return True
    og = (m >> BUY_SHIFT) - 1
    a = m & 127
    if og < 0 or og >= T.n_og or a >= BOARD_SQUARES:
        return False
    if not (T.og_anchors[og] & ps_bit128(a)):
        return False
    pid = T.og_patch[og]
    if not can_afford(&T, s, p, pid):
        return False
    for k in range(patches_ahead(s)):
        if s.circle[k] == pid:
            return not ((T.og_shape[og] << a) & s.quilt[p])
    return False


# --------------------------------------------------------------------------
# Making a move
# --------------------------------------------------------------------------

cdef inline void check_bonus(CState* s, int p) noexcept nogil:
    """RULES "7x7 bonus": the first quilt to cover a whole 7x7 square."""
    if completes_bonus(&T, s, s.quilt[p]):
        s.bonus = p


cdef inline void move_token(CState* s, int p, int dest) noexcept nogil:
    """RULES "Events on the time board": income for each income space moved
    onto or past, the first leather patch passed, the on-top rule, and who
    reached 53 first."""
    cdef int old = s.time[p]
    cdef uint64_t crossed, taken
    if dest > LAST_SPACE:
        dest = LAST_SPACE
    if dest > old:
        # spaces old+1 .. dest
        crossed = ((<uint64_t>1) << (dest + 1)) - ((<uint64_t>1) << (old + 1))
        s.buttons[p] += s.income[p] * ps_popcount64(crossed & T.income_spaces)
        taken = crossed & s.leather
        if taken:
            taken &= -taken        # at most one per move (RULES); take the first
            s.leather &= ~taken
            if (s.quilt[p] & T.full) != T.full:
                s.pending = p      # must be placed now; on a full quilt it is discarded
    s.time[p] = dest
    s.on_top = p if s.time[0] == s.time[1] else NO_PLAYER
    if dest == LAST_SPACE and s.first_end < 0:
        s.first_end = p


cdef void apply_move(CState* s, move_t m) noexcept nogil:
    """Play a legal move (the caller guarantees legality)."""
    cdef int p = to_move(s)
    cdef int og, pid, k, i, n, dest
    cdef uint8_t rest[33]
    if m == MOVE_WALK:
        dest = s.time[1 - p] + 1
        if dest > LAST_SPACE:
            dest = LAST_SPACE
        s.buttons[p] += dest - s.time[p]
        move_token(s, p, dest)
        return
    if m <= BOARD_SQUARES:
        s.quilt[p] |= ps_bit128(m - 1)
        s.pending = NO_PLAYER
        check_bonus(s, p)
        return
    og = (m >> BUY_SHIFT) - 1
    pid = T.og_patch[og]
    # the circle continues after the bought patch; the skipped ones go last
    n = s.n_circle
    k = 0
    while s.circle[k] != pid:
        k += 1
    memcpy(rest, s.circle, k)
    for i in range(k + 1, n):
        s.circle[i - k - 1] = s.circle[i]
    memcpy(&s.circle[n - k - 1], rest, k)
    s.circle[n - 1] = 0
    s.n_circle = n - 1
    s.buttons[p] -= T.patch_cost[pid]
    s.income[p] += T.patch_income[pid]
    s.quilt[p] |= T.og_shape[og] << (m & 127)
    check_bonus(s, p)
    move_token(s, p, s.time[p] + T.patch_time[pid])


# --------------------------------------------------------------------------
# Keys, random numbers, playouts, perft
# --------------------------------------------------------------------------

cdef uint64_t state_key(const CState* s) noexcept nogil:
    """A 64-bit hash of every field (for transposition tables); equal states
    give equal keys because unused circle entries are kept at 0."""
    cdef uint64_t h = 0x243F6A8885A308D3ULL
    cdef uint64_t w[5]
    cdef int i
    h = mix64(h ^ ps_lo64(s.quilt[0]))
    h = mix64(h ^ ps_hi64(s.quilt[0]) ^ (ps_hi64(s.quilt[1]) << 20))
    h = mix64(h ^ ps_lo64(s.quilt[1]))
    h = mix64(h ^ s.leather)
    h = mix64(h ^ (<uint64_t>(<uint16_t>s.buttons[0]))
                ^ (<uint64_t>(<uint16_t>s.buttons[1]) << 16)
                ^ (<uint64_t>(<uint8_t>s.time[0]) << 32)
                ^ (<uint64_t>(<uint8_t>s.time[1]) << 40)
                ^ (<uint64_t>(<uint8_t>s.income[0]) << 48)
                ^ (<uint64_t>(<uint8_t>s.income[1]) << 56))
    h = mix64(h ^ (<uint64_t>(<uint8_t>s.on_top))
                ^ (<uint64_t>(<uint8_t>s.pending) << 8)
                ^ (<uint64_t>(<uint8_t>s.bonus) << 16)
                ^ (<uint64_t>(<uint8_t>s.first_end) << 24)
                ^ (<uint64_t>(<uint8_t>s.edition) << 32)
                ^ (<uint64_t>(<uint8_t>s.n_circle) << 40))
    memset(w, 0, sizeof(w))
    memcpy(w, s.circle, 33)
    for i in range(5):
        h = mix64(h ^ w[i])
    return h


cdef uint64_t rng_next(uint64_t* state) noexcept nogil:
    """splitmix64: small, fast, and good enough for playouts."""
    state[0] += 0x9E3779B97F4A7C15ULL
    return mix64(state[0])


cdef uint64_t rng_below(uint64_t* state, uint64_t n) noexcept nogil:
    """Uniform in [0, n) by Lemire's multiply (bias below 2**-40 for our n)."""
    return ps_mulhi64(rng_next(state), n)


cdef move_t random_move(const CState* s, uint64_t* rng) noexcept nogil:
    """A legal move drawn uniformly from all legal moves (-1 if none)."""
    return _nth_move(s, 0, rng)


cdef int random_playout(CState* s, uint64_t* rng) noexcept nogil:
    """Play uniformly random moves to the end; return the number of plies."""
    cdef int plies = 0
    cdef move_t m
    while not is_over(s):
        m = _nth_move(s, 0, rng)
        apply_move(s, m)
        plies += 1
    return plies


cdef bint stop_requested() noexcept nogil:
    return ps_stop_flag != 0


def request_stop():
    """Ask every running search to stop and return its best so far."""
    global ps_stop_flag
    ps_stop_flag = 1


def clear_stop():
    global ps_stop_flag
    ps_stop_flag = 0


def is_stop_requested():
    return ps_stop_flag != 0


def install_sigint_stop():
    """Let SIGINT set the stop flag (at the C level, so it is seen while a
    search holds the GIL). The caller restores Python's handler with
    ``signal.signal``. Returns False if the handler could not be installed."""
    return bool(ps_install_sigint())


cdef uint64_t perft(const CState* s, int depth) noexcept nogil:
    """Leaf count; stops early (returning a partial count) once a stop is
    requested, checked above the last two plies."""
    cdef move_t moves[MAX_MOVES]
    cdef CState child
    cdef int n, i
    cdef uint64_t total = 0
    if depth == 0 or is_over(s):
        return 1
    if depth == 1:
        return count_moves(s)
    n = gen_moves(s, moves)
    for i in range(n):
        if depth > 2 and ps_stop_flag:
            break
        child = s[0]
        apply_move(&child, moves[i])
        total += perft(&child, depth - 1)
    return total


# --------------------------------------------------------------------------
# Python-facing wrappers (thin; validation of positions lives in Python)
# --------------------------------------------------------------------------

cdef u128 _to_u128(object x) except? 0:
    if x < 0 or x >> BOARD_SQUARES:
        raise ValueError("quilt mask outside the 81 squares")
    return ps_make128(<uint64_t>(x & 0xFFFFFFFFFFFFFFFF), <uint64_t>(x >> 64))


cdef object _from_u128(u128 x):
    return (<object>ps_hi64(x) << 64) | <object>ps_lo64(x)


def move_info(int code):
    """Decode a move code: (kind, patch, mask, orientation, square).

    ``square`` is the anchor of a buy or the square of a leather patch."""
    if code == MOVE_WALK:
        return ("walk", None, 0, None, None)
    if 1 <= code <= BOARD_SQUARES:
        return ("leather", None, (<object>1) << (code - 1), None, code - 1)
    og = (code >> BUY_SHIFT) - 1
    a = code & 127
    if code < 0 or og < 0 or og >= T.n_og or a >= BOARD_SQUARES or not (T.og_anchors[og] & ps_bit128(a)):
        raise ValueError(f"not a move code: {code}")
    return ("buy", T.og_patch[og], _from_u128(T.og_shape[og] << a), T.og_index[og], a)


def buy_move_code(int patch, int orientation, int square):
    """The code of buying ``patch`` in its ``orientation`` with the top-left
    of the bounding box on ``square``; ValueError if no such placement."""
    if not 0 <= patch < N_PATCHES:
        raise ValueError(f"no patch {patch}")
    count = T.patch_og_start[patch + 1] - T.patch_og_start[patch]
    if not 0 <= orientation < count:
        raise ValueError(f"patch {patch} has orientations 0..{count - 1}, not {orientation}")
    og = T.patch_og_start[patch] + orientation
    if not 0 <= square < BOARD_SQUARES or not (T.og_anchors[og] & ps_bit128(square)):
        raise ValueError(_off_the_quilt(patch, orientation, og, square))
    return buy_code(og, square)


cdef str _off_the_quilt(int patch, int orientation, int og, int square):
    """Why a placement is off the quilt, in the words a move is written
    in: the patch's size in that orientation and where its top-left corner
    can go (its anchors: a rectangle from a1 to the last of them)."""
    cdef int last = _from_u128(T.og_anchors[og]).bit_length() - 1
    # the square by name (a1..i9, as moves are written), its number only when off the board
    where = f"{'abcdefghi'[square % 9]}{square // 9 + 1}" if 0 <= square < BOARD_SQUARES else f"square {square}"
    return (
        f"patch {patch} in orientation {orientation} ({9 - last % 9} wide, {9 - last // 9} tall) runs off "
        f"the quilt from {where}: the square after @ is its top-left corner, a1 to "
        f"{'abcdefghi'[last % 9]}{last // 9 + 1} for this orientation"
    )


def orientation_count(int patch):
    if not 0 <= patch < N_PATCHES:
        raise ValueError(f"no patch {patch}")
    return T.patch_og_start[patch + 1] - T.patch_og_start[patch]


def placements(int patch):
    """Every distinct placement of ``patch`` on an empty board, as masks."""
    if not 0 <= patch < N_PATCHES:
        raise ValueError(f"no patch {patch}")
    out = []
    cdef u128 v
    cdef int og
    for og in range(T.patch_og_start[patch], T.patch_og_start[patch + 1]):
        v = T.og_anchors[og]
        while v:
            out.append(_from_u128(T.og_shape[og] << ps_ctz128(v)))
            v &= v - 1
    return out


def bonus_squares():
    """The nine 7x7 masks."""
    return [_from_u128(T.square7[i]) for i in range(N_SQUARES7)]


cdef class CoreState:
    """A thin handle on one ``CState``. Construct with ``from_fields`` from
    validated values; never mutated after construction (play returns a copy)."""

    @staticmethod
    def from_fields(f):
        cdef CoreState c = CoreState.__new__(CoreState)
        cdef int i
        memset(&c.s, 0, sizeof(CState))
        edition = EDITION_NAMES.index(f["edition"])
        circle = list(f["circle"])
        if len(circle) > N_PATCHES or any(not 0 <= x < N_PATCHES for x in circle):
            raise ValueError("bad circle")
        for p in range(2):
            c.s.quilt[p] = _to_u128(f["quilts"][p])
            if not (-32768 <= f["buttons"][p] <= 32767 and 0 <= f["income"][p] <= 127
                    and 0 <= f["time"][p] <= LAST_SPACE):
                raise ValueError("field out of range")
            c.s.buttons[p] = f["buttons"][p]
            c.s.income[p] = f["income"][p]
            c.s.time[p] = f["time"][p]
        leather = 0
        for space in f["leather"]:
            if not 0 <= space <= LAST_SPACE:
                raise ValueError("bad leather space")
            leather |= 1 << space
        c.s.leather = leather
        for name, value in (("on_top", f["on_top"]), ("pending_leather", f["pending_leather"]),
                            ("bonus_owner", f["bonus_owner"]), ("first_at_end", f["first_at_end"])):
            if value not in (None, 0, 1):
                raise ValueError(f"{name} must be None, 0 or 1")
        c.s.on_top = NO_PLAYER if f["on_top"] is None else f["on_top"]
        c.s.pending = NO_PLAYER if f["pending_leather"] is None else f["pending_leather"]
        c.s.bonus = NO_PLAYER if f["bonus_owner"] is None else f["bonus_owner"]
        c.s.first_end = NO_PLAYER if f["first_at_end"] is None else f["first_at_end"]
        c.s.edition = edition
        c.s.n_circle = len(circle)
        for i, x in enumerate(circle):
            c.s.circle[i] = x
        if c.s.on_top < 0 and c.s.time[0] == c.s.time[1] and c.s.pending < 0:
            raise ValueError("on_top must be set when both tokens share a space")
        return c

    def fields(self):
        def opt(int v):
            return None if v < 0 else v
        return {
            "edition": EDITION_NAMES[self.s.edition],
            "circle": tuple(self.s.circle[i] for i in range(self.s.n_circle)),
            "quilts": (_from_u128(self.s.quilt[0]), _from_u128(self.s.quilt[1])),
            "buttons": (self.s.buttons[0], self.s.buttons[1]),
            "income": (self.s.income[0], self.s.income[1]),
            "time": (self.s.time[0], self.s.time[1]),
            "on_top": opt(self.s.on_top),
            "leather": tuple(i for i in range(LAST_SPACE + 1) if (self.s.leather >> i) & 1),
            "bonus_owner": opt(self.s.bonus),
            "first_at_end": opt(self.s.first_end),
            "pending_leather": opt(self.s.pending),
        }

    cdef CoreState _copy(self):
        cdef CoreState c = CoreState.__new__(CoreState)
        c.s = self.s
        return c

    @property
    def to_move(self):
        return to_move(&self.s)

    @property
    def is_over(self):
        return is_over(&self.s)

    @property
    def key(self):
        return state_key(&self.s)

    def legal_codes(self):
        cdef move_t moves[MAX_MOVES]
        cdef int n = gen_moves(&self.s, moves)
        return [moves[i] for i in range(n)]

    def count_moves(self):
        return count_moves(&self.s)

    def nth_move(self, int r):
        """The r-th legal move code in legal_codes() order, computed without
        the list (the routine random playouts use); -1 if out of range."""
        return _nth_move(&self.s, r, NULL)

    def is_legal(self, code):
        if not isinstance(code, int) or not -2**31 <= code < 2**31:
            return False
        return is_legal(&self.s, code)

    def play(self, int code):
        if not is_legal(&self.s, code):
            raise ValueError(f"illegal move code {code}")
        cdef CoreState c = self._copy()
        apply_move(&c.s, code)
        return c

    def scores(self):
        return (score(&self.s, 0), score(&self.s, 1))

    def winner(self):
        return winner(&self.s)

    def perft(self, int depth):
        if not 0 <= depth <= 64:
            raise ValueError("depth must be in 0 .. 64")
        cdef uint64_t n
        with nogil:
            n = perft(&self.s, depth)
        return n

    def random_playout(self, uint64_t seed):
        cdef CoreState c = self._copy()
        cdef uint64_t rng = seed
        with nogil:
            random_playout(&c.s, &rng)
        return c

    def playouts(self, int games, uint64_t seed):
        """Run ``games`` uniform random playouts from here in C; return
        (plies, wins of player 0, sum of score margins player 0 - player 1)."""
        cdef uint64_t rng = seed
        cdef long plies = 0, wins0 = 0, margin = 0
        cdef int _g
        cdef CState c
        with nogil:
            for _g in range(games):
                c = self.s
                plies += random_playout(&c, &rng)
                wins0 += winner(&c) == 0
                margin += score(&c, 0) - score(&c, 1)
        return plies, wins0, margin

    def __eq__(self, other):
        if not isinstance(other, CoreState):
            return NotImplemented
        return self.fields() == (<CoreState>other).fields()

    def __hash__(self):
        return <Py_ssize_t>(state_key(&self.s) >> 2)

    def __reduce__(self):
        return (CoreState.from_fields, (self.fields(),))


def bench_movegen(states, int reps):
    """Generate the legal moves of every state in ``states`` ``reps`` times
    in C; return the number of moves generated (for benchmarks)."""
    cdef move_t moves[MAX_MOVES]
    cdef list cs = list(states)
    cdef CoreState c
    cdef long total = 0
    cdef int _r
    for item in cs:
        c = <CoreState?>item
        with nogil:
            for _r in range(reps):
                total += gen_moves(&c.s, moves)
    return total
