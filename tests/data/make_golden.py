"""How tests/data/golden_game.txt was made (kept for the record; the file is frozen).

A simple greedy player on both sides from the built-in start position: buy
the patch with the best (income still to collect + 2 x squares - cost) per
time, placed at its first legal placement; otherwise walk. Run:
PYTHONPATH=src python tests/data/make_golden.py > tests/data/golden_game.txt
"""

from patchsolve import Game
from patchsolve.rules.patches import EDITIONS, PATCHES


def greedy(pos):
    moves = pos.legal_moves()
    if pos.pending_leather:
        return moves[0]
    p = pos.to_move
    left = sum(1 for s in EDITIONS[pos.edition].income_spaces if s > pos.time(p))
    best, best_value = moves[0], 0.0
    for m in moves:
        if m.kind != "buy":
            continue
        patch = PATCHES[m.patch]
        value = (patch.income * left + 2 * patch.size - patch.buttons) / patch.time
        if value > best_value:
            best, best_value = m, value
    return best


game = Game()
while not game.end.is_over:
    game.push(greedy(game.end))
print(game.to_text(), end="")
