"""Train the learned evaluation: self-play generation, fit, weights file.

    # games of the current engine (appended; resumable), one CSV per seed
    python benchmarks/tools/train_eval.py generate --out data/gen0_seed1.csv --games 800 --seed 1 --nodes 4000
    # fit on every CSV given, write the package's weights with their manifest
    python benchmarks/tools/train_eval.py fit data/gen0_seed*.csv --out src/patchsolve/data/eval_weights.json

Needs the ``[train]`` extra (SciPy, for ``fit --patterns``). The recorded runs and their matches
are in ``benchmarks/results/knowledge.md``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from patchsolve.training import fit, selfplay


def commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=Path(__file__).parent
        ).stdout.strip()
    except OSError:
        return "unknown"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--out", required=True)
    g.add_argument("--games", type=int, default=800)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--nodes", type=int, default=4000)
    g.add_argument("--noise-plies", type=int, default=16)
    g.add_argument("--noise", type=float, default=0.3)
    g.add_argument("--learned", action="store_true", help="self-play with the current learned evaluation")
    g.add_argument("--backend", choices=["local", "ray"], default="local", help="where the games run")
    g.add_argument("--workers", type=int, default=1)
    g.add_argument("--address", default=None, help="a Ray cluster (with --backend ray)")
    f = sub.add_parser("fit")
    f.add_argument("data", nargs="+")
    f.add_argument("--out", required=True)
    f.add_argument("--ridge", type=float, default=1.0)
    f.add_argument("--split-seed", type=int, default=0)
    f.add_argument("--held-out", type=float, default=0.2)
    f.add_argument("--generation", type=int, default=1)
    f.add_argument("--patterns", action="store_true", help="fit the quilt pattern tables too (needs SciPy)")
    f.add_argument("--ridge-patterns", type=float, default=30000.0)
    f.add_argument(
        "--pattern-phase", action="store_true", help="a second set of pattern tables scaled by the phase"
    )
    f.add_argument("--limit-games", type=int, default=None, help="use only the first N games of the data")
    f.add_argument(
        "--outcome",
        type=float,
        default=1.0,
        help="weight of the final margin in the target; the rest is the search's score",
    )
    a = ap.parse_args(argv)
    if a.cmd == "generate":
        n = selfplay.generate(
            Path(a.out),
            a.games,
            a.seed,
            a.nodes,
            a.noise_plies,
            a.noise,
            a.learned,
            progress=lambda i, t: print(f"{i}/{t}", file=sys.stderr, end="\r"),
            backend=a.backend,
            workers=a.workers,
            address=a.address,
        )
        print(f"{n} rows appended to {a.out}")
        return
    rows = fit.read_rows(a.data)
    if a.limit_games is not None:
        keep = set(sorted({r["game"] for r in rows}, key=int)[: a.limit_games])
        rows = [r for r in rows if r["game"] in keep]
    if not 0.0 <= a.outcome <= 1.0:
        ap.error("--outcome must be between 0 and 1")
    model = fit.fit(
        rows, a.held_out, a.split_seed, a.ridge, a.outcome, a.patterns, a.ridge_patterns, a.pattern_phase
    )
    fit.write(
        model,
        Path(a.out),
        {
            "generation": a.generation,
            "data": [Path(p).name for p in a.data],
            "commit": commit(),
            "command": " ".join(sys.argv),
        },
    )
    print(json.dumps(model["manifest"], indent=1))


if __name__ == "__main__":
    main()
