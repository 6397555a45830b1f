"""Pondering (``search/ponder.py``): the alpha-beta player keeps its table
between the moves of a game and searches on the opponent's time."""

import threading

import pytest

from patchsolve import PatchsolveError, Position
from patchsolve.arena.players import make_player
from patchsolve.search import _alphabeta, alphabeta
from patchsolve.search.limits import Limits
from patchsolve.search.ponder import Ponderer


def _ponders_alive() -> int:
    return sum(1 for t in threading.enumerate() if t.name == "patchsolve-ponder")


def test_a_searcher_searches_again_once_its_interrupt_is_undone():
    searcher = alphabeta._searcher(1, alphabeta.check_options({}))
    start = Position.start(seed=3)
    searcher.interrupt()
    stopped = searcher.run(start._c, 8, 0, 0.0)  # stops at its first check of the limits (node 1,024)
    assert len(stopped) < 8
    searcher.resume()
    done = searcher.run(start._c, 8, 0, 0.0)
    assert [entry[0] for entry in done] == list(range(1, 9))


@pytest.mark.parametrize(
    "spec, words",
    [
        ("alphabeta:nodes=20000,ponder=1", "time limit alone"),
        ("alphabeta:depth=3,ponder=1", "time limit alone"),
        ("alphabeta:time=0.1,nodes=20000,ponder=1", "time limit alone"),
        ("mcts:time=0.1,ponder=1", "option.*ponder"),
        ("mcts:time=0.1,workers=2,ponder=1", "ponder"),
        ("alphabeta:time=0.1,ponder=2", "ponder must be 0 or 1"),
    ],
)
def test_ponder_needs_the_alphabeta_under_a_time_limit_alone(spec, words):
    with pytest.raises(PatchsolveError, match=words):
        make_player(spec)


def test_a_kept_table_serves_the_searches_it_was_made_for_and_no_other():
    table = alphabeta.KeptTable()
    opts = alphabeta.check_options({})
    first = table.searcher_for(16, opts)
    assert table.searcher_for(16, alphabeta.check_options({})) is first
    assert table.searcher_for(1, opts) is None  # another size: a fresh table, the kept one stays
    assert table.searcher_for(16, alphabeta.check_options({"placements": 3})) is None
    assert table.searcher is first


def test_searches_inside_keeping_use_the_kept_searcher(monkeypatch):
    made = []
    real = alphabeta._searcher

    def counting(hash_mb, opts):
        made.append(hash_mb)
        return real(hash_mb, opts)

    monkeypatch.setattr(alphabeta, "_searcher", counting)
    table = alphabeta.KeptTable()
    pos = Position.start(seed=5)
    with alphabeta.keeping(table):
        for _ in range(3):
            alphabeta.run(pos, Limits(depth=3, workers=1), alphabeta.check_options({}))
    assert made == [16]  # one table for the three searches
    alphabeta.run(pos, Limits(depth=3, workers=1), alphabeta.check_options({}))
    assert made == [16, 16]  # outside the block: a fresh one, as before


def test_the_player_ponders_the_opponents_turn_and_stops_on_its_own():
    pos = Position.start(seed=11)
    player = make_player("alphabeta:time=0.05,ponder=1", seed=1)
    assert player.ponderer is not None
    move = player.choose(pos)
    after = pos.play(move)
    assert move in pos.legal_moves()
    if after.to_move != pos.to_move:
        assert _ponders_alive() == 1  # searching the opponent's answers now
    assert player.choose(after if after.to_move == pos.to_move else after.play(after.legal_moves()[0]))
    player.close()
    assert _ponders_alive() == 0


def test_a_pondering_player_plays_whole_games_legally_and_leaves_no_thread():
    player = make_player("alphabeta:time=0.02,ponder=1", seed=2)
    other = make_player("greedy", seed=3)
    for game in range(2):
        player.new_game()
        pos = Position.start(seed=20 + game)
        while not pos.is_over:
            mover = player if pos.to_move == game % 2 else other
            move = mover.choose(pos)
            assert move in pos.legal_moves()
            pos = pos.play(move)
    assert player.ponderer.pondered > 0
    player.close()
    assert _ponders_alive() == 0


def test_a_new_game_forgets_the_table():
    ponderer = Ponderer(time=0.02, workers=1)
    pos = Position.start(seed=4)
    ponderer.search(pos)
    kept = ponderer.table.searcher
    assert isinstance(kept, _alphabeta.Searcher)
    ponderer.start(pos.play(pos.legal_moves()[0]))
    ponderer.clear()
    assert _ponders_alive() == 0
    assert ponderer.table.searcher is None


def test_an_interrupt_that_comes_after_a_kept_search_does_not_stop_the_next():
    # the solver beside the search interrupts the searcher when it proves the
    # value, which may come after the search ran out of time (endgame.solver_beside)
    table = alphabeta.KeptTable()
    pos = Position.start(seed=6)
    opts = alphabeta.check_options({})
    with alphabeta.keeping(table):
        alphabeta.run(pos, Limits(depth=4, workers=1), opts)
        table.searcher.interrupt()  # late, from another thread
        again = alphabeta.run(pos, Limits(depth=8, workers=1), opts)
    assert again.depth == 8


def test_a_deep_entry_of_an_earlier_search_yields_its_slot_to_the_next_search():
    # a table of one bucket (hash_mb 0): every position shares the two slots
    searcher = alphabeta._searcher(0, alphabeta.check_options({}))
    assert searcher.tt_entries == 2
    start = Position.start(seed=3)
    later = start.play(start.legal_moves()[0])
    searcher.run(start._c, 4, 0, 0.0)
    assert searcher.probe(start._c)[0] == 4  # the root's entry, stored last, in the deep slot
    searcher.run(later._c, 1, 0, 0.0)
    # the shallow search of another position took the deep slot: the old
    # depth-4 entry was of an earlier search (without the generation it
    # kept the slot, and the table the kept player carries from move to
    # move filled with entries of positions long gone)
    assert searcher.probe(start._c) is None
    assert searcher.probe(later._c)[0] == 1


def test_within_one_search_a_deeper_entry_keeps_its_slot():
    searcher = alphabeta._searcher(0, alphabeta.check_options({}))
    start = Position.start(seed=3)
    searcher.run(start._c, 3, 0, 0.0, multipv=2)
    # the second line's search stores shallower entries (one run, one
    # generation): the root's depth-3 entry from the first line stays
    assert searcher.probe(start._c)[0] == 3


# -- patchsolve play --ponder ---------------------------------------------------


def _play(*args, input=None):
    from click.testing import CliRunner

    from patchsolve.cli import cli

    return CliRunner().invoke(cli, ["play", *map(str, args)], input=input)


@pytest.mark.parametrize(
    "args, words",
    [
        (["--nodes", 5000], "time limit alone"),
        (["--depth", 4], "time limit alone"),
        (["--engine", "mcts"], "full alpha-beta"),
        (["--level", 3], "full alpha-beta"),
        (["--p1", "human"], "engine side"),
    ],
)
def test_play_refuses_ponder_where_it_cannot_ponder_before_drawing_or_writing(tmp_path, args, words):
    record = tmp_path / "game.txt"
    r = _play("--ponder", "--record", record, *args)
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("patchsolve: error: ") and words in lines[0], r.stderr
    assert r.stdout == "" and not record.exists()


def test_play_ponders_the_persons_turn_on_every_thread_and_stops_at_the_end(monkeypatch):
    from patchsolve.search.limits import available_cores

    started = []
    real_start = Ponderer.start

    def start(self, position):
        started.append((position.to_text(), self.threads))
        real_start(self, position)

    monkeypatch.setattr(Ponderer, "start", start)
    r = _play("--p0", "engine", "--p1", "human", "--time", 0.05, "--ponder", "-q", input="walk\nquit\n")
    assert r.exit_code == 0, r.output
    # the engine (player 0) moved, then pondered the position the person had to answer,
    # on every thread it has (a person needs none)
    assert started and all(threads == available_cores() for _, threads in started)
    assert all(Position(text).to_move == 1 for text, _ in started)
    assert _ponders_alive() == 0


def test_engine_against_engine_with_ponder_plays_a_legal_game_leaving_a_core_to_the_other(
    tmp_path, monkeypatch
):
    threads = []
    real_init = Ponderer.__init__

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        threads.append(self.threads)

    monkeypatch.setattr(Ponderer, "__init__", init)
    record = tmp_path / "game.txt"
    r = _play(
        "--p0",
        "engine",
        "--p1",
        "engine",
        "--time",
        0.01,
        "--workers",
        2,
        "--ponder",
        "-q",
        "--record",
        record,
    )
    assert r.exit_code == 0, r.output
    assert threads == [1, 1]
    from patchsolve import Game

    game = Game.read(str(record))
    assert game.end.is_over  # every move replayed through the rules
    assert _ponders_alive() == 0
