"""The eight symmetries of a quilt (patchsolve.rules.symmetry), and the root moves
they make equal: their images are the same position up to symmetry, so the
solver values them alike."""

import random

import patchsolve as ps
from builders import FULL, cells, make
from patchsolve.rules.symmetry import canonical, images, mirror_classes


def square(row, col):
    return 1 << (row * 9 + col)


def test_the_eight_images_of_an_asymmetric_shape_are_distinct_and_a_group():
    shape = square(0, 0) | square(0, 1) | square(1, 0) | square(0, 2) | square(4, 7)  # no symmetry at all
    out = images(shape)
    assert len(out) == 8 and out[0] == shape and len(set(out)) == 8
    for q in out:  # closed: the images of an image are the same eight
        assert set(images(q)) == set(out)
        assert bin(q).count("1") == bin(shape).count("1") and q & ~FULL == 0


def test_the_canonical_form_is_the_same_for_every_image():
    rng = random.Random(3)
    for _ in range(200):
        q = rng.getrandbits(81)
        c = canonical(q)
        assert all(canonical(x) == c for x in images(q))


def test_at_the_start_the_placements_of_a_patch_come_in_mirror_classes():
    pos = ps.Position.start(seed=0)
    twins = mirror_classes(pos)
    assert twins, "an empty quilt makes every placement a twin of its mirror images"
    for code, others in twins.items():
        m = ps.Move.from_code(code)
        for o in others:
            t = ps.Move.from_code(o)
            assert t.patch == m.patch and canonical(t.mask) == canonical(m.mask)
            assert code in twins[o]
    assert 0 not in twins  # walking has no twin


def test_mirror_twins_have_the_same_exact_value():
    """A quilt full but for a 3x3 hole in its middle (symmetric under all
    eight): the 12 placements of the 1x2 patch in it are 4 through the
    centre and 8 along the rim, each class the same position up to
    symmetry, each worth the same exactly."""
    hole = cells("d4", "e4", "f4", "d5", "e5", "f5", "d6", "e6", "f6")
    pos = make(
        quilts=(FULL & ~hole, FULL & ~cells("a1", "b1")), time=(49, 51), buttons=(10, 10), circle=(0, 1, 2, 3)
    )
    twins = mirror_classes(pos)
    dominoes = [m for m in pos.legal_moves() if m.patch == 0]
    assert len(dominoes) == 12
    sizes = sorted(len(twins[m.code]) + 1 for m in dominoes)
    assert sizes == [4] * 4 + [8] * 8
    for m in dominoes:
        values = set()
        for c in [m.code] + twins[m.code]:
            child = pos.play(ps.Move.from_code(c))
            r = ps.solve(child, nodes=2_000_000, workers=1)
            assert r.bound == "exact"
            values.add(r.score if child.to_move == pos.to_move else -r.score)
        assert len(values) == 1
