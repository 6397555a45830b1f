"""Why a move is worse (patchsolve.review.explanation): terms measured at the ends of
the two lines, never guessed."""

import pytest

import patchsolve as ps
from patchsolve.review.explanation import _holes, explain

# Player 0 to move; 1:0@a6 leaves a hole no patch left in the circle can fill.
HOLE = "revised 1,27,18,28,3,23,26,19,12,10,13,17,9,14,29,0,4 70040281fddffffffff/406bfeffffffc 2/10 6/9 28/32 - 38,44,50 - - -"  # noqa: E501
# Player 1 to place a leather patch; f5 hands the opponent the 7x7 bonus.
BONUS = "revised 23,1,7,21,15,16,32,19,0,18,17,10 c060673fdf0fffffff3f/1f84877c3e0fd7fe3fbff 17/10 12/11 43/45 - 50 - - 1"  # noqa: E501


def terms(e):
    return {t["term"]: t["points"] for t in e.terms}


def test_the_terms_add_up_to_the_value_difference():
    e = explain(HOLE, "1:0@a6", depth=4)
    assert e.difference > 0
    assert sum(terms(e).values()) == pytest.approx(e.best.value - e.played.value, abs=1e-9)
    assert [abs(t["points"]) for t in e.terms] == sorted((abs(t["points"]) for t in e.terms), reverse=True)


def test_a_placement_that_leaves_an_unfillable_hole_shows_the_hole_term():
    pos = ps.Position(HOLE)
    assert _holes(pos.play(pos.parse_move("1:0@a6")), 0) > _holes(pos, 0)
    e = explain(HOLE, "1:0@a6", depth=4)
    assert e.played.end["holes"][0] > e.best.end["holes"][0]
    assert terms(e)["holes"] > 0  # a reason the move is worse
    assert "holes" in e.text(top=20)


def test_a_move_that_hands_the_opponent_the_7x7_shows_the_bonus_term():
    e = explain(BONUS, "leather@f5", depth=4)
    assert e.played.end["bonus_owner"] == 1 and e.best.end["bonus_owner"] != 1
    assert terms(e)["bonus_claimed"] >= 7.0
    assert "7x7 bonus" in e.text(top=20)


def test_the_best_move_costs_nothing():
    best = ps.search(ps.Position(HOLE), engine="alphabeta", depth=4).best_move
    e = explain(HOLE, str(best), depth=4)
    assert e.difference == 0 and e.terms == []
    assert "as good as" in e.text()


@pytest.mark.parametrize("move,depth", [("walk walk", 4), ("32:0@a1", 4), ("walk", 0), ("walk", True)])
def test_bad_input_is_a_clear_error(move, depth):
    with pytest.raises(ps.PatchsolveError):
        explain(HOLE, move, depth=depth)


def test_a_finished_game_has_nothing_to_explain():
    end = ps.Game.read(__import__("pathlib").Path(__file__).parent / "data" / "golden_game.txt").end
    with pytest.raises(ps.PatchsolveError):
        explain(end, "walk")


def test_with_the_learned_evaluation_off_the_terms_are_a_clear_error():
    # the terms are the learned evaluation's: without its weights (no weights
    # file, or switched off) there is nothing to split the difference into
    from patchsolve.search.alphabeta import learned_evaluation

    with learned_evaluation(False), pytest.raises(ps.PatchsolveError, match="learned evaluation is off"):
        explain(HOLE, "1:0@a6", depth=4)
