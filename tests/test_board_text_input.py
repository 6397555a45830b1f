"""Board text as people type it: '#' squares, keywords in any case, the
circle by symbol, and messages about leather in the table's own terms
(the new-user review, defects 11, 12 and 23)."""

import re

import pytest

import patchsolve as ps

MID = (
    "revised 14,29,32,25,0,30,21,20,6,1,11,27,18,22,28,24,3,23,5,19,12,31,10,13,16,17 "
    "263b080002477/20f0080002e7 8/11 5/4 15/13 - 26,32,38,44,50 - - -"
)


def board():
    return ps.Position(MID).to_board()


def quilt_rows(text, p):
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"player {p}"))
    return start + 1, start + 10


def test_the_covered_squares_of_a_picture_may_be_drawn_with_hash():
    text = board()
    lines = text.splitlines()
    a, b = quilt_rows(text, 0)
    lines[a:b] = [re.sub(r"[^.]", "#", row) for row in lines[a:b]]
    hashed = "\n".join(lines)
    with pytest.raises(ps.NotationError, match="income"):  # '#' hides which patch: the incomes are needed
        ps.Position.from_board(hashed)
    pos = ps.Position.from_board(hashed + "\nincome 5/4\n")
    assert pos.quilt(0) == ps.Position(MID).quilt(0)
    # a comment still starts with '# ', also after a row
    lines[a] += "   # the first row"
    assert ps.Position.from_board("\n".join(lines) + "\nincome 5/4\n") == pos


def test_keywords_in_any_case_and_commas_in_the_player_line():
    text = (
        board()
        .replace("edition revised", "Edition Revised")
        .replace("player 0 buttons 8 time 15", "Player 0: buttons 8, time 15")
    )
    assert ps.Position.from_board(text) == ps.Position(MID)


def test_the_circle_may_use_the_symbols_of_the_quilt_rows():
    from patchsolve.rules.board import SYMBOLS

    pos = ps.Position(MID)
    circle_line = "circle " + ",".join(SYMBOLS[i] for i in pos.circle)
    text = re.sub(r"^circle .*$", circle_line, board(), flags=re.M)
    assert ps.Position.from_board(text) == pos


def test_leather_passed_but_not_drawn_is_said_in_the_tables_terms():
    text = re.sub(r"^player 0 buttons 8 time 15", "player 0 buttons 8 time 53", board(), flags=re.M)
    with pytest.raises(ps.InvalidPositionError) as e:
        ps.Position.from_board(text)
    message = str(e.value)
    assert "passed the leather space(s) 26, 32, 38, 44, 50" in message and "quilt 0 shows 0 L" in message
    assert "were placed" not in message


def test_an_l_drawn_before_any_leather_space_is_passed_is_named():
    text = board()
    lines = text.splitlines()
    a, _ = quilt_rows(text, 0)
    lines[a + 6] = "L" + lines[a + 6][1:]  # a7
    with pytest.raises(ps.InvalidPositionError) as e:
        ps.Position.from_board("\n".join(lines))
    assert "quilt 0 shows 1 L" in str(e.value) and "no leather space" in str(e.value)
