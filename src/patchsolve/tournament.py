"""Strength tournaments: paired games between players given by spec strings.

Each pairing plays ``pairs`` circles; every circle is played twice with the
sides swapped (the same patches, the other player starting), so neither
the circle nor the start-player advantage favours one side. Seeds are
fixed: the same arguments give the same games. Games run in parallel over
worker processes.

Statistics (for player A of a pairing, over 2 x pairs games):
- win rate with a 95% Wilson score interval;
- Elo difference from the win rate, ``-400 log10(1/p - 1)``, with the
  interval mapped from the Wilson bounds (clamped at +-800 for 0% / 100%);
- mean final score margin (A minus B).
"""

from __future__ import annotations

import csv
import io
import itertools
import math
import sys
from dataclasses import dataclass, field
from multiprocessing import get_context

from patchsolve.players import make_player
from patchsolve.position import Position, random_circle


@dataclass
class GameOutcome:
    pair: int
    first: str            # spec of the player who started (player 0)
    second: str
    scores: tuple[int, int]
    winner: int           # 0 = first, 1 = second (after the tie-break)
    circle: tuple[int, ...]
    edition: str
    moves: list[str] = field(default_factory=list)
    a_first: bool = True  # set by the tournament: is player A of the pairing player 0 here?

    def record(self) -> str:
        """The game as a record (start circle, edition, first player, moves)."""
        from patchsolve.game import Game

        text = Game(Position.start(circle=self.circle, edition=self.edition), self.moves).to_text()
        header = f"# {self.first} (player 0) vs {self.second} (player 1): scores {self.scores[0]} and {self.scores[1]}\n"
        return header + text


def play_game(first_spec: str, second_spec: str, circle, edition: str = "revised", seed: int = 0,
              pair: int = 0) -> GameOutcome:
    """One game: ``first_spec`` is player 0 and moves first."""
    players = (make_player(first_spec, seed=2 * seed), make_player(second_spec, seed=2 * seed + 1))
    pos = Position.start(circle=circle, edition=edition, first_player=0)
    moves = []
    while not pos.is_over:
        move = players[pos.to_move].choose(pos)
        moves.append(str(move))
        pos = pos.play(move)
    return GameOutcome(pair, first_spec, second_spec, pos.scores(), pos.winner(), tuple(circle), edition, moves)


def _play_job(job) -> GameOutcome:
    return play_game(*job)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(p: float) -> float:
    if p <= 0:
        return -800.0
    if p >= 1:
        return 800.0
    return max(-800.0, min(800.0, -400 * math.log10(1 / p - 1)))


@dataclass
class PairingResult:
    a: str
    b: str
    games: list[GameOutcome]

    @property
    def n(self) -> int:
        return len(self.games)

    def _a_won(self, g: GameOutcome) -> bool:
        return g.winner == (0 if g.a_first else 1)

    @property
    def wins_a(self) -> int:
        return sum(self._a_won(g) for g in self.games)

    @property
    def win_rate(self) -> float:
        return self.wins_a / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins_a, self.n)

    @property
    def mean_margin(self) -> float:
        total = 0
        for g in self.games:
            m = g.scores[0] - g.scores[1]
            total += m if g.a_first else -m
        return total / self.n if self.n else 0.0

    def row(self) -> dict:
        lo, hi = self.interval
        return {
            "player_a": self.a, "player_b": self.b, "games": self.n, "wins_a": self.wins_a,
            "win_rate_a": round(self.win_rate, 4), "ci95_low": round(lo, 4), "ci95_high": round(hi, 4),
            "elo_a_minus_b": round(elo(self.win_rate), 1) + 0.0,
            "elo_ci95": f"[{elo(lo):.0f}, {elo(hi):.0f}]",
            "mean_margin_a": round(self.mean_margin, 2),
        }


def pairing_jobs(a: str, b: str, pairs: int, seed: int, edition: str):
    """Each circle twice, sides swapped."""
    for i in range(pairs):
        circle = random_circle(seed * 100_003 + i)
        game_seed = seed * 1_000_003 + i
        yield (a, b, circle, edition, game_seed, i)
        yield (b, a, circle, edition, game_seed, i)


def run_tournament(specs, pairs: int = 10, seed: int = 0, workers: int = 1, edition: str = "revised",
                   round_robin: bool = True, progress=None) -> list[PairingResult]:
    """Play every pairing of ``specs`` (round robin), or just specs[0] vs
    specs[1]; return one PairingResult per pairing."""
    for s in specs:
        make_player(s)  # fail fast on a bad spec, before any process starts
    if len(specs) < 2:
        raise ValueError("a tournament needs at least two players")
    pairings = list(itertools.combinations(specs, 2)) if round_robin else [(specs[0], specs[1])]
    jobs = [(a, b, job) for a, b in pairings for job in pairing_jobs(a, b, pairs, seed, edition)]
    a_first = [k % 2 == 0 for k in range(len(jobs))]  # pairing_jobs alternates A-first, B-first
    outcomes = []
    if workers <= 1:
        for k, (_a, _b, job) in enumerate(jobs):
            outcomes.append(_play_job(job))
            if progress:
                progress(k + 1, len(jobs))
    else:
        with get_context("spawn").Pool(workers) as pool:
            for k, out in enumerate(pool.imap(_play_job, [j for _a, _b, j in jobs])):
                outcomes.append(out)
                if progress:
                    progress(k + 1, len(jobs))
    for out, first in zip(outcomes, a_first):
        out.a_first = first
    results = []
    for k, (a, b) in enumerate(pairings):
        per = 2 * pairs
        results.append(PairingResult(a, b, outcomes[k * per:(k + 1) * per]))
    return results


def to_csv(results) -> str:
    buf = io.StringIO()
    rows = [r.row() for r in results]
    w = csv.DictWriter(buf, fieldnames=list(rows[0]))
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()


def to_markdown(results) -> str:
    lines = ["| A | B | games | A wins | A win rate (95% CI) | Elo A-B (95% CI) | mean margin A |",
             "|---|---|---:|---:|---|---|---:|"]
    for r in results:
        d = r.row()
        lines.append(f"| `{d['player_a']}` | `{d['player_b']}` | {d['games']} | {d['wins_a']} | "
                     f"{100 * d['win_rate_a']:.1f}% [{100 * d['ci95_low']:.1f}, {100 * d['ci95_high']:.1f}] | "
                     f"{d['elo_a_minus_b'] + 0.0:+.0f} {d['elo_ci95']} | {d['mean_margin_a']:+.1f} |")
    return "\n".join(lines) + "\n"


def print_progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()
