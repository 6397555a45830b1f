"""Invariants over random games (hypothesis), and the core's own consistency:
perft, the list-free move picker used by playouts, determinism by seed."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patchsolve import Position
from patchsolve.rules.patches import PATCHES

games = st.tuples(
    st.integers(0, 2**32),
    st.sampled_from(["revised", "original"]),
    st.integers(0, 1),
    st.lists(st.integers(0, 10**6), min_size=0, max_size=120),
)


def popcount(x: int) -> int:
    return bin(x).count("1")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_invariants_hold_along_any_game(game):
    seed, edition, first, choices = game
    pos = Position.start(seed=seed, edition=edition, first_player=first)
    bought_squares = 0
    leather_placed = 0
    for choice in choices:
        if pos.is_over:
            break
        moves = pos.legal_moves()
        move = moves[choice % len(moves)]
        nxt = pos.play(move)
        for p in (0, 1):
            assert nxt.buttons(p) >= 0  # buttons never negative
            assert nxt.quilt(p) & pos.quilt(p) == pos.quilt(p)  # quilts only grow
            assert nxt.time(p) >= pos.time(p)  # time never decreases
            assert 0 <= nxt.time(p) <= 53
        mover = pos.to_move
        other = 1 - mover
        assert (nxt.quilt(other), nxt.buttons(other), nxt.time(other)) == (
            pos.quilt(other),
            pos.buttons(other),
            pos.time(other),
        )  # only the mover changes
        if move.kind == "buy":
            assert len(nxt.circle) == len(pos.circle) - 1  # one patch leaves the circle
            assert nxt.income(mover) == pos.income(mover) + PATCHES[move.patch].income
            bought_squares += PATCHES[move.patch].size
        else:
            assert nxt.circle == pos.circle
        leather_placed += move.kind == "leather"
        covered = popcount(nxt.quilt(0)) + popcount(nxt.quilt(1))
        assert covered == bought_squares + leather_placed  # squares come from patches
        # perft counts move sequences, and a finished game is one leaf (no move)
        assert len(nxt.legal_moves()) == (0 if nxt.is_over else nxt.perft(1))
        pos = nxt


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**63), st.integers(0, 2**32))
def test_every_random_playout_ends_with_both_tokens_on_53(pos_seed, playout_seed):
    end = Position.start(seed=pos_seed).random_playout(playout_seed)
    assert end.is_over and end.time(0) == end.time(1) == 53
    assert end.winner() in (0, 1)


def test_a_playout_is_determined_by_its_seed():
    start = Position.start(seed=11)
    assert start.random_playout(5) == start.random_playout(5)
    assert len({start.random_playout(s) for s in range(20)}) > 1


def test_the_playout_move_picker_enumerates_exactly_the_legal_moves():
    """Playouts pick the r-th move without building the list; over r it must
    be the legal move list in order (so uniform r means uniform move)."""
    pos = Position.start(seed=2)
    for step in range(60):
        if pos.is_over:
            break
        codes = pos._c.legal_codes()
        assert [pos._c.nth_move(r) for r in range(len(codes))] == codes
        assert pos._c.nth_move(len(codes)) == -1
        pos = pos.play(pos.legal_moves()[(step * 7919) % len(codes)])


def test_perft_counts_move_sequences():
    pos = Position.start(seed=4)
    assert pos.perft(0) == 1
    assert pos.perft(1) == len(pos.legal_moves())
    assert pos.perft(2) == sum(pos.play(m).perft(1) for m in pos.legal_moves())


def test_perft_counts_a_finished_game_as_one_leaf():
    end = Position.start(seed=4).random_playout(1)
    assert end.perft(3) == 1


def test_a_position_rebuilt_from_its_fields_is_equal_and_hashes_equal():
    from patchsolve import _core

    pos = Position.start(seed=8)
    for i in range(40):
        if pos.is_over:
            break
        rebuilt = Position(_core.CoreState.from_fields(pos.fields()))
        assert rebuilt == pos and hash(rebuilt) == hash(pos) and rebuilt._c.key == pos._c.key
        pos = pos.play(pos.legal_moves()[(i * 31) % len(pos.legal_moves())])
