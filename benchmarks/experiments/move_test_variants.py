"""The perfect-play set's losses with the hand-over's test of the engine's
move alone (``shipped``) or without it (``base``: ``_ChoiceSearch`` built
with ``test_move=False``, as before 3dddf88), in one build:

    python benchmarks/experiments/move_test_variants.py base alphabeta:nodes=2000000,workers=1 base_2M.json
    python benchmarks/experiments/move_test_variants.py shipped alphabeta:nodes=2000000,workers=1 shipped_2M.json
    python benchmarks/experiments/hand_over_losses.py compare base_2M.json shipped_2M.json
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_exact as B  # noqa: E402
from patchsolve.search import questions  # noqa: E402


def main() -> None:
    variant, spec, out = sys.argv[1:4]
    if variant == "base":
        init = questions._ChoiceSearch.__init__
        questions._ChoiceSearch.__init__ = lambda self, *args, **kwargs: init(self, *args)
    elif variant != "shipped":
        raise SystemExit(f"variant: base or shipped, not {variant!r}")
    r = B.judge(spec, B.read_rows(B.DATA), 0)
    Path(out).write_text(json.dumps(r) + "\n")
    changed = [(i, loss) for i, loss in enumerate(r["losses"]) if loss]
    print(f"{variant} {spec}: {r['mean_loss']:.3f}; losses {changed}")


if __name__ == "__main__":
    main()
