"""patchsolve.analysis (the game review), its graph and ``analyze --svg``."""

import xml.dom.minidom
from pathlib import Path

import pytest
from click.testing import CliRunner

import patchsolve as ps
from patchsolve import Game
from patchsolve.analysis import analyze_game
from patchsolve.cli import cli
from patchsolve.review_svg import review_svg
from patchsolve.search import SearchResult
from patchsolve.search.result import phase_of, win_probability_of

GOLDEN = Path(__file__).parent / "data" / "golden_game.txt"


def short_game(start_ply=40):
    game = Game.read(GOLDEN)
    return Game(game.position(start_ply), game.moves[start_ply:])


def scripted(values, bests, wins=None):
    """An evaluate() that answers position k with values[k] for the player to
    move and bests[k] as its move (or the first legal move when None)."""

    def evaluate(pos, k, n):
        best = bests[k] if bests[k] is not None else str(pos.legal_moves()[0])
        return SearchResult(
            best_move=best, score=values[k], win_probability=None if wins is None else wins[k]
        )

    return evaluate


def test_losses_flags_and_player_zero_side():
    game = short_game()
    n = len(game)
    values = [float(k % 5) for k in range(n + 1)]
    review = analyze_game(game, threshold=1.0, evaluate=scripted(values, [None] * (n + 1)))
    assert len(review.moves) == n
    finals = game.end.scores()
    for m, ply in zip(review.moves, game.replay()):
        before = ply.before
        value_before = values[m.number - 1]
        after = ply.after
        if after.is_over:
            margin0 = float(after.scores()[0] - after.scores()[1])
        else:
            margin0 = values[m.number] if after.to_move == 0 else -values[m.number]
        assert m.margin0 == margin0
        assert m.best_value == value_before
        mover_sign = 1 if ply.player == 0 else -1
        assert m.played_value == mover_sign * margin0
        expected = 0.0 if m.best_move == m.move else max(0.0, value_before - m.played_value)
        assert m.loss == expected
        assert m.flag == ("??" if expected > 2 else "?" if expected > 1 else "")
        assert m.position == before.to_text()
    assert review.final_scores == finals
    assert review.moves[-1].win0 == (1.0 if game.end.winner() == 0 else 0.0)
    s = review.summary()
    assert [x["moves"] for x in s] == [sum(1 for p in game.replay() if p.player == pl) for pl in (0, 1)]
    assert sum(x["flagged"] for x in s) == len(review.mistakes())


def test_the_engine_move_costs_nothing_and_win_probability_is_turned_to_player_zero():
    game = short_game(45)
    n = len(game)
    bests = [str(m) for m in game.moves] + [None]
    wins = [0.8] * (n + 1)
    review = analyze_game(game, evaluate=scripted([10.0 * (k % 2) for k in range(n + 1)], bests, wins))
    assert all(m.loss == 0 for m in review.moves)
    for m, ply in zip(review.moves, game.replay()):
        if not ply.after.is_over:
            assert m.win0 == pytest.approx(0.8 if ply.after.to_move == 0 else 0.2)


def test_without_an_engine_win_probability_the_margin_is_converted():
    game = short_game(45)
    n = len(game)
    review = analyze_game(game, evaluate=scripted([4.0] * (n + 1), ["(none)"] * (n + 1)))
    for m, ply in zip(review.moves, game.replay()):
        if not ply.after.is_over:
            # the engine's score (4 for the player to move), its calibrated chance, turned to player 0
            wp = win_probability_of(4.0, phase_of(ply.after))
            assert m.win0 == pytest.approx(wp if ply.after.to_move == 0 else 1.0 - wp)
            assert (m.win0 > 0.5) == (m.margin0 > 0)


def test_an_interrupted_search_ends_the_review_with_the_moves_so_far():
    game = short_game(40)
    calls = []

    def evaluate(pos, k, n):
        calls.append(k)
        return SearchResult(best_move=str(pos.legal_moves()[0]), score=1.0, interrupted=k == 4)

    review = analyze_game(game, evaluate=evaluate)
    assert review.interrupted and calls == [0, 1, 2, 3, 4]
    assert [m.number for m in review.moves] == [1, 2, 3]
    assert review.to_dict()["interrupted"] is True


def test_bad_threshold_is_a_patchsolve_error():
    with pytest.raises(ps.PatchsolveError):
        analyze_game(short_game(), threshold=-1, evaluate=scripted([0.0] * 20, [None] * 20))


def test_the_graph_marks_each_mistake_and_every_ply():
    game = short_game(20)
    n = len(game)
    values = [float((k * 7) % 13 - 6) for k in range(n + 1)]
    review = analyze_game(game, threshold=2.0, evaluate=scripted(values, ["(none)"] * (n + 1)))
    doc = xml.dom.minidom.parseString(review_svg(review))
    marks = [c for c in doc.getElementsByTagName("circle") if c.getAttribute("class") == "mistake"]
    assert sorted(int(c.getAttribute("data-ply")) for c in marks) == [m.number for m in review.mistakes()]
    assert review.mistakes(), "the scripted values must produce mistakes"
    radius = {int(c.getAttribute("data-ply")): float(c.getAttribute("r")) for c in marks}
    by_loss = sorted(review.mistakes(), key=lambda m: m.loss)
    assert [radius[m.number] for m in by_loss] == sorted(radius[m.number] for m in by_loss)
    hits = [r for r in doc.getElementsByTagName("rect") if r.getAttribute("class") == "ply-hit"]
    assert [int(r.getAttribute("data-ply")) for r in hits] == list(range(n + 1))


def test_cli_analyze_writes_the_svg(tmp_path):
    path = tmp_path / "short.txt"
    short_game(44).write(path)
    out = tmp_path / "review.svg"
    r = CliRunner().invoke(
        cli,
        ["analyze", str(path), "--engine", "alphabeta", "--depth", "1", "-q", "--svg", str(out), "--json"],
    )
    assert r.exit_code == 0, r.output
    doc = xml.dom.minidom.parseString(out.read_text())
    assert doc.documentElement.tagName == "svg"
    import json

    data = json.loads(r.stdout)
    assert {"margin0", "win0", "best_move", "best_value", "played_value", "position"} <= set(data["moves"][0])


def test_cli_analyze_refuses_an_unwritable_svg_before_searching(tmp_path):
    path = tmp_path / "short.txt"
    short_game(44).write(path)
    r = CliRunner().invoke(
        cli,
        [
            "analyze",
            str(path),
            "--depth",
            "1",
            "--engine",
            "alphabeta",
            "-q",
            "--svg",
            str(tmp_path / "no" / "such" / "dir.svg"),
        ],
    )
    assert r.exit_code == 2 and "cannot write" in r.stderr and "Traceback" not in r.output


# -- judging: classes, win probability lost, accuracy ----------------------


@pytest.mark.parametrize(
    "loss,win_loss,win_before,best,expected",
    [
        (0.0, 0.0, 0.5, False, "best"),  # nothing lost
        (9.0, 0.3, 0.5, True, "best"),  # the engine's own move is never charged
        (1.0, 0.049, 0.5, False, "good"),
        (2.0, 0.05, 0.5, False, "inaccuracy"),
        (4.0, 0.10, 0.5, False, "mistake"),
        (8.0, 0.199, 0.5, False, "mistake"),
        (8.0, 0.20, 0.5, False, "blunder"),
        # saturated: the points decide, whatever the win probability says
        (2.9, 0.0, 0.99, False, "good"),
        (3.0, 0.0, 0.99, False, "inaccuracy"),
        (6.0, 0.001, 0.01, False, "mistake"),
        (12.0, 0.0, 0.995, False, "blunder"),
    ],
)
def test_the_class_of_a_move_follows_the_documented_thresholds(loss, win_loss, win_before, best, expected):
    from patchsolve.analysis import judge

    assert judge(loss, win_loss, win_before, best) == expected


def test_move_accuracy_is_lichess_formula():
    from patchsolve.analysis import game_accuracy, move_accuracy

    assert move_accuracy(0.0) == pytest.approx(100.0, abs=1e-3)
    assert move_accuracy(0.2) == pytest.approx(103.1668 * 2.718281828 ** (-0.04354 * 20) - 3.1669)
    assert move_accuracy(1.0) == 0.0
    assert game_accuracy([100.0, 50.0]) == pytest.approx((75.0 + 2 / (1 / 100 + 1 / 50)) / 2)
    assert game_accuracy([]) is None


def test_classes_summary_and_accuracy_on_a_game_with_known_values():
    game = short_game(20)
    n = len(game)
    # Every position is worth 0 to the player to move with a 50% chance, except
    # that the engine's choice is never the move played: each unforced move
    # then loses exactly what the next position's value says.
    values = [0.0] * (n + 1)
    wins = [0.5] * (n + 1)
    values[2], wins[2] = 7.0, 0.75  # after move 2 the opponent has +7: the mover lost 7 points, 25% win
    values[4], wins[4] = 2.0, 0.57  # after move 4: lost 2 points, 7% win (an inaccuracy)
    review = analyze_game(game, threshold=5.0, evaluate=scripted(values, ["(none)"] * (n + 1), wins))
    moves = {m.number: m for m in review.moves}
    forced = [p.number for p in game.replay() if len(p.before.legal_moves()) == 1]
    for k in forced:
        assert moves[k].forced and moves[k].judgement == "best" and moves[k].loss == 0
    assert 2 not in forced and 4 not in forced
    assert moves[2].loss == 7.0 and moves[2].win_loss == pytest.approx(0.25)
    assert moves[2].judgement == "blunder" and moves[2].flag == "?"
    assert moves[4].loss == 2.0 and moves[4].win_loss == pytest.approx(0.07)
    assert moves[4].judgement == "inaccuracy"
    summary = review.summary()
    mover2 = moves[2].player
    assert summary[mover2]["classes"]["blunder"] >= 1
    assert summary[mover2]["biggest_mistakes"][0] == {
        "number": 2,
        "move": moves[2].move,
        "best_move": "(none)",
        "loss": 7.0,
        "class": "blunder",
    }
    for pl in (0, 1):
        judged = [m for m in review.moves if m.player == pl and not m.forced]
        assert sum(summary[pl]["classes"].values()) == summary[pl]["moves"]
        assert summary[pl]["forced"] == sum(1 for m in review.moves if m.player == pl and m.forced)
        from patchsolve.analysis import game_accuracy

        assert summary[pl]["accuracy"] == round(game_accuracy([m.accuracy for m in judged]), 1)
    d = review.to_dict()
    assert d["moves"][1]["class"] == "blunder" and "judgement" not in d["moves"][1]
    assert 2 in d["critical_moments"]


def test_critical_moments_are_the_largest_swings_in_order():
    game = short_game(20)
    n = len(game)
    wins = [0.5] * (n + 1)
    wins[2], wins[6], wins[9] = 0.9, 0.2, 0.45
    values = [0.0] * (n + 1)
    review = analyze_game(game, evaluate=scripted(values, [None] * (n + 1), wins))
    numbers = [m.number for m in review.critical_moments()]
    assert len(numbers) == 3 and numbers == sorted(numbers)
    swing = {
        m.number: abs(m.win0 - (review.moves[i - 1].win0 if i else review.start.win0))
        for i, m in enumerate(review.moves)
    }
    assert min(swing[k] for k in numbers) >= max(v for k, v in swing.items() if k not in numbers)


def test_the_graph_carries_each_players_accuracy_and_classes():
    game = short_game(20)
    n = len(game)
    values = [float((k * 7) % 13 - 6) for k in range(n + 1)]
    review = analyze_game(game, threshold=2.0, evaluate=scripted(values, ["(none)"] * (n + 1)))
    doc = xml.dom.minidom.parseString(review_svg(review))
    texts = [t.firstChild.data for t in doc.getElementsByTagName("text") if t.firstChild]
    for row in review.summary():
        line = next(t for t in texts if t.startswith(f"player {row['player']}: accuracy"))
        assert f"accuracy {row['accuracy']:.1f}" in line
        assert f"{row['classes']['blunder']} blunders" in line


# -- many games ---------------------------------------------------------------


def test_many_games_from_a_folder_and_a_multi_game_file(tmp_path):
    from patchsolve.analysis import CSV_FIELDS, games_from, review_games

    a, b = short_game(40), short_game(44)
    folder = tmp_path / "games"
    folder.mkdir()
    a.write(folder / "a.txt")
    b.write(folder / "b.txt")
    both = tmp_path / "both.txt"
    both.write_text(a.to_text() + "\n" + b.to_text())
    by_folder = games_from(folder)
    by_file = games_from(both)
    assert [n for n, _ in by_folder] == ["a.txt", "b.txt"]
    assert [n for n, _ in by_file] == ["both.txt#1", "both.txt#2"]
    assert [Game.from_text(t) for _, t in by_file] == [a, b]
    rows = [r for rows in review_games(by_file, depth=2) for r in rows]
    assert sorted((r["game"], r["player"]) for r in rows) == [
        ("both.txt#1", 0),
        ("both.txt#1", 1),
        ("both.txt#2", 0),
        ("both.txt#2", 1),
    ]
    for r in rows:
        assert set(r) == set(CSV_FIELDS)
        game = a if r["game"].endswith("#1") else b
        assert r["final_score"] == game.end.scores()[r["player"]]
        assert r["moves"] == sum(1 for p in game.replay() if p.player == r["player"])


def test_a_bad_record_among_many_is_refused_before_any_search(tmp_path):
    from patchsolve.analysis import review_games

    with pytest.raises(ps.PatchsolveError, match="bad.txt"):
        list(
            review_games(
                [("ok.txt", short_game(40).to_text()), ("bad.txt", "circle 1,2\nmoves\nfly\n")], depth=1
            )
        )


def test_ctrl_c_in_a_script_raises_with_the_review_so_far():
    from patchsolve.errors import SearchInterrupted

    game = short_game(20)

    def evaluate(pos, k, n):
        if k == 3:
            raise SearchInterrupted(SearchResult(best_move=None, score=0.0, interrupted=True))
        return SearchResult(best_move=str(pos.legal_moves()[0]), score=1.0)

    with pytest.raises(SearchInterrupted) as stop:
        analyze_game(game, evaluate=evaluate)
    review = stop.value.result
    assert review.interrupted and [m.number for m in review.moves] == [1, 2]
