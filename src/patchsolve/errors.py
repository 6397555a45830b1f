"""Errors raised by patchsolve.

Every error a user can provoke with bad input is a :class:`PatchsolveError`
(a :class:`ValueError`), so callers can catch one class; the CLI turns it into
a one-line message and exit status 2.
"""

from __future__ import annotations


class PatchsolveError(ValueError):
    """Base class of every error patchsolve raises for bad input."""


class NotationError(PatchsolveError):
    """Text that is not well-formed notation.

    ``field`` names the part of the notation that is wrong and ``token`` the
    offending text, so a message can point at it.
    """

    def __init__(self, message: str, field: str | None = None, token: str | None = None):
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


class LimitError(PatchsolveError):
    """A search limit or engine option that is unknown, of the wrong type or
    out of its documented range (``patchsolve.search.limits``)."""


__all__ = ["PatchsolveError", "NotationError", "IllegalMoveError", "InvalidPositionError", "LimitError"]
