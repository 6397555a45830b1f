"""The commands about positions and games, no engine: new, show, moves,
patches, replay, perft."""

from __future__ import annotations

import json
import random
import time

import click

from patchsolve.cli.common import (
    CONTEXT,
    INTERRUPTED,
    SEED,
    CliError,
    color_option,
    describe_move,
    emit_json,
    info,
    load_position,
    position_arguments,
    read_file,
    use_color,
)
from patchsolve.errors import LimitError
from patchsolve.rules import render
from patchsolve.rules.game import Game
from patchsolve.rules.patches import EDITION_NAMES, PATCHES
from patchsolve.rules.position import MAX_PERFT_DEPTH, Position

# -- new / show / moves -----------------------------------------------------------


@click.command(context_settings=CONTEXT)
@click.option(
    "--seed", type=SEED, default=None, help="Seed of the random circle, 0..2**64-1 (default: a random one)."
)
@click.option(
    "--edition",
    type=click.Choice(EDITION_NAMES),
    default="revised",
    show_default=True,
    help="Time-board printing.",
)
@click.option(
    "--first",
    "first_player",
    type=click.IntRange(0, 1),
    default=0,
    show_default=True,
    help="The start player.",
)
@click.option(
    "--circle",
    "circle_text",
    default=None,
    metavar="P,P,...",
    help="The circle read off the table: the 33 patch ids or names from the neutral token on "
    "(the 1x2, id 0, last), comma-separated.",
)
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
        from patchsolve.rules.board import start_circle

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
    """``show --json``: the position, its fields, whose turn, scores and the next three patches."""
    f = pos.fields()
    return {
        "position": pos.to_text(),
        "fields": json.loads(pos.to_json()),
        "to_move": None if pos.is_over else pos.to_move,
        "is_over": pos.is_over,
        "scores": list(pos.scores()),
        "winner": pos.winner() if pos.is_over else None,
        "next": [
            {
                "id": i,
                "name": PATCHES[i].name,
                "buttons": PATCHES[i].buttons,
                "time": PATCHES[i].time,
                "income": PATCHES[i].income,
                "shape": PATCHES[i].shape,
            }
            for i in f["circle"][:3]
        ],
    }


@click.command(context_settings=CONTEXT)
@position_arguments
@click.option(
    "--svg",
    "svg_file",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Also write an SVG picture to FILE.",
)
@click.option(
    "--board",
    "as_board",
    is_flag=True,
    help="Print board text (quilts drawn with patch symbols; readable as POSITION).",
)
@color_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def show(position, position_file, svg_file, as_board, color, as_json):
    """Draw a position: both quilts, the time track, the next three patches.

    \b
    Examples:
      patchsolve show
      patchsolve new --seed 3 | patchsolve show - --svg start.svg
      patchsolve show --board > table.txt && patchsolve best -f table.txt --depth 6
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


@click.command(context_settings=CONTEXT)
@position_arguments
@click.option(
    "--patch",
    type=click.IntRange(0, len(PATCHES) - 1),
    default=None,
    help="Only the moves buying this patch (and draw its orientations).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def moves(position, position_file, patch, as_json):
    """List the legal moves in move notation.

    \b
    Move notation: walk | <patch>:<orientation>@<square> | leather@<square>

    \b
    Examples:
      patchsolve moves revised 16,17,9,2,14,29,32,25,0,4,8,21,1,27,18,28,3,26,19,31,10 b3f39dfee4/1867f6f3d9fe3e 3/10 6/5 21/23 - 26,32,38,44,50 - - -
      patchsolve moves --patch 8
    """
    pos = load_position(position, position_file)
    legal = pos.legal_moves()
    if patch is not None:
        legal = [m for m in legal if m.patch == patch]
    if as_json:
        emit_json(
            {
                "position": pos.to_text(),
                "to_move": None if pos.is_over else pos.to_move,
                "count": len(legal),
                "moves": [str(m) for m in legal],
            }
        )
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
        click.echo(f"{m!s:<12} {describe_move(pos, m)}")


# -- patches: the catalogue -------------------------------------------------------


@click.command(context_settings=CONTEXT)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def patches(as_json):
    """List the 33 patches: id, symbol (as drawn in board text), name, cost
    in buttons, time, income and shape.

    \b
    Examples:
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


# -- replay -----------------------------------------------------------------------


@click.command(context_settings=CONTEXT)
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

    \b
    Examples:
      patchsolve play --p0 engine --p1 engine --nodes 2000 --record game.txt --quiet
      patchsolve replay game.txt
      patchsolve replay game.txt --ply 20
      patchsolve replay game.txt --brief --json
    """
    game = Game.from_text(read_file(record))
    col = use_color(color)
    if ply is not None and not 0 <= ply <= len(game):
        raise CliError(f"--ply must be in 0..{len(game)} for this game, not {ply}")
    if as_json:
        data = game.to_dict()
        data["plies"] = [
            {"number": p.number, "player": p.player, "move": str(p.move), "position": p.after.to_text()}
            for p in game.replay()
        ]
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


# -- perft ------------------------------------------------------------------------

PERFT_CHUNK = 3  # plies counted by one call into C: 10-60 ms from early positions, so progress
# and Ctrl-C come often, while the walk above costs well under 1% (a few us a node)


def perft_walk(pos: Position, depth: int, tick, stopped) -> int | None:
    """``pos.perft(depth)``, with the plies above the last ``PERFT_CHUNK``
    walked here so that ``tick(leaves)`` runs after every call into C
    (progress within a root move, not only between them); None when
    ``stopped()`` turned true before the count was whole."""
    if depth <= PERFT_CHUNK or pos.is_over:
        leaves = pos.perft(depth)
        tick(leaves)
        return leaves
    total = 0
    for m in pos.legal_moves():
        if stopped():
            return None
        count = perft_walk(pos.play(m), depth - 1, tick, stopped)
        if count is None:
            return None
        total += count
    return total


@click.command(context_settings=CONTEXT)
@click.argument("position", nargs=-1)
@click.argument("depth", type=int)
@click.option(
    "-f",
    "--file",
    "position_file",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Read POSITION from FILE ('-' = standard input).",
)
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
      patchsolve new --seed 7 > position.txt
      patchsolve perft -f position.txt 2 --divide
    """
    from patchsolve.search.stop import interruptible, stop_requested

    pos = load_position(position, position_file)
    if not 0 <= depth <= MAX_PERFT_DEPTH:
        raise LimitError(f"perft depth must be from 0 to {MAX_PERFT_DEPTH}, not {depth}")
    moves = pos.legal_moves() if depth >= 1 and not pos.is_over else []
    info(quiet, f"perft {depth}: {len(moves)} root moves (Ctrl-C stops with the partial count)")
    per_move: dict[str, int] = {}
    t0 = last = time.perf_counter()
    done = 0  # leaves so far, the root move in progress included

    def tick(leaves):
        nonlocal done, last
        done += leaves
        now = time.perf_counter()
        if now - last >= 1.0:
            last = now
            info(
                quiet,
                f"perft {depth}: {len(per_move)}/{len(moves)} root moves, {done:,} leaves, "
                f"{done / (now - t0):,.0f} leaves/s",
            )

    with interruptible():
        if not moves:
            nodes = pos.perft(depth)
        else:
            for m in moves:
                count = perft_walk(pos.play(m), depth - 1, tick, stop_requested)
                if count is None:  # stopped inside: that root move's count is partial
                    break
                per_move[str(m)] = count
                if stop_requested():
                    break
            nodes = sum(per_move.values())
        interrupted = stop_requested()
    elapsed = time.perf_counter() - t0
    if as_json:
        emit_json(
            {
                "position": pos.to_text(),
                "depth": depth,
                "nodes": nodes,
                "time": elapsed,
                "nps": nodes / elapsed if elapsed > 0 else None,
                "divide": per_move if divide else None,
                "interrupted": interrupted,
                "root_moves_counted": len(per_move),
            }
        )
        return INTERRUPTED if interrupted else 0
    if divide:
        for text, n in per_move.items():
            click.echo(f"{text:<12} {n}")
    nps = f", {nodes / elapsed:.0f} leaves/s" if elapsed > 0 else ""
    if interrupted:
        click.echo(
            f"perft {depth}: interrupted after {len(per_move)} of {len(moves)} root moves: "
            f"{nodes} leaves so far  ({elapsed:.3f}s{nps})"
        )
        return INTERRUPTED
    click.echo(f"perft {depth}: {nodes}  ({elapsed:.3f}s{nps})")
    return 0
