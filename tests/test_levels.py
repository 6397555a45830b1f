"""Opponents at a level (patchsolve.review.levels): deterministic for a seed,
weaker level by level, never a move outside their own ranked rows."""

import json
import statistics

import pytest
from click.testing import CliRunner

import patchsolve as ps
from patchsolve.arena.players import make_player
from patchsolve.cli import cli
from patchsolve.review.levels import LEVELS, level_move
from patchsolve.search.bench import noisy_greedy_game
from patchsolve.search.result import choice_of


def endgames():
    """Positions 10 and 12 plies before the end of noisy greedy games, with
    every move's exact value (the solver's all_moves)."""
    out = []
    for g in range(200, 220):
        game = noisy_greedy_game(g)
        for back in (10, 12):
            p = game[-back]
            if p.is_over or len(p.legal_moves()) < 2:
                continue
            r = ps.solve(p, all_moves=True, time=10)
            if r.bound == "exact":
                out.append((p, r.score, {str(d["move"]): d for d in r.root_moves}))
    return out


@pytest.fixture(scope="module")
def solved():
    return endgames()


def points_lost(level, solved):
    losses = []
    for seed in (0, 1):
        for pos, best, rows in solved:
            d = rows[str(level_move(pos, level, seed=seed)[0])]
            losses.append(best - (d["score"] if d["bound"] == "exact" else min(best, d["upper"])))
    return statistics.mean(losses)


def test_lower_levels_lose_more_points_per_move(solved):
    assert len(solved) >= 25
    lost = [points_lost(level, solved) for level in (1, 5, 9)]
    assert lost[0] > lost[1] > lost[2] >= 0, lost


def test_a_level_is_deterministic_for_a_seed_and_chooses_from_its_rows():
    pos = noisy_greedy_game(5)[16]
    for level in LEVELS:
        a, r = level_move(pos, level, seed=7)
        b, _ = level_move(pos, level, seed=7)
        assert a == b and pos.is_legal(a)
        # the choice (walk or which patch) is one of its ranked choices; the placement may be any
        assert choice_of(a) in {d["choice"] for d in r.root_moves if d["kind"] == "choice"}


def test_low_levels_err_in_the_choice_and_in_the_placement():
    """Over many seeds level 1 buys more than one patch and lays one patch
    in more than one place; level 9 always plays the same move."""
    pos = noisy_greedy_game(5)[16]
    low = [level_move(pos, 1, seed=s)[0] for s in range(40)]
    assert len({choice_of(m) for m in low}) >= 2
    by_patch = {}
    for m in low:
        by_patch.setdefault(m.patch, set()).add(str(m))
    assert max(len(v) for v in by_patch.values()) >= 2
    assert len({str(level_move(pos, 9, seed=s)[0]) for s in range(3)}) == 1


def test_level_ten_is_the_engine():
    pos = noisy_greedy_game(5)[16]
    move, r = level_move(pos, 10, depth=4, workers=1)
    assert move == ps.search(pos, depth=4, workers=1).best_move


@pytest.mark.parametrize("bad", [0, 11, 2.5, True])
def test_bad_levels_are_refused(bad):
    with pytest.raises(ps.PatchsolveError):
        level_move(ps.Position.start(), bad)


def test_a_level_below_ten_refuses_limits():
    with pytest.raises(ps.PatchsolveError):
        level_move(ps.Position.start(), 3, depth=5)
    with pytest.raises(ps.PatchsolveError):
        make_player("level:3,nodes=100")


def test_level_player_specs_play_as_the_level():
    pos = noisy_greedy_game(5)[16]
    player = make_player("level:4", seed=3)
    assert player.choose(pos) == level_move(pos, 4, seed=3)[0]
    with pytest.raises(ps.PatchsolveError):
        make_player("level:x")


def test_best_and_play_at_a_level(tmp_path):
    r = CliRunner().invoke(cli, ["best", "--level", "3", "--seed", "1", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["move"] == str(level_move(ps.Position.start(seed=0), 3, seed=1)[0])
    r = CliRunner().invoke(cli, ["best", "--level", "3", "--depth", "2"])
    assert r.exit_code == 2 and "own budget" in r.output
    record = tmp_path / "g.txt"
    r = CliRunner().invoke(
        cli, ["play", "--p0", "engine", "--p1", "engine", "--level", "2", "-q", "--record", str(record)]
    )
    assert r.exit_code == 0, r.output
    assert ps.Game.read(record).end.is_over
