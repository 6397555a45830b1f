"""What every ``patchsolve`` command shares: the one-line error, POSITION
input, the engine options turned into a search budget, and the stderr info
lines around a search. The command modules import from here; the group in
``patchsolve.cli`` imports the command modules, so the imports run one way.
"""

from __future__ import annotations

import importlib
import json
import sys
import threading
import time

import click

from patchsolve.errors import PatchsolveError
from patchsolve.patches import PATCHES
from patchsolve.position import DEFAULT_SEED, Position
from patchsolve.players import option_value
from patchsolve.search.dispatch import DEFAULT_ENGINE, ENGINES
from patchsolve.search.limits import split


DEFAULT_TIME = 2.0
INTERRUPTED = 130          # exit status after Ctrl-C (128 + SIGINT), as shells use


class CliError(PatchsolveError):
    """A bad use of the command line found after parsing (exit status 2)."""


def one_line(message: str) -> str:
    return " ".join(str(message).split())


def error_line(message: str) -> None:
    click.echo(f"patchsolve: error: {one_line(message)}", err=True)


CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def position_arguments(f):
    f = click.option("-f", "--file", "position_file", type=click.Path(dir_okay=False, allow_dash=True),
                     help="Read POSITION from FILE ('-' = standard input).")(f)
    f = click.argument("position", nargs=-1)(f)
    return f


def read_file(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError) as e:
        raise CliError(f"cannot read {path}: {e.strerror if isinstance(e, OSError) else e}") from None


def parse_position_text(text: str) -> Position:
    """Notation, JSON or board text (told apart by Position.parse); '#'
    comment lines are skipped."""
    return Position.parse(text)


def load_position(words, position_file) -> Position:
    if position_file is not None:
        if words:
            raise CliError("give POSITION either as arguments or with -f, not both")
        return parse_position_text(read_file(position_file))
    if words == ("-",):
        return parse_position_text(read_file("-"))
    if not words:
        return Position.start(seed=DEFAULT_SEED)
    # board text given as arguments keeps its lines when quoted as one word
    return parse_position_text(words[0] if len(words) == 1 else " ".join(words))


def emit_json(data) -> None:
    click.echo(json.dumps(data, indent=2))


def info(quiet: bool, message: str) -> None:
    if not quiet:
        click.echo(f"info: {message}", err=True)


def use_color(color):
    if color is None:
        return sys.stdout.isatty()
    return color


def color_option(f):
    return click.option("--color/--no-color", default=None,
                        help="Colour the patches (default: when stdout is a terminal).")(f)


def describe_move(pos: Position, move) -> str:
    p = pos.to_move
    f = pos.fields()
    if move.kind == "walk":
        dest = min(53, f["time"][1 - p] + 1)
        gain = dest - f["time"][p]
        return f"advance to space {dest}, +{gain} button{'s' if gain != 1 else ''}"
    if move.kind == "leather":
        return "place the leather patch"
    patch = PATCHES[move.patch]
    return (f"buy patch {move.patch} ({patch.name}): cost {patch.buttons}, time {patch.time}, "
            f"income {patch.income}")


# -- engines -------------------------------------------------------------

def engine_options(default_time: float):
    def deco(f):
        f = click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")(f)
        f = click.option("--option", "-o", "engine_option", multiple=True, metavar="KEY=VALUE",
                         help="An engine option or limit, repeatable (e.g. -o hash_mb=64, "
                              "-o placements=6 for alphabeta, -o c=1.0 for mcts; see the engine's docs).")(f)
        f = click.option("--workers", type=int, default=None, help="MCTS worker processes / alpha-beta threads (1..256; alpha-beta "
                                   "default: every core under a time limit, 1 with --depth/--nodes).")(f)
        f = click.option("--seed", type=int, default=None, help=f"Random seed (default {DEFAULT_SEED}).")(f)
        f = click.option("--nodes", type=int, default=None, help="Alpha-beta node limit (1..2**62).")(f)
        f = click.option("--depth", type=int, default=None, help="Alpha-beta depth limit (1..100).")(f)
        f = click.option("--iterations", type=int, default=None, help="MCTS iteration limit (1..2**62).")(f)
        f = click.option("--time", "time_limit", type=float, default=None,
                         help=f"Time limit in seconds, up to 86400 (default {default_time} when no other "
                              "limit is given).")(f)
        f = click.option("--engine", type=click.Choice(ENGINES), default=DEFAULT_ENGINE, show_default=True,
                         help="Search engine (alphabeta measured stronger: benchmarks/results/default_engine.md).")(f)
        return f
    return deco


def engine_limits(engine, time_limit, iterations, depth, nodes, seed, workers, default_time,
                  engine_option=()) -> dict:
    """The keyword arguments of ``patchsolve.search``: the limits given (the
    dispatcher validates them and refuses one the engine does not use) and
    the ``-o`` options, typed as in tournament specs."""
    limits = {k: v for k, v in (("iterations", iterations), ("depth", depth), ("nodes", nodes),
                                ("seed", seed), ("workers", workers)) if v is not None}
    if engine == "mcts":
        limits.setdefault("seed", DEFAULT_SEED)
    if time_limit is not None:
        limits["time"] = time_limit
    elif not any(k in limits for k in ("iterations", "depth", "nodes")):
        limits["time"] = default_time
    for item in engine_option:
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise CliError(f"bad engine option {item!r} (expected KEY=VALUE)")
        if key in ("time", "iterations", "depth", "nodes", "seed", "workers"):
            raise CliError(f"engine option {key!r}: use --{key} instead")
        limits[key] = option_value(value)
    return limits


def require_engine(engine: str) -> None:
    module = f"patchsolve.search.{engine}"
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name == module:
            raise CliError(f"engine {engine!r} is not available in this build ({module} is missing)") from None
        raise CliError(f"engine {engine!r} cannot be loaded: {e}") from None
    except ImportError as e:
        raise CliError(f"engine {engine!r} cannot be loaded: {e}") from None


def limits_text(limits: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in limits.items())


def fmt_score(score) -> str:
    if score is None:
        return "?"
    if isinstance(score, float) and not score.is_integer():
        return f"{score:+.2f}"
    return f"{int(score):+d}"


def result_summary(r) -> str:
    parts = [f"score {fmt_score(r.score)} ({r.bound})"]
    if r.interrupted:
        parts.insert(0, "INTERRUPTED, best so far:")
    if r.win_probability is not None:
        parts.append(f"win {100 * r.win_probability:.1f}%")
    if r.iterations is not None:
        parts.append(f"iterations {r.iterations}")
    if r.depth:
        parts.append(f"depth {r.depth}")
    parts.append(f"nodes {r.nodes}")
    parts.append(f"time {r.time:.2f}s")
    if r.nps:
        parts.append(f"nps {r.nps:.0f}")
    if r.pv:
        parts.append("pv " + " ".join(str(m) for m in r.pv))
    return "  ".join(parts)


def run_search(pos: Position, engine: str, limits: dict, quiet: bool, label: str = ""):
    """``patchsolve.search`` with info lines on stderr around it (and a tick
    every few seconds while it runs, since engines need not report progress)."""
    from patchsolve.search import search

    require_engine(engine)
    split(limits)[0].for_engine(engine)         # a bad limit is one error line, before any info
    info(quiet, f"{label}searching with {engine} ({limits_text(limits)})")
    stop = threading.Event()
    start = time.perf_counter()

    def tick():
        while not stop.wait(5.0):
            info(quiet, f"{label}... {time.perf_counter() - start:.0f}s")

    ticker = None
    if not quiet:
        ticker = threading.Thread(target=tick, daemon=True)
        ticker.start()
    try:
        result = search(pos, engine=engine, **limits)
    finally:
        stop.set()
    info(quiet, f"{label}done: {result_summary(result)}")
    return result


def exit_code(result) -> int:
    return INTERRUPTED if result.interrupted else 0


def as_move(pos: Position, move):
    """The engine's move as a Move of ``pos`` (engines may return text)."""
    if move is None:
        raise CliError("the engine returned no move for a position that is not over")
    if hasattr(move, "code"):
        return move
    return pos.parse_move(str(move))
