# cython: language_level=3
"""Threads for the searchers' Lazy SMP (alpha-beta and solver): pthreads
rather than OpenMP, whose libgomp pool does not survive the fork of the
MCTS's and tournaments' worker processes, the relaxed atomics their
shared tables and stop flags need, the lockless table entry both tables
are made of, and the helpers' launch and join."""

from libc.stdint cimport uint64_t
from libc.string cimport memcpy

cdef extern from "<pthread.h>" nogil:
    ctypedef unsigned long pthread_t
    ctypedef struct pthread_attr_t:
        pass
    int pthread_attr_init(pthread_attr_t* attr)
    int pthread_attr_setstacksize(pthread_attr_t* attr, size_t size)
    int pthread_attr_destroy(pthread_attr_t* attr)
    int pthread_create(pthread_t* thread, const pthread_attr_t* attr,
                       void* (*start)(void*) noexcept nogil, void* arg)
    int pthread_join(pthread_t thread, void** retval)

cdef extern from *:
    """
    static inline int ps_atomic_load(int* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline uint64_t ps_load64(const uint64_t* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void ps_atomic_store(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    static inline void ps_store64(uint64_t* p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    """
    int atomic_load "ps_atomic_load" (int* p) noexcept nogil
    uint64_t load64 "ps_load64" (const uint64_t* p) noexcept nogil
    void atomic_store "ps_atomic_store" (int* p, int v) noexcept nogil
    void store64 "ps_store64" (uint64_t* p, uint64_t v) noexcept nogil

cdef enum:
    HELPER_STACK = 16 << 20   # bytes: a searcher's recursion (up to 160 frames) with room to spare


cdef inline bint launch(pthread_t* tid, void* (*fn)(void*) noexcept nogil, void* arg) noexcept nogil:
    """Start ``fn(arg)`` on a new thread with HELPER_STACK bytes of stack;
    False when the thread cannot be had."""
    cdef pthread_attr_t attr
    cdef bint ok
    pthread_attr_init(&attr)
    pthread_attr_setstacksize(&attr, HELPER_STACK)
    ok = pthread_create(tid, &attr, fn, arg) == 0
    pthread_attr_destroy(&attr)
    return ok


# --------------------------------------------------------------------------
# The lockless 16-byte table entry (both searchers' transposition tables)
# --------------------------------------------------------------------------

ctypedef struct TableEntry:
    # key ^ data (the lockless XOR trick): with several threads writing, an
    # entry torn between its two stores fails the key test instead of
    # pairing one position's key with another's data
    uint64_t check
    uint64_t data


cdef inline bint entry_read(const TableEntry* e, uint64_t key, uint64_t* data) noexcept nogil:
    """Copy the entry's data into ``data`` (always) and say whether it is
    ``key``'s. Each word is read once: another thread may change the entry,
    and the compiler may not read it again."""
    cdef uint64_t chk = load64(&e.check)
    data[0] = load64(&e.data)
    return (chk ^ data[0]) == key


cdef inline void entry_write(TableEntry* e, uint64_t key, uint64_t data) noexcept nogil:
    """Store ``data`` as ``key``'s."""
    e.check = key ^ data
    e.data = data


# --------------------------------------------------------------------------
# Lazy SMP helpers: launch and join
# --------------------------------------------------------------------------
#
# A searcher's helper is a struct of its own whose first member is a
# ``Thread``; the helpers lie ``size`` bytes apart in one array. Each starts
# as a copy of one prototype (the main thread's context with zeroed
# counters, the root, the work), which ``init`` turns into the i-th helper
# (its own buffers, its share of the work), and runs ``body(helper)``. Every
# helper's context watches one ``halt`` flag, which ``helpers_join`` sets.

ctypedef struct Thread:
    pthread_t tid
    int started                # the thread runs (join it)

ctypedef bint (*helper_init_fn)(void* helper, int i) noexcept nogil
ctypedef void* (*helper_body_fn)(void* helper) noexcept nogil


cdef inline int helpers_launch(void* hs, int n, size_t size, const void* proto, helper_init_fn init,
                               helper_body_fn body) noexcept nogil:
    """Set up and start ``n`` helpers (see above); returns how many run. One
    that ``init`` refuses (False: its buffers cannot be had) or whose
    thread cannot be had is left out, not started."""
    cdef int i, started = 0
    cdef char* h
    cdef Thread* t
    for i in range(n):
        h = <char*>hs + <size_t>i * size
        memcpy(h, proto, size)
        t = <Thread*>h
        t.started = 0
        if init(h, i) and launch(&t.tid, body, h):
            t.started = 1
            started += 1
    return started


cdef inline void helpers_join(void* hs, int n, size_t size, int* halt) noexcept nogil:
    """Set ``halt`` and wait for every helper that started. Their results
    and buffers are the caller's to collect and free afterwards."""
    cdef int i
    cdef Thread* t
    atomic_store(halt, 1)
    for i in range(n):
        t = <Thread*>(<char*>hs + <size_t>i * size)
        if t.started:
            pthread_join(t.tid, NULL)
