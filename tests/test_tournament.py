"""Players by spec string and paired-game tournaments."""

import pytest

from patchsolve import PatchsolveError, Position
from patchsolve.arena.players import GreedyPlayer, make_player, parse_spec
from patchsolve.arena.tournament import elo, play_game, run_tournament, to_csv, to_markdown, wilson
from patchsolve.rules.position import random_circle


def test_a_spec_names_the_player_and_its_options():
    assert parse_spec("mcts:time=1,policy=heuristic") == ("mcts", {"time": 1, "policy": "heuristic"})
    assert parse_spec("alphabeta:depth=4") == ("alphabeta", {"depth": 4})
    assert parse_spec("greedy") == ("greedy", {})
    assert parse_spec("mcts:solver=false,endgame_solve=True") == (
        "mcts",
        {"solver": False, "endgame_solve": True},
    )


@pytest.mark.parametrize(
    "spec, words",
    [
        ("", "empty"),
        ("chess", "unknown player 'chess'"),
        ("mcts:time", "bad option 'time'"),
        ("greedy:depth=2", "takes no options"),
    ],
)
def test_a_bad_spec_is_refused_naming_the_problem(spec, words):
    with pytest.raises(PatchsolveError, match=words):
        make_player(spec)


def test_greedy_always_returns_a_legal_move_and_is_deterministic():
    pos = Position.start(seed=3)
    greedy = GreedyPlayer()
    while not pos.is_over:
        move = greedy.choose(pos)
        assert pos.is_legal(move)
        assert GreedyPlayer().choose(pos) == move
        pos = pos.play(move)


def test_greedy_prefers_a_good_buy_to_walking():
    # patch 20 (free cross, income 1) is worth buying at the start
    pos = Position.start(circle=[20] + [x for x in range(1, 33) if x != 20] + [0])
    assert GreedyPlayer().choose(pos).patch == 20


def test_a_game_is_played_to_the_end_and_reproducible():
    circle = Position.start(seed=9).circle
    a = play_game("random", "greedy", circle, seed=4)
    b = play_game("random", "greedy", circle, seed=4)
    assert a.moves == b.moves and a.scores == b.scores
    assert a.first == "random" and a.winner in (0, 1)


def test_each_circle_is_played_twice_with_sides_swapped():
    [result] = run_tournament(["greedy", "random"], pairs=3, seed=2)
    assert result.n == 6
    firsts = [g.first for g in result.games]
    assert firsts == ["greedy", "random"] * 3
    assert [g.circle for g in result.games[0::2]] == [g.circle for g in result.games[1::2]]
    assert result.wins_a == 6  # greedy beats random


def test_self_play_counts_each_side_once_per_pair():
    [result] = run_tournament(["greedy", "greedy"], pairs=4, seed=1)
    # the same deterministic player on both sides of the same circle: A wins exactly one of each pair
    assert result.wins_a == 4


def test_parallel_workers_give_the_same_games_as_one_process():
    one = run_tournament(["greedy", "random"], pairs=2, seed=5, workers=1)
    two = run_tournament(["greedy", "random"], pairs=2, seed=5, workers=2)
    assert [g.moves for g in one[0].games] == [g.moves for g in two[0].games]


def test_wilson_interval_and_elo():
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(10, 10)[1] == 1.0 and wilson(0, 10)[0] == 0.0
    assert elo(0.5) == 0 and elo(0.75) == pytest.approx(190.8, abs=0.1)


def test_tables_and_records():
    results = run_tournament(["greedy", "random", "greedy"], pairs=1, seed=0)
    assert len(results) == 3  # round robin
    assert to_csv(results).splitlines()[0].startswith("player_a,player_b,games")
    assert to_markdown(results).count("\n") == 5
    record = results[0].games[0].record()
    assert record.startswith("# greedy (player 0) vs random (player 1)")


def test_a_game_record_replays_to_the_same_end():
    from patchsolve.rules.game import Game

    [result] = run_tournament(["greedy", "random"], pairs=1, seed=3)
    for g in result.games:
        assert Game.from_text(g.record()).end.scores() == g.scores


def test_the_tournament_command_prints_the_table_and_writes_files(tmp_path):
    from click.testing import CliRunner

    from patchsolve.cli import cli

    runner = CliRunner()
    res = runner.invoke(
        cli,
        [
            "tournament",
            "greedy",
            "random",
            "--pairs",
            "2",
            "--workers",
            "1",
            "--quiet",
            "--csv",
            str(tmp_path / "t.csv"),
            "--records",
            str(tmp_path / "games"),
        ],
    )
    assert res.exit_code == 0, res.output
    assert "| `greedy` | `random` | 4 | 4 |" in res.output
    assert (tmp_path / "t.csv").read_text().startswith("player_a,")
    assert len(list((tmp_path / "games").iterdir())) == 4


def test_the_tournament_command_names_the_patchsolve_an_external_player_imports(tmp_path):
    import subprocess
    import sys

    import patchsolve

    spec = f"ext[{sys.executable}]:greedy"
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "patchsolve.cli",
            "tournament",
            spec,
            "random",
            "--pairs",
            "1",
            "--workers",
            "1",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    assert f"info: {spec}: patchsolve from {patchsolve.__file__}" in res.stderr


def test_the_tournament_command_names_a_bad_player_in_one_line():
    from click.testing import CliRunner

    from patchsolve.cli import cli

    res = CliRunner().invoke(cli, ["tournament", "greedy", "stockfish", "--quiet"])
    assert res.exit_code == 2
    assert "unknown player 'stockfish'" in res.output and "Traceback" not in res.output


def test_mcts_players_keep_their_tree_and_replay_exactly():
    from patchsolve.arena.players import MCTSPlayer, Player

    player = make_player("mcts:iterations=300", seed=3)
    assert isinstance(player, MCTSPlayer) and isinstance(player, Player) and player.seed == 3
    circle = Position.start(seed=2).circle
    a = play_game("mcts:iterations=300", "greedy", circle, seed=7)
    b = play_game("mcts:iterations=300", "greedy", circle, seed=7)
    assert a.moves == b.moves


def test_the_search_package_is_callable_and_its_engines_importable():
    import patchsolve
    import patchsolve.search.mcts as mcts_module

    result = patchsolve.search(Position.start(seed=1), engine="mcts", iterations=200, seed=1)
    assert Position.start(seed=1).is_legal(result.best_move)
    assert hasattr(mcts_module, "MCTSTree")


def test_a_player_of_another_installation_plays_the_same_moves_over_the_pipe():
    """ext[PYTHON]:SPEC runs SPEC in a subprocess of PYTHON (here this same
    installation): a deterministic player must play the very same game."""
    import sys

    from patchsolve.arena.tournament import play_game

    circle = random_circle(5)
    direct = play_game("alphabeta:depth=1", "greedy", circle, seed=3)
    piped = play_game(f"ext[{sys.executable}]:alphabeta:depth=1", "greedy", circle, seed=3)
    assert piped.moves == direct.moves and piped.scores == direct.scores


def test_a_player_of_another_installation_does_not_inherit_our_pythonpath(tmp_path, monkeypatch):
    """Run from a source tree through PYTHONPATH, the parent must not hand
    that path to the other interpreter: it would import the parent's
    patchsolve and measure the engine against itself. Here PYTHONPATH
    points at a patchsolve that cannot be imported; the other side must
    still play, with its own installation."""
    import sys

    shadow = tmp_path / "patchsolve"
    shadow.mkdir()
    (shadow / "__init__.py").write_text("raise ImportError('the parent PYTHONPATH leaked')\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    player = make_player(f"ext[{sys.executable}]:greedy")
    try:
        assert Position.start(seed=2).is_legal(player.choose(Position.start(seed=2)))
    finally:
        player.close()


def test_a_bad_external_player_is_a_clear_error():
    with pytest.raises(PatchsolveError):
        make_player("ext[/no/such/python]:greedy")
    with pytest.raises(PatchsolveError):
        make_player("ext[]:greedy")


def test_a_table_of_fewer_games_than_planned_is_marked_partial(tmp_path):
    from patchsolve.arena.tournament import GameSink, PairingResult

    [whole] = run_tournament(["greedy", "random"], pairs=1, seed=2)
    assert whole.planned == 2 and not whole.partial and "Partial" not in to_markdown([whole])
    assert to_csv([whole]).splitlines()[1].endswith(",2,False")
    stopped = PairingResult(whole.a, whole.b, whole.games[:1], interrupted=True, planned=2)
    assert "**Partial**: 1 of 2 games (stopped by Ctrl-C)." in to_markdown([stopped])
    assert to_csv([stopped]).splitlines()[1].endswith(",2,True")
    sink = GameSink(["greedy", "random"], md_file=tmp_path / "t.md", csv_file=tmp_path / "t.csv", pairs=1)
    sink.add(0, 0, whole.games[0])  # tables rewritten while the other game still runs
    assert "**Partial**: 1 of 2 games (games still running)." in (tmp_path / "t.md").read_text()
    sink.add(0, 1, whole.games[1])
    assert "Partial" not in (tmp_path / "t.md").read_text()
