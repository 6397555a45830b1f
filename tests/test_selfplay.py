"""The self-play corpus (patchsolve.arena.selfplay): the games' order and sides,
records written as games end, resuming, determinism, what a record holds
(checked against a replay of its moves); its statistics
(patchsolve.arena.corpus_report) on hand-built corpora, the report with and
without matplotlib; and the CLI end to end."""

import builtins
import json
import os
import statistics as pystats

import pytest
from click.testing import CliRunner

from patchsolve.arena import corpus_report as cr
from patchsolve.arena import selfplay as sp
from patchsolve.arena.tournament import wilson
from patchsolve.cli import cli
from patchsolve.rules.patches import LAST_SPACE
from patchsolve.rules.position import Position

FAST = "alphabeta:nodes=500"  # a tiny budget: a game in a fraction of a second
SOLVE = 20_000  # solver nodes near the end: a few hundredths of a second a try


def run(path, games, backend="local", progress=None, **settings):
    settings.setdefault("player", FAST)
    settings.setdefault("solve_nodes", SOLVE)
    return sp.run_selfplay(path, games, sp.SelfPlaySettings(**settings), backend=backend, progress=progress)


def jobs_of(games, **settings):
    return sp.game_jobs(games, sp.SelfPlaySettings(**settings))


def lines(path):
    return [json.loads(x) for x in path.read_text().splitlines()]


# -- the games' order ---------------------------------------------------------------


def test_self_play_alternates_the_first_player_and_pairs_the_editions():
    jobs = jobs_of(5, player="greedy")
    assert [j.key for j in jobs] == [
        (0, "revised", 0),
        (0, "original", 0),
        (1, "revised", 1),
        (1, "original", 1),
        (2, "revised", 0),
    ]
    assert all(j.players == ("greedy", "greedy") for j in jobs)
    assert [j.index for j in jobs] == list(range(5))


def test_an_opponent_plays_every_circle_with_sides_swapped():
    jobs = jobs_of(6, player="greedy", opponent="random", editions=("original",))
    assert [j.key for j in jobs] == [(i, "original", f) for i in range(3) for f in (0, 1)]
    assert all(j.players == ("greedy", "random") for j in jobs)  # label 0 is always the player
    # the same spec twice is self-play: no swapped duplicate
    assert [j.key for j in jobs_of(2, player="greedy", opponent="greedy", editions=("revised",))] == [
        (0, "revised", 0),
        (1, "revised", 1),
    ]


def test_a_longer_run_extends_a_shorter_one():
    short, long = jobs_of(3, seed=4), jobs_of(8, seed=4)
    assert long[:3] == short


def test_bad_editions_are_refused():
    with pytest.raises(sp.PatchsolveError, match="editions"):
        sp.SelfPlaySettings(editions=("revised", "revised"))
    with pytest.raises(sp.PatchsolveError, match="editions"):
        sp.SelfPlaySettings(editions=("new",))
    assert sp.SelfPlaySettings(editions=["original"]).editions == ("original",)  # any sequence


def test_bad_counts_are_refused():
    with pytest.raises(sp.PatchsolveError, match="solve_nodes"):
        sp.SelfPlaySettings(solve_nodes=-1)
    with pytest.raises(sp.PatchsolveError, match="games"):
        sp.game_jobs(-1)


# -- the corpus file ------------------------------------------------------------------


def test_games_are_written_as_they_end_and_a_rerun_resumes(tmp_path):
    path = tmp_path / "corpus.jsonl"
    seen = []

    def progress(done, total):
        # each game is on disk (whole, parsed) before the next one starts
        seen.append(len(lines(path)))
        if done == 2:
            raise KeyboardInterrupt  # Ctrl-C after the second game

    first = run(path, 4, progress=progress)
    assert first.interrupted and first.played == 2
    assert seen == [1, 2]
    assert [sp.record_key(r) for r in lines(path)] == [(0, "revised", 0), (0, "original", 0)]

    second = run(path, 4)
    assert not second.interrupted
    assert (second.played, second.skipped, len(second.records)) == (2, 2, 4)
    resumed = lines(path)
    assert [sp.record_key(r) for r in resumed] == [j.key for j in jobs_of(4)]

    # nothing left to do: nothing played, the file unchanged
    third = run(path, 4)
    assert (third.played, third.skipped) == (0, 4)
    assert lines(path) == resumed

    # the resumed corpus is the corpus of an uninterrupted run
    fresh = tmp_path / "fresh.jsonl"
    run(fresh, 4)
    assert lines(fresh) == resumed


def test_a_line_cut_short_by_a_kill_is_dropped_and_the_game_replayed(tmp_path):
    path = tmp_path / "corpus.jsonl"
    run(path, 1)
    whole = path.read_text()
    path.write_text(whole + whole[: len(whole) // 2])  # a second game killed mid-write
    assert len(sp.read_corpus(path)) == 1
    r = run(path, 2)
    assert (r.played, r.skipped) == (1, 1)
    assert [sp.record_key(x) for x in lines(path)] == [(0, "revised", 0), (0, "original", 0)]


def test_a_bad_line_or_another_runs_file_is_refused(tmp_path):
    path = tmp_path / "corpus.jsonl"
    run(path, 1)
    with pytest.raises(sp.CorpusError, match="another run"):
        run(path, 2, player="greedy")
    with pytest.raises(sp.CorpusError, match="another run"):
        run(path, 2, seed=3)
    with pytest.raises(sp.CorpusError, match="another run"):
        run(path, 2, solve_nodes=SOLVE + 1)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"x": 1}\n')
    with pytest.raises(sp.CorpusError, match="line 1"):
        sp.read_corpus(bad)


def test_a_bad_spec_fails_before_any_file_is_written(tmp_path):
    path = tmp_path / "corpus.jsonl"
    with pytest.raises(sp.PatchsolveError):
        sp.run_selfplay(path, 2, sp.SelfPlaySettings(player="nonsense"))
    assert not path.exists()


def test_the_same_seed_gives_the_same_games_another_seed_others(tmp_path):
    a, b, c = (tmp_path / f"{n}.jsonl" for n in "abc")
    run(a, 2, seed=5)
    run(b, 2, seed=5)
    run(c, 2, seed=6)
    assert lines(a) == lines(b)
    assert [r["circle"] for r in lines(a)] != [r["circle"] for r in lines(c)]


def test_the_games_do_not_depend_on_the_backend(tmp_path):
    from patchsolve.arena.backends import LocalBackend

    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    run(one, 3)
    r = run(two, 3, backend=LocalBackend(workers=2))  # spawned processes; games end in any order
    assert r.played == 3
    key = sp.record_key
    assert sorted(lines(two), key=key) == sorted(lines(one), key=key)


# -- what a record holds ---------------------------------------------------------------


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    path = tmp_path_factory.mktemp("corpus") / "corpus.jsonl"
    return run(path, 4).records


def test_a_record_replays_to_its_scores_winner_bonus_and_leather(records):
    for r in records:
        pos = Position.start(circle=r["circle"], edition=r["edition"], first_player=r["first"])
        assert pos.to_move == r["first"]
        start_leather = set(pos.leather)
        assert len(r["evals"]) == len(r["moves"]) == r["plies"]
        for move, ev in zip(r["moves"], r["evals"]):
            assert ev["player"] == pos.to_move
            assert ev["left"] == [LAST_SPACE - pos.time(0), LAST_SPACE - pos.time(1)]
            pos = pos.play(pos.parse_move(move))
        assert pos.is_over
        assert r["scores"] == list(pos.scores())
        assert r["winner"] == pos.winner()
        assert r["first_at_end"] == pos.first_at_end
        assert (r["bonus"] or {}).get("player") == pos.bonus_owner
        # every leather patch was taken (every space is passed before the end), once, in order
        assert sorted(t["space"] for t in r["leather"]) == sorted(start_leather)
        for t in r["leather"]:
            assert r["evals"][t["ply"]]["player"] == t["player"]  # the mover takes it
            nxt = t["ply"] + 1
            if nxt < len(r["moves"]) and r["moves"][nxt].startswith("leather@"):
                assert r["evals"][nxt]["player"] == t["player"]  # and places it
        if r["bonus"]:
            assert r["evals"][r["bonus"]["ply"]]["player"] == r["bonus"]["player"]
        assert r["circle"] == list(sp.circle_of(r["seed"], r["circle_index"]))


def test_play_is_exact_from_where_the_solver_proves_it(records):
    proven = [r for r in records if r["proven"]]
    assert proven, "the solver proved no game's end"
    for r in proven:
        k = r["proven"]["ply"]
        after = r["evals"][k:]
        assert all(e["by"] == "solver" and e["bound"] == "exact" for e in after)
        assert all(e["by"] == "search" for e in r["evals"][:k])
        assert r["proven"]["phase"] == sum(r["evals"][k]["left"])
        # both sides play perfectly from there: the proven value is the final margin
        assert r["proven"]["value"] == r["scores"][0] - r["scores"][1]
        # and every exact score on the way says the same, for the player to move
        for e in after:
            margin = r["scores"][e["player"]] - r["scores"][1 - e["player"]]
            assert e["score"] == margin


def test_a_later_position_the_budget_does_not_prove_is_solved_with_more(tmp_path, monkeypatch):
    """Once proven, play stays exact: a solve that fails within the budget
    (a fresh table can miss a proof) is tried again with more nodes."""
    import dataclasses

    real, calls, state = sp._solve, [], {"proven": False, "failed": False}

    def flaky(position, nodes):
        calls.append(nodes)
        r = real(position, nodes)
        if state["proven"] and not state["failed"] and nodes == SOLVE:
            state["failed"] = True  # the first solve after the proof runs out of nodes
            return dataclasses.replace(r, bound="lower", best_move=None)
        state["proven"] |= r.bound == "exact"
        return r

    monkeypatch.setattr(sp, "_solve", flaky)
    r = run(tmp_path / "c.jsonl", 1).records[0]
    assert state["failed"] and 4 * SOLVE in calls and 16 * SOLVE not in calls
    k = r["proven"]["ply"]
    assert all(e["by"] == "solver" and e["bound"] == "exact" for e in r["evals"][k:])
    assert r["proven"]["value"] == r["scores"][0] - r["scores"][1]


def test_the_search_scores_are_kept_for_calibration(records):
    searched = [e for r in records for e in r["evals"] if e["by"] == "search"]
    assert searched and all(isinstance(e["score"], float) and e["bound"] for e in searched)
    assert any(e["bound"] == "estimate" for e in searched)


def test_a_player_without_a_search_records_no_score(tmp_path):
    r = sp.run_selfplay(tmp_path / "g.jsonl", 1, sp.SelfPlaySettings(player="greedy", solve_nodes=0)).records[
        0
    ]
    assert r["proven"] is None
    assert all(e["score"] is None and e["bound"] is None and e["by"] is None for e in r["evals"])


# -- the statistics on hand-built corpora ---------------------------------------------


def rec(i, edition, first, scores, winner, bonus=None, leather=(), plies=40, proven=None, fae=None):
    return {
        "seed": 0,
        "circle_index": i,
        "edition": edition,
        "first": first,
        "players": ["p", "p"],
        "scores": list(scores),
        "winner": winner,
        "first_at_end": winner if fae is None else fae,
        "bonus": None if bonus is None else {"player": bonus, "ply": 30 + i, "phase": 40},
        "leather": [{"space": s, "player": p, "ply": 10 + k} for k, (s, p) in enumerate(leather)],
        "plies": plies,
        "proven": proven,
        "evals": [],
        "moves": [],
    }


HAND = [
    # circle 0: first player 0 wins both editions
    rec(0, "revised", 0, (20, 10), 0, bonus=0, leather=[(26, 0), (32, 1)], plies=40),
    rec(0, "original", 0, (15, 12), 0, bonus=1, leather=[(20, 1), (26, 1)], plies=44),
    # circle 1: first player 1; revised: player 1 (first) wins by 4; original: player 0 wins by 6
    rec(1, "revised", 1, (0, 4), 1, leather=[(26, 1), (32, 1)], plies=42),
    rec(1, "original", 1, (8, 2), 0, bonus=0, leather=[(20, 0), (26, 1)], plies=46),
    # circle 2, revised only: equal scores, tie-break to the second player (first is 0)
    rec(
        2,
        "revised",
        0,
        (5, 5),
        1,
        leather=[(26, 0), (32, 0)],
        plies=50,
        proven={"ply": 30, "phase": 20, "value": 0},
    ),
]


def test_statistics_of_a_hand_counted_corpus():
    st = cr.statistics(HAND)
    assert st["games"] == 5 and st["players"] == ["p"]
    a, rev, orig = st["all"], st["editions"]["revised"], st["editions"]["original"]
    # first player's margins: +10, +3, +4, -6, 0
    assert cr.first_margin(HAND[2]) == 4 and cr.first_margin(HAND[3]) == -6
    assert a["first_player_wins"]["k"] == 3 and a["first_player_wins"]["n"] == 5
    assert a["first_player_wins"]["ci95"] == list(wilson(3, 5))
    assert rev["first_player_wins"]["k"] == 2 and rev["first_player_wins"]["n"] == 3
    assert orig["first_player_wins"]["k"] == 1 and orig["first_player_wins"]["ci95"] == list(wilson(1, 2))
    m = a["first_player_margin"]
    assert m["mean"] == pytest.approx(11 / 5) and m["median"] == 3 and (m["min"], m["max"]) == (-6, 10)
    half = 1.96 * pystats.stdev([10, 3, 4, -6, 0]) / 5**0.5
    assert m["ci95"] == pytest.approx([11 / 5 - half, 11 / 5 + half])
    assert a["winning_margin"]["mean"] == pytest.approx(23 / 5)
    counts = {row["bin"]: row["count"] for row in a["margin_histogram"]}
    assert sum(counts.values()) == 5
    assert (counts["-10 .. -6"], counts["0"], counts["1 .. 5"], counts["6 .. 10"]) == (1, 1, 2, 1)
    assert a["ties_on_score"]["k"] == 1
    assert a["tie_won_by_first_at_end"]["k"] == 1 and a["tie_won_by_first_at_end"]["n"] == 1
    # bonus: taken in games 0, 1, 3; by the first player in game 0 only; by the winner in games 0 and 3
    assert (a["bonus_taken"]["k"], a["bonus_by_first"]["k"], a["bonus_by_winner"]["k"]) == (3, 1, 2)
    assert a["bonus_by_winner"]["ci95"] == list(wilson(2, 3))
    assert a["bonus_ply"]["mean"] == pytest.approx((30 + 30 + 31) / 3)
    # leather at 26 (revised): taken by players 0, 1, 0 with first players 0, 1, 0 and winners 0, 1, 1
    l26 = rev["leather"][26]
    assert (l26["taken"]["k"], l26["by_first"]["k"], l26["by_winner"]["k"]) == (3, 3, 2)
    assert set(orig["leather"]) == {20, 26} and set(rev["leather"]) == {26, 32}
    l20 = orig["leather"][20]  # players 1, 0; first 0, 1; winners 0, 0
    assert (l20["by_first"]["k"], l20["by_winner"]["k"]) == (0, 1)
    assert a["plies"]["mean"] == pytest.approx(222 / 5) and a["plies"]["median"] == 44
    assert (a["proven"]["k"], a["proven_phase"]["mean"]) == (1, 20)


def test_the_editions_are_compared_on_the_same_circles():
    comp = cr.statistics(HAND)["comparison"]
    assert comp["paired_games"] == 2  # circle 2 was played in one edition only
    # revised minus original, first player's margin: (10 - 3) and (4 - (-6))
    assert comp["margin_difference"]["mean"] == pytest.approx(8.5)
    assert comp["first_win_rate_difference"] == pytest.approx((2 - 1) / 2)
    assert comp["same_winner"]["k"] == 1  # circle 0 (player 0 both times); circle 1 differs


def test_an_empty_corpus_has_no_rates_and_no_comparison():
    st = cr.statistics([])
    assert st["games"] == 0 and st["all"]["first_player_wins"]["rate"] is None
    assert st["comparison"] is None


# -- the report ---------------------------------------------------------------------


def test_the_report_says_so_without_matplotlib(tmp_path, monkeypatch):
    real = builtins.__import__

    def no_matplotlib(name, *args, **kw):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError("no matplotlib here")
        return real(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    stats = cr.write_report(HAND, tmp_path / "rep")
    page = (tmp_path / "rep" / "report.md").read_text()
    assert "matplotlib is not installed" in page
    assert not list((tmp_path / "rep").glob("*.png"))
    assert "No calibration" in page  # the hand-built games have no scored moves
    assert stats["calibration"] is None
    assert json.loads((tmp_path / "rep" / "statistics.json").read_text())["games"] == 5


def test_the_report_has_its_numbers_and_plots(tmp_path, records):
    if os.environ.get("CI") != "true":
        pytest.importorskip("matplotlib")
    folder = tmp_path / "rep"
    stats = cr.write_report(records, folder)
    page = (folder / "report.md").read_text()
    assert "| first player wins |" in page and "## Leather patches (original)" in page
    assert "## Win probability calibration" in page
    pngs = sorted(p.name for p in folder.glob("*.png"))
    assert pngs == ["calibration.png", "first_player.png", "margins.png"]
    assert all((folder / p).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)
    assert all(f"]({p})" in page for p in pngs)
    assert stats["games"] == len(records)
    assert json.loads((folder / "calibration.json").read_text())["model"] == "logistic"


# -- the command line -----------------------------------------------------------------


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_selfplay_and_statistics_end_to_end(tmp_path):
    corpus, folder = tmp_path / "c.jsonl", tmp_path / "report"
    r = invoke("selfplay", "--games", 3, "--player", FAST, "--solve-nodes", SOLVE, "--out", corpus, "-q")
    assert r.exit_code == 0, r.output
    assert "3 games played, 3 in" in r.stdout
    assert len(lines(corpus)) == 3
    r = invoke("selfplay", "--games", 3, "--player", FAST, "--solve-nodes", SOLVE, "--out", corpus)
    assert r.exit_code == 0 and "0 games played, 3 in" in r.stdout and "not replayed" in r.stderr
    r = invoke("statistics", corpus, "--out", folder, "--no-plots")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("# Self-play statistics") and "3 games" in r.stdout
    assert (folder / "report.md").is_file() and (folder / "statistics.json").is_file()
    assert not list(folder.glob("*.png"))
    r = invoke("statistics", corpus, "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["games"] == 3
    one = tmp_path / "one.jsonl"
    r = invoke("selfplay", "--games", 1, "--player", "greedy", "--edition", "original", "--out", one, "-q")
    assert r.exit_code == 0, r.output
    assert [sp.record_key(x) for x in lines(one)] == [(0, "original", 0)]


@pytest.mark.parametrize(
    "args, needle",
    [
        (["selfplay", "--games", "2", "--player", "nonsense", "--out", "{d}/x.jsonl"], "unknown player"),
        (["statistics", "{d}/missing.jsonl"], "no such corpus file"),
        (["statistics", "{d}/bad.jsonl"], "not a self-play record"),
        (["statistics", "{d}/empty.jsonl"], "no games"),
    ],
)
def test_cli_errors_are_one_line(tmp_path, args, needle):
    (tmp_path / "bad.jsonl").write_text("[1, 2]\n")
    (tmp_path / "empty.jsonl").write_text("")
    r = invoke(*[a.format(d=tmp_path) for a in args])
    assert r.exit_code == 2, r.output
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("patchsolve: error: ") and needle in err[0], err
