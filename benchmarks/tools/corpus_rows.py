"""Training rows from a self-play corpus (``patchsolve selfplay``): every
position before the end, its mover, the mover's final margin and the score
the corpus kept for the move (``patchsolve.training.selfplay.corpus_rows``).

The 2,000-game corpus was played at 300,000 nodes a move with exact play
from where the solver proved the end: stronger games, with less noise near
the end, than the training self-play of ``train_eval.py generate``.
Generation 4 of the learned evaluation is the fit of its rows.

    python benchmarks/tools/corpus_rows.py benchmarks/results/selfplay_2000/corpus.jsonl --out corpus2000_rows.csv
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

from patchsolve.selfplay import read_corpus
from patchsolve.training.selfplay import COLUMNS, corpus_rows


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
