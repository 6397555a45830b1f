"""The self-play corpus: seeded games of a strong player against itself,
played and kept one JSON line per game as each ends, for the statistics of
Patchwork itself (:mod:`patchsolve.arena.corpus_report`) and the
calibration of the win probability (:mod:`patchsolve.arena.calibration`).

The games, in a fixed order (so ``games=N`` is always the first N of them,
and a larger N later extends a corpus)::

    circle 0 revised, circle 0 original, circle 1 revised, circle 1 original, ...

Each circle is played in every edition asked for, so the editions are
compared on the same circles. Circles and the players' seeds follow
:mod:`patchsolve.arena.tournament`'s formulas. Against *itself* a player plays
each circle once per edition, the first player alternating from circle to
circle (0 on even circles, 1 on odd ones): with the sides swapped the game
is the same game with the labels exchanged (the engine does not know which
colour it plays; checked move for move with the alpha-beta under a node
budget), so playing it twice would count one game twice. With an
``opponent`` that differs, every circle is played twice with the sides
swapped, as the tournament pairs games.

Exact play from where the solver proves the end: once both tokens are
within ``solve_spaces`` of the last space, the exact solver is asked first
(``solve_nodes`` nodes, one thread); when it proves the value, its move is
played and its exact score recorded, whoever is to move; once a value is
proven, a later position that the budget does not prove is tried again with
``SOLVE_RETRIES`` times the nodes, so that play stays exact. (The engine's own
near-end shortcut does the same with a quarter of its budget; this makes
the corpus exact from a point that does not depend on the player's
budget.)

Every game is appended to the corpus file as it ends (flushed and synced),
so an interrupted run loses only the games still running; a rerun with the
same file and settings skips the games already there. A record holds:

- ``seed``, ``circle_index``, ``circle``, ``edition``, ``first`` (the label,
  0 or 1, of the player who moved first), ``players`` (the specs of labels 0
  and 1), ``solve_nodes``, ``solve_spaces``, ``patchsolve`` (the version);
- ``moves`` (move text, in order) and ``evals``: per move the player to
  move, the engine's ``score`` for that player and its ``bound``
  ("estimate", "exact", ...; None for a player without a search), where it
  came from (``by``: "search" or "solver") and ``left``: each player's
  spaces left to the last space (their sum is the phase);
- ``scores`` (labels 0 and 1), ``winner``, ``first_at_end``;
- ``bonus``: who took the 7x7 bonus, at which ply and phase (or None);
- ``leather``: for each leather patch taken, its space, the taker, the ply;
- ``proven``: the ply and phase where the solver first proved the value,
  and that value for label 0 (or None);
- ``plies`` and ``nodes`` (every search's nodes, summed).
"""

from __future__ import annotations

import json
import os
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

from patchsolve.arena.players import LevelPlayer, MCTSPlayer, SearchPlayer, make_player
from patchsolve.arena.tournament import SEED_MASK, ctrl_c_deferred
from patchsolve.errors import PatchsolveError
from patchsolve.rules.patches import LAST_SPACE
from patchsolve.rules.position import Position, random_circle
from patchsolve.search.endgame import ENDGAME_SPACES

DEFAULT_PLAYER = "alphabeta:nodes=300000"  # the default alpha-beta, one thread, deterministic
EDITIONS = ("revised", "original")
DEFAULT_SOLVE_NODES = 1_000_000  # a failed try costs well under a second; proves ~20 spaces out
SOLVE_HASH_MB = 16  # enough table for a million nodes (and as much more per million more)
# Once the value is proven, a later position the solver does not prove within its nodes is tried
# again with these multiples: a fresh table can miss a proof the last one found (1 of 200 pilot
# games left exact play that way, losing 5 points)
SOLVE_RETRIES = (4, 16)
SOLVE_MAX_HASH_MB = 256
RECORD_VERSION = 1
# the settings a resumed run must share with the games already in the file
RUN_KEYS = ("seed", "players", "solve_nodes", "solve_spaces")


class CorpusError(PatchsolveError):
    """A corpus file that cannot be read or resumed (another run's games, a bad line)."""


# -- the games ---------------------------------------------------------------------


@dataclass(frozen=True)
class GameJob:
    """One game to play: plain data, so it travels to any backend."""

    index: int  # the game's place in the run's order
    """The game's place in the run's order."""
    seed: int
    """The seed of the players' searches."""
    circle_index: int
    """Which of the run's seeded circles the game starts from."""
    edition: str
    """The time board: ``revised`` or ``original``."""
    first: int  # label (0 or 1) of the player who moves first
    """The label (0 or 1) of the player who moves first."""
    players: tuple[str, str]  # specs of labels 0 and 1
    """The player specs of labels 0 and 1."""
    solve_nodes: int
    """The exact solver's nodes before each move near the end (0: the players alone)."""
    solve_spaces: int
    """How close to the last space both tokens are when the solver is tried."""

    @property
    def key(self) -> tuple[int, str, int]:
        """What identifies the game in a corpus: circle, edition, first player."""
        return (self.circle_index, self.edition, self.first)


def circle_of(seed: int, i: int) -> tuple[int, ...]:
    """The ``i``-th circle of a run with ``seed`` (tournament's formula)."""
    return random_circle(seed * 100_003 + i)


@dataclass(frozen=True)
class SelfPlaySettings:
    """What a run plays, beside how many games: the players, the seed, the
    editions and the exact solver's part. A resumed run must share the
    seed, the players and the solver's settings with the games already in
    its file (``RUN_KEYS``). Bad editions or solver nodes are refused here;
    a bad player spec when the run starts."""

    player: str = DEFAULT_PLAYER
    """The player spec of label 0, and of label 1 without an ``opponent``."""
    opponent: str | None = None
    """Another spec for label 1: every circle is then played twice, sides swapped."""
    seed: int = 0
    """The seed of the circles and of the players' searches."""
    editions: tuple[str, ...] = EDITIONS
    """The time boards each circle is played on, in this order (distinct names of ``EDITIONS``)."""
    solve_nodes: int = DEFAULT_SOLVE_NODES
    """The exact solver's nodes before each move near the end (0: the players alone)."""
    solve_spaces: int = ENDGAME_SPACES
    """How close to the last space both tokens are when the solver is tried."""

    def __post_init__(self) -> None:
        editions = tuple(self.editions)
        if not editions or any(e not in EDITIONS for e in editions) or len(set(editions)) != len(editions):
            raise PatchsolveError(
                f"editions must be distinct names among {', '.join(EDITIONS)}, not {editions!r}"
            )
        object.__setattr__(self, "editions", editions)  # any sequence given: a tuple kept
        nodes = self.solve_nodes
        if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 0:
            raise PatchsolveError(f"solve_nodes must be a whole number >= 0, not {nodes!r}")

    @property
    def players(self) -> tuple[str, str]:
        """The specs of labels 0 and 1."""
        return (self.player.strip(), (self.opponent or self.player).strip())


def game_jobs(games: int, settings: SelfPlaySettings = SelfPlaySettings()) -> list[GameJob]:
    """The first ``games`` games of a run, in the run's order (module doc)."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise PatchsolveError(f"games must be a whole number >= 0, not {games!r}")
    s = settings
    specs = s.players
    swap = specs[0] != specs[1]  # against itself, a game with the sides swapped is the same game
    jobs: list[GameJob] = []
    i = 0
    while len(jobs) < games:
        for edition in s.editions:
            # against itself: one game, the first label alternating; else both sides
            for first in (0, 1) if swap else (i % 2,):
                if len(jobs) < games:  # label 0 plays `player`, label 1 `opponent`
                    job = GameJob(len(jobs), s.seed, i, edition, first, specs, s.solve_nodes, s.solve_spaces)
                    jobs.append(job)
        i += 1
    return jobs


def spaces_left(position: Position) -> list[int]:
    """Each player's spaces to the last space (their sum is the game's phase)."""
    return [LAST_SPACE - position.time(0), LAST_SPACE - position.time(1)]


def _within(position: Position, spaces: int) -> bool:
    """Both tokens within ``spaces`` of the last space (as the shortcut's test)."""
    return LAST_SPACE - min(position.time(0), position.time(1)) <= spaces


def choose_with_result(player, position, endgame_solve: bool = True):
    """``(move, SearchResult or None)``: the player's move and, for a player
    that searches, the search it came from (its score and bound). A player
    without a search (random, greedy, another installation) gives None."""
    if isinstance(player, SearchPlayer):
        r = player.search(position, endgame_solve=endgame_solve)
        return r.best_move, r
    if isinstance(player, LevelPlayer):
        from patchsolve.review.levels import level_move

        return level_move(position, player.level, seed=player.seed % 2**64, **player.limits)
    if isinstance(player, MCTSPlayer):
        r = player.search(position)
        return r.best_move, r
    return player.choose(position), None


def _solve(position, nodes: int):
    """The exact solver on one thread, its table sized to the budget."""
    from patchsolve.search import solve

    hash_mb = min(SOLVE_MAX_HASH_MB, SOLVE_HASH_MB * max(1, nodes // DEFAULT_SOLVE_NODES))
    return solve(position, nodes=nodes, workers=1, hash_mb=hash_mb)


def play_selfplay_game(job: GameJob) -> dict:
    """Play one game of the corpus and return its record (module doc)."""
    from patchsolve import __version__

    game_seed = job.seed * 1_000_003 + job.circle_index
    players = tuple(
        make_player(job.players[label], seed=(2 * game_seed + (label != job.first)) & SEED_MASK)
        for label in (0, 1)
    )
    pos = Position.start(
        circle=circle_of(job.seed, job.circle_index), edition=job.edition, first_player=job.first
    )
    moves: list[str] = []
    evals: list[dict] = []
    leather: list[dict] = []
    bonus = proven = None
    nodes = 0
    try:
        while not pos.is_over:
            me, left = pos.to_move, spaces_left(pos)
            result, tried = None, False
            by: str | None = "search"
            if job.solve_nodes > 0 and _within(pos, job.solve_spaces):
                tried = True
                # once proven, a position the budget does not prove is tried again with more:
                # its value is provable (the proven line leads to it), and play stays exact
                for factor in (1, *SOLVE_RETRIES) if proven else (1,):
                    solved = _solve(pos, job.solve_nodes * factor)
                    nodes += solved.nodes
                    if solved.bound == "exact" and solved.proven_best:
                        break
                # (an exact value whose move the budget did not prove is not exact play)
                if solved.bound == "exact" and solved.proven_best:
                    result, by = solved, "solver"
                    if proven is None:
                        value = solved.score if me == 0 else -solved.score
                        proven = {"ply": len(moves), "phase": sum(left), "value": value}
            if result is None:
                # the solver was just tried with more nodes than the engine's shortcut would get
                move, result = choose_with_result(players[me], pos, endgame_solve=not tried)
                if result is None:
                    by = None
                else:
                    nodes += result.nodes
            else:
                move = result.best_move
            evals.append(
                {
                    "player": me,
                    "score": None if result is None else float(result.score),
                    "bound": None if result is None else result.bound,
                    "by": by,
                    "left": left,
                }
            )
            before_leather, before_bonus = set(pos.leather), pos.bonus_owner
            moves.append(str(move))
            pos = pos.play(move)
            for space in sorted(before_leather - set(pos.leather)):
                leather.append({"space": space, "player": me, "ply": len(moves) - 1})
            if before_bonus is None and pos.bonus_owner is not None:
                bonus = {"player": pos.bonus_owner, "ply": len(moves) - 1, "phase": sum(left)}
    finally:
        for p in players:
            p.close()
    scores = pos.scores()
    return {
        "version": RECORD_VERSION,
        "patchsolve": __version__,
        "seed": job.seed,
        "circle_index": job.circle_index,
        "circle": list(circle_of(job.seed, job.circle_index)),
        "edition": job.edition,
        "first": job.first,
        "players": list(job.players),
        "solve_nodes": job.solve_nodes,
        "solve_spaces": job.solve_spaces,
        "moves": moves,
        "evals": evals,
        "scores": [scores[0], scores[1]],
        "winner": pos.winner(),
        "first_at_end": pos.first_at_end,
        "bonus": bonus,
        "leather": leather,
        "proven": proven,
        "plies": len(moves),
        "nodes": nodes,
    }


# -- the corpus file ----------------------------------------------------------------


def record_positions(record: dict):
    """(ply, position, move text) for every move of a record, in order from
    the game's start."""
    pos = Position.start(circle=record["circle"], edition=record["edition"], first_player=record["first"])
    for ply, text in enumerate(record["moves"]):
        yield ply, pos, text
        pos = pos.play(pos.parse_move(text))


def record_key(record: dict) -> tuple[int, str, int]:
    """The key of a record, as :attr:`GameJob.key`."""
    return (int(record["circle_index"]), str(record["edition"]), int(record["first"]))


def read_corpus(path, repair: bool = False) -> list[dict]:
    """The records of a corpus file (one JSON object a line). A last line cut
    short (the run was killed while writing it) is dropped, and with
    ``repair`` cut off the file so that appended games start on a line of
    their own; any other bad line is a CorpusError."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as e:
        raise CorpusError(f"cannot read {path}: {e.strerror}") from None
    keep = len(data)
    if data and not data.endswith(b"\n"):
        keep = data.rfind(b"\n") + 1  # the unfinished line of a killed run
        if repair:
            with path.open("r+b") as f:
                f.truncate(keep)
    records = []
    for n, line in enumerate(data[:keep].decode("utf-8", errors="replace").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            record_key(record)
        except (ValueError, KeyError, TypeError):
            raise CorpusError(f"{path}, line {n}: not a self-play record") from None
        records.append(record)
    return records


def _check_same_run(path, records: list[dict], jobs: list[GameJob]) -> None:
    """The games in the file must come from the same settings as this run
    (a game is known by its key only within one run's settings)."""
    if not records or not jobs:
        return
    want = {
        "seed": jobs[0].seed,
        "players": list(jobs[0].players),
        "solve_nodes": jobs[0].solve_nodes,
        "solve_spaces": jobs[0].solve_spaces,
    }
    for r in records:
        got = {k: r.get(k) for k in RUN_KEYS}
        if got != want:
            diff = ", ".join(f"{k} {got[k]!r} (not {want[k]!r})" for k in RUN_KEYS if got[k] != want[k])
            raise CorpusError(f"{path} holds games of another run: {diff}; give another file")


@dataclass
class SelfPlayRun:
    """What :func:`run_selfplay` did: every record of the file (old and
    new), how many were played now, and whether Ctrl-C stopped it."""

    path: Path
    """The corpus file."""
    records: list[dict] = field(default_factory=list)
    """Every game record of the file, old and new, as dicts."""
    played: int = 0
    """Games played by this run."""
    skipped: int = 0
    """Games already in the file, not played again."""
    planned: int = 0
    """Games the run was to have in the file."""
    interrupted: bool = False
    """Whether Ctrl-C stopped the run."""


def _play_job(job: GameJob) -> dict:
    return play_selfplay_game(job)


def run_selfplay(
    path,
    games: int,
    settings: SelfPlaySettings = SelfPlaySettings(),
    *,
    backend="local",
    workers: int = 1,
    address: str | None = None,
    progress=None,
) -> SelfPlayRun:
    """Play the first ``games`` games of the run (module doc) with
    ``settings`` that are not yet in the corpus file ``path``, appending
    each as it ends. ``backend`` is "local", "ray" or a backend object
    (:mod:`patchsolve.arena.backends`), as for
    :func:`patchsolve.arena.tournament.run_tournament`. ``progress(done,
    total)`` is called as games end. Ctrl-C stops the run with the finished
    games kept (``interrupted`` set)."""
    from patchsolve.arena.backends import make_backend

    jobs = game_jobs(games, settings)
    for spec in set(settings.players):
        make_player(spec).close()  # a bad spec fails before any game or file
    path = Path(path)
    records = read_corpus(path, repair=True)
    _check_same_run(path, records, jobs)
    done = {record_key(r) for r in records}
    todo = [j for j in jobs if j.key not in done]
    run = SelfPlayRun(path, records, skipped=len(jobs) - len(todo), planned=len(jobs))
    if not todo:
        return run
    if isinstance(backend, str):
        backend = make_backend(backend, workers=workers, address=address)
    try:
        fh = path.open("a", encoding="utf-8")
    except OSError as e:
        raise CorpusError(f"cannot write {path}: {e.strerror}") from None
    with fh:
        try:
            with closing(backend.run(_play_job, todo)) as stream:
                for _k, record in stream:
                    with ctrl_c_deferred():  # a game is written whole or not at all
                        fh.write(json.dumps(record, separators=(",", ":")) + "\n")
                        fh.flush()
                        os.fsync(fh.fileno())
                        records.append(record)
                        run.played += 1
                    if progress:
                        progress(run.skipped + run.played, run.planned)
        except KeyboardInterrupt:
            run.interrupted = True
    return run


__all__ = [
    "DEFAULT_PLAYER",
    "EDITIONS",
    "GameJob",
    "SelfPlaySettings",
    "SelfPlayRun",
    "CorpusError",
    "game_jobs",
    "play_selfplay_game",
    "choose_with_result",
    "read_corpus",
    "run_selfplay",
    "spaces_left",
]
