"""Win-probability calibration on the training self-play games
(``train_eval.py generate``): every position's search score (for the player
to move), its phase and whether that player won, fitted and judged by
``patchsolve.arena.calibration`` (held-out games, deciles, Brier).

    python benchmarks/tools/calibrate_training.py DATA.csv [...] --out params.json [--check corpus.jsonl]

A game whose final margin is 0 is left out: the CSV keeps margins, not the
tie-break's winner. ``--check`` judges the fitted mapping on a second corpus
(``patchsolve selfplay`` records, e.g. stronger play; plain or .xz) as well.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

from patchsolve.arena import calibration
from patchsolve.rules.patches import LAST_SPACE
from patchsolve.rules.position import Position
from patchsolve.training import fit


def records(rows) -> list[dict]:
    """The rows as self-play records (``calibration.samples``'s input)."""
    games: dict[str, list] = defaultdict(list)
    for r in rows:
        games[r["game"]].append(r)
    out = []
    for gid in sorted(games, key=int):
        rs = games[gid]
        margin0 = next(int(r["final_margin"]) * (1 if r["mover"] == "0" else -1) for r in rs)
        if margin0 == 0:
            continue
        evals = []
        for r in rs:
            pos = Position(r["position"])
            left = [LAST_SPACE - pos.time(0), LAST_SPACE - pos.time(1)]
            evals.append(
                {
                    "score": float(r["search_score"]),
                    "bound": "estimate",
                    "left": left,
                    "player": int(r["mover"]),
                }
            )
        out.append({"game": int(gid), "winner": 0 if margin0 > 0 else 1, "evals": evals})
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("data", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--check", default=None, help="a patchsolve selfplay corpus to judge the fit on too")
    a = ap.parse_args(argv)
    recs = records(fit.read_rows(a.data))
    cal = calibration.calibrate(recs, seed=a.seed)
    cal["model"].info.update(
        {
            "data": [Path(p).name for p in a.data],
            "label": "whether the player to move won the self-play game (games with a 0 margin left out)",
            "score": "the self-play search's score of the position (train_eval.py generate)",
            "held_out": {
                "games": cal["test"]["games"],
                "moves": cal["test"]["moves"],
                "brier": round(cal["brier"], 4),
                "max_decile_gap": round(cal["max_gap"], 4),
            },
            "command": " ".join(["python", *sys.argv]),
        }
    )
    calibration.write_params(cal["model"], a.out)
    print(calibration.calibration_markdown(cal))
    if a.check:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from inputs import read_jsonl

        other = read_jsonl(a.check)
        data = calibration.samples(other)
        pred = cal["model"].predict(data["score"], data["phase"])
        table = calibration.decile_table(pred, data["won"])
        score = calibration.brier(pred, data["won"])
        print(f"\nOn {a.check} ({len(other)} games, {len(pred)} moves): Brier {score:.4f}")
        for row in table:
            lo, hi = row["ci95"]
            print(
                f"decile {row['decile']}: n {row['n']} predicted {100 * row['predicted']:.1f}% "
                f"observed {100 * row['observed']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
            )


if __name__ == "__main__":
    main()
