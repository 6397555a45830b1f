"""Drawings: patchsolve.rules.render (text and SVG)."""

import xml.dom.minidom
from pathlib import Path

import patchsolve as ps
from patchsolve import Game
from patchsolve.rules import render

GOLDEN = Path(__file__).parent / "data" / "golden_game.txt"


def svg_doc(svg):
    doc = xml.dom.minidom.parseString(svg)
    assert doc.documentElement.tagName == "svg"
    return doc


def test_a_position_is_an_svg_picture_and_notebooks_show_it():
    pos = ps.Position.start(seed=0)
    svg = pos.to_svg()
    assert svg == pos._repr_svg_()
    doc = svg_doc(svg)
    rects = doc.getElementsByTagName("rect")
    assert len(rects) >= 2 * 81 + 54  # both quilts and the time track
    text = " ".join(t.firstChild.data for t in doc.getElementsByTagName("text"))
    assert "Player 0  (to move)" in text and "T4" in text and "cost 2, time 2, income 0" in text


def test_with_labels_each_patch_has_its_colour_and_income_buttons():
    game = Game.read(GOLDEN)
    k = 30
    svg = game.position(k).to_svg(labels=game.labels(k))
    doc = svg_doc(svg)
    for p in (0, 1):
        for pid in {x for x in game.labels(k)[p].values() if x != render.LEATHER}:
            assert render.patch_colour(pid) in svg
    income_buttons = [
        c
        for c in doc.getElementsByTagName("circle")
        if c.getElementsByTagName("title")
        and c.getElementsByTagName("title")[0].firstChild.data == "income button"
    ]
    pos = game.position(k)
    assert len(income_buttons) == pos.income(0) + pos.income(1)


def test_a_finished_game_shows_the_result():
    end = Game.read(GOLDEN).end
    assert "Game over: player 0 4, player 1 8; player 1 wins" in end.to_svg()
    assert "game over: player 0 4, player 1 8; player 1 wins" in render.text_position(end)


def test_the_text_drawing_shows_quilts_track_and_next_patches():
    game = Game.read(GOLDEN)
    k = 30
    pos = game.position(k)
    text = render.text_position(pos, game.labels(k))
    lines = text.splitlines()
    assert "player 1  <- to move" in lines[0]
    assert "must place a leather patch" in text
    # each covered square shows its patch's symbol
    row1 = next(line for line in lines if line.startswith("1  "))
    assert row1.split()[1:10] == [
        render.symbol(game.labels(k)[0].get(c)) if pos.quilt(0) >> c & 1 else "." for c in range(9)
    ]
    track = next(line for line in lines if line.startswith("track"))
    assert track[7 + 44] == "L" and track[7 + 5] == "$"
    token = next(line for line in lines if line.startswith("token"))
    assert token[7 + pos.time(0)] == "0" and token[7 + pos.time(1)] == "1"
    assert "26 hexa_longT" in text


def test_without_labels_covered_squares_are_hashes_and_colour_is_optional():
    pos = Game.read(GOLDEN).position(20)
    plain = render.text_position(pos)
    assert "#" in plain and "\x1b[" not in plain
    assert "\x1b[" in render.text_position(pos, color=True)


def test_a_game_draws_its_positions_with_patch_colours():
    game = Game.read(GOLDEN)
    assert game._repr_svg_() == game.to_svg() == game.end.to_svg(labels=game.labels())
    svg_doc(game.to_svg(10))
    assert render.patch_colour(game.moves[0].patch) in game.to_svg(1)


BOARD_TEXT = (
    Path(__file__).parent / "data" / "mid_board.txt"
).read_text()  # the MID table of the new-user review


def test_a_position_that_knows_its_patches_draws_them_and_a_game_from_it_keeps_them():
    pos = ps.Position(BOARD_TEXT)
    svg = pos.to_svg()
    texts = [t.firstChild.data for t in svg_doc(svg).getElementsByTagName("text")]
    for pid in {x for d in pos.labels for x in d.values()}:
        assert render.patch_colour(pid) in svg and render.symbol(pid) in texts
    game = ps.Game(pos)
    assert game.labels(0) == pos.labels and game.to_svg(0) == svg
    after = game.push(game.end.legal_moves()[-1])
    assert all(set(pos.labels[p].items()) <= set(game.labels(1)[p].items()) for p in (0, 1))
    assert all(after.quilt(p) == sum(1 << sq for sq in game.labels(1)[p]) for p in (0, 1))


def test_a_position_from_the_notation_is_drawn_with_a_tiling_of_its_quilts():
    pos = ps.Position.from_text(ps.Position(BOARD_TEXT).to_text())
    assert pos.labels is None
    tiling = pos.labels_or_tiling()
    assert tiling is not None
    svg = pos.to_svg()
    for pid in {x for d in tiling for x in d.values()}:
        assert render.patch_colour(pid) in svg
    assert ps.Game(pos).labels(0) == tiling


def test_the_quilts_carry_the_square_names_of_move_text():
    texts = [
        t.firstChild.data for t in svg_doc(ps.Position.start(seed=0).to_svg()).getElementsByTagName("text")
    ]
    for name in list("abcdefghi") + [str(r) for r in range(1, 10)]:
        assert texts.count(name) >= 2, name  # around both quilts


def test_colours_are_hex_so_svg_1_1_renderers_paint_them():
    import re

    svg = Game.read(GOLDEN).to_svg(30)
    assert "hsl(" not in svg
    assert all(re.fullmatch(r"#[0-9a-f]{6}", render.patch_colour(i)) for i in range(len(ps.PATCHES)))
    cairosvg = __import__("pytest").importorskip("cairosvg")
    import io

    import numpy as np
    from PIL import Image

    img = np.asarray(Image.open(io.BytesIO(cairosvg.svg2png(bytestring=svg.encode()))).convert("RGB"))
    pid = next(x for x in Game.read(GOLDEN).labels(30)[0].values() if x != render.LEATHER)
    want = np.array([int(render.patch_colour(pid)[i : i + 2], 16) for i in (1, 3, 5)])
    assert (np.abs(img.reshape(-1, 3).astype(int) - want).max(axis=1) <= 2).sum() > 100
