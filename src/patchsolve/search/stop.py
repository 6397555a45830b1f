"""Stopping a search from outside: Ctrl-C, or another thread.

Every searcher polls one stop flag in the core together with its time limit
and returns its best result so far when it is set. Inside
:func:`interruptible` (which :func:`patchsolve.search` and
:func:`patchsolve.solve` enter), SIGINT only sets that flag, at the C level,
so it is seen even while a search runs without returning to Python; the
result then has ``interrupted=True``. Outside a search Ctrl-C raises
KeyboardInterrupt as usual. :func:`request_stop` sets the flag from any
thread (a "stop" button).
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

from patchsolve import _core

_depth = 0              # nesting of interruptible() in the main thread
_lock = threading.Lock()
_sigint_stops = True    # False: Ctrl-C is left to Python (tournaments: a game must not
                        # go on with a move cut short)


def sigint_stops_searches(enabled: bool) -> None:
    """Whether Ctrl-C inside a search stops it (the default) or is left to
    Python's own handling (KeyboardInterrupt once the search returns)."""
    global _sigint_stops
    _sigint_stops = bool(enabled)


def request_stop() -> None:
    """Make every running search return its best so far."""
    _core.request_stop()


def stop_requested() -> bool:
    return _core.is_stop_requested()


@contextmanager
def interruptible():
    """While inside, Ctrl-C stops searches instead of raising. Nested uses
    share the outermost one; the flag is cleared on entry of the outermost."""
    global _depth
    main = threading.current_thread() is threading.main_thread()
    with _lock:
        outer = _depth == 0
        if outer:
            _core.clear_stop()
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


__all__ = ["interruptible", "request_stop", "stop_requested", "sigint_stops_searches"]
