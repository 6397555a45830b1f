"""The first pondering match, as it ran (the prototype, before ``ponder=1``
was a player option): a pondering alpha-beta in this process (its searcher
kept between moves by replacing ``alphabeta._searcher`` during its own
searches; the position after its move searched on one thread, with no
time cap, until its next turn) against another build's plain player in a
subprocess kept for every game, one game at a time, each circle twice with
the sides swapped (``tournament.pairing_jobs``'s circles).

Run with PYTHONPATH on the source of 11592d9, built (2f3f6af with the
table flag of ``first_match_ended_flag.diff``: tag
``exp/ponder-first_match_ended_flag``); the opponent main's 4d8e2a1
(``/work/py-base``):

    python benchmarks/experiments/ponder_first_match.py --pairs 200 --seed 901 --out first_match_0.1s.csv
"""

import argparse
import csv
import threading

from patchsolve.arena.players import Player, make_player
from patchsolve.arena.tournament import pairing_jobs
from patchsolve.rules.position import Position
from patchsolve.search import alphabeta, search


class Pondering(Player):
    def __init__(self, ponder=True, **limits):
        self.limits = dict(limits)
        self.limits.setdefault("workers", 1)
        self.ponder = ponder
        self.searcher = None
        self.thread = None
        self.pondered = 0

    def _stop(self):
        if self.thread is not None:
            self.searcher.interrupt()
            self.thread.join()
            self.thread = None
        if self.searcher is not None:
            self.searcher.resume()

    def new_game(self):
        self._stop()
        self.searcher = None

    def close(self):
        self._stop()

    def choose(self, position):
        self._stop()
        orig = alphabeta._searcher

        def kept(hash_mb, opts):
            if self.searcher is None:
                self.searcher = orig(hash_mb, opts)
            return self.searcher

        alphabeta._searcher = kept
        try:
            move = search(position, engine="alphabeta", **self.limits).best_move
        finally:
            alphabeta._searcher = orig
        if self.searcher is not None:
            self.searcher.resume()
        after = position.play(move)
        if (
            self.ponder
            and self.searcher is not None
            and not after.is_over
            and after.to_move != position.to_move
        ):
            s = self.searcher
            self.thread = threading.Thread(
                target=lambda: s.run(after._c, alphabeta.MAX_DEPTH, 0, 0.0, workers=1), daemon=True
            )
            self.thread.start()
            self.pondered += 1
        return move


ap = argparse.ArgumentParser()
ap.add_argument("--time", type=float, default=0.1)
ap.add_argument("--workers", type=int, default=2)
ap.add_argument("--no-ponder", action="store_true")
ap.add_argument("--opponent", default="ext[/work/py-base]:alphabeta:time=0.1")
ap.add_argument("--pairs", type=int, default=200)
ap.add_argument("--seed", type=int, default=901)
ap.add_argument("--out", required=True)
a = ap.parse_args()
A = Pondering(ponder=not a.no_ponder, time=a.time, workers=a.workers)
B = make_player(a.opponent, seed=1)
name_a = f"ponder={not a.no_ponder},time={a.time},workers={a.workers}"
wins = n = 0
marg = 0
with open(a.out, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["pair", "first", "score_a", "score_b", "winner_is_a"])
    f.flush()
    for job in pairing_jobs("A", "B", a.pairs, a.seed, "revised"):
        first, second, circle, edition, gseed, pair = job
        A.new_game()
        B.new_game()
        players = {"A": A, "B": B}
        seats = (players[first], players[second])
        pos = Position.start(circle=circle, edition=edition, first_player=0)
        while not pos.is_over:
            pos = pos.play(seats[pos.to_move].choose(pos))
        A._stop()
        ia = 0 if first == "A" else 1
        sc = pos.scores()
        win = pos.winner() == ia
        wins += win
        n += 1
        marg += sc[ia] - sc[1 - ia]
        w.writerow([pair, first, sc[ia], sc[1 - ia], int(win)])
        f.flush()
        if n % 20 == 0:
            print(
                f"{n} games: A {wins}/{n} = {wins / n:.3f}, margin {marg / n:+.2f}, pondered {A.pondered}",
                flush=True,
            )
print(f"{name_a} vs {a.opponent}: {wins}/{n} = {wins / n:.3f}, margin {marg / n:+.2f}")
B.close()
