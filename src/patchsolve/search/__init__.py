"""Searchers: ``search(position, engine=...)`` and ``solve(position)``.

Each engine lives in its own module (``alphabeta``, ``mcts``) and is imported
on first use. This package is itself callable, so ``patchsolve.search(pos)``
runs a search while ``patchsolve.search.mcts`` still names the MCTS module.
"""

from __future__ import annotations

import sys
import types

from patchsolve.errors import PatchsolveError
from patchsolve.search.result import SearchResult

ENGINES = ("mcts", "alphabeta")


def search(position, engine: str = "mcts", **limits) -> SearchResult:
    """Search ``position`` with ``engine`` under ``limits`` (depth, time,
    nodes, iterations, seed, ... as the engine documents)."""
    if engine == "mcts":
        from patchsolve.search.mcts import search_mcts

        return search_mcts(position, **limits)
    if engine == "alphabeta":
        from patchsolve.search.alphabeta import search_alphabeta

        return search_alphabeta(position, **limits)
    raise PatchsolveError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")


def solve(position, **limits) -> SearchResult:
    """Exact final score margin under perfect play, or proven bounds on it
    (``search/solver.py``: ``wdl=True`` proves only who wins,
    ``all_moves=True`` values every root move)."""
    from patchsolve.search.solver import solve as _solve

    return _solve(position, **limits)


class _CallableModule(types.ModuleType):
    """The package as a function: ``patchsolve.search(position, ...)``."""

    def __call__(self, position, engine: str = "mcts", **limits) -> SearchResult:
        return search(position, engine=engine, **limits)


sys.modules[__name__].__class__ = _CallableModule

__all__ = ["search", "solve", "SearchResult", "ENGINES"]
