"""``patchsolve play``: a game in the terminal (human or engine on each
side) and its prompt."""

from __future__ import annotations

import shutil
import sys
import textwrap

import click

from patchsolve.cli.common import (
    CONTEXT,
    INTERRUPTED,
    CliError,
    color_option,
    describe_move,
    emit_json,
    engine_options,
    info,
    load_position,
    one_line,
    position_arguments,
    run_search,
    use_color,
)
from patchsolve.cli.engine import check_level_alone
from patchsolve.errors import IllegalMoveError, NotationError, PatchsolveError
from patchsolve.rules import render
from patchsolve.rules.game import Game
from patchsolve.rules.patches import PATCHES


@click.command(context_settings=CONTEXT)
@position_arguments
@click.option(
    "--p0",
    type=click.Choice(["human", "engine"]),
    default="human",
    show_default=True,
    help="Who plays player 0.",
)
@click.option(
    "--p1",
    type=click.Choice(["human", "engine"]),
    default="engine",
    show_default=True,
    help="Who plays player 1.",
)
@engine_options(1.0)
@click.option(
    "--level",
    type=click.IntRange(1, 10),
    default=None,
    help="The engine plays at this level (1 weakest .. 10 the full engine with the limits given).",
)
@click.option(
    "--ponder",
    is_flag=True,
    help="The engine keeps its table from move to move and searches while the other side "
    "thinks (the alpha-beta under a time limit alone).",
)
@click.option(
    "--record",
    "record_file",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write the game record to FILE, rewritten after every move.",
)
@color_option
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the finished game as JSON (the only thing on stdout; boards go to stderr).",
)
def play(position, position_file, p0, p1, engine, level, ponder, record_file, color, as_json):
    """Play a game in the terminal (human vs engine, engine vs engine, or
    human vs human), showing the board after each move.

    \b
    At the prompt type a move (walk, 7:2@c3, leather@e5), 'moves' to list the
    legal moves ('moves 7': those of patch 7), 'orient 7' to draw the numbered
    orientations of patch 7, 'undo' to take back, 'help' for this list, or 'quit'.

    \b
    Examples:
      patchsolve play
      patchsolve play --p0 engine --p1 engine --nodes 20000 --record game.txt
      patchsolve play --p0 engine --p1 engine --level 3 --record game.txt
      patchsolve play --time 0.5 --ponder
    """
    start = load_position(position, position_file)
    players = (p0, p1)
    limits = options = None
    if "engine" in players:
        limits, options = engine.limits()
        if level is not None and level < 10:
            check_level_alone(level, engine)
    ponderers = _ponderers(players, engine, level, limits) if ponder else {}
    game = Game(start)
    col = use_color(color)
    out = sys.stderr if as_json else sys.stdout  # with --json, stdout carries the JSON only

    def show(text):
        click.echo(text, color=col, file=out)

    def save():
        if record_file:
            _write_record(game, record_file)

    save()  # an unwritable path fails before the first move
    show(render.text_position(game.end, game.labels(), col))
    if "human" in players:
        info(engine.quiet, "type a move, or 'help' for the prompt's commands")
        if ponderers:
            info(engine.quiet, "the engine thinks on your time too (--ponder)")
    try:
        code = _play_loop(game, players, engine, level, limits, options, ponderers, show, save, col)
    finally:
        for ponderer in ponderers.values():
            ponderer.stop()
    if as_json:
        emit_json(game.to_dict())
    return code


def _ponderers(players, engine, level, limits) -> dict:
    """A ``Ponderer`` for each engine side (``--ponder``). Against a
    person it ponders on every thread the search has; against the other
    engine on one less, so that engine keeps a core."""
    from patchsolve.search.limits import threads_for
    from patchsolve.search.ponder import Ponderer

    if "engine" not in players:
        raise CliError("--ponder is for an engine side (--p0 engine or --p1 engine)")
    if engine.name != "alphabeta" or (level is not None and level < 10):
        raise CliError("--ponder is for the full alpha-beta engine (not --engine mcts, not --level below 10)")
    threads = threads_for(limits, "alphabeta")
    try:
        return {
            p: Ponderer(
                threads=threads if players[1 - p] == "human" else max(1, threads - 1), **limits.given()
            )
            for p in (0, 1)
            if players[p] == "engine"
        }
    except PatchsolveError as e:
        raise CliError(f"--ponder: {e}") from None


def _play_loop(game, players, engine, level, limits, options, ponderers, show, save, col) -> int:
    """Play until the game ends, is abandoned or interrupted; the exit code."""
    code = 0
    while not game.end.is_over:
        pos = game.end
        p = pos.to_move
        if players[p] == "engine" and level is not None and level < 10:
            from patchsolve.review.levels import level_move

            move = level_move(pos, level, seed=(engine.seed or 0) + len(game))[0]
            show(f"{len(game) + 1}. player {p} (level {level}): {move}  ({describe_move(pos, move)})")
        elif players[p] == "engine":
            r = run_search(
                pos,
                engine.name,
                limits,
                options,
                engine.quiet,
                label=f"player {p}: ",
                ponderer=ponderers.get(p),
            )
            if r.interrupted:
                click.echo(f"interrupted: the game is kept as it stands ({len(game)} moves)", err=True)
                code = INTERRUPTED
                break
            move = r.best_move
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
            moves = len(game)
            if _play_command(text, pos, game, players, show, col):
                save()
                if len(game) != moves:  # an undo: ponder the position it went back to
                    _ponder(ponderers, game.end)
                continue
            try:
                move = pos.parse_move(text)
            except (NotationError, IllegalMoveError) as e:
                click.echo(f"{one_line(str(e))}; type 'moves' for the list", err=True)
                continue
        game.push(move)
        save()
        _ponder(ponderers, game.end)
        show(render.text_position(game.end, game.labels(), col))
    return code


def _ponder(ponderers: dict, pos) -> None:
    """Each pondering engine thinks about ``pos`` when the other side is
    to move in it (its own search stops the ponder when its turn comes)."""
    for p, ponderer in ponderers.items():
        if pos.to_move != p:
            ponderer.start(pos)


def _write_record(game: Game, path: str) -> None:
    """Rewrite the whole record (small) after every move, so nothing is lost."""
    try:
        game.write(path)
    except OSError as e:
        raise CliError(f"cannot write {path}: {e.strerror}") from None


PROMPT_HELP = """\
  walk, 7:2@c3, leather@e5   play that move (<patch>:<orientation>@<square>)
  moves                      list the legal moves; 'moves 7': those buying patch 7
  orient 7                   draw the numbered orientations of patch 7
  undo                       take back the last move (and the engine's reply to it)
  help, ?                    this list
  quit                       leave the game (the record keeps the moves so far)"""


def _play_command(text, pos, game, players, show, col) -> bool:
    """The prompt's commands other than a move; True when ``text`` was one."""
    word, _, arg = text.partition(" ")
    if word in ("help", "?"):
        show(PROMPT_HELP)
        return True
    if word == "moves":
        legal = pos.legal_moves()
        if arg.strip().isdigit():
            legal = [m for m in legal if m.patch == int(arg)]
        # hundreds of moves early in the game: wrapped to the terminal's width, not one line
        show(
            textwrap.fill(" ".join(str(m) for m in legal), shutil.get_terminal_size().columns - 1)
            if legal
            else "no such move"
        )
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
