"""Deterministic answers of the near-end path (the solver first, the
hand-over, keeping a proven win, the solver's questions), written to a JSON
file to compare before and after a refactor that must not change them.

Run:  python benchmarks/tools/near_end_fingerprint.py before.json
      (change the code, rebuild)
      python benchmarks/tools/near_end_fingerprint.py after.json && cmp before.json after.json

Positions: the last third of noisy greedy games (``bench.noisy_greedy_game``),
most of them near the end. Per position ten calls under node, depth or
iteration budgets only (one thread: every figure is reproducible):
``search`` with the alpha-beta (two node budgets, ranked rows, a depth),
the MCTS (iterations and a seed), and ``solve`` with each question (exact,
``wdl``, ``all_moves``, ``at_least``, ``best``). Each answer is kept whole
(``SearchResult.to_dict`` without its time and speed).
"""

from __future__ import annotations

import json
import sys

import patchsolve as ps
from patchsolve.search import bench

GAMES = range(5)
PER_GAME = 3  # positions a game, spread over its last third

CALLS = (
    ("search alphabeta nodes=30000", lambda p: ps.search(p, engine="alphabeta", nodes=30_000)),
    ("search alphabeta nodes=150000", lambda p: ps.search(p, engine="alphabeta", nodes=150_000)),
    ("search alphabeta nodes=100000 multipv=3", lambda p: ps.search(p, nodes=100_000, multipv=3)),
    ("search alphabeta depth=3", lambda p: ps.search(p, engine="alphabeta", depth=3)),
    ("search mcts iterations=400 seed=5", lambda p: ps.search(p, engine="mcts", iterations=400, seed=5)),
    ("solve nodes=100000", lambda p: ps.solve(p, nodes=100_000)),
    ("solve nodes=50000 wdl", lambda p: ps.solve(p, nodes=50_000, wdl=True)),
    ("solve nodes=100000 all_moves", lambda p: ps.solve(p, nodes=100_000, all_moves=True)),
    ("solve nodes=50000 at_least=0", lambda p: ps.solve(p, nodes=50_000, at_least=0)),
    ("solve nodes=100000 best", lambda p: ps.solve(p, nodes=100_000, best=True)),
)


def positions():
    for seed in GAMES:
        game = bench.noisy_greedy_game(seed)
        live = game[:-1]
        start = 2 * len(live) // 3
        step = max(1, (len(live) - start) // PER_GAME)
        for i in range(start, len(live), step)[:PER_GAME]:
            yield f"game {seed} ply {i}/{len(live)}", live[i]


def answer(r) -> dict:
    d = r.to_dict()
    for key in ("time", "nps"):
        d.pop(key, None)
    return d


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = []
    for where, pos in positions():
        for name, call in CALLS:
            out.append({"position": where, "text": pos.to_text(), "call": name, "answer": answer(call(pos))})
    text = json.dumps(out, indent=1, sort_keys=True, default=str)
    if argv:
        with open(argv[0], "w", encoding="utf-8") as f:
            f.write(text + "\n")
    else:
        print(text)
    print(f"{len(out)} calls", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
