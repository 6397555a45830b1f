"""Stopping a search from outside: Ctrl-C, or another thread.

Every searcher polls one stop flag in the core together with its time limit
and returns its best result so far when it is set. Inside
:func:`interruptible` (which :func:`patchsolve.search`,
:func:`patchsolve.solve` and ``MCTSTree.search`` enter), SIGINT only sets
that flag, at the C level, so it is seen even while a search runs without
returning to Python. The search then ends cleanly, its result is marked
``interrupted=True``, and :func:`raise_if_ctrl_c` raises
:class:`~patchsolve.errors.SearchInterrupted` (a KeyboardInterrupt) carrying
it, so a script that searches in a loop stops on Ctrl-C as it would anywhere
else. Inside :func:`ctrl_c_returns` (the CLI, which prints the partial
result and exits with 130) the result is returned instead. Outside a search
Ctrl-C raises KeyboardInterrupt as usual. :func:`request_stop` sets the
flag from any thread (a "stop" button): the search returns, marked
``interrupted``, and nothing is raised.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from patchsolve import _core
from patchsolve.errors import SearchInterrupted

if TYPE_CHECKING:
    from patchsolve.search.result import SearchResult

_depth = 0  # nesting of interruptible() in the main thread
_lock = threading.Lock()
_sigint_stops = True  # False: Ctrl-C is left to Python (tournaments: a game must not
# go on with a move cut short)
_requested = False  # the flag was set by request_stop(), not by SIGINT (the C handler
# only sets the shared flag, so this tells the two apart)
_returning = 0  # nesting of ctrl_c_returns()


def sigint_stops_searches(enabled: bool) -> None:
    """Whether Ctrl-C inside a search stops it (the default) or is left to
    Python's own handling (KeyboardInterrupt once the search returns)."""
    global _sigint_stops
    _sigint_stops = bool(enabled)


def request_stop() -> None:
    """Make every running search return its best so far (marked
    ``interrupted``; nothing is raised)."""
    global _requested
    _requested = True
    _core.request_stop()


def stop_requested() -> bool:
    """Whether the running (or last) search was asked to stop."""
    return _core.is_stop_requested()


def stopped_by_ctrl_c() -> bool:
    """Whether the running (or last) search was stopped by Ctrl-C rather
    than by :func:`request_stop`."""
    return _core.is_stop_requested() and not _requested


@contextmanager
def interruptible() -> Iterator[None]:
    """While inside, Ctrl-C stops searches instead of raising. Nested uses
    share the outermost one; the flag is cleared on entry of the outermost."""
    global _depth, _requested
    main = threading.current_thread() is threading.main_thread()
    with _lock:
        outer = _depth == 0
        if outer:
            _core.clear_stop()
            _requested = False
        _depth += 1
    installed = main and outer and _sigint_stops
    if installed:
        old = signal.getsignal(signal.SIGINT)
        _core.install_sigint_stop()
    try:
        yield
    finally:
        if installed:
            signal.signal(signal.SIGINT, old if old is not None else signal.default_int_handler)
        with _lock:
            _depth -= 1


@contextmanager
def ctrl_c_returns() -> Iterator[None]:
    """While inside, a search stopped by Ctrl-C returns its result (marked
    ``interrupted``) instead of raising SearchInterrupted: for a caller that
    shows the partial result itself and then stops (the CLI: exit 130)."""
    global _returning
    with _lock:
        _returning += 1
    try:
        yield
    finally:
        with _lock:
            _returning -= 1


def raise_if_ctrl_c(result: SearchResult) -> None:
    """Called by every search entry once its search has ended (and the
    Ctrl-C handler is restored): raise SearchInterrupted carrying ``result``
    when Ctrl-C stopped it, unless inside :func:`ctrl_c_returns`."""
    if result.interrupted and stopped_by_ctrl_c() and not _returning:
        raise SearchInterrupted(result)


__all__ = [
    "interruptible",
    "request_stop",
    "stop_requested",
    "stopped_by_ctrl_c",
    "sigint_stops_searches",
    "ctrl_c_returns",
    "raise_if_ctrl_c",
]
