"""Pondering: the alpha-beta searches on the opponent's time.

A player that ponders (``alphabeta:time=0.1,ponder=1``) keeps its
alpha-beta table from one move of a game to the next (``KeptTable``) and,
once it has moved, searches the position the opponent now has to answer in
a background thread, into that table, until its own next turn stops it.
Its next search then starts from what the ponder learnt of the replies.
The ponder uses one thread less than the player's ``workers`` (at least
one), so that on a two-core machine an engine opponent keeps a core of its
own: with ``workers=2`` the player has both cores on its turn and one on
the opponent's (``patchsolve play --ponder`` gives it every thread against
a person). The table's entries age (each search is a generation,
``_alphabeta.pyx``), so the kept table does not fill with the deep entries
of positions long gone. Measured: benchmarks/results/ponder/. An analysis (``patchsolve best``) has no
opponent's time, so pondering is a player option, off by default.

Only under a time limit alone: what the ponder found depends on how long
the opponent thought, so a node or depth budget, which promises the same
answer every time, refuses it (a ``LimitError``).
A ponder stops by itself after ``PONDER_MAX_TIME`` seconds (an opponent
that never moves does not keep a core busy for ever) or when its tree
ends.
"""

from __future__ import annotations

import threading
from typing import Any

from patchsolve.errors import LimitError
from patchsolve.rules.position import Position
from patchsolve.search import alphabeta
from patchsolve.search.result import SearchResult

PONDER_MAX_TIME = 60.0  # seconds a ponder searches at most


class Ponderer:
    """The kept table of one game and its background search.

    ``search`` answers a position on the kept table (stopping the ponder
    first); ``start`` ponders the position after the player's move;
    ``clear`` forgets the table (a new game); ``stop`` ends the ponder."""

    def __init__(self, threads: int | None = None, **limits: Any) -> None:
        """``limits`` are the player's (``time`` alone as a budget, with
        ``workers``, ``hash_mb``, ``seed`` as it likes); ``threads``, the
        ponder's, defaults to one less than ``workers`` (at least one): an
        engine opponent keeps a core. Against a person, who needs none,
        ``patchsolve play --ponder`` ponders on every thread."""
        if limits.get("nodes") is not None or limits.get("depth") is not None or limits.get("time") is None:
            raise LimitError(
                "ponder needs a time limit alone (node and depth budgets promise the same answer)"
            )
        self.limits = dict(limits)
        self.threads = threads if threads is not None else max(1, (limits.get("workers") or 1) - 1)
        self.table = alphabeta.KeptTable()
        self.pondered = 0  # ponders started (a count for the benchmarks)
        self._thread: threading.Thread | None = None

    def search(self, position: Position, **options: Any) -> SearchResult:
        """``patchsolve.search`` of ``position`` with the alpha-beta on the
        kept table, under this player's limits (and ``options``)."""
        from patchsolve.search import search

        self.stop()
        with alphabeta.keeping(self.table):
            return search(position, engine="alphabeta", **options, **self.limits)

    def start(self, position: Position) -> None:
        """Ponder ``position`` (the opponent's turn) until the next call."""
        self.stop()
        searcher = self.table.searcher
        if searcher is None or position.is_over:
            return
        state = position._c
        searcher.resume()  # as ``KeptTable.searcher_for`` does before a search
        self._thread = threading.Thread(
            target=searcher.run,
            args=(state, alphabeta.MAX_DEPTH, 0, PONDER_MAX_TIME),
            kwargs={"workers": self.threads},
            name="patchsolve-ponder",
            daemon=True,
        )
        self._thread.start()
        self.pondered += 1

    def stop(self) -> None:
        """End the ponder (if one runs) and wait for it."""
        if self._thread is not None:
            self.table.searcher.interrupt()  # undone when the searcher runs next
            self._thread.join()
            self._thread = None

    def clear(self) -> None:
        """A new game: stop pondering and forget the table."""
        self.stop()
        self.table = alphabeta.KeptTable()


__all__ = ["Ponderer", "PONDER_MAX_TIME"]
