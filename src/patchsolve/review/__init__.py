"""Judging a person's play, and what is built on it: one measure of a move
(:mod:`patchsolve.review.judge`) that the game review, ``explain``, the quiz
and the web page share. One module each:

- :mod:`patchsolve.review.judge`: the measure of a move (the move played and
  the best, valued on the same footing);
- :mod:`patchsolve.review.analysis`: the game review (``analyze``), every
  move judged and classed, the accuracy, the critical moments;
- :mod:`patchsolve.review.svg`: the review graph (``analyze --svg``);
- :mod:`patchsolve.review.explanation`: why a move is worse (``explain``);
- :mod:`patchsolve.review.quiz`: exercises made of a player's worst moves;
- :mod:`patchsolve.review.levels`: opponents at a level, 1 to 10;
- :mod:`patchsolve.review.coverage`: the chance each square ends covered
  (``eval --map``).

Importing the package imports only ``judge`` (which loads the search at a
call, not at import); the others load when imported by name, so
``import patchsolve.review.levels`` from the players or the self-play makes no
cycle.
"""

from patchsolve.review.judge import Budget, Measure, Side, measure

__all__ = ["Budget", "Measure", "Side", "measure"]
