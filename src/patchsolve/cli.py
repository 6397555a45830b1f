"""The ``patchsolve`` command line (Click). The only module that prints.

Results go to stdout (``--json`` on every command that produces one);
progress and info lines go to stderr (``--quiet`` silences them). Bad input
gives one line on stderr, ``patchsolve: error: ...``, and exit status 2.

POSITION is the one-line notation of :mod:`patchsolve.notation` (quoted or
not: the words are joined), a JSON position, ``-`` to read standard input,
or ``-f FILE``; without one the built-in start position
(``Position.start(seed=DEFAULT_SEED)``) is used.
"""

from __future__ import annotations

import importlib
import json
import random
import sys
import threading
import time

import click

from patchsolve import __version__
from patchsolve.errors import IllegalMoveError, NotationError, PatchsolveError
from patchsolve.game import Game
from patchsolve.patches import EDITION_NAMES, EDITIONS, PATCHES
from patchsolve.position import DEFAULT_SEED, Position
from patchsolve import render
from patchsolve.players import option_value

ENGINES = ("mcts", "alphabeta")
DEFAULT_TIME = 2.0


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
        except click.Abort:
            click.echo("patchsolve: aborted", err=True)
            code = 1
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
    """Position text or JSON; '#' comment lines are skipped."""
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    body = " ".join(lines).strip()
    if not body:
        raise NotationError("no position given (empty input)", field="position", token="")
    if body.startswith("{"):
        return Position.from_json(body)
    return Position.from_text(body)


def load_position(words, position_file) -> Position:
    if position_file is not None:
        if words:
            raise CliError("give POSITION either as arguments or with -f, not both")
        return parse_position_text(_read_file(position_file))
    if words == ("-",):
        return parse_position_text(_read_file("-"))
    if not words:
        return Position.start(seed=DEFAULT_SEED)
    return parse_position_text(" ".join(words))


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
                         help="An engine option, repeatable (e.g. -o ab_root_depth=30 for mcts, "
                              "-o hash_mb=64 for alphabeta; see the engine's docs).")(f)
        f = click.option("--workers", type=click.IntRange(min=1), default=None, help="MCTS worker threads.")(f)
        f = click.option("--seed", type=int, default=None, help=f"MCTS random seed (default {DEFAULT_SEED}).")(f)
        f = click.option("--nodes", type=click.IntRange(min=1), default=None, help="Alpha-beta node limit.")(f)
        f = click.option("--depth", type=click.IntRange(min=1), default=None, help="Alpha-beta depth limit.")(f)
        f = click.option("--iterations", type=click.IntRange(min=1), default=None, help="MCTS iteration limit.")(f)
        f = click.option("--time", "time_limit", type=click.FloatRange(min=0, min_open=True), default=None,
                         help=f"Time limit in seconds (default {default_time} when no other limit is given).")(f)
        f = click.option("--engine", type=click.Choice(ENGINES), default="mcts", show_default=True,
                         help="Search engine.")(f)
        return f
    return deco


def engine_limits(engine, time_limit, iterations, depth, nodes, seed, workers, default_time,
                  engine_option=()) -> dict:
    if engine == "mcts":
        wrong = [name for name, v in (("--depth", depth), ("--nodes", nodes)) if v is not None]
        if wrong:
            raise CliError(f"{', '.join(wrong)} applies to --engine alphabeta, not mcts")
        limits = {"seed": DEFAULT_SEED if seed is None else seed}
        if iterations is not None:
            limits["iterations"] = iterations
        if workers is not None:
            limits["workers"] = workers
    else:
        wrong = [name for name, v in (("--iterations", iterations), ("--seed", seed), ("--workers", workers))
                 if v is not None]
        if wrong:
            raise CliError(f"{', '.join(wrong)} applies to --engine mcts, not alphabeta")
        limits = {}
        if depth is not None:
            limits["depth"] = depth
        if nodes is not None:
            limits["nodes"] = nodes
    if time_limit is not None:
        limits["time"] = time_limit
    elif not any(k in limits for k in ("iterations", "depth", "nodes")):
        limits["time"] = default_time
    for item in engine_option:
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise CliError(f"bad engine option {item!r} (expected KEY=VALUE)")
        if key in limits or key in ("time", "iterations", "depth", "nodes", "seed", "workers"):
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
    except TypeError as e:
        if "unexpected keyword" in str(e) or "got an unexpected" in str(e):
            raise CliError(f"engine {engine!r} does not accept these limits ({_limits_text(limits)}): {e}") from None
        raise
    finally:
        stop.set()
    info(quiet, f"{label}done: {result_summary(result)}")
    return result


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
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def new(seed, edition, first_player, as_json):
    """Print a start position.

    \b
    Example:
      patchsolve new --seed 7 --edition original
    """
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
@color_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def show(position, position_file, svg_file, color, as_json):
    """Draw a position: both quilts, the time track, the next three patches.

    \b
    Examples:
      patchsolve show
      patchsolve new --seed 3 | patchsolve show - --svg start.svg
    """
    pos = load_position(position, position_file)
    if svg_file:
        try:
            with open(svg_file, "w", encoding="utf-8") as fh:
                fh.write(pos.to_svg())
        except OSError as e:
            raise CliError(f"cannot write {svg_file}: {e.strerror}") from None
    if as_json:
        emit_json(position_info(pos))
    else:
        click.echo(render.text_position(pos, color=use_color(color)), color=use_color(color))


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
        return
    mover = pos.to_move
    click.echo(f"best move: {move}  ({describe_move(pos, move)})")
    click.echo(f"score: {fmt_score(r.score)} ({r.bound}) for player {mover}, the player to move")
    if r.win_probability is not None:
        click.echo(f"win probability: {100 * r.win_probability:.1f}%")
    click.echo("pv: " + (" ".join(str(m) for m in r.pv) if r.pv else str(move)))
    stats = [f"engine {r.engine or engine}"]
    if r.iterations is not None:
        stats.append(f"iterations {r.iterations}")
    if r.depth:
        stats.append(f"depth {r.depth}")
    stats += [f"nodes {r.nodes}", f"time {r.time:.2f}s", f"nps {r.nps:.0f}"]
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


def _root_table(pos: Position, r, top: int) -> list[dict]:
    rows = []
    for d in r.root_moves[:top]:
        row = {k: (str(v) if k == "move" else v) for k, v in d.items()}
        rows.append(row)
    if not rows and r.best_move is not None:
        rows.append({"move": str(r.best_move), "score": r.score})
    return rows


def _fmt_cell(v) -> str:
    if isinstance(v, float):
        return f"{v:.3f}" if abs(v) < 10 else f"{v:.1f}"
    return str(v)


@cli.command("eval", context_settings=CONTEXT)
@position_arguments
@engine_options(DEFAULT_TIME)
@click.option("--top", type=click.IntRange(min=1), default=5, show_default=True, help="Moves to list.")
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
    r = run_search(pos, engine, limits, quiet)
    rows = _root_table(pos, r, top)
    if as_json:
        emit_json({"position": pos.to_text(), "to_move": pos.to_move, "engine": r.engine or engine,
                   "score": r.score, "bound": r.bound, "win_probability": r.win_probability,
                   "best_move": None if r.best_move is None else str(r.best_move), "top_moves": rows})
        return
    line = f"evaluation: {fmt_score(r.score)} ({r.bound}) for player {pos.to_move}, the player to move"
    if r.win_probability is not None:
        line += f"; win probability {100 * r.win_probability:.1f}%"
    click.echo(line)
    keys = ["move"] + sorted({k for row in rows for k in row if k != "move"},
                             key=lambda k: ("score", "mean", "visits").index(k) if k in ("score", "mean", "visits")
                             else 3)
    table = [[str(i + 1)] + [_fmt_cell(row.get(k, "")) for k in keys] for i, row in enumerate(rows)]
    header = ["#"] + keys
    widths = [max(len(x) for x in col) for col in zip(header, *table)]
    click.echo("  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip())
    for t in table:
        click.echo("  ".join(c.ljust(w) for c, w in zip(t, widths)).rstrip())


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
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def analyze(record, engine, time_limit, iterations, depth, nodes, seed, workers, engine_option, quiet, threshold,
            as_json):
    """Run the engine on every position of a game and flag the moves that
    lose more than THRESHOLD points against the engine's choice.

    \b
    A move's loss = the engine's value before it minus the value after it, for
    the player who moved (0 when the move is the engine's choice). '?' marks a
    loss above the threshold, '??' above twice the threshold.
    Example:
      patchsolve analyze game.txt --iterations 5000 --threshold 4
    """
    game = Game.from_text(_read_file(record))
    limits = engine_limits(engine, time_limit, iterations, depth, nodes, seed, workers, 0.5, engine_option)
    require_engine(engine)
    values, bests = [], []  # value for player 0 of each position; engine's move
    n = len(game.positions)
    for k, pos in enumerate(game.positions):
        if pos.is_over:
            s = pos.scores()
            values.append(float(s[0] - s[1]))
            bests.append(None)
            continue
        r = run_search(pos, engine, limits, quiet, label=f"[{k + 1}/{n}] ")
        v = float(r.score)
        values.append(v if pos.to_move == 0 else -v)
        bests.append(None if r.best_move is None else str(r.best_move))
    rows = []
    for p in game.replay():
        sign = 1 if p.player == 0 else -1
        before, after = sign * values[p.number - 1], sign * values[p.number]
        best_move = bests[p.number - 1]
        loss = 0.0 if best_move == str(p.move) else max(0.0, before - after)
        flag = "??" if loss > 2 * threshold else "?" if loss > threshold else ""
        rows.append({"number": p.number, "player": p.player, "move": str(p.move), "best": best_move,
                     "value_before": before, "value_after": after, "loss": loss, "flag": flag})
    summary = []
    for pl in (0, 1):
        mine = [r for r in rows if r["player"] == pl]
        worst = max(mine, key=lambda r: r["loss"], default=None)
        summary.append({"player": pl, "moves": len(mine),
                        "average_loss": sum(r["loss"] for r in mine) / len(mine) if mine else 0.0,
                        "flagged": sum(1 for r in mine if r["flag"]),
                        "blunders": sum(1 for r in mine if r["flag"] == "??"),
                        "worst": None if worst is None or worst["loss"] == 0 else
                        {"number": worst["number"], "move": worst["move"], "loss": worst["loss"]},
                        "final_score": game.end.scores()[pl]})
    if as_json:
        emit_json({"engine": engine, "limits": limits, "threshold": threshold, "moves": rows, "summary": summary,
                   "end": game.end.to_text()})
        return
    click.echo(f"{'#':>3}  pl  {'move':<12} {'engine':<12} {'before':>7} {'after':>7} {'loss':>6}")
    for r in rows:
        click.echo(f"{r['number']:>3}  {r['player']:>2}  {r['move']:<12} {r['best'] or '-':<12} "
                   f"{r['value_before']:>+7.1f} {r['value_after']:>+7.1f} {r['loss']:>6.1f} {r['flag']}")
    click.echo()
    click.echo("player  moves  avg loss  flagged  blunders  worst              final score")
    for s in summary:
        worst = "-" if s["worst"] is None else f"{s['worst']['number']}. {s['worst']['move']} ({s['worst']['loss']:.1f})"
        click.echo(f"{s['player']:>6}  {s['moves']:>5}  {s['average_loss']:>8.2f}  {s['flagged']:>7}  "
                   f"{s['blunders']:>8}  {worst:<18} {s['final_score']:>11}")


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
              help="Write the game record to FILE at the end.")
@color_option
@click.option("--json", "as_json", is_flag=True, help="Print the finished game as JSON.")
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
    click.echo(render.text_position(game.end, game.labels(), col), color=col)
    while not game.end.is_over:
        pos = game.end
        p = pos.to_move
        if players[p] == "engine":
            r = run_search(pos, engine, limits, quiet, label=f"player {p}: ")
            move = as_move(pos, r.best_move)
            click.echo(f"{len(game) + 1}. player {p} (engine): {move}  ({describe_move(pos, move)})")
        else:
            text = click.prompt(f"{len(game) + 1}. player {p}", prompt_suffix="> ", err=True).strip()
            if text in ("quit", "q", "exit"):
                click.echo("game abandoned")
                break
            word, _, arg = text.partition(" ")
            if word in ("moves", "?", "help"):
                legal = pos.legal_moves()
                if arg.strip().isdigit():
                    legal = [m for m in legal if m.patch == int(arg)]
                click.echo(" ".join(str(m) for m in legal) or "no such move")
                continue
            if word == "orient":
                if arg.strip().isdigit() and 0 <= int(arg) < len(PATCHES):
                    click.echo(render.orientations_text(int(arg)))
                else:
                    click.echo(f"usage: orient <patch id 0..{len(PATCHES) - 1}>", err=True)
                continue
            if text == "undo":
                if len(game) == 0:
                    click.echo("nothing to undo")
                else:
                    game.pop()
                    while len(game) and players[game.end.to_move] == "engine":
                        game.pop()
                    click.echo(render.text_position(game.end, game.labels(), col), color=col)
                continue
            try:
                move = pos.parse_move(text)
            except (NotationError, IllegalMoveError) as e:
                click.echo(f"{_one_line(str(e))}; type 'moves' for the list", err=True)
                continue
        game.push(move)
        click.echo(render.text_position(game.end, game.labels(), col), color=col)
    if record_file:
        try:
            game.write(record_file)
        except OSError as e:
            raise CliError(f"cannot write {record_file}: {e.strerror}") from None
    if as_json:
        emit_json(game.to_dict())


# ---------------------------------------------------------------------------
# perft / bench
# ---------------------------------------------------------------------------

@cli.command(context_settings=CONTEXT)
@click.argument("position", nargs=-1)
@click.argument("depth", type=click.IntRange(min=0))
@click.option("-f", "--file", "position_file", type=click.Path(dir_okay=False, allow_dash=True),
              help="Read POSITION from FILE ('-' = standard input).")
@click.option("--divide", is_flag=True, help="Also count per legal move.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def perft(position, depth, position_file, divide, as_json):
    """Count the move sequences of length DEPTH from POSITION (a finished game
    counts as one leaf). Without POSITION: the built-in start position.

    \b
    Examples:
      patchsolve perft 3
      patchsolve perft -f position.txt 2 --divide
    """
    pos = load_position(position, position_file)
    t0 = time.perf_counter()
    nodes = pos.perft(depth)
    elapsed = time.perf_counter() - t0
    per_move = None
    if divide and depth >= 1:
        per_move = {str(m): pos.play(m).perft(depth - 1) for m in pos.legal_moves()}
    if as_json:
        emit_json({"position": pos.to_text(), "depth": depth, "nodes": nodes, "time": elapsed,
                   "nps": nodes / elapsed if elapsed > 0 else None, "divide": per_move})
        return
    if per_move is not None:
        for m, n in per_move.items():
            click.echo(f"{m:<12} {n}")
    nps = f", {nodes / elapsed:.0f} leaves/s" if elapsed > 0 else ""
    click.echo(f"perft {depth}: {nodes}  ({elapsed:.3f}s{nps})")


BENCH_PLIES = (0, 8, 16, 24, 32)
BENCH_DEPTH = 3
BENCH_PLAYOUTS = 20000


def bench_positions() -> list[Position]:
    """The fixed bench set: the built-in start position and the positions a
    fixed seeded random game from it reaches after BENCH_PLIES moves."""
    rng = random.Random(DEFAULT_SEED)
    pos = Position.start(seed=DEFAULT_SEED)
    out = []
    for ply in range(max(BENCH_PLIES) + 1):
        if ply in BENCH_PLIES:
            out.append(pos)
        if pos.is_over:
            break
        pos = pos.play(rng.choice(pos.legal_moves()))
    return out


@cli.command(context_settings=CONTEXT)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def bench(as_json):
    """Run the fixed benchmark: perft node counts (a deterministic signature)
    and move-generation / random-playout speed on a fixed set of positions,
    then the searchers on the bench set (alpha-beta nodes/s, MCTS
    iterations/s, their own signature, memory). Under 30 s.

    \b
    Example:
      patchsolve bench
    """
    rows = []
    total_nodes = total_plies = 0
    perft_time = playout_time = 0.0
    for i, pos in enumerate(bench_positions()):
        t0 = time.perf_counter()
        nodes = pos.perft(BENCH_DEPTH)
        t1 = time.perf_counter()
        plies, wins0, margin = pos._c.playouts(BENCH_PLAYOUTS, DEFAULT_SEED + i)
        t2 = time.perf_counter()
        moves = len(pos.legal_moves())
        rows.append({"position": pos.to_text(), "ply": BENCH_PLIES[i], "legal_moves": moves,
                     "perft_depth": BENCH_DEPTH, "perft_nodes": nodes, "playouts": BENCH_PLAYOUTS,
                     "playout_plies": plies, "wins0": wins0, "margin_sum": margin,
                     "perft_time": t1 - t0, "playout_time": t2 - t1})
        total_nodes += nodes
        total_plies += plies
        perft_time += t1 - t0
        playout_time += t2 - t1
    signature = total_nodes + total_plies
    summary = {"signature": signature, "perft_nodes": total_nodes, "playout_plies": total_plies,
               "perft_leaves_per_s": total_nodes / perft_time if perft_time > 0 else None,
               "playouts_per_s": len(rows) * BENCH_PLAYOUTS / playout_time if playout_time > 0 else None,
               "plies_per_s": total_plies / playout_time if playout_time > 0 else None}
    from patchsolve import bench as search_bench

    searched = search_bench.run(quick=True)
    if as_json:
        emit_json({"positions": rows, **summary,
                   "search": {k: v for k, v in searched.items() if k != "lines"}})
        return
    click.echo(f"{'ply':>4} {'moves':>6} {'perft ' + str(BENCH_DEPTH):>12} {'playout plies':>14} {'wins0':>6}")
    for r in rows:
        click.echo(f"{r['ply']:>4} {r['legal_moves']:>6} {r['perft_nodes']:>12} {r['playout_plies']:>14} "
                   f"{r['wins0']:>6}")
    click.echo(f"signature {signature}")
    if perft_time > 0:
        click.echo(f"perft: {total_nodes / perft_time:,.0f} leaves/s")
    if playout_time > 0:
        click.echo(f"playouts: {summary['playouts_per_s']:,.0f} games/s, {summary['plies_per_s']:,.0f} plies/s")
    click.echo("search on the bench set (data/bench_positions.txt):")
    for line in searched["lines"]:
        click.echo("  " + line)


# -- solve ---------------------------------------------------------------------

def _solve_progress(quiet: bool):
    """The solver's progress callback: one stderr line a report."""
    if quiet:
        return None

    def report(d):
        what = f"move {d['move']}  " if d.get("move") else ""
        info(False, f"  {what}{d['time']:.0f}s  test {d['gamma']:+d}  bounds [{d['lower']:+d}, {d['upper']:+d}]"
                    f"{' (win/loss units)' if d['wdl'] else ''}  nodes {d['nodes']:,}  nps {d['nps']:,.0f}")
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
@click.option("--time", "time_limit", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Give up after this many seconds (default: the solver's own, 30 s).")
@click.option("--nodes", type=click.IntRange(min=1), default=None, help="Give up after this many nodes.")
@click.option("--hash-mb", type=click.IntRange(1, 4096), default=None, help="Transposition table memory (MB).")
@click.option("--wdl", is_flag=True, help="Prove only who wins (far cheaper than the exact margin).")
@click.option("--all-moves", is_flag=True, help="The proven value of every legal move, by patch.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def solve(position, position_file, time_limit, nodes, hash_mb, wdl, all_moves, quiet, as_json):
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
    limits = {k: v for k, v in (("time", time_limit), ("nodes", nodes), ("hash_mb", hash_mb)) if v is not None}
    info(quiet, f"solving{' who wins' if wdl else ''} ({_limits_text(limits) or 'default budget'})")
    r = exact(pos, wdl=wdl, all_moves=all_moves, progress=_solve_progress(quiet), **limits)
    info(quiet, f"done: {result_summary(r)}")
    proven = r.bound == "exact" or (wdl and r.proven is not None)
    if as_json:
        data = r.to_dict()
        data.update({"position": pos.to_text(), "to_move": pos.to_move, "solved": proven})
        emit_json(data)
        return 0 if proven else 1
    who = f"player {pos.to_move}, the player to move"
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
    click.echo(f"stats: nodes {r.nodes}  time {r.time:.2f}s  nps {r.nps:.0f}")
    return 0 if proven else 1


@cli.command(context_settings=CONTEXT)
@click.argument("players", nargs=-1, required=True)
@click.option("--pairs", type=click.IntRange(min=1), default=10, show_default=True,
              help="Circles per pairing; each is played twice with sides swapped.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the circles and players.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: the number of cores).")
@click.option("--edition", type=click.Choice(EDITION_NAMES), default="revised", show_default=True)
@click.option("--one-pairing", is_flag=True, help="Only the first two players against each other.")
@click.option("--csv", "csv_file", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the results table as CSV.")
@click.option("--markdown", "md_file", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the results table as Markdown.")
@click.option("--records", "records_dir", type=click.Path(file_okay=False, writable=True), default=None,
              help="Write every game record into this folder.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar on stderr.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def tournament(players, pairs, seed, workers, edition, one_pairing, csv_file, md_file, records_dir, quiet,
               as_json):
    """Play paired games between PLAYERS (round robin) and print win rates
    with 95% confidence intervals, Elo differences and mean margins.

    A player is a spec: random, greedy, alphabeta:depth=3, alphabeta:time=0.2,
    mcts:iterations=5000, mcts:time=1,policy=heuristic, ...

    \b
    Example:
      patchsolve tournament greedy mcts:iterations=2000 --pairs 20
    """
    import os
    from pathlib import Path

    from patchsolve import tournament as tour

    if len(players) < 2:
        raise CliError("a tournament needs at least two players")
    workers = workers or os.cpu_count() or 1
    progress = None if quiet else tour.print_progress
    results = tour.run_tournament(list(players), pairs=pairs, seed=seed, workers=workers, edition=edition,
                                  round_robin=not one_pairing, progress=progress)
    if csv_file:
        Path(csv_file).write_text(tour.to_csv(results))
    if md_file:
        Path(md_file).write_text(tour.to_markdown(results))
    if records_dir:
        folder = Path(records_dir)
        folder.mkdir(parents=True, exist_ok=True)
        for k, r in enumerate(results):
            for i, g in enumerate(r.games):
                (folder / f"pairing{k}_game{i:04d}.txt").write_text(g.record())
    if as_json:
        emit_json([r.row() for r in results])
        return
    click.echo(tour.to_markdown(results), nl=False)


def main(argv=None):
    """The console script: ``patchsolve ...``."""
    return cli.main(args=argv, prog_name="patchsolve")


if __name__ == "__main__":
    main()
