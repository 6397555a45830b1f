"""The self-play corpus and its statistics: selfplay, statistics."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import click

from patchsolve.arena.selfplay import DEFAULT_PLAYER
from patchsolve.cli.common import CONTEXT, INTERRUPTED, SEED, CliError, info
from patchsolve.search.endgame import ENDGAME_SPACES

MAX_GAMES = 1_000_000


@click.command(context_settings=CONTEXT)
@click.option(
    "--games",
    type=click.IntRange(1, MAX_GAMES),
    required=True,
    help="Games in the corpus (the first N of the run; games already in --out are not replayed).",
)
@click.option(
    "--out",
    "out_file",
    type=click.Path(dir_okay=False, writable=True),
    required=True,
    help="The corpus: one JSON line per game, appended as each game ends.",
)
@click.option(
    "--player",
    default=None,
    help=f"Player spec of both sides [default: {DEFAULT_PLAYER}, one thread] "
    "(specs: 'patchsolve tournament --help').",
)
@click.option(
    "--opponent",
    default=None,
    help="Another spec for the second side: each circle is then played twice, sides swapped.",
)
@click.option(
    "--edition",
    type=click.Choice(["both", "revised", "original"]),
    default="both",
    show_default=True,
    help="Time-board editions; with both, every circle is played in each.",
)
@click.option(
    "--solve-nodes",
    type=click.IntRange(min=0),
    default=None,
    help="Nodes of the exact solver tried before each move near the end (0: the player alone) "
    "[default: 1000000].",
)
@click.option(
    "--solve-spaces",
    type=click.IntRange(1, 53),
    default=ENDGAME_SPACES,
    show_default=True,
    help="Try the solver once both tokens are this close to the last space.",
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the circles and players.")
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes [default: 1; at most the number of cores]; a Ray cluster decides for itself.",
)
@click.option(
    "--backend",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="Where games run: processes here, or Ray tasks (pip install 'patchsolve[ray]').",
)
@click.option("--address", default=None, help="With --backend ray: the Ray cluster (host:port, or auto).")
@click.option(
    "--report",
    "report_dir",
    type=click.Path(file_okay=False, writable=True),
    default=None,
    help="Then write the statistics report of the whole corpus into this folder.",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar on stderr.")
def selfplay(
    games,
    out_file,
    player,
    opponent,
    edition,
    solve_nodes,
    solve_spaces,
    seed,
    workers,
    backend,
    address,
    report_dir,
    quiet,
):
    """Play a seeded self-play corpus: random circles, each in both
    time-board editions, the first player alternating, exact play from where
    the solver proves the end. Every game is appended to --out as it ends,
    with its moves, the engine's score and bound at every move, the scores,
    the 7x7 bonus and the leather patches; a rerun with the same file and
    settings resumes. Ctrl-C keeps the finished games and exits with 130.

    \b
    Examples:
      patchsolve selfplay --games 2 --player alphabeta:nodes=2000 --solve-nodes 20000 --out corpus.jsonl
      patchsolve selfplay --games 2 --player greedy --solve-nodes 0 --out greedy.jsonl --report report
    A long run: --games 2000 --workers 2 (or --backend ray --address auto).
    """
    from patchsolve.arena import corpus_report
    from patchsolve.arena import selfplay as sp
    from patchsolve.arena import tournament as tour
    from patchsolve.cli.match import _tournament_backend

    # one worker unless asked (a corpus runs for hours beside other work); a cluster decides for itself
    runner = _tournament_backend(backend, address, workers if address else (workers or 1), quiet)
    settings = sp.SelfPlaySettings(
        player=player or sp.DEFAULT_PLAYER,
        opponent=opponent,
        seed=seed,
        editions=sp.EDITIONS if edition == "both" else (edition,),
        solve_nodes=sp.DEFAULT_SOLVE_NODES if solve_nodes is None else solve_nodes,
        solve_spaces=solve_spaces,
    )
    progress = None if quiet else tour.print_progress
    # Ray prints its notices on stdout: keep stdout for the summary
    with contextlib.redirect_stdout(sys.stderr) if backend == "ray" else contextlib.nullcontext():
        run = sp.run_selfplay(out_file, games, settings, backend=runner, progress=progress)
    if run.interrupted:
        click.echo(f"\ninterrupted: {run.played} games played", err=True)
    if run.skipped:
        info(quiet, f"{run.skipped} games already in {out_file}: not replayed")
    click.echo(f"{run.played} games played, {len(run.records)} in {out_file}")
    if report_dir:
        corpus_report.write_report(run.records, report_dir, seed=seed)
        click.echo(f"report in {report_dir}")
    return INTERRUPTED if run.interrupted else 0


@click.command(context_settings=CONTEXT)
@click.argument("corpus", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, writable=True),
    default=None,
    help="Write the report into this folder: report.md, statistics.json, calibration.json, PNG plots.",
)
@click.option(
    "--seed", type=SEED, default=0, show_default=True, help="Seed of the calibration's held-out split."
)
@click.option("--no-plots", is_flag=True, help="No PNG plots (without matplotlib there are none anyway).")
@click.option("--note", default="", help="A paragraph put at the top of the report (what the corpus is).")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
def statistics(corpus, out_dir, seed, no_plots, note, as_json):
    """The statistics of self-play CORPUS files (from 'patchsolve selfplay'),
    with 95% intervals: the first player's win rate and margin per edition,
    the margins' distribution, the 7x7 bonus and each leather patch (who
    took them), game length, the editions compared, and the calibration of
    the win probability on held-out games. Plots need the stats extra (pip
    install 'patchsolve[stats]').

    \b
    Examples:
      patchsolve selfplay --games 2 --player greedy --solve-nodes 0 --out greedy.jsonl -q
      patchsolve statistics greedy.jsonl --out report
    """
    from patchsolve.arena import corpus_report as cr
    from patchsolve.arena.calibration import CalibrationError, calibrate
    from patchsolve.arena.selfplay import read_corpus

    records = []
    for path in corpus:
        if not Path(path).is_file():
            raise CliError(f"no such corpus file: {path}")
        records.extend(read_corpus(path))
    if not records:
        raise CliError("the corpus holds no games")
    if out_dir:
        stats = cr.write_report(records, out_dir, seed=seed, note=note, plots=not no_plots)
        cal = stats["calibration"]
    else:
        stats = cr.statistics(records)
        try:
            cal = calibrate(records, seed=seed)
        except CalibrationError as e:
            cal = None
            note = (note + "\n\n" if note else "") + f"No calibration: {e}."
        stats = dict(stats, calibration=cal)
    if as_json:
        click.echo(cr.stats_json(stats))
    elif out_dir:
        click.echo((Path(out_dir) / "report.md").read_text(), nl=False)  # the page as written
    else:
        click.echo(cr.report_markdown(stats, cal, note=note), nl=False)
    if out_dir:
        info(False, f"report in {out_dir}")
