"""Race check for the Lazy SMP alpha-beta: many short searches on 2, 3 or
8 threads in a 1 MB table (constant collisions and torn entries), each
answer checked (a legal move, a legal PV). Meant for a debug or
AddressSanitizer build (benchmarks/results/smp.md has the recipe).

Run:  python benchmarks/tools/stress_smp.py [SECONDS] [SEED]
"""

from __future__ import annotations

import random
import sys
import time

import patchsolve
from patchsolve.search.bench import noisy_greedy_game


def check(pos, r) -> None:
    assert r.best_move in pos.legal_moves(), (pos.to_text(), r)
    line = pos
    for m in r.pv:
        assert m in line.legal_moves(), (pos.to_text(), r.pv)
        line = line.play(m)
        if line.is_over:
            break


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 60.0
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 7)
    end, n = time.monotonic() + seconds, 0
    while time.monotonic() < end:
        game = noisy_greedy_game(rng.randrange(10**6))
        pos = game[rng.randrange(len(game) - 1)]
        r = patchsolve.search(
            pos, engine="alphabeta", time=0.03, workers=rng.choice([2, 3, 8]), hash_mb=1, endgame_solve=False
        )
        check(pos, r)
        n += 1
    print(f"{n} searches, every answer legal")


if __name__ == "__main__":
    main()
