# cython: language_level=3
"""Threads for the searchers' Lazy SMP (alpha-beta and solver): pthreads
rather than OpenMP, whose libgomp pool does not survive the fork of the
MCTS's and tournaments' worker processes, and the relaxed atomics their
shared tables and stop flags need."""

from libc.stdint cimport uint64_t

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
    """
    int atomic_load "ps_atomic_load" (int* p) noexcept nogil
    uint64_t load64 "ps_load64" (const uint64_t* p) noexcept nogil
    void atomic_store "ps_atomic_store" (int* p, int v) noexcept nogil

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
