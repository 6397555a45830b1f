"""The ``patchsolve`` command line (Click). The only module that prints.

Results go to stdout (``--json`` on every command that produces one);
progress and info lines go to stderr (``--quiet`` silences them). Bad input
gives one line on stderr, ``patchsolve: error: ...``, and exit status 2.

POSITION is the one-line notation of :mod:`patchsolve.notation` (quoted or
not: the words are joined), a JSON position, board text
(:mod:`patchsolve.board`), ``-`` to read standard input, or ``-f FILE``; without one the built-in start position
(``Position.start(seed=DEFAULT_SEED)``) is used.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import sys
import threading
import time

import click

from patchsolve import __version__
from patchsolve.errors import IllegalMoveError, LimitError, NotationError, PatchsolveError
from patchsolve.game import Game
from patchsolve.patches import EDITION_NAMES, EDITIONS, PATCHES
from patchsolve.position import DEFAULT_SEED, MAX_PERFT_DEPTH, Position
from patchsolve import render
from patchsolve.players import option_value
from patchsolve.search.dispatch import DEFAULT_ENGINE, ENGINES
from patchsolve.search.limits import split

DEFAULT_TIME = 2.0
INTERRUPTED = 130          # exit status after Ctrl-C (128 + SIGINT), as shells use
MAX_PAIRS = 100_000


class CliError(PatchsolveError):
    """A bad use of the command line found after parsing (exit status 2)."""


def _one_line(message: str) -> str:
    return " ".join(str(message).split())


def _error(message: str) -> None:
    click.echo(f"patchsolve: error: {_one_line(message)}", err=True)


class PatchsolveGroup(click.Group):
    """A group whose errors are one line on stderr with exit status 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            code = rv if isinstance(rv, int) and not isinstance(rv, bool) else 0
        except click.exceptions.NoArgsIsHelpError as e:
            e.show()
            code = 0
        except click.UsageError as e:
            hint = f" (see '{e.ctx.command_path} --help')" if e.ctx is not None else ""
            _error(e.format_message() + hint)
            code = 2
        except click.ClickException as e:
            _error(e.format_message())
            code = e.exit_code
        except (click.Abort, KeyboardInterrupt):
            click.echo("patchsolve: interrupted", err=True)
            code = INTERRUPTED
        except PatchsolveError as e:
            _error(str(e))
            code = 2
        if standalone_mode:
            sys.exit(code)
        return code


CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(cls=PatchsolveGroup, context_settings=CONTEXT)
@click.version_option(__version__, prog_name="patchsolve")
def cli():
    """patchsolve: a Patchwork engine.

    \b
    Examples:
      patchsolve new --seed 7
      patchsolve show
      patchsolve new --seed 7 | patchsolve best - --iterations 20000
      patchsolve moves -f position.txt
      patchsolve replay game.txt
    """


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

def position_arguments(f):
    f = click.option("-f", "--file", "position_file", type=click.Path(dir_okay=False, allow_dash=True),
                     help="Read POSITION from FILE ('-' = standard input).")(f)
    f = click.argument("position", nargs=-1)(f)
    return f


def _read_file(path: str) -> str:
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
        return parse_position_text(_read_file(position_file))
    if words == ("-",):
        return parse_position_text(_read_file("-"))
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


def _limits_text(limits: dict) -> str:
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
    info(quiet, f"{label}searching with {engine} ({_limits_text(limits)})")
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


# ---------------------------------------------------------------------------
# new / show / moves
# ---------------------------------------------------------------------------

@cli.command(context_settings=CONTEXT)
@click.option("--seed", type=int, default=None, help="Seed of the random circle (default: a random one).")
@click.option("--edition", type=click.Choice(EDITION_NAMES), default="revised", show_default=True,
              help="Time-board printing.")
@click.option("--first", "first_player", type=click.IntRange(0, 1), default=0, show_default=True,
              help="The start player.")
@click.option("--circle", "circle_text", default=None, metavar="P,P,...",
              help="The circle read off the table: the 33 patch ids or names from the neutral token on "
                   "(the 1x2, id 0, last), comma-separated.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def new(seed, edition, first_player, circle_text, as_json):
    """Print a start position.

    \b
    Examples:
      patchsolve new --seed 7 --edition original
      patchsolve new --circle 4,8,30,21,20,6,1,11,15,27,18,22,28,24,3,23,5,26,7,19,12,31,10,13,16,17,9,2,14,29,32,25,0
    """
    if circle_text is not None:
        if seed is not None:
            raise CliError("give either --seed or --circle, not both")
        from patchsolve.board import start_circle

        pos = Position.start(circle=start_circle(circle_text), edition=edition, first_player=first_player)
        if as_json:
            emit_json({"seed": None, "position": pos.to_text(), "fields": json.loads(pos.to_json())})
        else:
            click.echo(pos.to_text())
        return
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    pos = Position.start(seed=seed, edition=edition, first_player=first_player)
    if as_json:
        emit_json({"seed": seed, "position": pos.to_text(), "fields": json.loads(pos.to_json())})
    else:
        click.echo(pos.to_text())


def position_info(pos: Position) -> dict:
    f = pos.fields()
    return {
        "position": pos.to_text(),
        "fields": json.loads(pos.to_json()),
        "to_move": None if pos.is_over else pos.to_move,
        "is_over": pos.is_over,
        "scores": list(pos.scores()),
        "winner": pos.winner() if pos.is_over else None,
        "next": [{"id": i, "name": PATCHES[i].name, "buttons": PATCHES[i].buttons, "time": PATCHES[i].time,
                  "income": PATCHES[i].income, "shape": PATCHES[i].shape} for i in f["circle"][:3]],
    }


@cli.command(context_settings=CONTEXT)
@position_arguments
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also write an SVG picture to FILE.")
@click.option("--board", "as_board", is_flag=True,
              help="Print board text (quilts drawn with patch symbols; readable as POSITION).")
@color_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def show(position, position_file, svg_file, as_board, color, as_json):
    """Draw a position: both quilts, the time track, the next three patches.

    \b
    Examples:
      patchsolve show
      patchsolve new --seed 3 | patchsolve show - --svg start.svg
      patchsolve show --board > table.txt && patchsolve best -f table.txt
    """
    pos = load_position(position, position_file)
    if as_board:
        if as_json:
            raise CliError("give either --board or --json, not both")
        click.echo(pos.to_board(), nl=False)
        return
    if svg_file:
        try:
            with open(svg_file, "w", encoding="utf-8") as fh:
                fh.write(pos.to_svg())
        except OSError as e:
            raise CliError(f"cannot write {svg_file}: {e.strerror}") from None
    if as_json:
        emit_json(position_info(pos))
    else:
        click.echo(render.text_position(pos, pos.labels, color=use_color(color)), color=use_color(color))


@cli.command(context_settings=CONTEXT)
@position_arguments
@click.option("--patch", type=click.IntRange(0, len(PATCHES) - 1), default=None,
              help="Only the moves buying this patch (and draw its orientations).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def moves(position, position_file, patch, as_json):
    """List the legal moves in move notation.

    \b
    Move notation: walk | <patch>:<orientation>@<square> | leather@<square>
    Example:
      patchsolve moves revised 4,8,... 0/0 5/5 0/0 0/0 0 26,32,38,44,50 - - -
      patchsolve moves --patch 8
    """
    pos = load_position(position, position_file)
    legal = pos.legal_moves()
    if patch is not None:
        legal = [m for m in legal if m.patch == patch]
    if as_json:
        emit_json({"position": pos.to_text(), "to_move": None if pos.is_over else pos.to_move,
                   "count": len(legal), "moves": [str(m) for m in legal]})
        return
    if pos.is_over:
        click.echo("the game is over: no legal moves")
        return
    if patch is not None:
        click.echo(f"orientations of patch {patch} ({PATCHES[patch].name}):")
        click.echo(render.orientations_text(patch))
        click.echo(f"{len(legal)} legal moves buying patch {patch} for player {pos.to_move}")
    else:
        click.echo(f"{len(legal)} legal moves for player {pos.to_move}")
    for m in legal:
        click.echo(f"{str(m):<12} {describe_move(pos, m)}")


# ---------------------------------------------------------------------------
# patches: the catalogue
# ---------------------------------------------------------------------------

@cli.command(context_settings=CONTEXT)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def patches(as_json):
    """List the 33 patches: id, symbol (as drawn in board text), name, cost
    in buttons, time, income and shape.

    \b
    Example:
      patchsolve patches
      patchsolve patches --json
    """
    if as_json:
        emit_json([p.to_dict() for p in PATCHES])
        return
    click.echo("id (symbol) name / cost, time, income / shape; L is a leather patch in board text")
    click.echo()
    for line in render.catalogue_lines():
        click.echo(line)


# ---------------------------------------------------------------------------
# best / eval
# ---------------------------------------------------------------------------

def _searchable(pos: Position):
    if pos.is_over:
        s = pos.scores()
        raise CliError(f"the game is over (scores {s[0]} / {s[1]}): nothing to search")


@cli.command(context_settings=CONTEXT)
@position_arguments
@engine_options(DEFAULT_TIME)
@color_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def best(position, position_file, engine, time_limit, iterations, depth, nodes, seed, workers, engine_option,
         quiet, color,
         as_json):
    """Search POSITION and print the best move, its evaluation, the principal
    variation, search statistics and the quilt after the move.

    \b
    Examples:
      patchsolve best
      patchsolve best --engine alphabeta --depth 6 -f position.txt
      patchsolve new --seed 2 | patchsolve best - --iterations 50000 --json
    """
    pos = load_position(position, position_file)
    _searchable(pos)
    limits = engine_limits(engine, time_limit, iterations, depth, nodes, seed, workers, DEFAULT_TIME,
                           engine_option)
    r = run_search(pos, engine, limits, quiet)
    move = as_move(pos, r.best_move)
    after = pos.play(move)
    if as_json:
        data = r.to_dict()
        data.update({"position": pos.to_text(), "to_move": pos.to_move,
                     "after": after.to_text()})
        emit_json(data)
        return exit_code(r)
    mover = pos.to_move
    if r.interrupted:
        click.echo("interrupted: the best move found so far")
    click.echo(f"best move: {move}  ({describe_move(pos, move)})")
    click.echo(f"score: {fmt_score(r.score)} ({r.bound}) for player {mover}, the player to move")
    if r.win_probability is not None:
        click.echo(f"win probability: {100 * r.win_probability:.1f}%")
    if r.proven:
        click.echo(f"proven: a {r.proven} for player {mover}")
    click.echo("pv: " + (" ".join(str(m) for m in r.pv) if r.pv else str(move)))
    stats = [f"engine {r.engine or engine}"]
    if r.iterations is not None:
        stats.append(f"iterations {r.iterations}")
    if r.depth:
        stats.append(f"depth {r.depth}")
    stats += [f"nodes {r.nodes}", f"time {r.time:.2f}s", f"nps {r.nps:.0f}"]
    if r.workers:
        stats.append(f"workers {r.workers}")
    if r.seed is not None:
        stats.append(f"seed {r.seed}")
    click.echo("stats: " + "  ".join(stats))
    click.echo(f"quilt of player {mover} after {move}" + (" (the new patch drawn with its symbol):"
                                                          if move.kind != "walk" else ":"))
    col = use_color(color)
    new_label = render.LEATHER if move.kind == "leather" else move.patch
    labels = {sq: new_label for sq in range(81) if move.mask >> sq & 1}
    for line in render.quilt_lines(after.quilt(mover), labels, col):
        click.echo("  " + line, color=col)
    return exit_code(r)


def _root_table(pos: Position, r, top: int) -> list[dict]:
    """The top root moves, with every engine's columns (visits: MCTS only)."""
    rows = []
    for d in r.root_moves[:top]:
        rows.append({"move": str(d["move"]), "score": d["score"], "win_probability": d["win_probability"],
                     "bound": d["bound"], "proven": d["proven"], "visits": d.get("visits")})
    if not rows and r.best_move is not None:
        rows.append({"move": str(r.best_move), "score": r.score, "win_probability": r.win_probability,
                     "bound": r.bound, "proven": r.proven, "visits": None})
    return rows


def _fmt_cell(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.3f}" if abs(v) < 10 else f"{v:.1f}"
    return str(v)


@cli.command("eval", context_settings=CONTEXT)
@position_arguments
@engine_options(DEFAULT_TIME)
@click.option("--top", type=click.IntRange(1, 256), default=5, show_default=True,
              help="Moves to list, each valued (alpha-beta: one search per move).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def eval_cmd(position, position_file, engine, time_limit, iterations, depth, nodes, seed, workers, engine_option,
             quiet, top,
             as_json):
    """Print the evaluation of POSITION and its top moves ranked with their scores.

    \b
    Examples:
      patchsolve eval --iterations 20000 --top 8
      patchsolve eval -f position.txt --engine alphabeta --depth 5 --json
    """
    pos = load_position(position, position_file)
    _searchable(pos)
    limits = engine_limits(engine, time_limit, iterations, depth, nodes, seed, workers, DEFAULT_TIME,
                           engine_option)
    limits.setdefault("multipv", top)
    r = run_search(pos, engine, limits, quiet)
    rows = _root_table(pos, r, top)
    if as_json:
        emit_json({"position": pos.to_text(), "to_move": pos.to_move, "engine": r.engine or engine,
                   "score": r.score, "bound": r.bound, "proven": r.proven, "win_probability": r.win_probability,
                   "interrupted": r.interrupted, "workers": r.workers,
                   "best_move": None if r.best_move is None else str(r.best_move), "top_moves": rows})
        return exit_code(r)
    if r.interrupted:
        click.echo("interrupted: the evaluation so far")
    line = f"evaluation: {fmt_score(r.score)} ({r.bound}) for player {pos.to_move}, the player to move"
    if r.win_probability is not None:
        line += f"; win probability {100 * r.win_probability:.1f}%"
    click.echo(line)
    keys = ["move", "score", "win_probability", "bound"]
    keys += [k for k in ("proven", "visits") if any(row[k] is not None for row in rows)]
    table = [[str(i + 1)] + [_fmt_cell(row.get(k, "")) for k in keys] for i, row in enumerate(rows)]
    header = ["#"] + [{"win_probability": "win"}.get(k, k) for k in keys]
    widths = [max(len(x) for x in col) for col in zip(header, *table)]
    click.echo("  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip())
    for t in table:
        click.echo("  ".join(c.ljust(w) for c, w in zip(t, widths)).rstrip())
    return exit_code(r)


# ---------------------------------------------------------------------------
# replay / analyze
# ---------------------------------------------------------------------------

@cli.command(context_settings=CONTEXT)
@click.argument("record", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--ply", type=int, default=None, help="Show only the position after move PLY.")
@click.option("--brief", is_flag=True, help="List the moves without drawing the boards.")
@color_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def replay(record, ply, brief, color, as_json):
    """Replay a game record move by move.

    \b
    A record: optional 'edition revised' and 'first 0' lines, a 'circle <ids>'
    line (or 'position <text>'), then the moves ('#' starts a comment).
    Examples:
      patchsolve replay game.txt
      patchsolve replay game.txt --ply 20
      patchsolve replay game.txt --brief --json
    """
    game = Game.from_text(_read_file(record))
    col = use_color(color)
    if ply is not None and not 0 <= ply <= len(game):
        raise CliError(f"--ply must be in 0..{len(game)} for this game, not {ply}")
    if as_json:
        data = game.to_dict()
        data["plies"] = [{"number": p.number, "player": p.player, "move": str(p.move),
                          "position": p.after.to_text()} for p in game.replay()]
        if ply is not None:
            data["position_at_ply"] = game.position(ply).to_text()
        emit_json(data)
        return
    if ply is not None:
        click.echo(f"position after move {ply}: {game.position(ply).to_text()}")
        click.echo(render.text_position(game.position(ply), game.labels(ply), col), color=col)
        return
    if not brief:
        click.echo("start:")
        click.echo(render.text_position(game.start, game.labels(0), col), color=col)
    for p in game.replay():
        click.echo(f"{p.number}. player {p.player}: {p.move}  ({describe_move(p.before, p.move)})")
        if not brief:
            click.echo(render.text_position(p.after, game.labels(p.number), col), color=col)
            click.echo()
    if game.end.is_over:
        click.echo(f"result: {game.outcome()}")
    else:
        click.echo(f"unfinished after {len(game)} moves: {game.outcome()}")


@cli.command(context_settings=CONTEXT)
@click.argument("record", type=click.Path(dir_okay=False, allow_dash=True))
@engine_options(0.5)
@click.option("--threshold", type=click.FloatRange(min=0), default=5.0, show_default=True,
              help="Flag moves that lose more than this many points against the engine's choice.")
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also draw player 0's margin and win probability move by move, mistakes marked, to FILE.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def analyze(record, engine, time_limit, iterations, depth, nodes, seed, workers, engine_option, quiet, threshold,
            svg_file, as_json):
    """Run the engine on every position of a game and flag the moves that
    lose more than THRESHOLD points against the engine's choice.

    \b
    A move's loss = the engine's value before it minus the value after it, for
    the player who moved (0 when the move is the engine's choice). '?' marks a
    loss above the threshold, '??' above twice the threshold.
    Examples:
      patchsolve analyze game.txt --iterations 5000 --threshold 4
      patchsolve analyze game.txt --engine alphabeta --time 0.2 --svg review.svg
    """
    from patchsolve.analysis import analyze_game

    game = Game.from_text(_read_file(record))
    limits = engine_limits(engine, time_limit, iterations, depth, nodes, seed, workers, 0.5, engine_option)
    require_engine(engine)
    if svg_file:
        _check_writable(svg_file)

    def evaluate(pos, k, n):
        return run_search(pos, engine, limits, quiet, label=f"[{k + 1}/{n}] ")

    review = analyze_game(game, engine=engine, threshold=threshold, evaluate=evaluate)
    if svg_file:
        from patchsolve.review_svg import review_svg

        _write_text(svg_file, review_svg(review))
    summary = review.summary()
    interrupted = review.interrupted
    if as_json:
        emit_json({"engine": engine, "limits": limits, "threshold": threshold,
                   "moves": [_analyze_row(m) for m in review.moves], "summary": summary,
                   "end": game.end.to_text(), "interrupted": interrupted})
        return INTERRUPTED if interrupted else 0
    if interrupted:
        click.echo(f"interrupted: the first {len(review.moves)} of {len(game)} moves analysed")
    click.echo(f"{'#':>3}  pl  {'move':<12} {'engine':<12} {'before':>7} {'after':>7} {'loss':>6} {'win0':>5}")
    for m in review.moves:
        click.echo(f"{m.number:>3}  {m.player:>2}  {m.move:<12} {m.best_move or '-':<12} "
                   f"{m.best_value:>+7.1f} {m.played_value:>+7.1f} {m.loss:>6.1f} {100 * m.win0:>4.0f}% {m.flag}")
    click.echo()
    click.echo("player  moves  avg loss  flagged  blunders  worst              final score")
    for s in summary:
        worst = "-" if s["worst"] is None else f"{s['worst']['number']}. {s['worst']['move']} ({s['worst']['loss']:.1f})"
        click.echo(f"{s['player']:>6}  {s['moves']:>5}  {s['average_loss']:>8.2f}  {s['flagged']:>7}  "
                   f"{s['blunders']:>8}  {worst:<18} {s['final_score']:>11}")
    return INTERRUPTED if interrupted else 0


def _analyze_row(m) -> dict:
    """One move of ``analyze --json``: the review's fields, with the older
    names (best, value_before, value_after) kept for existing readers."""
    row = m.to_dict()
    row.update({"best": m.best_move, "value_before": m.best_value, "value_after": m.played_value})
    return row


def _check_writable(path: str) -> None:
    """Refuse an unwritable output file before a long computation."""
    import os

    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK) or (
            os.path.exists(path) and (os.path.isdir(path) or not os.access(path, os.W_OK))):
        raise CliError(f"cannot write {path}")


def _write_text(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as e:
        raise CliError(f"cannot write {path}: {e.strerror}") from None


# ---------------------------------------------------------------------------
# play
# ---------------------------------------------------------------------------

@cli.command(context_settings=CONTEXT)
@position_arguments
@click.option("--p0", type=click.Choice(["human", "engine"]), default="human", show_default=True,
              help="Who plays player 0.")
@click.option("--p1", type=click.Choice(["human", "engine"]), default="engine", show_default=True,
              help="Who plays player 1.")
@engine_options(1.0)
@click.option("--record", "record_file", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the game record to FILE, rewritten after every move.")
@color_option
@click.option("--json", "as_json", is_flag=True,
              help="Print the finished game as JSON (the only thing on stdout; boards go to stderr).")
def play(position, position_file, p0, p1, engine, time_limit, iterations, depth, nodes, seed, workers,
         engine_option, quiet,
         record_file, color, as_json):
    """Play a game in the terminal (human vs engine, engine vs engine, or
    human vs human), showing the board after each move.

    \b
    At the prompt type a move (walk, 7:2@c3, leather@e5), 'moves' to list the
    legal moves ('moves 7': those of patch 7), 'orient 7' to draw the numbered
    orientations of patch 7, 'undo' to take back, or 'quit'.
    Examples:
      patchsolve play
      patchsolve play --p0 engine --p1 engine --iterations 2000 --record game.txt
    """
    start = load_position(position, position_file)
    players = (p0, p1)
    limits = None
    if "engine" in players:
        limits = engine_limits(engine, time_limit, iterations, depth, nodes, seed, workers, 1.0, engine_option)
        require_engine(engine)
    game = Game(start)
    col = use_color(color)
    out = sys.stderr if as_json else sys.stdout     # with --json, stdout carries the JSON only

    def show(text):
        click.echo(text, color=col, file=out)

    def save():
        if record_file:
            _write_record(game, record_file)

    save()                                          # an unwritable path fails before the first move
    show(render.text_position(game.end, game.labels(), col))
    code = 0
    while not game.end.is_over:
        pos = game.end
        p = pos.to_move
        if players[p] == "engine":
            r = run_search(pos, engine, limits, quiet, label=f"player {p}: ")
            if r.interrupted:
                click.echo(f"interrupted: the game is kept as it stands ({len(game)} moves)", err=True)
                code = INTERRUPTED
                break
            move = as_move(pos, r.best_move)
            show(f"{len(game) + 1}. player {p} (engine): {move}  ({describe_move(pos, move)})")
        else:
            click.echo(f"{len(game) + 1}. player {p}> ", nl=False, err=True)
            try:
                line = sys.stdin.readline()
            except KeyboardInterrupt:
                click.echo("", err=True)
                code = INTERRUPTED
                break
            if not line:
                show("game abandoned (end of input)")
                break
            text = line.strip()
            if text in ("quit", "q", "exit"):
                show("game abandoned")
                break
            if _play_command(text, pos, game, players, show, col):
                save()
                continue
            try:
                move = pos.parse_move(text)
            except (NotationError, IllegalMoveError) as e:
                click.echo(f"{_one_line(str(e))}; type 'moves' for the list", err=True)
                continue
        game.push(move)
        save()
        show(render.text_position(game.end, game.labels(), col))
    if as_json:
        emit_json(game.to_dict())
    return code


def _write_record(game: Game, path: str) -> None:
    """Rewrite the whole record (small) after every move, so nothing is lost."""
    try:
        game.write(path)
    except OSError as e:
        raise CliError(f"cannot write {path}: {e.strerror}") from None


def _play_command(text, pos, game, players, show, col) -> bool:
    """The prompt's commands other than a move; True when ``text`` was one."""
    word, _, arg = text.partition(" ")
    if word in ("moves", "?", "help"):
        legal = pos.legal_moves()
        if arg.strip().isdigit():
            legal = [m for m in legal if m.patch == int(arg)]
        show(" ".join(str(m) for m in legal) or "no such move")
        return True
    if word == "orient":
        if arg.strip().isdigit() and 0 <= int(arg) < len(PATCHES):
            show(render.orientations_text(int(arg)))
        else:
            click.echo(f"usage: orient <patch id 0..{len(PATCHES) - 1}>", err=True)
        return True
    if text == "undo":
        if len(game) == 0:
            show("nothing to undo")
        else:
            game.pop()
            while len(game) and players[game.end.to_move] == "engine":
                game.pop()
            show(render.text_position(game.end, game.labels(), col))
        return True
    return False


# ---------------------------------------------------------------------------
# perft / bench
# ---------------------------------------------------------------------------

@cli.command(context_settings=CONTEXT)
@click.argument("position", nargs=-1)
@click.argument("depth", type=int)
@click.option("-f", "--file", "position_file", type=click.Path(dir_okay=False, allow_dash=True),
              help="Read POSITION from FILE ('-' = standard input).")
@click.option("--divide", is_flag=True, help="Also count per legal move.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def perft(position, depth, position_file, divide, quiet, as_json):
    """Count the move sequences of length DEPTH (0..64) from POSITION (a
    finished game counts as one leaf). Without POSITION: the built-in start
    position. Progress goes to stderr once a second; Ctrl-C prints the
    partial count (marked as such) and exits with 130.

    \b
    Examples:
      patchsolve perft 3
      patchsolve perft -f position.txt 2 --divide
    """
    from patchsolve.search.stop import interruptible, stop_requested

    pos = load_position(position, position_file)
    if not 0 <= depth <= MAX_PERFT_DEPTH:
        raise LimitError(f"perft depth must be from 0 to {MAX_PERFT_DEPTH}, not {depth}")
    moves = pos.legal_moves() if depth >= 1 and not pos.is_over else []
    info(quiet, f"perft {depth}: {len(moves)} root moves (Ctrl-C stops with the partial count)")
    per_move = {}
    t0 = last = time.perf_counter()
    with interruptible():
        if not moves:
            nodes = pos.perft(depth)
        else:
            for k, m in enumerate(moves):
                per_move[str(m)] = pos.play(m).perft(depth - 1)
                if stop_requested():
                    per_move.popitem()          # that root move's count is partial
                    break
                now = time.perf_counter()
                if now - last >= 1.0:
                    last = now
                    done = sum(per_move.values())
                    info(quiet, f"perft {depth}: {k + 1}/{len(moves)} root moves, {done:,} leaves, "
                                f"{done / (now - t0):,.0f} leaves/s")
            nodes = sum(per_move.values())
        interrupted = stop_requested()
    elapsed = time.perf_counter() - t0
    if as_json:
        emit_json({"position": pos.to_text(), "depth": depth, "nodes": nodes, "time": elapsed,
                   "nps": nodes / elapsed if elapsed > 0 else None, "divide": per_move if divide else None,
                   "interrupted": interrupted, "root_moves_counted": len(per_move)})
        return INTERRUPTED if interrupted else 0
    if divide:
        for m, n in per_move.items():
            click.echo(f"{m:<12} {n}")
    nps = f", {nodes / elapsed:.0f} leaves/s" if elapsed > 0 else ""
    if interrupted:
        click.echo(f"perft {depth}: interrupted after {len(per_move)} of {len(moves)} root moves: "
                   f"{nodes} leaves so far  ({elapsed:.3f}s{nps})")
        return INTERRUPTED
    click.echo(f"perft {depth}: {nodes}  ({elapsed:.3f}s{nps})")
    return 0


@cli.command(context_settings=CONTEXT)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def bench(as_json):
    """Run the fixed bench on the bench set (perft and playouts of the rules
    core, alpha-beta to a fixed depth, MCTS to a fixed iteration count), print
    the speeds and the signature: the sum of the deterministic counts, equal
    to the pinned one unless the code's behaviour changed. About 5 s.

    \b
    Example:
      patchsolve bench
    """
    from patchsolve import bench as bench_module

    result = bench_module.run()
    if as_json:
        emit_json({k: v for k, v in result.items() if k != "lines"})
        return
    for line in result["lines"]:
        click.echo(line)


# -- solve ---------------------------------------------------------------------

def _solve_progress(quiet: bool):
    """The solver's progress callback: one stderr line a report."""
    if quiet:
        return None

    def report(d):
        what = f"move {d['move']}  " if d.get("move") else ""
        info(False, f"  {what}{d['time']:.0f}s  test {d['gamma']:+d}  bounds [{d['lower']:+d}, {d['upper']:+d}]"
                    f"{'  (who wins)' if d['wdl'] else ''}  nodes {d['nodes']:,}  nps {d['nps']:,.0f}")
    return report


def _interval(r) -> str:
    return f"[{r.lower:+d}, {r.upper:+d}]" if r.lower is not None else "?"


def _wdl_move_rows(groups: dict) -> None:
    """--all-moves --wdl: per patch, how many placements are proven wins."""
    click.echo(f"{'patch':>8} {'result':>7} {'wins':>6} {'losses':>7} {'moves':>6}  example")
    for group, ds in sorted(groups.items(), key=lambda kv: -sum(d["proven"] == "win" for d in kv[1])):
        wins = [d for d in ds if d["proven"] == "win"]
        losses = sum(d["proven"] == "loss" for d in ds)
        result = "win" if wins else "loss" if losses == len(ds) else "?"
        name = f"patch {group}" if isinstance(group, int) else group
        click.echo(f"{name:>8} {result:>7} {len(wins):>6} {losses:>7} {len(ds):>6}  {(wins or ds)[0]['move']}")


def _move_rows(pos: Position, rows: list, wdl: bool = False) -> None:
    """--all-moves: per patch (and walk, leather), the best placement's value,
    how many placements reach it, and the others' proven bounds."""
    groups = {}
    for d in rows:
        groups.setdefault(d["group"], []).append(d)
    if wdl:
        _wdl_move_rows(groups)
        return
    click.echo(f"{'patch':>8} {'best':>6} {'bound':>6} {'at best':>8} {'moves':>6}  example   others")
    for group, ds in sorted(groups.items(), key=lambda kv: -max(d["lower"] for d in kv[1])):
        top = max(ds, key=lambda d: (d["lower"], d["upper"]))
        at_best = sum(d["bound"] == "exact" and d["score"] == top["score"] for d in ds)
        rest = [d for d in ds if d is not top and not (d["bound"] == "exact" and d["score"] == top["score"])]
        others = f"<= {max(d['upper'] for d in rest):+d}" if rest else "-"
        name = f"patch {group}" if isinstance(group, int) else group
        click.echo(f"{name:>8} {top['score']:>+6d} {top['bound']:>6} {at_best:>8} {len(ds):>6}  "
                   f"{str(top['move']):<9} {others}")


@cli.command(context_settings=CONTEXT)
@position_arguments
@click.option("--time", "time_limit", type=float, default=None,
              help="Give up after this many seconds, up to 86400 (default: the solver's own, 30 s).")
@click.option("--nodes", type=int, default=None, help="Give up after this many nodes (1..2**62).")
@click.option("--hash-mb", type=int, default=None, help="Transposition table memory (MB, 1..65536; default 64).")
@click.option("--workers", type=int, default=None,
              help="Threads (1..256; default: every core, 1 with --nodes).")
@click.option("--wdl", is_flag=True, help="Prove only who wins (far cheaper than the exact margin).")
@click.option("--all-moves", is_flag=True, help="The proven value of every legal move, by patch.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def solve(position, position_file, time_limit, nodes, hash_mb, workers, wdl, all_moves, quiet, as_json):
    """Solve POSITION exactly: the final score margin under perfect play
    (both players maximising their own margin) and a best move. When the
    budget runs out first, prints the proven interval the value lies in and
    exits with 1. --wdl proves only who wins (equal scores: the first to
    reach 53); --all-moves values every move. Progress (test value, bounds,
    nodes) goes to stderr about once a second.

    \b
    Examples:
      patchsolve solve -f endgame.txt
      patchsolve solve -f endgame.txt --time 5 --json
      patchsolve solve -f endgame.txt --wdl
      patchsolve solve -f endgame.txt --all-moves --time 30
    """
    from patchsolve.search import solve as exact

    pos = load_position(position, position_file)
    _searchable(pos)
    limits = {k: v for k, v in (("time", time_limit), ("nodes", nodes), ("hash_mb", hash_mb), ("workers", workers))
              if v is not None}
    info(quiet, f"solving{' who wins' if wdl else ''} ({_limits_text(limits) or 'default budget'})")
    r = exact(pos, wdl=wdl, all_moves=all_moves, progress=_solve_progress(quiet), **limits)
    info(quiet, f"done: {result_summary(r)}")
    proven = r.bound == "exact" or (wdl and r.proven is not None)
    if as_json:
        data = r.to_dict()
        data.update({"position": pos.to_text(), "to_move": pos.to_move, "solved": proven})
        emit_json(data)
        return INTERRUPTED if r.interrupted else 0 if proven else 1
    who = f"player {pos.to_move}, the player to move"
    if r.interrupted:
        click.echo("interrupted: the result so far")
    if wdl and proven:
        verb = "wins" if r.proven == "win" else "loses"
        click.echo(f"result: {who}, {verb} (proven; margin in {_interval(r)})")
    elif proven:
        click.echo(f"value: {fmt_score(r.score)} for {who}: exact")
    else:
        click.echo(f"value: in {_interval(r)} for {who}: NOT solved within the budget "
                   f"(proven bounds; {r.bound} bound {fmt_score(r.score)})")
    click.echo(f"best move: {r.best_move}  ({describe_move(pos, r.best_move)})"
               + ("" if proven else "  (not proven best)"))
    click.echo("pv: " + " ".join(str(m) for m in r.pv))
    if all_moves:
        _move_rows(pos, r.root_moves, wdl)
    click.echo(f"stats: nodes {r.nodes}  time {r.time:.2f}s  nps {r.nps:.0f}  threads {r.workers}")
    if r.interrupted:
        return INTERRUPTED
    return 0 if proven else 1


@cli.command(context_settings=CONTEXT)
@click.argument("players", nargs=-1, required=True)
@click.option("--pairs", type=click.IntRange(1, MAX_PAIRS), default=10, show_default=True,
              help=f"Circles per pairing (at most {MAX_PAIRS}); each is played twice with sides swapped.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the circles and players.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes (default and most: the number of cores).")
@click.option("--edition", type=click.Choice(EDITION_NAMES), default="revised", show_default=True)
@click.option("--one-pairing", is_flag=True, help="Only the first two players against each other.")
@click.option("--csv", "csv_file", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the results table as CSV (rewritten as each game ends).")
@click.option("--markdown", "md_file", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the results table as Markdown (rewritten as each game ends).")
@click.option("--games", "games_file", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Append one CSV row per game to FILE as it ends.")
@click.option("--records", "records_dir", type=click.Path(file_okay=False, writable=True), default=None,
              help="Write every game record into this folder as the game ends.")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="Where games run: processes here, or Ray tasks (pip install 'patchsolve[ray]').")
@click.option("--address", default=None,
              help="With --backend ray: the Ray cluster to use (host:port, or auto); "
                   "default: a local Ray of --workers CPUs.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar on stderr.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def tournament(players, pairs, seed, workers, edition, one_pairing, csv_file, md_file, games_file, records_dir,
               backend, address, quiet, as_json):
    """Play paired games between PLAYERS (round robin) and print win rates
    with 95% confidence intervals, Elo differences and mean margins. Every
    game is written as it ends; Ctrl-C prints the table of the finished
    games and exits with 130.

    A player is a spec: random, greedy, alphabeta:depth=3, alphabeta:time=0.2,
    mcts:iterations=5000, mcts:time=1,policy=heuristic, ...

    \b
    Example:
      patchsolve tournament greedy mcts:iterations=2000 --pairs 20 --games games.csv
      patchsolve tournament greedy alphabeta:depth=2 --backend ray --address auto
    """
    import contextlib

    from patchsolve import tournament as tour

    if len(players) < 2:
        raise CliError("a tournament needs at least two players")
    runner = _tournament_backend(backend, address, workers, quiet)
    _show_external_players(players, quiet)
    sink = tour.GameSink(list(players), games_file=games_file, records_dir=records_dir,
                         csv_file=csv_file, md_file=md_file, pairs=pairs, round_robin=not one_pairing)
    progress = None if quiet else tour.print_progress
    # Ray prints its notices (a lost worker, ...) on stdout: keep stdout for the results
    with contextlib.redirect_stdout(sys.stderr) if backend == "ray" else contextlib.nullcontext():
        results = tour.run_tournament(list(players), pairs=pairs, seed=seed, edition=edition,
                                      round_robin=not one_pairing, progress=progress, on_game=sink.add,
                                      backend=runner)
    interrupted = any(r.interrupted for r in results)
    if interrupted:
        click.echo(f"\ninterrupted: {sum(r.n for r in results)} finished games", err=True)
    sink.write_tables(results)
    if as_json:
        emit_json([r.row() for r in results])
    else:
        click.echo(tour.to_markdown(results), nl=False)
    return INTERRUPTED if interrupted else 0


def _show_external_players(specs, quiet):
    """Name the patchsolve each ``ext[PYTHON]`` player imports: a match
    against another version means little if both sides load the same one."""
    from patchsolve.players import make_player

    for spec in specs:
        if spec.strip().startswith("ext["):     # as make_player tells them
            player = make_player(spec)          # a ProcessPlayer
            try:
                info(quiet, f"{spec}: patchsolve from {player.where()}")
            finally:
                player.close()


def _tournament_backend(name, address, workers, quiet):
    """The backend of ``tournament``: on this machine (local processes or a
    local Ray) at most one worker per core; a cluster decides for itself."""
    from patchsolve.backends import import_ray, make_backend

    if address is not None and name != "ray":
        raise CliError("--address is for --backend ray")
    if name == "ray":
        import_ray()                      # Ray missing: say so before any file is written
        if address is not None:
            if workers is not None:
                info(quiet, "--workers ignored: the Ray cluster decides the parallelism")
            return make_backend("ray", address=address)
    cores = os.cpu_count() or 1
    if workers is not None and workers > cores:
        info(quiet, f"--workers {workers} capped at the {cores} cores of this machine")
    return make_backend(name, workers=min(workers or cores, cores))


# ---------------------------------------------------------------------------
# serve (the web app; needs the [web] extra)
# ---------------------------------------------------------------------------

@cli.command(context_settings=CONTEXT)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (anything but a loopback address is warned about).")
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True, help="Port to listen on.")
@click.option("--no-browser", is_flag=True, help="Do not open the page in a browser.")
def serve(host, port, no_browser):
    """Serve the web app: see the board, play against the engine, enter
    moves by clicking, ask for the best moves, review a game.

    \b
    Needs the web extra: pip install 'patchsolve[web]'.
    Examples:
      patchsolve serve
      patchsolve serve --port 9000 --no-browser
    """
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as e:
        raise CliError(f"the web app needs the web extra (pip install 'patchsolve[web]'): {e}") from None
    from patchsolve import web

    try:
        web.serve(host, port, open_browser=not no_browser)
    except OSError as e:
        raise CliError(f"cannot serve on {host}:{port}: {e.strerror or e}") from None


def main(argv=None):
    """The console script: ``patchsolve ...``."""
    return cli.main(args=argv, prog_name="patchsolve")


if __name__ == "__main__":
    main()
