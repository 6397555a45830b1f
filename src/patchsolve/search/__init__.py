"""Searchers behind one contract: ``search(position, engine=...)`` and
``solve(position)`` (``dispatch.py``), ``Limits`` (``limits.py``),
``SearchResult`` (``result.py``) and stopping (``stop.py``: Ctrl-C raises
``SearchInterrupted`` with the best result so far).

Each engine lives in its own module (``alphabeta``, ``mcts``), imported on
first use; ``patchsolve.search`` is the function :func:`search`.
"""

from __future__ import annotations

from patchsolve.errors import SearchInterrupted
from patchsolve.search import learned as _learned_weights
from patchsolve.search.dispatch import DEFAULT_ENGINE, ENGINES, search, solve
from patchsolve.search.limits import LimitError, Limits
from patchsolve.search.result import RootMove, SearchResult, SolveProgress
from patchsolve.search.stop import request_stop

_learned_weights.load()  # the shipped weights: every searcher evaluates with the learned model

__all__ = [
    "search",
    "solve",
    "SearchResult",
    "RootMove",
    "SolveProgress",
    "Limits",
    "LimitError",
    "ENGINES",
    "DEFAULT_ENGINE",
    "request_stop",
    "SearchInterrupted",
]
