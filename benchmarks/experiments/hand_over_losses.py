"""The perfect-play set's losses of one player spec under this interpreter's
build, written as JSON, and the paired comparison of two such files (two
builds of the engine, the same spec and seeds).

    /work/py-ho  benchmarks/experiments/hand_over_losses.py run alphabeta:time=1 new_1s.json
    /work/py-lad benchmarks/experiments/hand_over_losses.py run alphabeta:time=1 old_1s.json
    python benchmarks/experiments/hand_over_losses.py compare old_1s.json new_1s.json
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_exact as B  # noqa: E402


def main() -> None:
    if sys.argv[1] == "run":
        r = B.judge(sys.argv[2], B.read_rows(B.DATA), 0)
        Path(sys.argv[3]).write_text(json.dumps(r) + "\n")
        print(f"{r['player']}: {r['mean_loss']:.3f} [{r['ci95'][0]:.2f}, {r['ci95'][1]:.2f}]")
    else:
        old, new = (json.loads(Path(p).read_text()) for p in sys.argv[2:4])
        d = B.paired(old, new)
        print(
            f"{sys.argv[3]} less {sys.argv[2]}: {d['mean']:+.3f} [{d['ci95'][0]:+.2f}, {d['ci95'][1]:+.2f}]"
        )
        print("changed:", d["changed"])


if __name__ == "__main__":
    main()
