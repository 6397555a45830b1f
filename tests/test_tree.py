"""Game records with variations (patchsolve.rules.tree): the syntax, its errors,
reading and writing as inverses, and the tree's edits (add, promote,
delete); old records read as before."""

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import patchsolve as ps
from patchsolve import Game, GameTree
from patchsolve.errors import IllegalMoveError, NotationError, PatchsolveError

GOLDEN = Path(__file__).parent / "data" / "golden_game.txt"
START = ps.Position.start(seed=0)
FIRST_BUY = str([m for m in START.legal_moves() if m.kind == "buy"][0])
HEADER = Game(START).to_text().split("moves")[0] + "moves\n"


def affordable(pos, k=0):
    """The k-th legal buy of ``pos`` (a placement), for examples."""
    return [m for m in pos.legal_moves() if m.kind == "buy"][k]


def second_only():
    """(a first move, a second move after it that is no legal first move)."""
    a = affordable(START)
    after = START.play(a)
    return a, next(m for m in after.legal_moves() if m.kind == "buy" and not START.is_legal(m))


def test_an_old_record_reads_as_before_and_has_no_variations():
    text = GOLDEN.read_text()
    tree = GameTree.from_text(text)
    assert tree.main_line() == Game.from_text(text)
    assert len(tree) == len(Game.from_text(text))
    assert all(len(n.children) <= 1 for n in tree.nodes())
    # written back, it is the old record word for word
    assert tree.to_text() == Game.from_text(text).to_text()


def test_a_variation_is_played_from_the_position_before_the_move_it_replaces():
    a0, b0 = second_only()
    with pytest.raises(IllegalMoveError):
        GameTree.from_text(HEADER + f"{a0} ({b0})\n")  # b0 is a second move, not a first
    a = affordable(START)
    b = affordable(START.play("walk"))
    record = HEADER + f"walk ({a} walk) walk ({b})\n"
    tree = GameTree.from_text(record)
    first, second = tree.root.children
    assert str(first.move) == "walk" and str(second.move) == str(a)
    assert [str(m) for m in second.children[0].moves()] == [str(a), "walk"]
    main_second, other_second = first.children
    assert str(main_second.move) == "walk" and str(other_second.move) == str(b)
    assert tree.main_line() == Game(START, ["walk", "walk"])
    assert Game.from_text(record) == tree.main_line()  # every reader of games reads the main line
    assert other_second.position == START.play("walk").play(b)
    assert not other_second.is_main_line and main_second.is_main_line and other_second.ply == 2


def test_nested_variations_and_parentheses_without_spaces():
    a = affordable(START)
    after = START.play("walk")
    b, c = affordable(after, 0), affordable(after, 1)
    spaced = HEADER + f"walk ( {a} ) walk ( {b} ( {c} ) walk )\n"
    tight = HEADER + f"walk({a})walk({b}({c})walk)\n"
    assert GameTree.from_text(spaced) == GameTree.from_text(tight)
    tree = GameTree.from_text(tight)
    # the variation (b c-instead-of-b walk): c replaces b, walk follows b
    second = tree.root.children[0].children
    assert [str(n.move) for n in second] == ["walk", str(b), str(c)]
    assert [str(n.move) for n in second[1].children] == ["walk"]
    assert tree.to_text().splitlines()[-3:-1] == [f"walk ({a})", f"walk ({b} walk) ({c})"]


@pytest.mark.parametrize(
    "moves, token, words",
    [
        ("(walk)", "(", "must follow the move it replaces"),
        ("walk ((walk))", "(", "must follow the move it replaces"),
        ("walk )", ")", "closes no variation"),
        (f"walk ({FIRST_BUY}", "(", "never closed"),
        ("walk ()", "()", "empty variation"),
        ("walk (walk)", "walk", "repeats a move already there"),
        ("walk (fly)", "fly", "move 1 (line 6, in a variation)"),
        (f"walk ({FIRST_BUY} walk) walk (30:0@z9)", "30:0@z9", "move 2 (line 6, in a variation)"),
    ],
)
def test_a_malformed_variation_names_its_token(moves, token, words):
    with pytest.raises(NotationError) as e:
        GameTree.from_text(HEADER + moves + "\n")
    assert e.value.token == token and words in str(e.value), str(e.value)
    assert str(e.value).count("field") == 1  # said once, not twice
    with pytest.raises(NotationError):  # and the main line's reader says the same
        Game.from_text(HEADER + moves + "\n")


def test_an_illegal_move_in_a_variation_names_its_number_and_line():
    a, b = second_only()
    with pytest.raises(IllegalMoveError, match=r"move 1 \(line 7, in a variation\)"):
        GameTree.from_text(HEADER + f"{a}\n({b})\n")


def test_add_promote_and_delete():
    tree = GameTree()
    a = tree.add(tree.root, "walk")
    assert tree.add(tree.root, "walk") is a  # played before: the same node
    b = tree.add(tree.root, affordable(tree.start))
    b2 = tree.add(b, "walk")
    assert tree.root.children == [a, b] and not b2.is_main_line
    assert tree.promote(b2) and tree.root.children == [b, a] and b2.is_main_line
    assert not tree.promote(b2)  # already on the main line
    assert tree.main_line().moves == (b.move, b2.move)
    a2 = tree.add(a, "walk")
    a3 = tree.add(a, affordable(a.position))
    tree.make_main_line(a3)
    assert tree.root.children[0] is a and a.children[0] is a3
    assert tree.delete(a) == 3 and tree.root.children == [b]
    with pytest.raises(PatchsolveError, match="not in this tree"):
        tree.add(a2, "walk")
    with pytest.raises(PatchsolveError, match="start"):
        tree.delete(tree.root)
    with pytest.raises(IllegalMoveError):
        tree.add(b2, "leather@a1")


def test_the_json_form_is_flat_and_reads_back():
    tree = GameTree.from_text(GOLDEN.read_text())
    node = tree.root.children[0]
    tree.add(tree.add(node, "walk"), "walk")
    data = tree.to_dict()
    assert all(set(n) == {"parent", "move"} for n in data["nodes"])
    assert GameTree.from_dict(data) == tree
    for bad, words in [
        ({"nodes": [{"parent": 1, "move": "walk"}]}, "earlier node"),
        ({"nodes": [{"parent": 0, "move": 5}]}, "move text"),
        ({"nodes": [{"parent": 0, "move": "walk"}, {"parent": 0, "move": "walk"}]}, "there already"),
        ({"nodes": "walk"}, "{start, nodes}"),
        ({"nodes": [{"parent": 0, "move": "walk"}] * 3, "start": 7}, "'start'"),
    ]:
        with pytest.raises(NotationError, match=words.replace("{", r"\{").replace("}", r"\}")):
            GameTree.from_dict(bad)
    with pytest.raises(IllegalMoveError, match="node 1"):
        GameTree.from_dict({"nodes": [{"parent": 0, "move": "leather@a1"}]})
    with pytest.raises(NotationError, match="at most 2"):
        GameTree.from_dict({"nodes": [{"parent": 0, "move": "walk"}] * 3}, max_nodes=2)


def grow(seed, steps):
    """A tree grown by ``steps`` (node pick, move pick) pairs from the circle of ``seed``."""
    tree = GameTree(ps.Position.start(seed=seed))
    nodes = [tree.root]
    for pick_node, pick_move in steps:
        node = nodes[pick_node % len(nodes)]
        legal = node.position.legal_moves()
        if not legal:
            continue
        child = tree.add(node, legal[pick_move % len(legal)])
        if child not in nodes:
            nodes.append(child)
    return tree


STEPS = st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)), max_size=40)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=STEPS, spacing=st.lists(st.sampled_from(["", " ", "\n", "  "])))
def test_writing_and_reading_a_tree_are_inverses(seed, steps, spacing):
    tree = grow(seed, steps)
    text = tree.to_text()
    again = GameTree.from_text(text)
    assert again == tree and again.to_text() == text
    assert Game.from_text(text) == tree.main_line()
    assert GameTree.from_dict(tree.to_dict()) == tree
    # the spaces around parentheses and the line breaks between moves do not matter
    head, body = text.split("\nmoves\n")
    tokens = re.findall(r"[()]|[^\s()]+", " ".join(line.split("#")[0] for line in body.splitlines()))
    out = tokens[:1]
    for i, tok in enumerate(tokens[1:]):
        gap = spacing[i % len(spacing)] if spacing else " "
        if not gap and tok not in "()" and out[-1] not in "()":
            gap = " "  # two moves need something between them
        out += [gap, tok]
    assert GameTree.from_text(head + "\nmoves\n" + "".join(out) + "\n") == tree
