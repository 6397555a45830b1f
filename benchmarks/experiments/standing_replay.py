"""Replay pairs of the node-budget endgame match (``late_match.py``, the
same start positions and seeds) in one process: side A with the rule of
``handover._left_standing`` on, side B with it off (main's other code, so
B plays as the build before the rule). Each move the rule changed is
valued exactly by the solver (40 M nodes), and printed with what the
choice tests left standing; each game's margin for A is printed too.

    python benchmarks/experiments/standing_replay.py 119 67 80
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[1] / "tools"))
import late_match as L  # noqa: E402

import patchsolve  # noqa: E402
from patchsolve.arena.players import make_player  # noqa: E402
from patchsolve.arena.selfplay import choose_with_result  # noqa: E402
from patchsolve.search import handover, learned  # noqa: E402

SPEC = "alphabeta:nodes=2500000"
RULE = handover._left_standing
state: dict = {"on": True, "changed": []}


def gated(position, result, *standing):
    """The rule for side A only, noting each move it changes."""
    if state["on"]:
        before = result.best_move
        RULE(position, result, *standing)
        if result.best_move != before:
            state["changed"].append((position, before, result.best_move, standing))


def exact(position, move) -> int:
    """``move``'s exact value for the player to move (or a bound)."""
    child = position.play(move)
    if child.is_over:
        a, b = child.scores()
        return a - b if position.to_move == 0 else b - a
    r = patchsolve.solve(child, nodes=40_000_000, workers=1)
    return r.score if child.to_move == position.to_move else -r.score


def replay(i: int) -> None:
    start = L.start_position(i, 34, "alphabeta:nodes=20000")
    me = start.to_move
    for name, a_side in (("A first", me), ("A second", 1 - me)):
        players = {p: make_player(SPEC, seed=2 * i + p) for p in (0, 1)}  # as late_match.play
        pos = start
        while not pos.is_over:
            state["on"], state["changed"] = pos.to_move == a_side, []
            move = choose_with_result(players[pos.to_move], pos)[0]
            for position, before, after, standing in state["changed"]:
                print(i, name, standing, before, exact(position, before), "->", after, exact(position, after))
                print("  ", position.to_text(), flush=True)
            pos = pos.play(move)
        s = pos.scores()
        print(i, name, "A's margin", s[a_side] - s[1 - a_side], flush=True)


def main() -> None:
    handover._left_standing = gated
    learned.load((HERE.parents[2] / "src/patchsolve/data/eval_weights.json").read_text())
    for i in map(int, sys.argv[1:]):
        replay(i)


if __name__ == "__main__":
    main()
