"""Strength tournaments: paired games between players given by spec strings.

Each pairing plays ``pairs`` circles; every circle is played twice with the
sides swapped (the same patches, the other player starting), so neither
the circle nor the start-player advantage favours one side. Seeds are
fixed: the same arguments give the same games. Games run in parallel on a
backend (``patchsolve.arena.backends``): worker processes on this machine, or Ray
tasks on a local Ray or a cluster; the games are the same on either.

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
import signal
import sys
import threading
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from patchsolve.arena.players import make_player
from patchsolve.errors import PatchsolveError
from patchsolve.rules.position import Position, random_circle

SEED_MASK = 2**64 - 1  # the players' seeds are kept in the engines' range (Limits: 0..2**64-1)


@dataclass
class GameOutcome:
    """One finished game: who played which side, the scores, the circle and the moves."""

    pair: int
    """The number of the circle pair the game belongs to (each circle is played twice, sides swapped)."""
    first: str  # spec of the player who started (player 0)
    """The spec of the player who started (player 0)."""
    second: str
    """The spec of the other player (player 1)."""
    scores: tuple[int, int]
    """The final scores of players 0 and 1."""
    winner: int  # 0 = first, 1 = second (after the tie-break)
    """0 if the first player won, 1 if the second (after the tie-break)."""
    circle: tuple[int, ...]
    """The start circle (patch ids from the neutral token on)."""
    edition: str
    """The time board: ``revised`` or ``original``."""
    moves: list[str] = field(default_factory=list)
    """The moves, as move text."""
    a_first: bool = True  # set by the tournament: is player A of the pairing player 0 here?
    """Whether player A of the pairing was player 0 in this game (set by the tournament)."""

    def record(self) -> str:
        """The game as a record (start circle, edition, first player, moves)."""
        from patchsolve.rules.game import Game

        text = Game(Position.start(circle=self.circle, edition=self.edition), self.moves).to_text()
        header = f"# {self.first} (player 0) vs {self.second} (player 1): scores {self.scores[0]} and {self.scores[1]}\n"  # noqa: E501
        return header + text


def play_game(
    first_spec: str, second_spec: str, circle, edition: str = "revised", seed: int = 0, pair: int = 0
) -> GameOutcome:
    """One game: ``first_spec`` is player 0 and moves first."""
    players = (
        make_player(first_spec, seed=2 * seed & SEED_MASK),
        make_player(second_spec, seed=(2 * seed + 1) & SEED_MASK),
    )
    pos = Position.start(circle=circle, edition=edition, first_player=0)
    moves = []
    try:
        while not pos.is_over:
            move = players[pos.to_move].choose(pos)
            moves.append(str(move))
            pos = pos.play(move)
    finally:
        for p in players:
            p.close()
    return GameOutcome(
        pair, first_spec, second_spec, pos.scores(), pos.winner(), tuple(circle), edition, moves
    )


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
    """The Elo difference of a win rate ``p``, clamped at +-800."""
    if p <= 0:
        return -800.0
    if p >= 1:
        return 800.0
    return max(-800.0, min(800.0, -400 * math.log10(1 / p - 1)))


@dataclass
class PairingResult:
    """The games of one pairing (A against B) and their statistics for A."""

    a: str
    """Player A's spec."""
    b: str
    """Player B's spec."""
    games: list[GameOutcome]
    """The finished games."""
    interrupted: bool = False  # stopped by Ctrl-C: only the finished games
    """Whether Ctrl-C stopped the pairing (then only the finished games are here)."""
    planned: int = 0  # games the pairing was to play (0: not known)
    """The games the pairing was to play (0: not known)."""

    @property
    def partial(self) -> bool:
        """Fewer games than planned: stopped by Ctrl-C, or still running."""
        return self.interrupted or self.n < self.planned

    @property
    def n(self) -> int:
        """Games played."""
        return len(self.games)

    def _a_won(self, g: GameOutcome) -> bool:
        return g.winner == (0 if g.a_first else 1)

    @property
    def wins_a(self) -> int:
        """Games A won."""
        return sum(self._a_won(g) for g in self.games)

    @property
    def win_rate(self) -> float:
        """A's share of wins (0 when no game was played)."""
        return self.wins_a / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of A's win rate."""
        return wilson(self.wins_a, self.n)

    @property
    def mean_margin(self) -> float:
        """A's mean final score margin."""
        total = 0
        for g in self.games:
            m = g.scores[0] - g.scores[1]
            total += m if g.a_first else -m
        return total / self.n if self.n else 0.0

    def row(self) -> dict:
        """The pairing as one table row (CSV, JSON, Markdown)."""
        lo, hi = self.interval
        return {
            "player_a": self.a,
            "player_b": self.b,
            "games": self.n,
            "wins_a": self.wins_a,
            "win_rate_a": round(self.win_rate, 4),
            "ci95_low": round(lo, 4),
            "ci95_high": round(hi, 4),
            "elo_a_minus_b": round(elo(self.win_rate), 1) + 0.0,
            "elo_ci95": f"[{elo(lo):.0f}, {elo(hi):.0f}]",
            "mean_margin_a": round(self.mean_margin, 2),
            "planned": self.planned or self.n,
            "partial": self.partial,
        }


def pairing_jobs(a: str, b: str, pairs: int, seed: int, edition: str):
    """Each circle twice, sides swapped."""
    for i in range(pairs):
        circle = random_circle(seed * 100_003 + i)
        game_seed = seed * 1_000_003 + i
        yield (a, b, circle, edition, game_seed, i)
        yield (b, a, circle, edition, game_seed, i)


def pairings_of(specs, round_robin: bool = True) -> list[tuple[str, str]]:
    """Every pair of ``specs`` (round robin), or only the first two."""
    return list(itertools.combinations(specs, 2)) if round_robin else [(specs[0], specs[1])]


class GameSink:
    """Writes each finished game at once: a CSV row (``games_file``), its
    record (``records_dir``), and the results tables so far (``csv_file``,
    ``md_file``). Paths are opened on creation, so a bad one fails before
    any game is played."""

    def __init__(
        self,
        specs,
        games_file=None,
        records_dir=None,
        csv_file=None,
        md_file=None,
        pairs: int = 1,
        round_robin: bool = True,
    ):
        self.pairings = pairings_of(specs, round_robin)
        self.games: list[list] = [[] for _ in self.pairings]
        self.planned = 2 * pairs
        self.csv_file, self.md_file = csv_file, md_file
        self.records = None
        self._games_fh = None
        try:
            if records_dir:
                self.records = Path(records_dir)
                self.records.mkdir(parents=True, exist_ok=True)
            if games_file:
                self._games_fh = open(games_file, "w", newline="", encoding="utf-8")
                self._writer = csv.DictWriter(self._games_fh, fieldnames=GAME_FIELDS)
                self._writer.writeheader()
                self._games_fh.flush()
            for path in (csv_file, md_file):
                if path:
                    Path(path).write_text("")
        except OSError as e:
            raise PatchsolveError(f"cannot write {e.filename}: {e.strerror}") from None

    def add(self, pairing: int, k: int, game: GameOutcome) -> None:
        """Write a finished game: its row, its record, and the tables so far."""
        self.games[pairing].append(game)
        if self._games_fh:
            self._writer.writerow(game_row(pairing, k, game))
            self._games_fh.flush()
        if self.records:
            (self.records / f"pairing{pairing}_game{k:04d}.txt").write_text(game.record())
        self.write_tables(self.results())

    def results(self) -> list[PairingResult]:
        """The results of the games written so far (fewer than planned: partial)."""
        return [
            PairingResult(a, b, list(g), planned=self.planned) for (a, b), g in zip(self.pairings, self.games)
        ]

    def write_tables(self, results) -> None:
        """Rewrite the CSV and Markdown tables from ``results``."""
        if self.csv_file:
            Path(self.csv_file).write_text(to_csv(results))
        if self.md_file:
            Path(self.md_file).write_text(to_markdown(results))


@contextmanager
def ctrl_c_deferred():
    """Ctrl-C inside waits for the end of the block, then raises. (A
    blocked signal mask is not enough: with other threads running, Ray's or
    the pool's, the kernel hands SIGINT to one of them and Python still
    raises in the main thread.) Outside the main thread: nothing to defer."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught = []
    old = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
    if caught:
        raise KeyboardInterrupt


def run_tournament(
    specs,
    pairs: int = 10,
    seed: int = 0,
    workers: int = 1,
    edition: str = "revised",
    round_robin: bool = True,
    progress=None,
    on_game=None,
    backend="local",
    address=None,
) -> list[PairingResult]:
    """Play every pairing of ``specs`` (round robin), or just specs[0] vs
    specs[1]; return one PairingResult per pairing. ``on_game(pairing, k,
    outcome)`` is called as each game ends (in the order they end). On
    Ctrl-C the games finished so far are returned (``interrupted`` is set on
    the results). ``backend`` is "local", "ray" (``address``: a cluster) or
    a backend object (``patchsolve.arena.backends``)."""
    from patchsolve.arena.backends import make_backend

    for s in specs:
        make_player(s).close()  # fail fast on a bad spec, before any process starts
    if len(specs) < 2:
        raise ValueError("a tournament needs at least two players")
    if isinstance(backend, str):
        backend = make_backend(backend, workers=workers, address=address)
    pairings = pairings_of(specs, round_robin)
    per = 2 * pairs
    jobs = [job for a, b in pairings for job in pairing_jobs(a, b, pairs, seed, edition)]
    outcomes = {}
    interrupted = False

    def finished(k, out):
        out.a_first = k % 2 == 0  # pairing_jobs alternates A-first, B-first
        with ctrl_c_deferred():  # the game is wholly kept (its row, record and table)
            outcomes[k] = out
            if on_game:
                on_game(k // per, k, out)
        if progress:
            progress(len(outcomes), len(jobs))

    try:
        with closing(backend.run(_play_job, jobs)) as stream:
            for k, out in stream:
                finished(k, out)
    except KeyboardInterrupt:
        interrupted = True
    results = []
    for i, (a, b) in enumerate(pairings):
        games = [outcomes[k] for k in range(i * per, (i + 1) * per) if k in outcomes]
        results.append(PairingResult(a, b, games, interrupted=interrupted, planned=per))
    return results


GAME_FIELDS = [
    "pairing",
    "game",
    "first",
    "second",
    "score_first",
    "score_second",
    "winner",
    "edition",
    "circle",
]


def game_row(pairing: int, k: int, g: GameOutcome) -> dict:
    """One finished game as a CSV row (``--games``)."""
    return {
        "pairing": pairing,
        "game": k,
        "first": g.first,
        "second": g.second,
        "score_first": g.scores[0],
        "score_second": g.scores[1],
        "winner": g.winner,
        "edition": g.edition,
        "circle": ",".join(map(str, g.circle)),
    }


def to_csv(results) -> str:
    """The results table as CSV; the ``planned`` and ``partial`` columns say
    whether every game was played."""
    buf = io.StringIO()
    rows = [r.row() for r in results]
    w = csv.DictWriter(buf, fieldnames=list(rows[0]))
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()


def to_markdown(results) -> str:
    """The results table in Markdown; a table of fewer games than planned
    says so below it (stopped by Ctrl-C, or written while games still run)."""
    lines = [
        "| A | B | games | A wins | A win rate (95% CI) | Elo A-B (95% CI) | mean margin A |",
        "|---|---|---:|---:|---|---|---:|",
    ]
    for r in results:
        d = r.row()
        lines.append(
            f"| `{d['player_a']}` | `{d['player_b']}` | {d['games']} | {d['wins_a']} | "
            f"{100 * d['win_rate_a']:.1f}% [{100 * d['ci95_low']:.1f}, {100 * d['ci95_high']:.1f}] | "
            f"{d['elo_a_minus_b'] + 0.0:+.0f} {d['elo_ci95']} | {d['mean_margin_a']:+.1f} |"
        )
    if any(r.partial for r in results):
        why = "stopped by Ctrl-C" if any(r.interrupted for r in results) else "games still running"
        played, planned = sum(r.n for r in results), sum(r.planned or r.n for r in results)
        lines += ["", f"**Partial**: {played} of {planned} games ({why})."]
    return "\n".join(lines) + "\n"


def print_progress(done: int, total: int) -> None:
    """A progress bar of finished games on stderr."""
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()
