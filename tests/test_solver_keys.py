"""The solver's table keys forget where a quilt's isolated holes lie once
the 7x7 bonus is decided (search/_solver.pyx, "TT keys that forget where
the dead holes are"): brute force checks that positions which differ only
there have the same value, and that the solver shares their entry."""

from patchsolve import Position, solve
from patchsolve.errors import InvalidPositionError
from patchsolve.search.solver import c_solver
from test_alphabeta import plain_minimax
from test_solver import endgame_with, plain_units

FULL = (1 << 81) - 1


def neighbours(sq):
    r, c = divmod(sq, 9)
    return [
        rr * 9 + cc
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        if 0 <= rr < 9 and 0 <= cc < 9
    ]


def holes(quilt):
    """Empty squares with no empty neighbour."""
    return [sq for sq in range(81) if not quilt >> sq & 1 and all(quilt >> n & 1 for n in neighbours(sq))]


def has_holes_and_bonus_decided(pos):
    f = pos.fields()
    return f["bonus_owner"] is not None and any(holes(q) for q in f["quilts"])


def moved_hole(pos):
    """``pos`` with one isolated hole of a quilt filled and another covered
    square of that quilt emptied instead, that square becoming isolated; None
    when there is no such square."""
    f = pos.fields()
    for p, q in enumerate(f["quilts"]):
        for h in holes(q):
            full = q | 1 << h
            for sq in range(81):
                if sq != h and full >> sq & 1 and all(full >> n & 1 for n in neighbours(sq)):
                    quilts = list(f["quilts"])
                    quilts[p] = full & ~(1 << sq)
                    try:  # e.g. the bonus owner's 7x7 square must stay covered
                        return Position.from_fields({**f, "quilts": tuple(quilts)})
                    except InvalidPositionError:
                        continue
    return None


POSITIONS = endgame_with(has_holes_and_bonus_decided, 6, first_seed=5000)
# both quilts' holes still matter while the bonus is free: those keys stay exact
OPEN = endgame_with(
    lambda pos: pos.fields()["bonus_owner"] is None and any(holes(q) for q in pos.fields()["quilts"]),
    3,
    first_seed=5000,
)


def test_the_set_has_both_editions_and_leather():
    assert {p.fields()["edition"] for p in POSITIONS} == {"revised", "original"}
    assert any(p.fields()["leather"] for p in POSITIONS)


def test_exact_values_with_abstract_keys_equal_brute_force():
    for pos in POSITIONS + OPEN:
        assert solve(pos).score == plain_minimax(pos)
        assert solve(pos, wdl=True).proven == ("win" if solve(pos).proven == "win" else "loss")


def test_moving_a_hole_keeps_the_value_and_the_table_entry():
    pairs = [(a, moved_hole(a)) for a in POSITIONS]
    pairs = [(a, b) for a, b in pairs if b is not None]
    assert len(pairs) >= 3
    for a, b in pairs:
        assert a != b and plain_units(a) == plain_units(b)
        s = c_solver(4)
        s.set_limits(0, 0.0)
        lo, hi = s.solve(a._c, *s.bounds(a._c), s.guess(a._c))
        assert lo == hi == plain_units(a)
        assert s.tt_bounds(b._c)[:2] == (lo, hi)


def test_without_a_decided_bonus_the_holes_keep_their_own_keys():
    pairs = [(a, moved_hole(a)) for a in OPEN]
    pairs = [(a, b) for a, b in pairs if b is not None]
    assert pairs
    for a, b in pairs:
        s = c_solver(4)
        s.set_limits(0, 0.0)
        s.solve(a._c, *s.bounds(a._c), s.guess(a._c))
        assert s.tt_bounds(b._c) is None


# -- a player on the last space: only its number of empty squares is kept ------------


def done_player(pos):
    """The player on the last space (not placing a leather patch), or None."""
    f = pos.fields()
    for p in (0, 1):
        if pos.time(p) >= 53 and f["pending_leather"] != p:
            return p
    return None


def moved_square(pos, p):
    """``pos`` with one covered square of player ``p``'s quilt emptied and an
    empty one covered instead (as many empty squares); None if no such
    position is valid."""
    f = pos.fields()
    q = f["quilts"][p]
    for a in range(81):
        for b in range(81):
            if q >> a & 1 and not q >> b & 1:
                quilts = list(f["quilts"])
                quilts[p] = (q & ~(1 << a)) | 1 << b
                try:
                    return Position.from_fields({**f, "quilts": tuple(quilts)})
                except InvalidPositionError:
                    continue
    return None


DONE = endgame_with(lambda pos: done_player(pos) is not None and not pos.is_over, 6, first_seed=7000)


def test_a_finished_players_quilt_counts_only_by_its_empty_squares():
    pairs = [(a, moved_square(a, done_player(a))) for a in DONE]
    pairs = [(a, b) for a, b in pairs if b is not None]
    assert len(pairs) >= 3
    assert {a.fields()["edition"] for a, _ in pairs} == {"revised", "original"}
    for a, b in pairs:
        assert a != b and plain_units(a) == plain_units(b)
        s = c_solver(4)
        s.set_limits(0, 0.0)
        lo, hi = s.solve(a._c, *s.bounds(a._c), s.guess(a._c))
        assert lo == hi == plain_units(a)
        assert s.tt_bounds(b._c)[:2] == (lo, hi)
        # without the abstraction the two keep their own entries
        s = c_solver(4, use_done_keys=False)
        s.set_limits(0, 0.0)
        s.solve(a._c, *s.bounds(a._c), s.guess(a._c))
        assert s.tt_bounds(b._c) is None
