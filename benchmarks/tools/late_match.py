"""Paired endgames between two weights files (or two player specs): for a
change to the evaluation or the search that acts only near the end, play
only the end.

Start positions: fresh circles (``Position.start(seed=...)``, seeds the
corpus never used), played by the alpha-beta (``--start-spec``) with A's
weights until the phase (both players' spaces left) is at most
``--phase``. From each, two games: A as the player to move, then B, the
same search (``--spec``) for both, each side with its own weights file
loaded before its moves (one process; each search builds its own table,
so nothing of one side's weights leaks into the other's). The statistic
is A's margin advantage over the pair (A's final margin as one side plus
as the other, halved) and the paired win rate, with 95% intervals.
Each pair is appended to ``--out`` as it ends; a rerun resumes.
``--spec-a`` / ``--spec-b`` give a side its own search (with one weights
file given twice: a match of two searches).

    python benchmarks/tools/late_match.py A.json B.json --pairs 200 --out late.csv
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing
from pathlib import Path

from patchsolve.arena.corpus_report import _mean_ci
from patchsolve.arena.players import make_player
from patchsolve.arena.selfplay import choose_with_result
from patchsolve.arena.tournament import wilson
from patchsolve.rules.position import Position
from patchsolve.search import learned
from patchsolve.search.result import phase_of

SEED_BASE = 7_000_000  # circles no corpus or match here used


def start_position(i: int, phase: int, spec: str) -> Position:
    pos = Position.start(seed=SEED_BASE + i)
    player = make_player(spec, seed=i)
    while phase_of(pos) > phase and not pos.is_over:
        pos = pos.play(choose_with_result(player, pos)[0])
    return pos


def play(pos: Position, weights: dict, specs: dict, seed: int) -> tuple[int, int]:
    """Final scores of ``pos`` played out, ``weights[p]`` (file text) loaded
    for player p's moves, which ``specs[p]`` searches."""
    players = [make_player(specs[0], seed=seed), make_player(specs[1], seed=seed + 1)]
    while not pos.is_over:
        p = pos.to_move
        learned.load(weights[p])
        pos = pos.play(choose_with_result(players[p], pos)[0])
    return pos.scores()


def run_pair(job):
    i, a_text, b_text, phase, (spec_a, spec_b), start_spec = job
    learned.load(a_text)
    pos = start_position(i, phase, start_spec)
    if pos.is_over:
        return None
    me = pos.to_move
    s1 = play(pos, {me: a_text, 1 - me: b_text}, {me: spec_a, 1 - me: spec_b}, 2 * i)
    s2 = play(pos, {me: b_text, 1 - me: a_text}, {me: spec_b, 1 - me: spec_a}, 2 * i)
    a1 = s1[me] - s1[1 - me]  # A moved first from the start
    a2 = s2[1 - me] - s2[me]  # A was the other side
    return [i, phase_of(pos), a1, a2]


def summary(rows) -> str:
    """A's margin advantage a pair (normal 95% interval) and A's score over
    the games (Wilson interval, draws counted half), as the self-play report
    and the tournament compute them."""
    if len(rows) < 2:
        return f"{len(rows)} pairs"
    adv = _mean_ci((int(r[2]) + int(r[3])) / 2 for r in rows)
    wins = sum((int(x) > 0) + 0.5 * (int(x) == 0) for r in rows for x in (r[2], r[3]))
    games = 2 * len(rows)
    lo, hi = wilson(wins, games)
    m, (mlo, mhi) = adv["mean"], adv["ci95"]
    return (
        f"{len(rows)} pairs: A's margin advantage {m:+.2f} [{mlo:+.2f}, {mhi:+.2f}] points a game; "
        f"A scores {wins / games:.1%} [{lo:.1%}, {hi:.1%}] of {games} games"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", type=Path)
    ap.add_argument("b", type=Path)
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--phase", type=int, default=36)
    ap.add_argument("--spec", default="alphabeta:nodes=50000")
    ap.add_argument("--spec-a", help="A's search (default: --spec)")
    ap.add_argument("--spec-b", help="B's search (default: --spec)")
    ap.add_argument("--start-spec", default="alphabeta:nodes=20000")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    texts = [args.a.read_text(encoding="utf-8"), args.b.read_text(encoding="utf-8")]
    for t in texts:
        learned.read(t)
    rows = []
    if args.out.exists():
        with args.out.open(newline="") as f:
            rows = list(csv.reader(f))[1:]
    done = {int(r[0]) for r in rows}
    specs = (args.spec_a or args.spec, args.spec_b or args.spec)
    jobs = [(i, *texts, args.phase, specs, args.start_spec) for i in range(args.pairs) if i not in done]
    new = not args.out.exists()
    with args.out.open("a", newline="") as f, multiprocessing.Pool(args.workers) as pool:
        w = csv.writer(f)
        if new:
            w.writerow(["pair", "phase", "a_first", "a_second"])
        for row in pool.imap_unordered(run_pair, jobs):
            if row is None:
                continue
            w.writerow(row)
            f.flush()
            rows.append(row)
            print(summary(rows), flush=True)
    print(summary(rows))


if __name__ == "__main__":
    main()
