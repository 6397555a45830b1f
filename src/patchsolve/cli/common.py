"""What every ``patchsolve`` command shares: the one-line error, POSITION
input, the engine options turned into a search budget, and the stderr info
lines around a search. The command modules import from here; the group in
``patchsolve.cli`` imports the command modules, so the imports run one way.
"""

from __future__ import annotations

import functools
import json
import re
import sys
import threading
import time
from dataclasses import dataclass

import click

from patchsolve.arena.players import option_value
from patchsolve.errors import PatchsolveError
from patchsolve.rules.patches import LAST_SPACE, PATCHES
from patchsolve.rules.position import DEFAULT_SEED, Position
from patchsolve.search.budget import CLI_TIME
from patchsolve.search.dispatch import DEFAULT_ENGINE, ENGINES, engine_module, search
from patchsolve.search.limits import RANGES, Limits

DEFAULT_TIME = CLI_TIME  # search/budget.py
INTERRUPTED = 130  # exit status after Ctrl-C (128 + SIGINT), as shells use


class CliError(PatchsolveError):
    """A bad use of the command line found after parsing (exit status 2)."""


TOKEN_CUT = 40  # characters of a quoted token kept in a message: a 200 KB argument is not echoed
WORD_CUT = 200  # an unquoted word (a path, say) is kept whole up to this
# a quoted token longer than TOKEN_CUT; a quote opens one only after a non-letter (not "can't")
QUOTED_TOKEN = re.compile(r"(?<!\w)(['\"])([^'\"]{" + str(TOKEN_CUT + 1) + r",})\1(?!\w)")


def cut(text: str, keep: int = TOKEN_CUT) -> str:
    """``text`` shortened to ``keep`` characters and a mark saying how long it was."""
    text = str(text)
    return text if len(text) <= keep else f"{text[:keep]}... ({len(text)} characters)"


def _cut_quoted(m: re.Match) -> str:
    quote, inside = m.group(1), m.group(2)
    return f"{quote}{inside[:TOKEN_CUT]}...{quote} ({len(inside)} characters)"


def one_line(message: str) -> str:
    """``message`` on one line, its long quoted tokens (and absurdly long
    words) cut, so an error never echoes a whole pasted file."""
    text = " ".join(str(message).split())
    text = QUOTED_TOKEN.sub(_cut_quoted, text)
    return " ".join(cut(w, WORD_CUT) for w in text.split(" "))


def error_line(message: str) -> None:
    """The one stderr line of an error: ``patchsolve: error: ...``."""
    click.echo(f"patchsolve: error: {one_line(message)}", err=True)


CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def position_arguments(f):
    """The POSITION arguments and ``-f/--file`` of a command that reads a position."""
    f = click.option(
        "-f",
        "--file",
        "position_file",
        type=click.Path(dir_okay=False, allow_dash=True),
        help="Read POSITION from FILE ('-' = standard input).",
    )(f)
    f = click.argument("position", nargs=-1)(f)
    return f


def read_file(path: str) -> str:
    """The text of ``path`` (``-``: standard input); a CliError naming the file if it cannot be read."""
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError) as e:
        raise CliError(f"cannot read {path}: {e.strerror if isinstance(e, OSError) else e}") from None


def load_position(words, position_file) -> Position:
    """The position given as arguments, with ``-f``, or on standard input
    (``-``); the built-in start position when none is given."""
    if position_file is not None:
        if words:
            raise CliError("give POSITION either as arguments or with -f, not both")
        return Position.parse(read_file(position_file))
    if words == ("-",):
        return Position.parse(read_file("-"))
    if not words:
        return Position.start(seed=DEFAULT_SEED)
    # board text given as arguments keeps its lines when quoted as one word
    return Position.parse(words[0] if len(words) == 1 else " ".join(words))


def emit_json(data) -> None:
    """Print ``data`` as indented JSON on stdout."""
    click.echo(json.dumps(data, indent=2))


def info(quiet: bool, message: str) -> None:
    """An ``info:`` line on stderr, unless ``quiet``."""
    if not quiet:
        click.echo(f"info: {message}", err=True)


def use_color(color):
    """``--color/--no-color``, or colour when stdout is a terminal."""
    if color is None:
        return sys.stdout.isatty()
    return color


def color_option(f):
    """The ``--color/--no-color`` option."""
    return click.option(
        "--color/--no-color", default=None, help="Colour the patches (default: when stdout is a terminal)."
    )(f)


def describe_move(pos: Position, move) -> str:
    """``move`` in words: what it buys and costs, or where a walk goes."""
    p = pos.to_move
    f = pos.fields()
    if move.kind == "walk":
        dest = min(LAST_SPACE, f["time"][1 - p] + 1)
        gain = dest - f["time"][p]
        return f"advance to space {dest}, +{gain} button{'s' if gain != 1 else ''}"
    if move.kind == "leather":
        return "place the leather patch"
    patch = PATCHES[move.patch]
    return (
        f"buy patch {move.patch} ({patch.name}): cost {patch.buttons}, time {patch.time}, "
        f"income {patch.income}"
    )


# -- engines -------------------------------------------------------------

# the limits with their own flag: refused as -o KEY=VALUE so each has one spelling
FLAG_LIMITS = ("time", "iterations", "depth", "nodes", "seed", "workers")
# every command's --seed: the range the engines take (Limits), so one range everywhere
SEED = click.IntRange(int(RANGES["seed"][0]), int(RANGES["seed"][1]))


@dataclass(frozen=True)
class EngineChoice:
    """What the engine options of a command asked for (``--engine``, the
    limits, ``-o KEY=VALUE``, ``--quiet``): one argument instead of nine."""

    name: str
    """``--engine``: ``alphabeta`` or ``mcts``."""
    time: float | None
    """``--time``, seconds (None: not given)."""
    iterations: int | None
    """``--iterations`` (MCTS)."""
    depth: int | None
    """``--depth`` (alpha-beta)."""
    nodes: int | None
    """``--nodes`` (alpha-beta)."""
    seed: int | None
    """``--seed``."""
    workers: int | None
    """``--workers``: processes (MCTS) or threads (alpha-beta)."""
    options: tuple[str, ...]
    """The ``-o KEY=VALUE`` items as given."""
    quiet: bool
    """``--quiet``: no progress lines."""
    default_time: float
    """The command's time budget when no limit is given."""
    engine_given: bool = False  # --engine on the command line (not its default)
    """Whether ``--engine`` was on the command line (not its default)."""

    def limits(self, multipv: int | None = None) -> tuple[Limits, dict]:
        """The one ``Limits`` and the engine options (:func:`engine_limits`)."""
        return engine_limits(
            self.name,
            self.time,
            self.iterations,
            self.depth,
            self.nodes,
            self.seed,
            self.workers,
            self.default_time,
            self.options,
            multipv,
        )

    def limits_given(self) -> bool:
        """Was any limit or engine option given (the seed and the engine aside)?"""
        return any(
            x for x in (self.time, self.iterations, self.depth, self.nodes, self.workers, self.options)
        )


def engine_options(default_time: float):
    """The options of a command that runs an engine (--engine, the limits,
    -o KEY=VALUE, --quiet), handed to the command as one :class:`EngineChoice`
    argument ``engine``; its ``limits()`` turns them into a budget."""

    def deco(command):
        @functools.wraps(command)
        def f(
            *args, engine, time_limit, iterations, depth, nodes, seed, workers, engine_option, quiet, **kwargs
        ):
            source = click.get_current_context().get_parameter_source("engine")
            choice = EngineChoice(
                engine,
                time_limit,
                iterations,
                depth,
                nodes,
                seed,
                workers,
                tuple(engine_option),
                quiet,
                default_time,
                engine_given=source is not None and source.name != "DEFAULT",
            )
            return command(*args, engine=choice, **kwargs)

        f = click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")(f)
        f = click.option(
            "--option",
            "-o",
            "engine_option",
            multiple=True,
            metavar="KEY=VALUE",
            help="An engine option or limit, repeatable (e.g. -o hash_mb=64, "
            "-o placements=6 for alphabeta, -o c=1.0 for mcts; see the engine's docs).",
        )(f)
        f = click.option(
            "--workers",
            type=int,
            default=None,
            help="MCTS worker processes / alpha-beta threads (1..256; alpha-beta "
            "default: every core under a time limit, 1 with --depth/--nodes).",
        )(f)
        f = click.option(
            "--seed", type=SEED, default=None, help=f"Random seed, 0..2**64-1 (default {DEFAULT_SEED})."
        )(f)
        f = click.option("--nodes", type=int, default=None, help="Alpha-beta node limit (1..2**62).")(f)
        f = click.option("--depth", type=int, default=None, help="Alpha-beta depth limit (1..100).")(f)
        f = click.option("--iterations", type=int, default=None, help="MCTS iteration limit (1..2**62).")(f)
        f = click.option(
            "--time",
            "time_limit",
            type=float,
            default=None,
            help=f"Time limit in seconds, up to 86400 (default {default_time} when no other limit is given).",
        )(f)
        f = click.option(
            "--engine",
            type=click.Choice(ENGINES),
            default=DEFAULT_ENGINE,
            show_default=True,
            help="Search engine: alphabeta (the stronger, measured in the manual's engines page) or mcts.",
        )(f)
        return f

    return deco


def budget_options(f):
    """The budget of a command that judges moves (``--nodes`` or
    ``--depth``, one thread; default :data:`patchsolve.review.judge.DEFAULT_NODES`
    nodes a position), handed to the command as one ``budget`` argument
    (a :class:`~patchsolve.review.Budget`): the same verdicts on every run."""
    from patchsolve.review.judge import DEFAULT_NODES, Budget

    @functools.wraps(f)
    def wrapped(*args, nodes, depth, **kwargs):
        if nodes is not None and depth is not None:
            raise CliError("give --nodes or --depth, not both")
        return f(*args, budget=Budget(nodes=nodes, depth=depth), **kwargs)

    wrapped = click.option(
        "--depth",
        type=click.IntRange(1, 64),
        default=None,
        help="Instead of nodes: search each position to this depth (one thread).",
    )(wrapped)
    wrapped = click.option(
        "--nodes",
        type=click.IntRange(1_000, 2**40),
        default=None,
        help=f"Alpha-beta nodes a position, one thread (default {DEFAULT_NODES:,}): the same verdicts on "
        "every run and machine.",
    )(wrapped)
    return wrapped


def engine_limits(
    engine, time_limit, iterations, depth, nodes, seed, workers, default_time, engine_option=(), multipv=None
) -> tuple[Limits, dict]:
    """The budget of an engine command as ``patchsolve.search`` takes it:
    one :class:`Limits` (the flags, and the limits among the ``-o`` items)
    and the other ``-o`` items as engine options, typed as in tournament
    specs. ``multipv`` applies unless ``-o multipv=N`` is given.

    The one ``Limits`` is built here and passed on as it is. A limit the
    engine does not read and a bad option are refused here too, with the
    engine's own checks, so the error is one line before any output (and
    before ``play`` draws a board or writes a record)."""
    given = {
        k: v
        for k, v in (
            ("time", time_limit),
            ("iterations", iterations),
            ("depth", depth),
            ("nodes", nodes),
            ("seed", seed),
            ("workers", workers),
        )
        if v is not None
    }
    if engine == "mcts":
        given.setdefault("seed", DEFAULT_SEED)
    if time_limit is None and not any(k in given for k in ("iterations", "depth", "nodes")):
        given["time"] = default_time
    options: dict = {}
    for item in engine_option:
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise CliError(f"bad engine option {item!r} (expected KEY=VALUE)")
        if key in FLAG_LIMITS:
            raise CliError(f"engine option {key!r}: use --{key} instead")
        (given if key in RANGES else options)[key] = option_value(value)
    if multipv is not None:
        given.setdefault("multipv", multipv)
    limits = Limits(**given).for_engine(engine)
    engine_module(engine).check_options(dict(options))
    return limits, options


def limits_text(limits: Limits, options: dict | None = None) -> str:
    """``time 2.0, seed 0, c 1.0``: the limits given, then the options."""
    return ", ".join(f"{k} {v}" for k, v in {**limits.given(), **(options or {})}.items())


def count(n) -> str:
    """A node (or other) count as every human-readable line prints it: ``1,465,344``."""
    return f"{n:,.0f}" if isinstance(n, float) else f"{n:,}"


def fmt_score(score) -> str:
    """A score with its sign; two decimals when it is not a whole number."""
    if score is None:
        return "?"
    if isinstance(score, float) and not score.is_integer():
        return f"{score:+.2f}"
    return f"{int(score):+d}"


def proof_text(r) -> str:
    """What the solver proved beyond the score: "proven win", "proven best"
    and the margin's proven interval, where the result has them ("" if none)."""
    parts = []
    if r.proven:
        parts.append(f"proven {r.proven}")
    if r.proven_best and r.bound != "exact":
        parts.append("proven best")
    if r.lower is not None and r.upper is not None and r.lower < r.upper:
        parts.append(f"margin in [{fmt_score(r.lower)}, {fmt_score(r.upper)}]")
    return ", ".join(parts)


def result_summary(r) -> str:
    """One line about a search result, for the ``done:`` info line."""
    parts = [f"score {fmt_score(r.score)} ({r.bound})"]
    if r.interrupted:
        parts.insert(0, "INTERRUPTED, best so far:")
    if r.win_probability is not None:
        parts.append(f"win {100 * r.win_probability:.1f}%")
    if r.iterations is not None:
        parts.append(f"iterations {r.iterations}")
    if r.depth:
        parts.append(f"depth {r.depth}")
    parts.append(f"nodes {count(r.nodes)}")
    parts.append(f"time {r.time:.2f}s")
    if r.nps:
        parts.append(f"nps {count(r.nps)}")
    if r.pv:
        parts.append("pv " + " ".join(str(m) for m in r.pv))
    return "  ".join(parts)


def run_search(
    pos: Position, engine: str, limits: Limits, options: dict, quiet: bool, label: str = "", ponderer=None
):
    """``patchsolve.search`` given the one ``Limits`` and the options of
    :func:`engine_limits`, with info lines on stderr around it (and a tick
    every few seconds while it runs, since engines need not report progress).
    With a ``ponderer`` (``search/ponder.py``, the same limits) the search
    runs on its kept table."""
    info(quiet, f"{label}searching with {engine} ({limits_text(limits, options)})")
    stop = threading.Event()
    start = time.perf_counter()

    def tick():
        while not stop.wait(5.0):
            info(quiet, f"{label}... {time.perf_counter() - start:.0f}s")

    def depth_done(r):
        # the engine's own progress: one line a finished depth, once the search has run a second
        if time.perf_counter() - start >= 1.0:
            pv = " ".join(str(m) for m in r.pv[:5])
            info(
                quiet,
                f"{label}depth {r.depth}  score {fmt_score(r.score)}  nodes {count(r.nodes)}  "
                f"{time.perf_counter() - start:.1f}s  pv {pv}",
            )

    if not quiet:
        if engine == "alphabeta" and "on_iteration" not in options:
            options = {**options, "on_iteration": depth_done}
        else:  # the MCTS reports no progress of its own
            threading.Thread(target=tick, daemon=True).start()
    try:
        if ponderer is not None:
            result = ponderer.search(pos, **options)
        else:
            result = search(pos, engine, limits=limits, **options)
    finally:
        stop.set()
    info(quiet, f"{label}done: {result_summary(result)}")
    return result


def exit_code(result) -> int:
    """130 when the search was stopped by Ctrl-C, else 0."""
    return INTERRUPTED if result.interrupted else 0
