"""Play between players: the players, the games between them, where the
games run, and what is learnt from them. One module each:

- :mod:`patchsolve.arena.players`: a player (something that picks a move),
  named by a spec string (``greedy``, ``alphabeta:depth=4``, ``level:3``,
  ``ext[PYTHON]:SPEC``, ...);
- :mod:`patchsolve.arena.tournament`: paired games between players, with
  win rates, Elo and their intervals (``patchsolve tournament``);
- :mod:`patchsolve.arena.backends`: where a batch of games runs, processes on
  this machine or Ray tasks (the ``[ray]`` extra);
- :mod:`patchsolve.arena.selfplay`: the self-play corpus, its games played
  and written as they end (``patchsolve selfplay``);
- :mod:`patchsolve.arena.corpus_report`: a corpus's statistics, report and
  plots (``patchsolve statistics``);
- :mod:`patchsolve.arena.calibration`: the win probability fitted on
  self-play outcomes (the shipped fit stays in ``patchsolve``'s
  ``data/win_probability.json``, read by :mod:`patchsolve.search.result`).

Importing the package imports none of them, and ``import patchsolve``
imports none of them either (so never Ray: ``backends`` imports it only when
a Ray backend is made). ``players`` imports the search, and the search's
``mcts`` module takes ``Player`` from ``players``; the players load ``mcts``
only when an ``mcts`` player is made, so that cycle stays lazy.
"""
