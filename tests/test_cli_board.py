"""The CLI's board text: show --board, reading it as POSITION, and new --circle."""

import random

import pytest
from click.testing import CliRunner

import patchsolve as ps
from patchsolve.cli import cli
from patchsolve.rules.patches import PATCHES
from test_cli import assert_bad_input


def run(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def played(seed, plies):
    rng = random.Random(seed)
    pos = ps.Position.start(seed=seed)
    for _ in range(plies):
        if pos.is_over:
            break
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos


def test_show_board_of_a_notation_position_reads_back_from_stdin_file_and_argument(tmp_path):
    pos = played(11, 14)
    r = run("show", "--board", pos.to_text())
    assert r.exit_code == 0, r.output
    assert r.output.startswith("# patchsolve board text") and "\nplayer 1 buttons" in r.output
    assert ps.Position(r.output) == pos
    f = tmp_path / "table.txt"
    f.write_text(r.output)
    for args, stdin in (
        (["show", "--json", "-f", f], None),
        (["show", "--json", "-"], r.output),
        (["show", "--json", r.output], None),
    ):
        shown = run(*args, input=stdin)
        assert shown.exit_code == 0, shown.output
        assert pos.to_text() in shown.output
    assert run("moves", "-f", f).output == run("moves", pos.to_text()).output


def test_show_draws_the_patches_of_board_text_with_their_symbols():
    pos = ps.Position.start(seed=0).play("walk").play("8:0@a1")
    text = pos.to_board()
    assert "player 1 buttons 3 time 6   # income 2\n888......\n8........\n" in text
    r = run("show", "-", input=text)
    assert r.exit_code == 0, r.output
    assert "1  8 8 8 . . . . . ." in r.output and "2  8 . . . . . . . ." in r.output


def test_bad_board_text_is_one_line_and_exit_2():
    text = ps.Position.start(seed=0).to_board().replace(".........", "....", 1)
    assert_bad_input(run("show", "-", input=text), "row 1 has 4 squares")
    text = ps.Position.start(seed=0).to_board().replace(".........", "....Q....", 1)
    assert_bad_input(run("moves", "-", input=text), "quilt 0")
    assert_bad_input(run("show", "--board", "--json"), "--board or --json")


def test_new_with_the_circle_read_off_the_table():
    ids = list(range(1, 33)) + [0]
    names = ",".join(PATCHES[i].name for i in ids)
    r = run("new", "--circle", names, "--first", "1")
    assert r.exit_code == 0, r.output
    assert r.output.strip() == ps.Position.start(circle=ids, first_player=1).to_text()
    assert run("new", "--circle", ",".join(map(str, ids))).output == r.output.replace(" 1 26,", " 0 26,")


@pytest.mark.parametrize(
    "circle, needle",
    [
        (",".join(map(str, range(33))), "must be last"),
        (",".join(map(str, list(range(1, 32)) + [0])), "missing"),
        ("1,2,banana", "unknown patch"),
    ],
)
def test_new_refuses_a_circle_that_is_not_a_start_circle(circle, needle):
    assert_bad_input(run("new", "--circle", circle), needle)


def test_new_takes_a_seed_or_a_circle_not_both():
    assert_bad_input(
        run("new", "--seed", 3, "--circle", ",".join(map(str, list(range(1, 33)) + [0]))), "not both"
    )
