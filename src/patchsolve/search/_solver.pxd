# cython: language_level=3
"""The exact solver's data dictionary (``_solver.pyx``), as ``_core.pxd`` is
the core's: its transposition-table entry, its search context and its Lazy
SMP helper. The module doc of ``_solver.pyx`` says what they are for.

Values (``Entry.lo``/``hi``, every search result) are final score margins
for the player to move with the tie-break, ``2 * margin + 1`` when the
player to move wins and ``2 * margin - 1`` when it loses (``tie``; plain
margins without it, for measurements), within ``-INF .. INF`` (``_search.pxd``).
"""

from libc.stdint cimport uint64_t, int64_t, uint32_t, int16_t, int8_t, uint8_t, uint16_t

from patchsolve._core cimport CState, u128, move_t
from patchsolve.search._search cimport INF, MAX_PLY
from patchsolve.search._threads cimport TableEntry, Thread


# --------------------------------------------------------------------------
# Transposition table: proven [lo, hi] per position (buckets of two entries)
# --------------------------------------------------------------------------

ctypedef struct EntryData:
    uint16_t move          # every move code is below 2**16 (the largest buy is 265 << 7 | 80)
    int16_t lo
    int16_t hi
    uint8_t work           # log2 of the nodes its last search took
    uint8_t used

ctypedef union EntryWord:
    EntryData d
    uint64_t u

# stored as (key ^ data, data), an EntryWord's u (the lockless entry of _threads.pxd)
ctypedef TableEntry Entry


# --------------------------------------------------------------------------
# Search context: one per thread (settings, relaxation state, counters, buffers)
# --------------------------------------------------------------------------

cdef enum:
    COVER_SLOTS = 1 << 17      # its cache entries per thread (2 MB; 2**14 searched half again as often)

ctypedef struct CoverSlot:
    uint64_t key               # odd; 0: empty
    int yes

ctypedef struct Ctx:
    Entry* tt
    uint64_t tt_mask
    int tie                # values with the tie-break, 2 margin -+ 1 (see the module doc)
    int sign_only          # the driver stops once the sign (who wins) is proven
    int use_static
    int use_relax
    int use_etc
    int use_hist           # killer moves and the history of cut-offs in the ordering
    int use_dead_keys      # TT keys ignore where a decided-bonus quilt's isolated holes lie
    int use_done_keys      # TT keys keep only the empty count of a quilt on the last space
    uint32_t* hist         # cut-offs per move code (codes < 2**16)
    move_t killer[MAX_PLY]
    int relax_min
    int relax_pairs        # a group's relaxed game drops the patches no placement of it leaves room for
    int thr[2]             # relaxed player: covered squares that earn the 7x7 bonus
    uint64_t fits[2]       # relaxed player: patches that fitted when relaxation began
    int unusable[2]        # relaxed player: empty squares no patch can use
    u128 rq[2]             # relaxed player: its empty squares when relaxation began
    uint64_t rb[MAX_PLY][2]  # relaxed players: the patches each bought since, per ply (see "bonus_coverable")
    int8_t rl[MAX_PLY][2]    # ... and the leather patches each placed
    uint64_t nodes
    uint64_t check_at      # the limits are checked next at a node from this count on
    uint64_t node_limit
    double deadline
    int stop
    uint64_t static_cuts
    uint64_t etc_cuts
    uint64_t relax_cuts
    uint64_t cover_calls   # relaxed bonus checks (bonus_coverable), and those the cache did not answer
    uint64_t cover_searches
    uint64_t pack_calls    # relaxed packing checks (packable), and those the cache did not answer
    uint64_t pack_searches
    move_t* moves          # MAX_PLY x MAX_MOVES
    int64_t* keys          # MAX_PLY x MAX_MOVES
    int use_cover          # relaxed games: the bonus only once the bought patches can cover a 7x7 square
    int use_pack           # relaxed games: a buy only if all the patches bought can lie on the quilt together
    CoverSlot* cover       # COVER_SLOTS cached answers of cover_square and pack_all (per thread)
    int* halt              # Lazy SMP: this thread stops when it is set (NULL: no other thread)
    uint64_t noise         # Lazy SMP helpers: seed of their ordering noise (0: none)
    uint64_t* root_skip    # root moves left out (a bit per move code; NULL: none): "is another move as good?"
    move_t root_cut        # the root move of the last fail-high at the root (-1: none yet) ...
    int root_cut_value     # ... and the value it was proven worth at least


ctypedef struct RelaxBase:     # what every relaxation at one node starts from (``relax_base``)
    uint64_t fits              # the patches that fit the quilt
    int unusable               # empty squares no patch can use, less the leather patches
    int thr                    # covered squares that earn the 7x7 bonus
    int ready                  # computed yet


# --------------------------------------------------------------------------
# A Lazy SMP helper thread (its driver runs on ``root`` into the shared table)
# --------------------------------------------------------------------------

ctypedef struct Helper:
    Thread thread              # first: the launch and join harness's (_threads.pxd)
    Ctx c
    CState root
    uint64_t key
    int lo0, hi0, guess, spread
    bint far                   # brackets from far out once stalled (helper 0)
    int lo, hi, gamma, steps
    int* solved
