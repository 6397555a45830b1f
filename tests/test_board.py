"""Board text (patchsolve.rules.board), Position(text), and the tiling of mask-only quilts."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import patchsolve as ps
from patchsolve.errors import InvalidPositionError, NotationError
from patchsolve.rules import board, tiling
from patchsolve.rules.patches import PATCHES, SYMBOLS

EMPTY_ROWS = "\n".join(["........."] * 9)


def random_game(seed, edition="revised", plies=None):
    rng = random.Random(seed)
    pos = ps.Position.start(seed=seed, edition=edition, first_player=seed % 2)
    out = [pos]
    while not pos.is_over and (plies is None or len(out) <= plies):
        pos = pos.play(rng.choice(pos.legal_moves()))
        out.append(pos)
    return out


def engine_game(seed, nodes=150):
    pos = ps.Position.start(seed=seed)
    out = [pos]
    while not pos.is_over:
        pos = pos.play(ps.search(pos, engine="alphabeta", nodes=nodes).best_move)
        out.append(pos)
    return out


def assert_round_trip(pos):
    text = pos.to_board()
    back = ps.Position(text)
    assert back == pos, (pos.to_text(), text)
    assert back.to_board() == text
    return text


def board_text(
    q0=EMPTY_ROWS, q1=EMPTY_ROWS, circle=None, p0="buttons 5 time 0", p1="buttons 5 time 0", extra="on_top 0"
):
    circle = ",".join(map(str, range(1, 33))) + ",0" if circle is None else circle
    return f"edition revised\ncircle {circle}\nplayer 0 {p0}\n{q0}\nplayer 1 {p1}\n{q1}\n{extra}\n"


def rows_with(*placed):
    """Nine rows with (row, col, text) strings written in."""
    grid = [["."] * 9 for _ in range(9)]
    for r, c, text in placed:
        for k, ch in enumerate(text):
            grid[r][c + k] = ch
    return "\n".join("".join(row) for row in grid)


# -- round trips ------------------------------------------------------------------


def test_every_position_of_random_games_round_trips_through_board_text():
    for g in range(12):
        for pos in random_game(g, edition=("revised", "original")[g % 2]):
            text = assert_round_trip(pos)
            assert "?" not in text  # positions reached in play know their patches


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31), st.integers(0, 80))
def test_board_text_round_trips_at_any_ply_of_any_random_game(seed, ply):
    pos = random_game(seed, plies=ply)[-1]
    assert_round_trip(pos)


def test_every_position_of_engine_games_round_trips_through_board_text():
    for g in range(2):
        for pos in engine_game(g):
            assert "?" not in assert_round_trip(pos)


def test_the_labels_drawn_are_the_patches_played():
    g = ps.Game(ps.Position.start(seed=3))
    rng = random.Random(3)
    while not g.end.is_over:
        g.push(rng.choice(g.end.legal_moves()))
    assert g.end.labels == g.labels()
    back = ps.Position(g.end.to_board())
    assert back.labels == g.labels()


def test_a_position_from_the_notation_is_tiled_or_drawn_with_question_marks(monkeypatch):
    monkeypatch.setattr(board, "TILING_BUDGET", 100_000)
    tiled = unknown = 0
    for pos in random_game(5)[::3]:
        bare = ps.Position.from_text(pos.to_text())
        assert bare.labels is None
        text = assert_round_trip(bare)
        if "?" in text:
            unknown += 1
            assert "\nincome " in text
        else:
            tiled += 1
    assert tiled > 0


def test_a_tiling_covers_each_quilt_with_the_patches_that_left_the_circle_and_their_income():
    checked = 0
    for pos in random_game(7)[:40:4] + engine_game(1)[:30:5]:
        f = pos.fields()
        try:
            labels = tiling.tile_quilts(f, budget=300_000)
        except tiling.TilingError:
            continue
        checked += 1
        out = {i for i in range(33) if i not in f["circle"]}
        used = set()
        for p in (0, 1):
            assert sum(1 << sq for sq in labels[p]) == f["quilts"][p]
            ids = {x for x in labels[p].values() if x != "L"}
            assert not ids & used
            used |= ids
            assert sum(PATCHES[i].income for i in ids) == f["income"][p]
            for i in ids:
                assert sum(1 << sq for sq, x in labels[p].items() if x == i) in tiling.placement_set(i)
        assert used == out
    assert checked >= 8


def test_a_tiling_that_cannot_exist_is_refused():
    pos = random_game(2, plies=12)[-1]
    f = pos.fields()
    with pytest.raises(tiling.TilingError):
        tiling.tile_quilts(dict(f, income=(f["income"][0] + 50, f["income"][1])))


# -- derived and optional lines ---------------------------------------------------


def first(predicate, games=range(40)):
    for g in games:
        for pos in random_game(g):
            if predicate(pos):
                return pos
    raise AssertionError("no such position in the games")


def test_a_pending_leather_placement_follows_from_the_leather_drawn():
    pos = first(lambda p: p.pending_leather and 2**81 - 1 not in p.fields()["quilts"])
    text = assert_round_trip(pos)
    assert "pending_leather" not in text
    assert ps.Position(text).pending_leather


def test_on_top_is_written_only_when_the_tokens_share_a_space():
    shared = first(lambda p: p.time(0) == p.time(1) and p.time(0) > 0)
    apart = first(lambda p: p.time(0) != p.time(1))
    assert f"on_top {shared.fields()['on_top']}" in shared.to_board()
    assert "on_top" not in apart.to_board()
    text = apart.to_board().rstrip("\n") + "\non_top 0\n"
    with pytest.raises(InvalidPositionError, match="on_top"):
        ps.Position(text)


def greedy_game(seed):
    from patchsolve.arena.players import make_player

    players = [make_player("greedy", seed=seed), make_player("greedy", seed=seed + 1)]
    pos = ps.Position.start(seed=seed)
    out = [pos]
    while not pos.is_over:
        pos = pos.play(players[pos.to_move].choose(pos))
        out.append(pos)
    return out


def test_the_bonus_first_at_end_income_and_leather_are_derived():
    end = greedy_game(0)[-1]  # player 1 holds the bonus in this game
    assert end.is_over and end.bonus_owner is not None
    text = assert_round_trip(end)
    for word in ("bonus_owner", "first_at_end", "leather", "income"):
        assert f"\n{word}" not in text
    f = ps.Position(text).fields()
    assert (f["bonus_owner"], f["first_at_end"], f["income"], f["leather"]) == (
        end.bonus_owner,
        end.first_at_end,
        end.fields()["income"],
        end.leather,
    )


def test_both_quilts_covering_a_7x7_need_the_bonus_line():
    full = "\n".join(["?????????"] * 9)
    with pytest.raises(InvalidPositionError, match="bonus_owner P"):
        ps.Position(
            board_text(
                q0=full,
                q1=full,
                circle="-",
                p0="buttons 0 time 53",
                p1="buttons 0 time 53",
                extra="on_top 1\nincome 20/20",
            )
        )
    f = dict(random_game(1, plies=3)[-1].fields(), quilts=(2**81 - 1, 2**81 - 1), bonus_owner=1)
    assert "\nbonus_owner 1\n" in board.format_board(f, None)


def test_a_hand_written_board_with_names_spaces_and_comments_reads():
    q0 = rows_with((0, 0, "88"), (1, 0, "8"), (2, 0, "8"))
    q0 = q0.replace("88.......", "8 8 . . . . . . .", 1)  # spaces inside a row are ignored
    circle = ", ".join(PATCHES[i].name for i in list(range(9, 33)) + [0, 1, 2, 3, 4, 5, 6, 7])
    text = board_text(q0=q0, circle=circle, p0="buttons 1 time 6", p1="buttons 5 time 0", extra="# no line")
    text = "# my table\n" + text.replace("edition revised\n", "")
    pos = ps.Position(text)
    assert pos.income(0) == 2 and pos.quilt(0) == 1 | 2 | 1 << 9 | 1 << 18 and pos.to_move == 1
    assert pos.circle[0] == 9 and pos.labels[0][0] == 8


def test_question_marks_stand_for_patches_not_named_with_the_income_given():
    pos = random_game(4, plies=20)[-1]
    f = pos.fields()
    bare = board.format_board(f, None)
    assert "?" in bare and f"income {f['income'][0]}/{f['income'][1]}" in bare
    assert ps.Position(bare) == pos
    with pytest.raises(NotationError, match="income"):
        ps.Position(bare.replace(f"income {f['income'][0]}/{f['income'][1]}\n", ""))


# -- errors ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "q0, needle",
    [
        (EMPTY_ROWS.replace(".........", "........", 1), "quilt 0 row 1 has 8 squares"),
        (EMPTY_ROWS.replace(".........", "..........", 1), "quilt 0 row 1 has 10 squares"),
        (rows_with((3, 2, "Z")), "row 4 column c"),
        (rows_with((3, 2, "l")), "square c4"),
        ("\n".join(EMPTY_ROWS.splitlines()[:8]), "quilt 0 has 8 rows"),
    ],
)
def test_malformed_quilts_are_notation_errors_naming_row_and_column(q0, needle):
    with pytest.raises(NotationError, match=needle):
        ps.Position(board_text(q0=q0, p0="buttons 5 time 1", extra=""))


@pytest.mark.parametrize(
    "text, needle",
    [
        ("circle 1,2\nplayer 0 buttons 5\n", "player 0 buttons B time T"),
        ("circle 1,2,nosuchpatch\n", "unknown patch in the circle"),
        ("circle 1\nplayer 0 buttons 5 time 0\n" + EMPTY_ROWS + "\n", "missing 'player 1"),
        ("edition newest\ncircle 1\n", "unknown edition"),
        ("circle 1\nhello world\n", "unexpected line"),
        ("circle 1\ncircle 2\n", "given twice"),
    ],
)
def test_malformed_lines_are_notation_errors(text, needle):
    with pytest.raises(NotationError, match=needle):
        ps.Position(text)


def test_squares_that_are_not_the_patch_are_refused_naming_the_patch_and_squares():
    q0 = rows_with((0, 0, "888"), (1, 1, "8"))  # a T, but patch 8 is an L
    with pytest.raises(InvalidPositionError, match=r"squares drawn 8 \(a1 b1 c1 b2\) are not patch 8"):
        ps.Position(
            board_text(
                q0=q0, circle=",".join(str(i) for i in range(33) if i != 8), p0="buttons 1 time 6", extra=""
            )
        )


def test_a_patch_drawn_twice_or_still_in_the_circle_is_refused():
    q = rows_with((0, 0, "888"), (1, 0, "8"))
    rest = ",".join(str(i) for i in range(33) if i != 8)
    with pytest.raises(InvalidPositionError, match="drawn on both quilts"):
        ps.Position(board_text(q0=q, q1=q, circle=rest, p0="buttons 1 time 6", p1="buttons 1 time 6"))
    twice = rows_with((0, 0, "888"), (1, 0, "8"), (5, 0, "888"), (6, 0, "8"))
    with pytest.raises(InvalidPositionError, match="not patch 8"):
        ps.Position(board_text(q0=twice, circle=rest, p0="buttons 1 time 6", extra=""))
    with pytest.raises(InvalidPositionError, match="also still in the circle"):
        ps.Position(board_text(q0=q, p0="buttons 1 time 6", extra=""))
    with pytest.raises(InvalidPositionError, match=r"\[8\] are neither in the circle nor drawn"):
        ps.Position(board_text(circle=rest, p0="buttons 1 time 6", extra=""))


def test_the_income_line_is_refused_when_it_follows_from_the_drawing():
    with pytest.raises(NotationError, match="follow from the patches drawn"):
        ps.Position(board_text(extra="on_top 0\nincome 0/0"))


def test_a_board_that_is_well_formed_but_impossible_lists_its_problems():
    with pytest.raises(InvalidPositionError, match="buttons: player 0 is still on space 0"):
        ps.Position(board_text(p0="buttons 9 time 0"))


# -- Position(text) ----------------------------------------------------------------


def test_position_reads_each_of_the_three_text_forms():
    pos = random_game(9, plies=30)[-1]
    for text in (pos.to_text(), pos.to_json(), pos.to_board(), "# a comment\n" + pos.to_text()):
        assert ps.Position(text) == pos
    assert ps.Position(pos._c) == pos  # the internal route from a core state stays


@pytest.mark.parametrize(
    "bad, error",
    [
        (42, NotationError),
        (None, NotationError),
        (b"revised", NotationError),
        ("", NotationError),
        ("hello", NotationError),
        ("{", NotationError),
        ("circle 99", NotationError),
        ("revised - 0/0 5/5 0/0 0/0 0 26,32,38,44,50 - - -", InvalidPositionError),
    ],
)
def test_position_refuses_what_is_not_a_position(bad, error):
    with pytest.raises(error):
        ps.Position(bad)


def test_symbols_in_board_text_are_the_catalogue_symbols():
    assert [SYMBOLS[p.id] for p in PATCHES] == [p.symbol for p in PATCHES]


# -- new circles ------------------------------------------------------------------


def test_a_start_circle_reads_ids_and_names_and_needs_the_1x2_last():
    ids = list(range(1, 33)) + [0]
    text = ",".join(PATCHES[i].name if i % 2 else str(i) for i in ids)
    assert board.start_circle(text) == tuple(ids)
    with pytest.raises(InvalidPositionError, match="must be last"):
        board.start_circle(",".join(map(str, [0] + ids[:-1])))
    with pytest.raises(InvalidPositionError, match=r"listed more than once.*missing"):
        board.start_circle(",".join(map(str, [2] + ids[1:])))
    with pytest.raises(NotationError, match="unknown patch"):
        board.start_circle("1,2,x")


def _example(text, start):
    lines = text[text.index(start) :].splitlines()
    return "\n".join(
        line.strip() for line in lines[: lines.index(next(x for x in lines if "player 1" in x)) + 10]
    )


def test_the_examples_in_the_docstring_and_the_readme_read():
    from pathlib import Path

    expected = ps.Position.start(seed=0).play("walk").play("8:0@a1")
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    for text in (board.__doc__, readme):
        example = _example(text, "# patchsolve board text")
        assert ps.Position(example) == expected
        assert example + "\n" == expected.to_board()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 10**6),
    st.text(alphabet="0123456789ABCXL.?# ,/:\nplayerbutonsimecd_-", max_size=6),
    st.integers(0, 3),
)
def test_mangled_board_text_raises_only_patchsolve_errors(where, insert, cut):
    text = random_game(where % 7, plies=where % 60)[-1].to_board()
    k = where % len(text)
    mangled = text[:k] + insert + text[k + cut :]
    try:
        pos = ps.Position(mangled)
    except ps.PatchsolveError:
        return
    assert ps.Position(pos.to_board()) == pos


def test_a_game_record_is_not_taken_for_board_text():
    record = ps.Game(ps.Position.start(seed=0), ["walk"]).to_text()
    assert record.splitlines()[1].startswith("edition")
    assert not board.looks_like_board(record)
    assert board.looks_like_board(ps.Position.start(seed=0).to_board())


def test_the_web_app_loads_board_text_as_a_position_and_a_record_as_a_game():
    from patchsolve.web import views

    pos = random_game(6, plies=25)[-1]
    assert views.read_position(pos.to_board()) == pos
    loaded = views.load_text(pos.to_board())
    assert loaded.start == pos and len(loaded) == 0
    record = ps.Game(ps.Position.start(seed=0), ["walk"]).to_text()
    assert len(views.load_text(record)) == 1


# -- what follows from the table (board.fields_from_table: board text and the web set-up) ----------


def table_of(pos, **answers):
    """The arguments a person reads off the table for ``pos`` (labels as drawn)."""
    f, labels = pos.fields(), pos.labels
    cells = [[labels[p].get(sq) for sq in range(81)] for p in (0, 1)]
    return (f["edition"], f["circle"], cells, f["buttons"], f["time"]), answers


def from_table(pos, **answers):
    args, answers = table_of(pos, **answers)
    return board.fields_from_table(*args, **answers)


def test_every_position_of_a_game_follows_from_its_table_and_the_answers_it_cannot_show():
    from patchsolve.rules.validation import covers_7x7

    full = 2**81 - 1
    for g in range(3):
        for pos in random_game(g)[::2]:
            f = pos.fields()
            both_bonus = all(covers_7x7(q) for q in f["quilts"])
            fields, labels = from_table(
                pos,
                on_top=f["on_top"] if f["time"][0] == f["time"][1] else None,
                bonus_owner=f["bonus_owner"] if both_bonus else None,
                pending_leather=f["pending_leather"] if full in f["quilts"] else None,
            )
            assert fields == f and labels == pos.labels


def _after(start, *moves):
    pos = start
    for m in moves:
        pos = pos.play(m)
    return pos


START0 = ps.Position.start(seed=0)


def test_income_is_the_income_printed_on_the_patches_of_each_quilt():
    pos = _after(START0, "walk")  # player 1 to move; buys a patch that pays income
    bought = next(m for m in pos.legal_moves() if m.kind == "buy" and PATCHES[m.patch].income)
    pos = pos.play(bought)
    fields, _ = from_table(pos)
    assert fields["income"] == (0, PATCHES[bought.patch].income)


def test_leather_left_is_the_leather_spaces_ahead_of_both_tokens_and_one_passed_is_still_to_place():
    pos = _after(START0, "walk")
    args, _ = table_of(pos)
    edition, circle, cells, buttons, _time = args
    # player 1 has walked past space 26 (buttons as walking there gives), player 0 is on 13
    fields, _ = board.fields_from_table(edition, circle, cells, (5, 5 + 27 - 0), (13, 27))
    assert fields["leather"] == (32, 38, 44, 50)
    assert fields["pending_leather"] == 1  # taken, not yet laid: player 1 places it
    cells[1][40] = "L"  # laid at e5: nothing left to place
    fields, labels = board.fields_from_table(edition, circle, cells, (5, 32), (13, 27))
    assert fields["pending_leather"] is None and labels[1] == {40: "L"}


def test_a_leather_patch_on_a_full_quilt_is_discarded_so_it_is_asked_not_derived():
    with pytest.raises(InvalidPositionError, match="pending_leather"):
        ps.Position(
            board_text(
                q0="\n".join(["?????????"] * 9),
                circle="-",
                p0="buttons 0 time 27",
                p1="buttons 0 time 13",
                extra="income 0/0\nbonus_owner 0\npending_leather 0",
            )
        )


def test_the_bonus_goes_to_the_one_quilt_covering_a_7x7_and_is_asked_when_both_do():
    pos = next(p for p in greedy_game(0) if p.bonus_owner is not None)  # one quilt covers a 7x7 square
    f = pos.fields()
    fields, _ = from_table(
        pos,
        on_top=f["on_top"] if f["time"][0] == f["time"][1] else None,
        pending_leather=f["pending_leather"] if 2**81 - 1 in f["quilts"] else None,
    )
    assert fields["bonus_owner"] == pos.bonus_owner
    args, _ = table_of(pos)
    edition, circle, cells, buttons, time = args
    other = 1 - pos.bonus_owner
    with pytest.raises(InvalidPositionError, match="bonus_owner"):  # a wrong answer is refused, not kept
        board.fields_from_table(
            edition,
            circle,
            cells,
            buttons,
            time,
            bonus_owner=other,
            on_top=f["on_top"] if time[0] == time[1] else None,
        )


def test_tokens_on_one_space_need_the_answer_who_is_on_top():
    pos = first(lambda p: p.time(0) == p.time(1) and p.time(0) > 0)
    with pytest.raises(InvalidPositionError, match="on top"):
        from_table(pos)
    f = pos.fields()
    full = 2**81 - 1 in f["quilts"]
    assert from_table(pos, on_top=f["on_top"], pending_leather=f["pending_leather"] if full else None)[0] == f


def test_a_table_whose_patches_are_not_the_catalogue_is_refused():
    args, _ = table_of(_after(START0, START0.legal_moves()[-1]))
    edition, circle, cells, buttons, time = args
    with pytest.raises(InvalidPositionError, match="unknown patch id"):
        board.fields_from_table(edition, circle + (40,), cells, buttons, time)
    with pytest.raises(InvalidPositionError, match="neither in the circle nor drawn"):
        board.fields_from_table(edition, circle[1:], cells, buttons, time)
