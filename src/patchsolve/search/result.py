"""What every searcher returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class SearchResult:
    """The answer of a search, shared by all engines.

    ``score`` is the (estimated or proven) final score margin for the player
    to move in the searched position; ``bound`` says what kind of number it
    is: "exact" (proven), "lower"/"upper" (a proven bound), or "estimate".
    """

    best_move: Any                  # patchsolve.Move (None only for a finished game)
    score: float
    bound: str = "estimate"
    pv: list = field(default_factory=list)
    depth: int = 0
    nodes: int = 0
    time: float = 0.0
    nps: float = 0.0
    seed: int | None = None
    engine: str = ""
    iterations: int | None = None          # MCTS
    win_probability: float | None = None   # MCTS: for the player to move
    root_moves: list = field(default_factory=list)  # per-root-move stats (dicts), best first
    lower: int | None = None                # proven bounds on score, where known (solver)
    upper: int | None = None
    proven: str | None = None               # "win"/"loss" for the player to move, once proven

    def to_dict(self) -> dict:
        return {
            "engine": self.engine,
            "best_move": None if self.best_move is None else str(self.best_move),
            "score": self.score,
            "bound": self.bound,
            "pv": [str(m) for m in self.pv],
            "depth": self.depth,
            "nodes": self.nodes,
            "time": self.time,
            "nps": self.nps,
            "seed": self.seed,
            "iterations": self.iterations,
            "win_probability": self.win_probability,
            "lower": self.lower,
            "upper": self.upper,
            "proven": self.proven,
            "root_moves": [
                {k: (str(v) if k == "move" else v) for k, v in d.items()} for d in self.root_moves
            ],
        }
