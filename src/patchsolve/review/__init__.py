"""Judging a person's play: one measure of a move (:mod:`patchsolve.review.judge`)
that the game review, ``explain``, the quiz and the web page share."""

from patchsolve.review.judge import Budget, Measure, Side, measure

__all__ = ["Budget", "Measure", "Side", "measure"]
