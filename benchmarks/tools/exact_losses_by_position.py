"""Each position of the perfect-play set where a player loses points: its
phase, exact value, the move played, the loss and the best moves.

    python benchmarks/tools/exact_losses_by_position.py alphabeta:time=1
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_exact import played, read_rows  # noqa: E402

spec = sys.argv[1] if len(sys.argv) > 1 else "alphabeta:time=1"
rows = read_rows(Path(__file__).resolve().parents[1] / "exact_26_34.jsonl")
for i, (row, move, lost, bound) in enumerate(played(spec, rows, 0)):
    if lost > 0:
        best = [m["move"] for m in row["moves"] if m["bound"] == "exact" and m["score"] == row["value"]]
        kind = " (a bound)" if bound else ""
        print(
            f"{i} phase {row['phase']} value {row['value']} played {move} lost {lost}{kind} best {best[:4]}"
        )
