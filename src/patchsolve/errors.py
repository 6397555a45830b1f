"""Errors raised by patchsolve.

Every error a user can provoke with bad input is a :class:`PatchsolveError`
(a :class:`ValueError`), so callers can catch one class; the CLI turns it into
a one-line message and exit status 2.

:class:`SearchInterrupted` is not an error of the input: it is Ctrl-C during
a search, raised as a :class:`KeyboardInterrupt` once the search has stopped,
with the best result so far attached.
"""

from __future__ import annotations


class PatchsolveError(ValueError):
    """Base class of every error patchsolve raises for bad input."""


class NotationError(PatchsolveError):
    """Text that is not well-formed notation.

    ``field`` names the part of the notation that is wrong and ``token`` the
    offending text, so a message can point at it; ``reason`` is the message
    without them (a caller that adds context, such as the move number of a
    game record, names the field and token once).
    """

    def __init__(self, message: str, field: str | None = None, token: str | None = None):
        self.reason = message
        self.field = field
        self.token = token
        parts = []
        if field is not None:
            parts.append(f"field {field!r}")
        if token is not None:
            parts.append(f"token {token!r}")
        text = message if not parts else f"{message} ({', '.join(parts)})"
        super().__init__(text)


class IllegalMoveError(PatchsolveError):
    """A move that is not legal in the position it is played in."""


class InvalidPositionError(PatchsolveError):
    """A well-formed position that cannot occur; ``problems`` lists every reason."""

    def __init__(self, problems):
        if isinstance(problems, str):
            problems = [problems]
        self.problems = list(problems)
        super().__init__("invalid position: " + "; ".join(self.problems))


class GameIndexError(PatchsolveError, IndexError):
    """A move or position number a game does not have (``Game.position(99)``,
    ``Game.pop()`` of a game without moves). Also an :class:`IndexError`,
    as a list's bad index is."""


class LimitError(PatchsolveError):
    """A search limit or engine option that is unknown, of the wrong type or
    out of its documented range (``patchsolve.search.limits``)."""


class SearchInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a search (:func:`patchsolve.search`,
    :func:`patchsolve.solve`, ``MCTSTree.search``). The search first stops
    cleanly with its best so far, which ``result`` holds (a SearchResult with
    ``interrupted=True``); then this is raised so that a script's loop stops
    as it would on Ctrl-C anywhere else. It is a KeyboardInterrupt: catch it
    by this name to keep the partial result::

        try:
            r = patchsolve.search(pos, time=60)
        except SearchInterrupted as stop:
            r = stop.result

    A stop asked for by :func:`patchsolve.request_stop` (another thread, a
    "stop" button) raises nothing: the search returns its result, marked
    ``interrupted``. See ``patchsolve.search.stop``. Left uncaught it ends
    the script with a traceback and exit status 1 (CPython reports 130, "killed
    by SIGINT", only for a bare KeyboardInterrupt).
    """

    def __init__(self, result):
        super().__init__("search interrupted by Ctrl-C (its best result so far is in .result)")
        self.result = result


__all__ = [
    "PatchsolveError",
    "NotationError",
    "IllegalMoveError",
    "InvalidPositionError",
    "GameIndexError",
    "LimitError",
    "SearchInterrupted",
]
