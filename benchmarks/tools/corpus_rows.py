"""Training rows from a self-play corpus (``patchsolve selfplay``): every
position before the end, its mover, the mover's final margin and the score
the corpus kept for the move (``patchsolve.training.selfplay.corpus_rows``).

The 2,000-game corpus was played at 300,000 nodes a move with exact play
from where the solver proved the end: stronger games, with less noise near
the end, than the training self-play of ``train_eval.py generate``.
Generation 4 of the learned evaluation is the fit of its rows.

    python benchmarks/tools/corpus_rows.py tests/data/selfplay_2000.jsonl.xz --out corpus2000_rows.csv

The corpus may be plain or xz-compressed.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from patchsolve.training.selfplay import COLUMNS, corpus_rows

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from inputs import read_corpus  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    n = 0
    with args.out.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        for i, record in enumerate(read_corpus(args.corpus)):
            rows = corpus_rows(i, record)
            w.writerows(rows)
            n += len(rows)
    print(f"{n} rows written to {args.out}")


if __name__ == "__main__":
    main()
