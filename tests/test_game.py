"""Games and game records: patchsolve.rules.game."""

import random
from pathlib import Path

import pytest

import patchsolve as ps
from patchsolve import Game
from patchsolve.errors import IllegalMoveError, InvalidPositionError, NotationError

GOLDEN = Path(__file__).parent / "data" / "golden_game.txt"


def test_the_golden_record_replays_to_its_known_final_score():
    game = Game.read(GOLDEN)
    assert len(game) == 49
    end = game.end
    assert end.is_over
    assert end.scores() == (4, 8)
    assert end.winner() == 1
    assert end.first_at_end == 0
    assert end.to_text() == (
        "revised 26,19,31,10,16,9,2,29,0,1,18,28 "
        "687f8fdfffb3f39dfee4/92fffd867f6f3dbffff 52/54 9/9 53/53 1 - - 0 -"
    )


def test_the_golden_record_is_exported_unchanged():
    text = GOLDEN.read_text()
    assert Game.from_text(text).to_text() == text


def test_moves_may_be_space_separated_with_comments_and_blank_lines():
    game = Game.read(GOLDEN)
    moves = " ".join(str(m) for m in game.moves)
    f = game.start.fields()
    cut = moves.rfind(" ", 0, 200)
    text = f"# a comment\n\nfirst 0   # start player\ncircle {','.join(map(str, f['circle']))}\n# c\n{moves[:cut]}\n\n{moves[cut + 1 :]}   # end\n"  # noqa: E501
    assert Game.from_text(text) == game


def test_position_after_move_k_and_the_ply_list():
    game = Game.read(GOLDEN)
    assert game.position(0) == game.start
    assert game.position() == game.end == game.position(-1)
    plies = list(game.replay())
    assert [p.number for p in plies] == list(range(1, 50))
    for ply in plies:
        assert ply.before == game.position(ply.number - 1)
        assert ply.after == game.position(ply.number)
        assert ply.before.play(ply.move) == ply.after
        assert ply.player == ply.before.to_move
    with pytest.raises(IndexError):
        game.position(50)


def test_push_and_pop():
    game = Game()
    assert game.start == ps.Position.start(seed=0)
    after = game.push("walk")
    assert after == game.end and len(game) == 1
    assert str(game.pop()) == "walk" and len(game) == 0
    with pytest.raises(IllegalMoveError):
        game.push("leather@a1")
    with pytest.raises(IndexError):
        game.pop()


def test_labels_name_the_patch_on_each_square():
    game = Game.read(GOLDEN)
    for k in (10, 30, len(game)):
        pos = game.position(k)
        for p in (0, 1):
            labels = game.labels(k)[p]
            mask = sum(1 << sq for sq in labels)
            assert mask == pos.quilt(p)
    first = game.moves[0]
    assert set(game.labels(1)[0].values()) == {first.patch}


def test_a_record_from_any_position():
    rng = random.Random(5)
    game = Game()
    for _ in range(30):
        game.push(rng.choice(game.end.legal_moves()))
    tail = Game(game.position(12), game.moves[12:])
    text = tail.to_text()
    assert "position " in text
    again = Game.from_text(text)
    assert again == tail and again.end == game.end


@pytest.mark.parametrize(
    "text,error,needle",
    [
        ("edition revised\nmoves\nwalk\n", NotationError, "circle"),
        ("edition deluxe\ncircle 0,1\n", NotationError, "deluxe"),
        ("first 2\ncircle 1,2\n", NotationError, "first"),
        ("circle 1,2,x\n", NotationError, "circle"),
        ("circle 1,2,3\n", InvalidPositionError, "33"),
        ("circle 1\ncircle 2\n", NotationError, "twice"),
    ],
)
def test_bad_headers_are_reported(text, error, needle):
    with pytest.raises(error) as e:
        Game.from_text(text)
    assert needle in str(e.value)


def test_a_bad_move_is_reported_with_its_number_and_line():
    lines = GOLDEN.read_text().splitlines()
    i = lines.index("moves") + 3
    lines[i] = "leather@z9"
    with pytest.raises(NotationError) as e:
        Game.from_text("\n".join(lines))
    assert "move 3" in str(e.value) and f"line {i + 1}" in str(e.value)
    assert e.value.token == "leather@z9"
    lines[i] = "leather@a1"
    with pytest.raises(IllegalMoveError) as e:
        Game.from_text("\n".join(lines))
    assert "move 3" in str(e.value)


def test_a_missing_file_is_a_notation_error(tmp_path):
    with pytest.raises(NotationError):
        Game.read(tmp_path / "nope.txt")
    game = Game()
    game.push("walk")
    game.write(tmp_path / "g.txt")
    assert Game.read(tmp_path / "g.txt") == game


def test_to_dict_summarises_the_game():
    d = Game.read(GOLDEN).to_dict()
    assert d["over"] and d["scores"] == [4, 8] and d["winner"] == 1 and len(d["moves"]) == 49


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 2**32), st.integers(0, 120), st.sampled_from(["revised", "original"]), st.integers(0, 1)
)
def test_records_of_random_games_round_trip(seed, plies, edition, first):
    rng = random.Random(seed)
    game = Game.new(seed=seed, edition=edition, first_player=first)
    for _ in range(plies):
        if game.end.is_over:
            break
        game.push(rng.choice(game.end.legal_moves()))
    again = Game.from_text(game.to_text())
    assert again == game and again.end == game.end
    assert again.labels() == game.labels()
