"""Bad input to the documented Python API raises patchsolve errors only.

A seeded generator makes 10,000 calls of the public API (the names of
``patchsolve.__all__``, the methods of ``Position``, ``Move``, ``Game`` and
``Limits``, and the functions of the documented modules ``board``,
``render``, ``actions``, ``observation`` and ``coverage``), each with one or
two arguments replaced by a bad value: a wrong type, a number out of range,
a seed of -1 or 2**70, text that is almost notation (one character changed,
cut short, a byte-order mark, tabs), a huge string. The other arguments are
valid and cheap (searches get a few hundred nodes). A call may return (some
of the values are not bad for every argument: 0 is a fine seed) or raise a
:class:`patchsolve.errors.PatchsolveError`; any other exception is a bug (a
``TypeError`` or ``AttributeError`` is a programming error shown to a user).

``python tests/test_api_fuzz.py [CALLS] [SEED]`` prints the figures per
callable: calls, returns, patchsolve errors, other exceptions.
"""

from __future__ import annotations

import collections
import math
import random
import sys
import time
from pathlib import Path

import pytest

import patchsolve as ps
from patchsolve.errors import PatchsolveError
from patchsolve.interop import actions, observation
from patchsolve.review import coverage
from patchsolve.rules import board, render

CALLS = 10_000
SEED = 20261206

GOLDEN = Path(__file__).parent / "data" / "golden_game.txt"
START = ps.Position.start(seed=0)
MIDDLE = ps.Game.read(GOLDEN).position(16)
SHORT_GAME = ps.Game(START, ["walk", "walk"])
NOTATION = MIDDLE.to_text()
BOARD_TEXT = MIDDLE.to_board()
RECORD = GOLDEN.read_text()
MOVE_TEXTS = ["walk", "leather@e5", "8:0@a1", "30:1@e3"]

# bad for nearly every argument: wrong types, out-of-range numbers, junk text
GENERIC = [
    None,
    True,
    False,
    -1,
    -(2**63) - 1,
    2**64,
    2**70,
    1.5,
    -0.0,
    math.nan,
    math.inf,
    -math.inf,
    1j,
    "",
    " ",
    "a",
    "-1",
    "\x00",
    "\ufeff",
    "x" * 100_000,
    b"walk",
    [],
    [1, 2],
    (None,),
    {},
    {"a": 1},
    {1, 2},
    object(),
    print,
    ps.Position,
    ps.Move.from_code(0),
    START,
    SHORT_GAME,
]


def mutated_text(rng: random.Random, text: str) -> str:
    """``text`` with one small change: a character replaced, dropped or
    doubled, cut short, a byte-order mark or tabs put in, or a word swapped."""
    kind = rng.randrange(8)
    if not text:
        return rng.choice(["#", "\t", "\ufeff"])
    i = rng.randrange(len(text))
    if kind == 0:
        return text[:i] + rng.choice("0123456789abcxyz:@,/-# \t\n\ufeff\u00e9") + text[i + 1 :]
    if kind == 1:
        return text[:i] + text[i + 1 :]
    if kind == 2:
        return text[:i] + text[i] + text[i:]
    if kind == 3:
        return text[:i]
    if kind == 4:
        return "\ufeff" + text
    if kind == 5:
        return text.replace(" ", "\t")
    if kind == 6:
        words = text.split(" ")
        j = rng.randrange(len(words))
        words[j] = rng.choice(["-", "999", "-1", "2**70", "walk", "", "x" * 50])
        return " ".join(words)
    return text + rng.choice([" junk", "\n#", "\x00", " 1"])


def text_values(base: list[str]):
    """A generator of bad values for a text argument: mutations of valid
    texts, or a generic bad value."""

    def draw(rng: random.Random):
        if rng.random() < 0.7:
            return mutated_text(rng, rng.choice(base))
        return rng.choice(GENERIC)

    return draw


def int_values(extra=()):
    """Bad values for an integer argument: out of range, of the wrong type."""
    pool = [-1, -(2**31), 2**31, 2**63, 2**64, 2**70, -(2**70), 1.0, 2.5, "1", True, None, *extra]

    def draw(rng: random.Random):
        return rng.choice(pool) if rng.random() < 0.7 else rng.choice(GENERIC)

    return draw


def generic(rng: random.Random):
    return rng.choice(GENERIC)


KEYWORDS = "**"  # a target that takes **keywords: it is also given an unknown one
UNKNOWN = ["bogus", "Depth", "nodes_", "engine_options", "threads", "seeds"]


POSITION_TEXT = text_values([NOTATION, BOARD_TEXT, START.to_json(), START.to_text()])
MOVE_TEXT = text_values(MOVE_TEXTS)
RECORD_TEXT = text_values([RECORD, SHORT_GAME.to_text()])
SEED_VALUES = int_values([-5, 2**64, 2**65 + 3])
PLAYER = int_values([2, 3, -1])


def fuzz_targets():
    """(name, function, valid arguments, bad-value generator per argument).

    The valid arguments make a cheap call; the fuzzer replaces one or two of
    them. A generator not listed for an argument is ``generic``. A function
    that takes ``**keywords`` (limits, engine options) is also called with a
    keyword it does not know (``KEYWORDS``)."""
    # a search's budget: the nodes, and a time cap should the fuzzer replace them by None
    fast = {"nodes": 300, "time": 0.05}
    t = [
        # positions
        ("Position", lambda source: ps.Position(source), {"source": NOTATION}, {"source": POSITION_TEXT}),
        ("Position.parse", ps.Position.parse, {"text": BOARD_TEXT}, {"text": POSITION_TEXT}),
        ("Position.from_text", ps.Position.from_text, {"text": NOTATION}, {"text": POSITION_TEXT}),
        ("Position.from_board", ps.Position.from_board, {"text": BOARD_TEXT}, {"text": POSITION_TEXT}),
        ("Position.from_json", ps.Position.from_json, {"data": START.to_json()}, {"data": POSITION_TEXT}),
        ("Position.from_fields", ps.Position.from_fields, {"fields": START.fields()}, {}),
        (
            "Position.start",
            ps.Position.start,
            {"circle": None, "seed": 3, "edition": "revised", "first_player": 0},
            {"seed": SEED_VALUES, "first_player": PLAYER},
        ),
        ("Position.quilt", MIDDLE.quilt, {"p": 0}, {"p": PLAYER}),
        ("Position.buttons", MIDDLE.buttons, {"p": 1}, {"p": PLAYER}),
        ("Position.income", MIDDLE.income, {"p": 1}, {"p": PLAYER}),
        ("Position.time", MIDDLE.time, {"p": 0}, {"p": PLAYER}),
        ("Position.winner", MIDDLE.winner, {}, {}),
        ("Position.is_legal", MIDDLE.is_legal, {"move": ps.Move.from_code(0)}, {"move": MOVE_TEXT}),
        ("Position.parse_move", MIDDLE.parse_move, {"text": "walk"}, {"text": MOVE_TEXT}),
        ("Position.play", MIDDLE.play, {"move": "walk"}, {"move": MOVE_TEXT}),
        ("Position.perft", MIDDLE.perft, {"depth": 1}, {"depth": int_values([65, 100])}),
        ("Position.random_playout", MIDDLE.random_playout, {"seed": 1}, {"seed": SEED_VALUES}),
        ("Position.to_svg", MIDDLE.to_svg, {}, {"labels": generic}),
        # moves
        ("Move.from_code", ps.Move.from_code, {"code": 0}, {"code": int_values([10**6, -5])}),
        ("Move.from_text", ps.Move.from_text, {"text": "walk"}, {"text": MOVE_TEXT}),
        # games
        ("Game", ps.Game, {"start": START, "moves": ("walk",)}, {"moves": generic}),
        (
            "Game.new",
            ps.Game.new,
            {"seed": 1, "circle": None, "edition": "revised", "first_player": 0},
            {"seed": SEED_VALUES, "first_player": PLAYER},
        ),
        ("Game.from_text", ps.Game.from_text, {"text": RECORD}, {"text": RECORD_TEXT}),
        ("Game.read", ps.Game.read, {"path": str(GOLDEN)}, {}),
        ("Game.push", lambda move: ps.Game(START).push(move), {"move": "walk"}, {"move": MOVE_TEXT}),
        ("Game.pop", lambda: ps.Game(START).pop(), {}, {}),
        ("Game.position", SHORT_GAME.position, {"k": 1}, {"k": int_values([3, -4, 99])}),
        ("Game.labels", SHORT_GAME.labels, {"k": 1}, {"k": int_values([3, -4])}),
        ("Game.to_svg", SHORT_GAME.to_svg, {"k": 1}, {"k": int_values([3, -4])}),
        ("Game.write", SHORT_GAME.write, {"path": "fuzz-game.txt"}, {"path": generic}),
        # searching
        (
            "search",
            ps.search,
            {"position": MIDDLE, "engine": "alphabeta", **fast},
            {
                "position": POSITION_TEXT,
                "engine": text_values(["alphabeta", "mcts"]),
                "nodes": int_values(),
                "limits": generic,
                "placements": generic,
                KEYWORDS: generic,
            },
        ),
        (
            "search(mcts)",
            ps.search,
            {"position": MIDDLE, "engine": "mcts", "iterations": 50, "time": 0.05},
            {
                "iterations": int_values(),
                "seed": SEED_VALUES,
                "c": generic,
                "max_nodes": int_values(),
                KEYWORDS: generic,
            },
        ),
        (
            "solve",
            ps.solve,
            {"position": MIDDLE, **fast},
            {
                "position": POSITION_TEXT,
                "nodes": int_values(),
                "wdl": generic,
                "at_least": generic,
                "progress": generic,
                KEYWORDS: generic,
            },
        ),
        (
            "Limits",
            ps.Limits,
            {"nodes": 10},
            {k: int_values() for k in ("time", "nodes", "depth", "iterations", "seed", "workers")},
        ),
        ("Limits.replace", ps.Limits(nodes=5).replace, {"depth": 2}, {"depth": int_values()}),
        # review
        (
            "analyze_game",
            ps.analyze_game,
            {"game": SHORT_GAME, "depth": 1, "time": 0.05},
            {"game": RECORD_TEXT, "threshold": generic, "depth": int_values(), KEYWORDS: generic},
        ),
        (
            "explain",
            ps.explain,
            {"position": START, "move": "walk", "depth": 2},
            {"position": POSITION_TEXT, "move": MOVE_TEXT, "depth": int_values(), KEYWORDS: generic},
        ),
        (
            "coverage_map",
            ps.coverage_map,
            {"position": START, "samples": 5, "seed": 0},
            {"position": POSITION_TEXT, "samples": int_values(), "seed": SEED_VALUES, "epsilon": generic},
        ),
        # the documented modules
        ("board.parse_board", board.parse_board, {"text": BOARD_TEXT}, {"text": POSITION_TEXT}),
        ("board.looks_like_board", board.looks_like_board, {"text": BOARD_TEXT}, {"text": POSITION_TEXT}),
        ("board.fields_from_board", board.fields_from_board, {"text": BOARD_TEXT}, {"text": POSITION_TEXT}),
        ("board.start_circle", board.start_circle, {"text": ",".join(map(str, START.circle))}, {}),
        ("board.format_board", board.format_board, {"fields": START.fields()}, {}),
        ("render.text_position", render.text_position, {"pos": MIDDLE}, {"pos": generic, "labels": generic}),
        ("render.position_svg", render.position_svg, {"pos": MIDDLE}, {"pos": generic, "labels": generic}),
        ("render.quilt_lines", render.quilt_lines, {"quilt": MIDDLE.quilt(0)}, {"quilt": int_values()}),
        ("render.symbol", render.symbol, {"label": 3}, {}),
        ("render.patch_block", render.patch_block, {"patch_id": 3}, {"patch_id": int_values([33, -1])}),
        ("actions.action_to_move", actions.action_to_move, {"action": 0}, {"action": int_values()}),
        ("actions.code_to_action", actions.code_to_action, {"code": 0}, {"code": int_values()}),
        ("actions.move_to_action", actions.move_to_action, {"move": ps.Move.from_code(0)}, {}),
        ("actions.legal_actions", actions.legal_actions, {"position": MIDDLE}, {}),
        ("actions.legal_action_mask", actions.legal_action_mask, {"position": MIDDLE}, {}),
        (
            "observation.observation",
            observation.observation,
            {"position": MIDDLE, "player": 0},
            {"player": PLAYER},
        ),
        ("coverage.coverage_text", coverage.coverage_text, {"cmap": ps.coverage_map(START, samples=2)}, {}),
        ("coverage.coverage_svg", coverage.coverage_svg, {"cmap": ps.coverage_map(START, samples=2)}, {}),
    ]
    return t


def bad_calls(count: int = CALLS, seed: int = SEED):
    """``count`` (name, function, kwargs) calls, each with one or two
    arguments bad, from ``seed``."""
    rng = random.Random(seed)
    targets = fuzz_targets()
    for _ in range(count):
        name, fn, base, makers = rng.choice(targets)
        kwargs = dict(base)
        names = sorted(set(base) | set(makers) - {KEYWORDS}) + ([KEYWORDS] if KEYWORDS in makers else [])
        for arg in rng.sample(names, min(len(names), rng.choice((1, 1, 2)))):
            value = makers.get(arg, generic)(rng)
            kwargs[rng.choice(UNKNOWN) if arg == KEYWORDS else arg] = value
        yield name, fn, kwargs


def run(count: int = CALLS, seed: int = SEED):
    """Make the calls; per callable the outcomes, and the builtin exceptions."""
    outcomes: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    wrong = []
    for name, fn, kwargs in bad_calls(count, seed):
        start = time.perf_counter()
        try:
            fn(**kwargs)
        except PatchsolveError:
            outcomes[name]["patchsolve error"] += 1
        except Exception as e:  # the bug this test looks for
            outcomes[name][type(e).__name__] += 1
            wrong.append(
                (name, {k: repr(v)[:60] for k, v in kwargs.items()}, f"{type(e).__name__}: {e}"[:200])
            )
        else:
            outcomes[name]["returned"] += 1
        finally:
            outcomes[name]["ms"] += round(1000 * (time.perf_counter() - start))
    return outcomes, wrong


# An unknown limit's name and an unknown engine: a LimitError naming them
# (they gave Python's TypeError / KeyError before).
@pytest.mark.parametrize(
    "call",
    [
        lambda: ps.Limits(bogus=1),
        lambda: ps.Limits(nodes=5).replace(bogus=1),
        lambda: ps.Limits(nodes=5).for_engine("bogus"),
    ],
    ids=["Limits(bogus=1)", "Limits.replace(bogus=1)", "Limits.for_engine('bogus')"],
)
def test_limits_refuse_unknown_names_with_a_limit_error(call):
    with pytest.raises(PatchsolveError):
        try:
            call()
        except (TypeError, KeyError) as e:
            pytest.fail(f"{type(e).__name__}: {e}")


def test_bad_calls_raise_only_patchsolve_errors(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # Game.write's files
    outcomes, wrong = run()
    total = sum(sum(n for k, n in c.items() if k != "ms") for c in outcomes.values())
    errors = sum(c["patchsolve error"] for c in outcomes.values())
    assert total == CALLS and len(outcomes) == len(fuzz_targets())  # every callable was called
    assert errors > CALLS // 2, errors  # most calls were bad enough to be refused
    distinct = sorted({(n, e.split(":")[0]) for n, _, e in wrong})
    assert not wrong, f"{len(wrong)} builtin exceptions, {distinct}; first: {wrong[:5]}"


if __name__ == "__main__":
    import os
    import tempfile

    n = int(sys.argv[1]) if len(sys.argv) > 1 else CALLS
    s = int(sys.argv[2]) if len(sys.argv) > 2 else SEED
    os.chdir(tempfile.mkdtemp())
    out, bad = run(n, s)
    for name in sorted(out):
        print(f"{name:28} {dict(out[name])}")
    kinds = collections.Counter(e.split(":")[0] for _, _, e in bad)
    print(
        f"{n} calls, seed {s}: {sum(c['patchsolve error'] for c in out.values())} patchsolve errors, "
        f"{sum(c['returned'] for c in out.values())} returned, {len(bad)} other exceptions {dict(kinds)}"
    )
    for name, kwargs, e in bad[:40]:
        print(" ", name, kwargs, e)
