"""Self-play games of the current alpha-beta engine for training data.

Each game: a random circle (seeded), a random edition and start player,
and opening noise (during the first ``noise_plies`` plies a uniformly
random legal move with probability ``noise``) so the positions cover more
than the engine's own lines. Every position before the end is one row:
game id, ply, player to move, that player's final margin, and the position
text (features are computed at training time from the text, so changing the
features needs no new games), and the search's own score of the position
(the mover's expected margin at the game's node budget; a label with less
noise than the outcome, for ``fit --outcome``). Rows are appended to a CSV as each game ends,
so an interrupted run keeps its games. Deterministic under a node budget.
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

from patchsolve.arena.selfplay import record_positions
from patchsolve.rules.position import Position
from patchsolve.search import search

COLUMNS = ["game", "ply", "mover", "final_margin", "position", "search_score"]


def final_margin(pos: Position, player: int) -> int:
    """The final margin for ``player`` of a finished position."""
    a, b = pos.scores()
    return a - b if player == 0 else b - a


def play_game(seed: int, nodes: int, noise_plies: int, noise: float, learned: bool) -> list[list]:
    """One self-play game: every position with the search's value, for training."""
    rng = random.Random(seed)
    edition = rng.choice(["revised", "original"])
    pos = Position.start(seed=seed, edition=edition, first_player=rng.randrange(2))
    seen = []
    ply = 0
    while not pos.is_over:
        result = search(pos, engine="alphabeta", nodes=nodes, learned=learned)
        seen.append((ply, pos.to_move, pos.to_text(), result.score))
        # the search runs on noisy plies too: its score labels the position
        move = result.best_move
        if ply < noise_plies and rng.random() < noise:
            move = rng.choice(pos.legal_moves())
        pos = pos.play(move)
        ply += 1
    return [[seed, p, mover, final_margin(pos, mover), text, score] for p, mover, text, score in seen]


def corpus_rows(index: int, record: dict) -> list[list]:
    """The training rows (``COLUMNS``) of one game of a self-play corpus
    (``patchsolve selfplay``'s records), game id ``index``: every position
    before the end, the mover's final margin (from the record's scores), and
    the score the corpus kept for the move (the engine's estimate, or the
    solver's exact value once it proved the end), for the player to move."""
    a, b = record["scores"]
    rows = []
    for (ply, pos, _), ev in zip(record_positions(record), record["evals"], strict=True):
        mover = pos.to_move
        score = ev["score"] if ev["player"] == mover else -ev["score"]
        rows.append([index, ply, mover, a - b if mover == 0 else b - a, pos.to_text(), score])
    return rows


def _play_job(job) -> list[list]:
    return play_game(*job)


def generate(
    path: Path,
    games: int,
    seed: int,
    nodes: int,
    noise_plies: int = 16,
    noise: float = 0.3,
    learned: bool = False,
    progress=None,
    backend: str = "local",
    workers: int = 1,
    address: str | None = None,
) -> int:
    """Append ``games`` games (ids seed*1e6 + 0..games-1) to the CSV ``path``,
    each written as soon as it ends; games already in the file are skipped
    (a run can be resumed). The games run on ``backend`` (``local``
    processes or ``ray`` tasks, ``patchsolve.arena.backends``); a game's rows do
    not depend on where it ran. Returns the rows written."""
    from contextlib import closing

    from patchsolve.arena.backends import make_backend

    path = Path(path)
    done = set()
    if path.exists():
        with path.open(newline="") as f:
            reader = csv.DictReader(f)
            if reader.fieldnames != COLUMNS:
                raise ValueError(f"{path}: columns {reader.fieldnames}, not this version's {COLUMNS}")
            done = {int(r["game"]) for r in reader}
    new = not path.exists()
    jobs = [
        (seed * 1_000_000 + g, nodes, noise_plies, noise, learned)
        for g in range(games)
        if seed * 1_000_000 + g not in done
    ]
    rows = finished = 0
    with path.open("a", newline="") as f:
        w = csv.writer(f)
        if new:
            w.writerow(COLUMNS)
            f.flush()
        with closing(make_backend(backend, workers=workers, address=address).run(_play_job, jobs)) as results:
            for _k, out in results:
                w.writerows(out)
                f.flush()
                rows += len(out)
                finished += 1
                if progress:
                    progress(len(done) + finished, games)
    return rows
