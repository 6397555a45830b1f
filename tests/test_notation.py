"""Position notation (text and JSON, patchsolve.rules.notation) and its validation (patchsolve.rules.validation)."""

import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import patchsolve as ps
from patchsolve import _core
from patchsolve.errors import InvalidPositionError, NotationError
from patchsolve.rules import notation

START_TEXT = (
    "revised 4,8,30,21,20,6,1,11,15,27,18,22,28,24,3,23,5,26,7,19,12,31,10,13,16,17,9,2,14,29,32,25,0"
    " 0/0 5/5 0/0 0/0 0 26,32,38,44,50 - - -"
)
PENDING_TEXT = (
    "revised 13,16,17,9,2,14,29,32,25,0,4,30,21,6,27,18,28,3,23,26,19,31"
    " 606000030b3cf8080/61be5d0e8ed20cc2403 10/10 9/4 25/26 - 32,38,44,50 - - 1"
)
END_TEXT = (
    "revised 28,24,26,19,31,10,17,9,29,32,30,21 160bb69378fec449be54f/1ee7b6517bbf53bef7f66"
    " 45/52 8/9 53/53 1 - - 0 -"
)


def replace_field(text, name, value):
    tokens = text.split()
    tokens[notation.FIELDS.index(name)] = value
    return " ".join(tokens)


def random_positions(games=20, seed=0):
    """Every position of a few uniform random games (both editions)."""
    out = []
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        pos = ps.Position.start(seed=g, edition=rng.choice(["revised", "original"]), first_player=g % 2)
        while True:
            out.append(pos)
            if pos.is_over:
                break
            pos = pos.play(rng.choice(pos.legal_moves()))
    return out


# -- the spec's examples ---------------------------------------------------


def test_the_start_position_has_the_documented_text():
    assert ps.Position.start(seed=0).to_text() == START_TEXT
    assert START_TEXT in notation.__doc__


def test_every_example_in_the_module_docstring_round_trips():
    examples = [
        line.strip()
        for line in notation.__doc__.splitlines()
        if line.strip().startswith(("revised ", "original "))
    ]
    assert len(examples) >= 4
    for text in examples:
        assert ps.Position.from_text(text).to_text() == text


def test_a_pending_leather_placement_is_read_and_the_taker_must_place_it():
    pos = ps.Position.from_text(PENDING_TEXT)
    assert pos.pending_leather and pos.to_move == 1
    assert all(m.kind == "leather" for m in pos.legal_moves())


def test_a_finished_game_is_read_with_its_tie_break():
    pos = ps.Position.from_text(END_TEXT)
    assert pos.is_over and pos.first_at_end == 0


# -- round trips -------------------------------------------------------------


def test_text_and_json_round_trip_for_every_position_of_random_games():
    for pos in random_positions(games=15):
        text = pos.to_text()
        assert ps.Position.from_text(text) == pos
        assert ps.Position.from_text(text).to_text() == text
        assert ps.Position.from_json(pos.to_json()) == pos
        assert eval(repr(pos), {"Position": ps.Position}) == pos


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 2**32), st.integers(0, 400), st.sampled_from(["revised", "original"]), st.integers(0, 1)
)
def test_parse_of_to_text_is_the_position_for_positions_reached_by_random_play(seed, plies, edition, first):
    rng = random.Random(seed)
    pos = ps.Position.start(seed=seed, edition=edition, first_player=first)
    for _ in range(plies):
        if pos.is_over:
            break
        pos = pos.play(rng.choice(pos.legal_moves()))
    assert ps.Position.from_text(pos.to_text()) == pos
    assert notation.parse_position(pos.to_text()) == pos.fields()


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(max_size=200),
        st.lists(
            st.sampled_from(
                START_TEXT.split()
                + PENDING_TEXT.split()
                + END_TEXT.split()
                + ["-", "0", "1", "-1", "99", "0/0", "x", "1/2/3", "53/53", "ff/0", ",", "1,,2"]
            ),
            max_size=13,
        ).map(" ".join),
    )
)
def test_arbitrary_text_raises_only_notation_or_invalid_position_errors(text):
    try:
        pos = ps.Position.from_text(text)
    except (NotationError, InvalidPositionError):
        return
    # Whatever is accepted is a position that prints and parses back to itself.
    assert ps.Position.from_text(pos.to_text()) == pos


def test_a_known_bad_text_is_refused():
    with pytest.raises(NotationError):
        ps.Position.from_text("revised")


@settings(max_examples=150, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=3), c, max_size=4),
        max_leaves=12,
    )
)
def test_arbitrary_json_raises_only_notation_or_invalid_position_errors(data):
    for value in (data, json.dumps(data)):
        try:
            pos = ps.Position.from_json(value)
        except (NotationError, InvalidPositionError):
            continue
        assert ps.Position.from_json(pos.to_json()) == pos


def test_a_known_bad_json_is_refused():
    with pytest.raises(NotationError):
        ps.Position.from_json("{}")


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(notation.FIELDS),
    st.one_of(
        st.none(),
        st.integers(-5, 60),
        st.text(max_size=3),
        st.tuples(st.integers(-1, 2**82), st.integers(-1, 60)),
        st.lists(st.integers(-1, 40), max_size=4),
    ),
)
@pytest.mark.parametrize("base", [START_TEXT, PENDING_TEXT, END_TEXT])
def test_arbitrary_field_values_raise_only_invalid_position_errors(base, name, value):
    fields = ps.Position.from_text(base).fields()
    fields[name] = value
    try:
        pos = ps.Position.from_fields(fields)
    except InvalidPositionError:
        return
    # Accepted values are kept as given (the position is what was asked for).
    assert ps.Position.from_text(pos.to_text()) == pos


def test_a_known_bad_field_value_is_refused():
    fields = ps.Position.from_text(START_TEXT).fields()
    fields["time"] = (60, 0)
    with pytest.raises(InvalidPositionError):
        ps.Position.from_fields(fields)


# -- syntax errors name the field and the token ---------------------------


@pytest.mark.parametrize(
    "name,token",
    [
        ("edition", "deluxe"),
        ("circle", "4,x,8"),
        ("circle", "04,8"),
        ("quilts", "0"),
        ("quilts", "0x1/0"),
        ("quilts", "FF/0"),
        ("buttons", "5/five"),
        ("income", "+1/0"),
        ("time", "0/00"),
        ("time", "-0/0"),
        ("on_top", "2"),
        ("leather", "26;32"),
        ("bonus_owner", "none"),
        ("first_at_end", "01"),
        ("pending_leather", "x"),
    ],
)
def test_a_syntax_error_names_the_field_and_the_token(name, token):
    with pytest.raises(NotationError) as e:
        ps.Position.from_text(replace_field(START_TEXT, name, token))
    assert e.value.field == name
    assert e.value.token is not None and e.value.token in token
    assert name in str(e.value)


def test_too_few_and_too_many_fields_are_syntax_errors():
    with pytest.raises(NotationError) as e:
        ps.Position.from_text(" ".join(START_TEXT.split()[:7]))
    assert e.value.field == "leather"
    with pytest.raises(NotationError) as e:
        ps.Position.from_text(START_TEXT + " extra")
    assert e.value.token == "extra"
    with pytest.raises(NotationError):
        ps.Position.from_text("")
    with pytest.raises(NotationError):
        ps.Position.from_text(None)


def test_json_syntax_errors_name_the_key():
    good = json.loads(ps.Position.start(seed=0).to_json())
    with pytest.raises(NotationError) as e:
        ps.Position.from_json("{not json")
    assert e.value.field == "json"
    bad = dict(good, quilts=[0, 0])
    with pytest.raises(NotationError) as e:
        ps.Position.from_json(bad)
    assert e.value.field == "quilts"
    bad = dict(good)
    del bad["time"]
    with pytest.raises(NotationError) as e:
        ps.Position.from_json(bad)
    assert e.value.field == "time"
    with pytest.raises(NotationError) as e:
        ps.Position.from_json(dict(good, colour="red"))
    assert e.value.field == "colour"


def test_the_json_form_has_the_eleven_fields_and_hex_quilts():
    data = json.loads(ps.Position.from_text(PENDING_TEXT).to_json())
    assert tuple(data) == notation.FIELDS
    assert data["quilts"] == ["606000030b3cf8080", "61be5d0e8ed20cc2403"]
    assert data["pending_leather"] == 1 and data["on_top"] is None


# -- impossible positions list every problem ----------------------------------


def problems_of(text):
    with pytest.raises(InvalidPositionError) as e:
        ps.Position.from_text(text)
    return e.value.problems


def test_every_problem_is_listed_at_once():
    text = replace_field(START_TEXT, "circle", "4,4,99," + ",".join(START_TEXT.split()[1].split(",")[1:]))
    text = replace_field(text, "time", "0/60")
    text = replace_field(text, "buttons", "-1/5")
    problems = problems_of(text)
    joined = "\n".join(problems)
    assert "99" in joined and "more than once" in joined
    assert "60" in joined and "buttons" in joined
    assert len(problems) >= 4


@pytest.mark.parametrize(
    "name,value,needle",
    [
        ("time", "54/0", "outside 0..53"),
        ("buttons", "-3/5", "negative buttons"),
        ("buttons", "6/5", "space 0"),
        ("income", "1/0", "add up to"),
        ("quilts", "1/0", "space 0"),
        ("quilts", "3ffffffffffffffffffff/0", "outside the 81"),
        ("on_top", "-", "on top"),
        ("leather", "20,26,32,38,44,50", "no leather patch on the revised board"),
        ("leather", "32,38,44,50", "ahead of both tokens"),
        ("leather", "50,44,38,32,26", "ascending"),
        ("bonus_owner", "0", "no 7x7"),
        ("first_at_end", "1", "not on space 53"),
        ("pending_leather", "0", "pending_leather"),
    ],
)
def test_impossible_start_variants_are_rejected(name, value, needle):
    problems = problems_of(replace_field(START_TEXT, name, value))
    assert any(needle in p for p in problems), problems


def test_impossible_midgame_variants_are_rejected():
    # the income sum must match the patches bought
    assert any("add up to" in p for p in problems_of(replace_field(PENDING_TEXT, "income", "9/5")))
    # a leather patch can only be pending for the player who just passed a leather space
    assert any(
        "pending_leather" in p for p in problems_of(replace_field(PENDING_TEXT, "pending_leather", "0"))
    )
    # a full quilt cannot receive a leather patch
    full = replace_field(PENDING_TEXT, "quilts", "606000030b3cf8080/1ffffffffffffffffffff")
    assert any("quilt is full" in p for p in problems_of(full))
    # covered squares must match the patches that left the circle (+ leather)
    assert any(
        "squares covered" in p
        for p in problems_of(replace_field(PENDING_TEXT, "quilts", "606000030b3cf8081/61be5d0e8ed20cc2403"))
    )
    # buttons beyond what the time position can have earned
    assert any("can have earned" in p for p in problems_of(replace_field(PENDING_TEXT, "buttons", "10/200")))
    # the leather spaces already passed must be empty
    assert any(
        "already reached" in p for p in problems_of(replace_field(PENDING_TEXT, "leather", "26,32,38,44,50"))
    )


def test_the_player_on_top_at_the_end_arrived_last():
    problems = problems_of(replace_field(END_TEXT, "first_at_end", "1"))
    assert any("arrived last" in p for p in problems)


def test_no_split_of_the_bought_patches_explains_the_incomes():
    # move all income to player 0 while player 1's quilt holds most squares: the
    # sum still matches, but no split of the bought patches gives it
    problems = problems_of(replace_field(PENDING_TEXT, "income", "13/0"))
    assert any("no split" in p for p in problems), problems


def test_nothing_is_built_on_error_and_from_fields_validates():
    fields = ps.Position.start(seed=0).fields()
    fields["time"] = (0, -1)
    with pytest.raises(InvalidPositionError):
        ps.Position.from_fields(fields)
    with pytest.raises(InvalidPositionError):
        ps.Position.from_fields({"edition": "revised"})
    with pytest.raises(InvalidPositionError):
        ps.Position.from_fields("not a dict")


def test_a_patch_off_the_quilt_is_named_with_where_its_corner_can_go():
    # a move's square is the top-left corner of the patch's bounding box: the corner can go on
    # every square from which the whole patch stays on the 9x9 quilt, and nowhere else
    for patch in range(33):
        for orientation in range(_core.orientation_count(patch)):
            fits, text = set(), None
            for square in range(81):
                try:
                    _core.buy_move_code(patch, orientation, square)
                    fits.add(square)
                except ValueError as e:
                    text = str(e)
            if text is None:
                continue
            m = re.search(r"\((\d) wide, (\d) tall\) .* a1 to ([a-i])([1-9]) for this orientation$", text)
            assert m, text
            width, height = int(m[1]), int(m[2])
            last_col, last_row = ord(m[3]) - ord("a"), int(m[4]) - 1
            assert (last_col, last_row) == (9 - width, 9 - height)
            assert fits == {r * 9 + c for r in range(last_row + 1) for c in range(last_col + 1)}
