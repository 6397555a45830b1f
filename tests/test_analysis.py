"""patchsolve.review.analysis (the game review), its graph and ``analyze --svg``."""

import xml.dom.minidom
from pathlib import Path

import pytest
from click.testing import CliRunner

import patchsolve as ps
from patchsolve import Game
from patchsolve.cli import cli
from patchsolve.review.analysis import analyze_game
from patchsolve.review.svg import CLASS_FILL, review_svg
from patchsolve.search import SearchResult
from patchsolve.search.result import phase_of, win_probability_of

GOLDEN = Path(__file__).parent / "data" / "golden_game.txt"


def short_game(start_ply=40):
    game = Game.read(GOLDEN)
    return Game(game.position(start_ply), game.moves[start_ply:])


def scripted(values, wins=None, bests=None, exact=False):
    """A judge() that values move k's best at values[k][0] and the move
    played at values[k][1] (for the mover), with win probabilities
    wins[k] (best, played) when given (else the calibrated curve)."""
    from patchsolve.review.judge import Measure, Side

    calls = []

    def judge(pos, move, budget):
        k = len(calls)
        calls.append(k)
        best_v, played_v = values[k]
        if wins is not None:
            best_w, played_w = wins[k]
        else:
            best_w = win_probability_of(best_v, phase_of(pos))
            played_w = win_probability_of(played_v, phase_of(pos))
        bound = "exact" if exact else "estimate"
        best_move = str(move) if best_v == played_v else (bests[k] if bests else "(best)")
        best = Side(best_move, best_v, bound, best_w, None)
        played = Side(str(move), played_v, bound, played_w, None)
        return Measure(
            pos.to_text(),
            pos.to_move,
            played,
            best,
            best_v - played_v,
            max(0.0, best_w - played_w),
            exact,
            3,
            len(pos.legal_moves()) == 1,
            budget,
        )

    return judge


def test_each_move_gets_its_measure_on_player_zeros_side():
    game = short_game()
    n = len(game)
    values = [(float(k % 5), float(k % 5) - (k % 3)) for k in range(n)]
    review = analyze_game(game, depth=2, judge=scripted(values))
    assert len(review.moves) == n
    for m, ply in zip(review.moves, game.replay()):
        best_v, played_v = values[m.number - 1]
        sign = 1 if ply.player == 0 else -1
        assert m.best_value == best_v and m.played_value == played_v
        assert m.margin0 == sign * played_v
        assert m.loss == (0.0 if m.forced else best_v - played_v)
        assert m.position == ply.before.to_text()
        wp = win_probability_of(played_v, phase_of(ply.before))
        assert m.win0 == pytest.approx(wp if ply.player == 0 else 1 - wp)
        assert m.flag == {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}.get(m.judgement, "")
    assert review.final_scores == game.end.scores()
    assert review.start.margin0 == (1 if game.start.to_move == 0 else -1) * values[0][0]
    s = review.summary()
    assert [x["moves"] for x in s] == [sum(1 for p in game.replay() if p.player == pl) for pl in (0, 1)]
    assert sum(x["flagged"] for x in s) == len(review.mistakes())


def test_a_real_review_is_the_same_twice_to_the_byte():
    import json

    game = short_game(44)
    a = json.dumps(analyze_game(game, nodes=5_000).to_dict(), sort_keys=True)
    b = json.dumps(analyze_game(game, nodes=5_000).to_dict(), sort_keys=True)
    assert a == b
    assert json.loads(a)["budget"]["nodes"] == 5_000 and "5,000 nodes" in json.loads(a)["budget"]["text"]


def test_an_interrupted_measure_ends_the_review_with_the_moves_so_far():
    from dataclasses import replace

    game = short_game(40)
    inner = scripted([(1.0, 1.0)] * len(game))
    calls = []

    def judge(pos, move, budget):
        calls.append(1)
        m = inner(pos, move, budget)
        return replace(m, interrupted=len(calls) == 4)

    review = analyze_game(game, depth=1, judge=judge)
    assert review.interrupted and len(calls) == 4
    assert [m.number for m in review.moves] == [1, 2, 3]
    assert review.to_dict()["interrupted"] is True


def test_a_game_without_moves_or_not_a_game_is_a_patchsolve_error():
    with pytest.raises(ps.PatchsolveError, match="no moves"):
        analyze_game(Game(), depth=1)
    with pytest.raises(ps.PatchsolveError):
        analyze_game("walk", depth=1)
    with pytest.raises(ps.PatchsolveError):
        analyze_game(short_game(), time=1.0)


def test_the_graph_marks_each_mistake_and_every_ply():
    game = short_game(20)
    n = len(game)
    values = [(0.0, -float((k * 7) % 13)) for k in range(n)]
    review = analyze_game(game, depth=1, judge=scripted(values))
    doc = xml.dom.minidom.parseString(review_svg(review))
    marks = [c for c in doc.getElementsByTagName("circle") if "mistake" in c.getAttribute("class").split()]
    assert sorted(int(c.getAttribute("data-ply")) for c in marks) == sorted(
        m.number for m in review.mistakes()
    )
    assert review.mistakes(), "the scripted values must produce mistakes"
    by_number = {m.number: m for m in review.moves}
    for c in marks:  # each dot says its class, in its colour
        m = by_number[int(c.getAttribute("data-ply"))]
        assert (
            c.getAttribute("data-class") == m.judgement and c.getAttribute("fill") == CLASS_FILL[m.judgement]
        )
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
        ["analyze", str(path), "--depth", "1", "-q", "--svg", str(out), "--json"],
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
            "-q",
            "--svg",
            str(tmp_path / "no" / "such" / "dir.svg"),
        ],
    )
    assert r.exit_code == 2 and "cannot write" in r.stderr and "Traceback" not in r.output


# -- judging: classes, win probability lost, accuracy ----------------------


@pytest.mark.parametrize(
    "loss,win_loss,win_before,expected",
    [
        (0.0, 0.0, 0.5, "best"),  # nothing lost
        (1.0, 0.049, 0.5, "good"),
        (1.9, 0.30, 0.5, "good"),  # a big swing but under the points floor of a class: noise
        (2.0, 0.05, 0.5, "inaccuracy"),
        (3.9, 0.10, 0.5, "inaccuracy"),  # a mistake's win probability, an inaccuracy's points
        (4.0, 0.10, 0.5, "mistake"),
        (8.0, 0.199, 0.5, "mistake"),
        (5.9, 0.25, 0.5, "mistake"),
        (6.0, 0.20, 0.5, "blunder"),
        # saturated: the points decide, whatever the win probability says
        (2.9, 0.0, 0.99, "good"),
        (3.0, 0.0, 0.99, "inaccuracy"),
        (6.0, 0.001, 0.01, "mistake"),
        (12.0, 0.0, 0.995, "blunder"),
    ],
)
def test_the_class_of_a_move_follows_the_documented_thresholds(loss, win_loss, win_before, expected):
    from patchsolve.review.analysis import classify

    assert classify(loss, win_loss, win_before) == expected


def test_move_accuracy_is_lichess_formula():
    from patchsolve.review.analysis import game_accuracy, move_accuracy

    assert move_accuracy(0.0) == pytest.approx(100.0, abs=1e-3)
    assert move_accuracy(0.2) == pytest.approx(103.1668 * 2.718281828 ** (-0.04354 * 20) - 3.1669)
    assert move_accuracy(1.0) == 0.0
    assert game_accuracy([100.0, 50.0]) == pytest.approx((75.0 + 2 / (1 / 100 + 1 / 50)) / 2)
    assert game_accuracy([]) is None


def test_classes_summary_and_accuracy_on_a_game_with_known_values():
    game = short_game(20)
    n = len(game)
    values = [(0.0, 0.0)] * n
    wins = [(0.5, 0.5)] * n
    values[1], wins[1] = (0.0, -7.0), (0.5, 0.25)  # move 2 lost 7 points and 25% win: a blunder
    values[3], wins[3] = (0.0, -2.0), (0.5, 0.43)  # move 4 lost 2 points and 7% win: an inaccuracy
    values[5], wins[5] = (0.0, -1.0), (0.5, 0.30)  # move 6 lost 20% win but only 1 point: good
    review = analyze_game(game, depth=1, judge=scripted(values, wins, bests=["(best)"] * n))
    moves = {m.number: m for m in review.moves}
    forced = [p.number for p in game.replay() if len(p.before.legal_moves()) == 1]
    for k in forced:
        assert moves[k].forced and moves[k].judgement == "best" and moves[k].loss == 0
    assert {2, 4, 6}.isdisjoint(forced)
    assert moves[2].loss == 7.0 and moves[2].win_loss == pytest.approx(0.25)
    assert moves[2].judgement == "blunder" and moves[2].flag == "??"
    assert moves[4].judgement == "inaccuracy" and moves[4].flag == "?!"
    assert moves[6].judgement == "good" and moves[6].flag == ""
    summary = review.summary()
    mover2 = moves[2].player
    assert summary[mover2]["biggest_mistakes"][0] == {
        "number": 2,
        "move": moves[2].move,
        "best_move": "(best)",
        "loss": 7.0,
        "win_loss": pytest.approx(0.25),
        "class": "blunder",
    }
    for pl in (0, 1):
        judged = [m for m in review.moves if m.player == pl and not m.forced]
        assert sum(summary[pl]["classes"].values()) == summary[pl]["moves"]
        assert summary[pl]["forced"] == sum(1 for m in review.moves if m.player == pl and m.forced)
        from patchsolve.review.analysis import game_accuracy

        assert summary[pl]["accuracy"] == round(game_accuracy([m.accuracy for m in judged]), 1)
        # one story: the biggest mistakes are flagged moves, never best or good
        assert all(
            b["class"] in ("inaccuracy", "mistake", "blunder") for b in summary[pl]["biggest_mistakes"]
        )
        assert summary[pl]["flagged"] == sum(
            summary[pl]["classes"][c] for c in ("inaccuracy", "mistake", "blunder")
        )
    d = review.to_dict()
    assert d["moves"][1]["class"] == "blunder" and "judgement" not in d["moves"][1]
    assert 2 in d["critical_moments"]


def test_critical_moments_are_the_largest_losses_of_win_probability_in_order():
    game = short_game(20)
    n = len(game)
    wins = [(0.5, 0.5)] * n
    values = [(0.0, 0.0)] * n
    for k, w in ((1, 0.1), (5, 0.3), (8, 0.45)):
        wins[k], values[k] = (0.5, w), (0.0, -3.0)
    review = analyze_game(game, depth=1, judge=scripted(values, wins))
    numbers = [m.number for m in review.critical_moments()]
    assert numbers == sorted(numbers) and len(numbers) == 3
    chosen = {m.number: m.win_loss for m in review.critical_moments()}
    others = [m.win_loss for m in review.moves if m.number not in chosen]
    assert min(chosen.values()) >= max(others)
    assert all(not m.forced and m.win_loss > 0 for m in review.critical_moments())


def test_the_graph_carries_each_players_accuracy_and_classes():
    game = short_game(20)
    n = len(game)
    values = [(0.0, -float((k * 7) % 13)) for k in range(n)]
    review = analyze_game(game, depth=1, judge=scripted(values))
    doc = xml.dom.minidom.parseString(review_svg(review))
    texts = [t.firstChild.data for t in doc.getElementsByTagName("text") if t.firstChild]
    for row in review.summary():
        line = next(t for t in texts if t.startswith(f"player {row['player']}: accuracy"))
        assert f"accuracy {row['accuracy']:.1f}" in line
        assert f"{row['classes']['blunder']} blunders" in line


# -- many games ---------------------------------------------------------------


def test_many_games_from_a_folder_and_a_multi_game_file(tmp_path):
    from patchsolve.review.analysis import CSV_FIELDS, games_from, review_games

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
    from patchsolve.review.analysis import review_games

    with pytest.raises(ps.PatchsolveError, match="bad.txt"):
        list(
            review_games(
                [("ok.txt", short_game(40).to_text()), ("bad.txt", "circle 1,2\nmoves\nfly\n")], depth=1
            )
        )


def test_ctrl_c_in_a_script_raises_with_the_review_so_far():
    from patchsolve.errors import SearchInterrupted

    game = short_game(20)
    inner = scripted([(1.0, 1.0)] * len(game))
    calls = []

    def judge(pos, move, budget):
        calls.append(1)
        if len(calls) == 3:
            raise SearchInterrupted(SearchResult(best_move=None, score=0.0, interrupted=True))
        return inner(pos, move, budget)

    with pytest.raises(SearchInterrupted) as stop:
        analyze_game(game, depth=1, judge=judge)
    review = stop.value.result
    assert review.interrupted and [m.number for m in review.moves] == [1, 2]
