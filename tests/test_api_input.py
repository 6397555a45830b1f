"""The Python API's input, as the new-user review of 6 Dec 2026 met it
(defects 15-17): seeds in one range everywhere, ``Move.from_text``, the
wrong type of argument refused with a patchsolve error, a byte-order mark
and tabs read, and a bad move of a record named once."""

import pytest

import patchsolve as ps
from patchsolve.errors import GameIndexError, LimitError, NotationError, PatchsolveError
from patchsolve.interop import actions, observation
from patchsolve.rules import render

MID = (
    "revised 14,29,32,25,0,30,21,20,6,1,11,27,18,22,28,24,3,23,5,19,12,31,10,13,16,17 "
    "263b080002477/20f0080002e7 8/11 5/4 15/13 - 26,32,38,44,50 - - -"
)
BAD_SEEDS = ["a", -1, 2**64, 2**70, 1.5, True, [1]]


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
def test_every_seed_is_0_to_2_64_minus_1(seed):
    for call in (
        lambda: ps.Position.start(seed=seed),
        lambda: ps.Game.new(seed=seed),
        lambda: ps.Position.start().random_playout(seed=seed),
    ):
        with pytest.raises(LimitError, match="seed must be an integer from 0 to 2\\*\\*64-1"):
            call()


def test_the_ends_of_the_seed_range_are_taken():
    for seed in (0, 2**64 - 1):
        assert ps.Position.start(seed=seed) == ps.Position.start(seed=seed)
        assert ps.Position.start().random_playout(seed).is_over
    # the same seed, the same playout (the core's seed is the whole 64 bits)
    start = ps.Position.start(seed=3)
    assert start.random_playout(2**64 - 1) == start.random_playout(2**64 - 1)


def test_move_from_text_reads_every_legal_move_back():
    pos = ps.Position.start(seed=1)
    for _ in range(40):
        for move in pos.legal_moves():
            assert ps.Move.from_text(str(move)) == move
            assert ps.Move.from_text(f"  {move}\n") == move  # surrounding blanks are no part of it
        pos = pos.play(pos.legal_moves()[-1]) if not pos.is_over else pos


def test_move_from_text_checks_the_text_only():
    # a placement the text alone can tell is fine, whatever the position
    move = ps.Move.from_text("32:0@a1")
    assert (move.kind, move.patch, move.orientation, move.square) == ("buy", 32, 0, 0)
    assert not ps.Position(MID).is_legal(move)  # legality is the position's to say
    with pytest.raises(ps.IllegalMoveError):
        ps.Position(MID).play(move)


@pytest.mark.parametrize(
    "text, named",
    [
        ("8:0@j1", "bad square 'j1'"),
        ("leather@z9", "bad square 'z9'"),
        ("99:0@a1", "no patch 99"),
        ("8:9@a1", "orientations 0..7, not 9"),
        ("8:0@i9", "runs off the quilt from i9"),
        ("walkk", "bad move"),
        ("", "bad move"),
    ],
)
def test_move_from_text_names_the_bad_token(text, named):
    with pytest.raises(NotationError, match=named) as e:
        ps.Move.from_text(text)
    assert e.value.field == "move" and e.value.token == text


@pytest.mark.parametrize("value", [None, 7, b"walk", ps.Position.start()], ids=repr)
def test_move_from_text_refuses_what_is_not_text(value):
    with pytest.raises(NotationError):
        ps.Move.from_text(value)


def test_analyze_game_refuses_a_record_s_text():
    with pytest.raises(PatchsolveError, match="Game"):
        ps.analyze_game("walk walk", depth=1)


def test_wrong_types_give_patchsolve_errors():
    pos = ps.Position(MID)
    game = ps.Game()
    for call in (
        lambda: pos.quilt(2),
        lambda: pos.buttons(1.0),
        lambda: pos.winner(),
        lambda: pos.to_svg(labels=("a", "b")),
        lambda: ps.Game("revised ..."),
        lambda: ps.Game(pos, moves=5),
        lambda: game.pop(),
        lambda: game.position(1),
        lambda: game.labels(-5),
        lambda: ps.Game.read(42),
        lambda: game.write(None),
        lambda: render.text_position("a position"),
        lambda: actions.legal_actions(MID),
        lambda: observation.observation(pos, 1.0),
    ):
        with pytest.raises(PatchsolveError):
            call()


def test_a_missing_move_or_position_of_a_game_is_still_an_index_error():
    # code that caught IndexError (as for a list) keeps working
    with pytest.raises(IndexError):
        ps.Game().pop()
    with pytest.raises(GameIndexError):
        ps.Game().position(3)


def test_a_forged_move_is_refused_before_the_core():
    forged = ps.Move("x", "walk", None, 0, None, None)
    pos = ps.Position(MID)
    assert not pos.is_legal(forged)
    with pytest.raises(ps.IllegalMoveError, match="not a move"):
        pos.play(forged)


# -- board text, notation and records as editors save them ---------------------------


def test_board_text_with_a_byte_order_mark_reads():
    text = ps.Position(MID).to_board()
    assert ps.Position("\ufeff" + text) == ps.Position(MID)
    assert ps.Position.from_board("\ufeff" + text) == ps.Position(MID)


def test_board_text_with_tabs_reads():
    text = ps.Position(MID).to_board()
    tabbed = "\n".join(line.replace(" ", "\t") for line in text.splitlines())
    assert "player\t0\tbuttons\t" in tabbed
    assert ps.Position(tabbed) == ps.Position(MID)


def test_notation_and_records_with_a_byte_order_mark_or_tabs_read():
    assert ps.Position("\ufeff" + MID) == ps.Position(MID)
    assert ps.Position(MID.replace(" ", "\t")) == ps.Position(MID)
    game = ps.Game(ps.Position.start(seed=2), ["walk", "walk"])
    record = game.to_text()
    assert ps.Game.from_text("\ufeff" + record) == game
    assert ps.Game.from_text(record.replace(" ", "\t")) == game


def test_a_bad_move_of_a_record_names_its_field_once():
    record = ps.Game().to_text() + "99:0@a1\n"
    with pytest.raises(NotationError) as e:
        ps.Game.from_text(record)
    message = str(e.value)
    assert message.count("field 'move'") == 1 and message.count("99:0@a1") == 1, message
    assert message.startswith("move 1 (line ")
