"""The commands that run many games or serve them: tournament, bench, serve."""

from __future__ import annotations

import os
import sys

import click

from patchsolve.cli.common import CONTEXT, INTERRUPTED, SEED, CliError, emit_json, info
from patchsolve.rules.patches import EDITION_NAMES

MAX_PAIRS = 100_000


# -- tournament ------------------------------------------------------------------


@click.command(context_settings=CONTEXT)
@click.argument("players", nargs=-1, required=True)
@click.option(
    "--pairs",
    type=click.IntRange(1, MAX_PAIRS),
    default=10,
    show_default=True,
    help=f"Circles per pairing (at most {MAX_PAIRS}); each is played twice with sides swapped.",
)
@click.option(
    "--seed", type=SEED, default=0, show_default=True, help="Seed of the circles and players (0..2**64-1)."
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes (default and most: the number of cores).",
)
@click.option("--edition", type=click.Choice(EDITION_NAMES), default="revised", show_default=True)
@click.option("--one-pairing", is_flag=True, help="Only the first two players against each other.")
@click.option(
    "--csv",
    "csv_file",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write the results table as CSV (rewritten as each game ends).",
)
@click.option(
    "--markdown",
    "md_file",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write the results table as Markdown (rewritten as each game ends).",
)
@click.option(
    "--games",
    "games_file",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Append one CSV row per game to FILE as it ends.",
)
@click.option(
    "--records",
    "records_dir",
    type=click.Path(file_okay=False, writable=True),
    default=None,
    help="Write every game record into this folder as the game ends.",
)
@click.option(
    "--backend",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="Where games run: processes here, or Ray tasks (pip install 'patchsolve[ray]').",
)
@click.option(
    "--address",
    default=None,
    help="With --backend ray: the Ray cluster to use (host:port, or auto); "
    "default: a local Ray of --workers CPUs.",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar on stderr.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def tournament(
    players,
    pairs,
    seed,
    workers,
    edition,
    one_pairing,
    csv_file,
    md_file,
    games_file,
    records_dir,
    backend,
    address,
    quiet,
    as_json,
):
    """Play paired games between PLAYERS (round robin) and print win rates
    with 95% confidence intervals, Elo differences and mean margins. Every
    game is written as it ends; Ctrl-C prints the table of the finished
    games and exits with 130.

    A player is a spec: random, greedy, alphabeta:depth=3, alphabeta:time=0.2,
    mcts:iterations=5000, mcts:time=1,policy=heuristic, ...

    \b
    Examples:
      patchsolve tournament greedy mcts:iterations=200 --pairs 2 --games games.csv
      patchsolve tournament greedy alphabeta:depth=1 --pairs 1 --records games --quiet
      patchsolve tournament greedy alphabeta:depth=2 --pairs 2 --backend ray --workers 2
    The last needs the ray extra (pip install 'patchsolve[ray]'); on a Ray
    cluster: --backend ray --address auto (or its host:port).
    """
    import contextlib

    from patchsolve.arena import tournament as tour

    if len(players) < 2:
        raise CliError("a tournament needs at least two players")
    runner = _tournament_backend(backend, address, workers, quiet)
    _show_external_players(players, quiet)
    sink = tour.GameSink(
        list(players),
        games_file=games_file,
        records_dir=records_dir,
        csv_file=csv_file,
        md_file=md_file,
        pairs=pairs,
        round_robin=not one_pairing,
    )
    progress = None if quiet else tour.print_progress
    # Ray prints its notices (a lost worker, ...) on stdout: keep stdout for the results
    with contextlib.redirect_stdout(sys.stderr) if backend == "ray" else contextlib.nullcontext():
        results = tour.run_tournament(
            list(players),
            pairs=pairs,
            seed=seed,
            edition=edition,
            round_robin=not one_pairing,
            progress=progress,
            on_game=sink.add,
            backend=runner,
        )
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
    from patchsolve.arena.players import ProcessPlayer, make_player

    for spec in specs:
        if spec.strip().startswith("ext["):  # as make_player tells them
            player = make_player(spec)
            assert isinstance(player, ProcessPlayer)
            try:
                info(quiet, f"{spec}: patchsolve from {player.where()}")
            finally:
                player.close()


def _tournament_backend(name, address, workers, quiet):
    """The backend of ``tournament``: on this machine (local processes or a
    local Ray) at most one worker per core; a cluster decides for itself."""
    from patchsolve.arena.backends import import_ray, make_backend

    if address is not None and name != "ray":
        raise CliError("--address is for --backend ray")
    if name == "ray":
        import_ray()  # Ray missing: say so before any file is written
        if address is not None:
            if workers is not None:
                info(quiet, "--workers ignored: the Ray cluster decides the parallelism")
            return make_backend("ray", address=address)
    cores = os.cpu_count() or 1
    if workers is not None and workers > cores:
        info(quiet, f"--workers {workers} capped at the {cores} cores of this machine")
    return make_backend(name, workers=min(workers or cores, cores))


# -- serve (the web app; needs the [web] extra) ----------------------------------


@click.command(context_settings=CONTEXT)
@click.option(
    "--host",
    default=None,
    help="Address to listen on (default 127.0.0.1; with --lan 0.0.0.0, every address). "
    "Anything but a loopback address without --lan is warned about.",
)
@click.option(
    "--port", type=click.IntRange(1, 65535), default=8765, show_default=True, help="Port to listen on."
)
@click.option("--no-browser", is_flag=True, help="Do not open the page in a browser.")
@click.option(
    "--lan",
    is_flag=True,
    help="Serve to the local network behind a new random access token: prints the address "
    "(with the token) and a QR code for a phone. Plain HTTP: for a network you trust.",
)
def serve(host, port, no_browser, lan):
    """Serve the web app, an analysis board: see the board, enter moves by
    clicking or tapping, try variations, analyse every position, review a
    game and practise its mistakes, play against a level.

    Needs the web extra: pip install 'patchsolve[web]' ('patchsolve[web,lan]'
    for the QR code of --lan).

    \b
    Examples:
      patchsolve serve
      patchsolve serve --port 9000 --no-browser
      patchsolve serve --lan --no-browser
    """
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as e:
        raise CliError(f"the web app needs the web extra (pip install 'patchsolve[web]'): {e}") from None
    from patchsolve import web

    if host is None:
        host = "0.0.0.0" if lan else "127.0.0.1"
    try:
        web.serve(host, port, open_browser=not no_browser, lan=lan)
    except OSError as e:
        raise CliError(f"cannot serve on {host}:{port}: {e.strerror or e}") from None


# -- bench -----------------------------------------------------------------------


@click.command(context_settings=CONTEXT)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def bench(as_json):
    """Run the fixed bench on the bench set (perft and playouts of the rules
    core, alpha-beta to a fixed depth, MCTS to a fixed iteration count), print
    the speeds and the signature: the sum of the deterministic counts, equal
    to the pinned one unless the code's behaviour changed. A few seconds.

    \b
    Example:
      patchsolve bench
    """
    from patchsolve.search import bench as bench_module

    result = bench_module.run()
    if as_json:
        emit_json({k: v for k, v in result.items() if k != "lines"})
        return
    for line in result["lines"]:
        click.echo(line)
