"""The shipped ``win_probability`` judged on a self-play corpus it was not
fitted on (every game held out): the Brier score, predicted against
observed by decile of the prediction, and the largest gap (the issue's
target: at most 5 points in every decile).

    python benchmarks/tools/judge_calibration.py corpus.jsonl

The corpus may be plain or xz-compressed (``tests/data/selfplay_leather.jsonl.xz``;
the others are not in the tree: their notes say how to get them back).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from patchsolve.arena import calibration as cal

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from inputs import read_jsonl  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", type=Path)
    args = ap.parse_args()
    records = read_jsonl(args.corpus)
    data = cal.samples(records)
    predicted = cal.current_win_probability(data["score"], data["phase"])
    rows = cal.decile_table(predicted, data["won"])
    print(f"{len(records)} games, {len(predicted)} scored moves")
    print(f"Brier: shipped {cal.brier(predicted, data['won']):.4f}")
    print("| decile | moves | predicted | observed (95% CI) | gap |")
    print("|---:|---:|---:|---|---:|")
    for r in rows:
        lo, hi = r["ci95"]
        print(
            f"| {r['decile']} | {r['n']} | {100 * r['predicted']:.1f}% | {100 * r['observed']:.1f}% "
            f"[{100 * lo:.1f}, {100 * hi:.1f}] | {100 * r['gap']:+.1f} |"
        )
    print(f"largest gap: {100 * max(abs(r['gap']) for r in rows):.1f} points (target: at most 5)")


if __name__ == "__main__":
    main()
