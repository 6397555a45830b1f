"""The commands that judge play: analyze (a game, or many), explain (why a
move is worse than the best)."""

from __future__ import annotations

import csv
import os
import sys

import click

from patchsolve.cli.common import (
    CONTEXT,
    INTERRUPTED,
    CliError,
    budget_options,
    emit_json,
    info,
    load_position,
    position_arguments,
    read_file,
)
from patchsolve.errors import PatchsolveError
from patchsolve.rules.game import Game


def check_writable(path: str) -> None:
    """Refuse an unwritable output file before a long computation."""
    folder = os.path.dirname(os.path.abspath(path))
    if (
        not os.path.isdir(folder)
        or not os.access(folder, os.W_OK)
        or (os.path.exists(path) and (os.path.isdir(path) or not os.access(path, os.W_OK)))
    ):
        raise CliError(f"cannot write {path}")


def write_text(path: str, text: str) -> None:
    """Write ``text`` to ``path``, or a one-line error."""
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as e:
        raise CliError(f"cannot write {path}: {e.strerror}") from None


# -- analyze -------------------------------------------------------------------------


@click.command(context_settings=CONTEXT)
@click.argument("record", type=click.Path(dir_okay=True, allow_dash=True))
@budget_options
@click.option(
    "--svg",
    "svg_file",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Also draw player 0's margin and win probability move by move, mistakes marked, to FILE.",
)
@click.option(
    "--csv",
    "csv_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="Many games: write the summary rows to FILE (default: standard output).",
)
@click.option(
    "--backend",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="Many games: where they are reviewed (local processes or Ray tasks).",
)
@click.option(
    "--processes",
    type=click.IntRange(1, 256),
    default=1,
    show_default=True,
    help="Many games: how many are reviewed at once.",
)
@click.option("--address", default=None, help="Many games, --backend ray: a Ray cluster to connect to.")
@click.option("--why", is_flag=True, help="Explain each player's biggest mistakes (patchsolve explain).")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def analyze(record, budget, svg_file, csv_file, backend, processes, address, why, quiet, as_json):
    """Review a game: every move judged against the best on the same footing.

    \b
    Each move is valued with the best move in one search of the position
    before it (the same depth; near the end the exact solver proves both):
    the points and the win probability it lost, and a class: best, good,
    inaccuracy (5% of win probability lost and 2 points), mistake (10% and
    4 points), blunder (20% and 6 points); where the win probability is
    saturated (below 3% or above 97%) the points decide alone (3, 6, 12).
    Throwing away a proven win is a blunder. A move that was the only legal
    one is forced. Per player: the average loss, an accuracy (lichess's
    formula, 0-100), the count of each class and the biggest mistakes; the
    critical moments are the moves that lost the most win probability.
    The budget is nodes (or a depth) a position on one thread, so the same
    game and budget give the same review every time.

    RECORD may be a folder of records (the files ending in .txt) or a file
    of several records: then every game is reviewed and one CSV row per game
    and player is written as each game finishes (--csv FILE, else standard
    output).

    Questions (why is my move a blunder, why do two reviews differ, ...):
    the manual's questions page, docs/questions.md.

    \b
    Examples:
      patchsolve play --p0 engine --p1 engine --nodes 2000 --record game.txt --quiet
      patchsolve analyze game.txt
      patchsolve analyze game.txt --nodes 100000 --svg review.svg
      patchsolve analyze game.txt --nodes 100000 --why --json
      patchsolve tournament greedy alphabeta:depth=1 --pairs 1 --records games --quiet
      patchsolve analyze games/ --nodes 50000 --processes 2 --csv reviews.csv
    """
    from patchsolve.review.analysis import games_from

    records = [("-", read_file(record))] if record == "-" else games_from(record)
    if len(records) > 1:
        if svg_file or as_json or why:
            raise CliError("--svg, --json and --why are for one game; many games give CSV rows (--csv)")
        return _analyze_many(records, budget, csv_file, backend, processes, address, quiet)
    return _analyze_one(records[0], budget, quiet, svg_file, csv_file, as_json, why)


def _explain_biggest(review, quiet: bool) -> dict:
    """``explain`` of each player's biggest mistakes (the review's budget:
    the same numbers): move number -> Explanation."""
    from patchsolve.review.explanation import explain

    out = {}
    for s in review.summary():
        for b in s["biggest_mistakes"]:
            m = review.moves[b["number"] - 1]
            info(quiet, f"explaining {m.number}. {m.move}")
            out[m.number] = explain(m.position, m.move, review.budget)
    return out


def _analyze_one(record, budget, quiet, svg_file, csv_file, as_json, why=False) -> int:
    from patchsolve.review.analysis import CSV_FIELDS, analyze_game, summary_rows

    name, text = record
    game = Game.from_text(text)
    if len(game) == 0:
        raise CliError("the game has no moves to review")
    for path in (svg_file, csv_file):
        if path:
            check_writable(path)
    info(quiet, f"reviewing {len(game)} moves at {budget.text()}")

    def progress(k, n):
        info(quiet, f"[{k + 1}/{n}] judging move {k + 1}")

    review = analyze_game(game, budget, progress=progress)
    if svg_file:
        from patchsolve.review.svg import review_svg

        write_text(svg_file, review_svg(review))
    if csv_file:
        with open(csv_file, "w", newline="", encoding="utf-8") as fh:
            w = csv.DictWriter(fh, fieldnames=CSV_FIELDS)
            w.writeheader()
            w.writerows(summary_rows(name, review))
    summary = review.summary()
    interrupted = review.interrupted
    explained = _explain_biggest(review, quiet) if why else {}
    if as_json:
        emit_json(
            {
                **review.to_dict(),
                "moves": [_analyze_row(m) for m in review.moves],
                "why": {str(k): e.to_dict() for k, e in explained.items()},
                "end": game.end.to_text(),
            }
        )
        return INTERRUPTED if interrupted else 0
    if interrupted:
        click.echo(f"interrupted: the first {len(review.moves)} of {len(game)} moves analysed")
    click.echo(f"budget: {budget.text()} (values for the player who moved; + is good for them)")
    click.echo(
        f"{'#':>3}  pl  {'move':<12} {'best':<12} {'best':>6} {'played':>7} {'loss':>5} {'win lost':>8} "
        f"{'win0':>5}  class"
    )
    for m in review.moves:
        judged = "forced" if m.forced else m.judgement
        click.echo(
            f"{m.number:>3}  {m.player:>2}  {m.move:<12} {m.best_move or '-':<12} "
            f"{_signed(m.best_value):>6} {_signed(m.played_value):>7} {m.loss:>5.1f} {100 * m.win_loss:>7.0f}% "
            f"{100 * m.win0:>4.0f}%  {judged}{' ' + m.flag if m.flag else ''}{_proof_note(m)}"
        )
    click.echo()
    click.echo("player  moves  accuracy  avg loss  inaccuracies  mistakes  blunders  forced  final score")
    for s in summary:
        acc = "-" if s["accuracy"] is None else f"{s['accuracy']:.1f}"
        c = s["classes"]
        click.echo(
            f"{s['player']:>6}  {s['moves']:>5}  {acc:>8}  {s['average_loss']:>8.2f}  {c['inaccuracy']:>12}  "
            f"{c['mistake']:>8}  {c['blunder']:>8}  {s['forced']:>6}  {s['final_score']:>11}"
        )
    for s in summary:
        if s["biggest_mistakes"]:
            worst = ", ".join(
                f"{b['number']}. {b['move']} (-{b['loss']:.1f}, {b['class']}; best {b['best_move']})"
                for b in s["biggest_mistakes"]
            )
            click.echo(f"player {s['player']}'s biggest mistakes: {worst}")
            for b in s["biggest_mistakes"]:
                if b["number"] in explained:
                    e = explained[b["number"]]
                    groups = ", ".join(f"{g['name']} {g['points']:+.1f}" for g in e.groups[:3])
                    click.echo(f"  why {b['number']}. {b['move']}: {e.difference:.1f} points: {groups}")
    moments = review.critical_moments()
    if moments:
        click.echo(
            "critical moments (the moves that lost the most win probability): "
            + ", ".join(f"{m.number}. {m.move}" for m in moments)
        )
    return INTERRUPTED if interrupted else 0


def _signed(v: float) -> str:
    """A value with its sign, one decimal, never ``-0.0``."""
    return f"{v + 0.0:+.1f}" if round(v, 1) != 0 else "0.0"


def _analyze_many(records, budget, csv_file, backend, processes, address, quiet) -> int:
    """One CSV row per game and player, each game's rows written as it finishes."""
    from patchsolve.review.analysis import CSV_FIELDS, review_games

    if csv_file:
        check_writable(csv_file)
    fh = open(csv_file, "w", newline="", encoding="utf-8") if csv_file else sys.stdout
    done = 0
    try:
        w = csv.DictWriter(fh, fieldnames=CSV_FIELDS)
        w.writeheader()
        fh.flush()
        for rows in review_games(records, budget, backend=backend, workers=processes, address=address):
            w.writerows(rows)
            fh.flush()
            done += 1
            acc = " / ".join("-" if r["accuracy"] is None else f"{r['accuracy']:.1f}" for r in rows)
            info(quiet, f"[{done}/{len(records)}] {rows[0]['game']}: accuracy {acc}")
    except KeyboardInterrupt:
        info(False, f"interrupted: {done} of {len(records)} games reviewed (their rows are written)")
        return INTERRUPTED
    finally:
        if csv_file:
            fh.close()
    if csv_file:
        click.echo(f"reviewed {done} games: one row per game and player in {csv_file}")
    return 0


def _proof_note(m) -> str:
    """What the solver proved about the move, for the review's table."""
    if m.proven_before == "win" and m.proven_after == "loss":
        return "  (threw away a proven win)"
    if m.proven_after:
        return f"  (proven {m.proven_after} after it)"
    return ""


def _analyze_row(m) -> dict:
    """One move of ``analyze --json``: the review's fields, with the older
    names (best, value_before, value_after) kept for existing readers."""
    row = m.to_dict()
    row.update({"best": m.best_move, "value_before": m.best_value, "value_after": m.played_value})
    return row


# -- explain -------------------------------------------------------------------------


@click.command(context_settings=CONTEXT)
@position_arguments
@click.option("--move", "-m", "move", required=True, help="The move to explain, e.g. 24:0@d3 or walk.")
@budget_options
@click.option(
    "--top", type=click.IntRange(1, 30), default=6, show_default=True, help="Groups of terms shown."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def explain(position, position_file, move, budget, top, as_json):
    """Why MOVE is worse than the engine's best in POSITION, measured.

    \b
    Both moves are valued in one search of POSITION (the same depth; near
    the end the exact solver proves them): the difference is what the game
    review charges MOVE at the same budget. It is split into the
    evaluation's terms at the ends of the two lines, in points for the
    player who moves (+ where the best line is better), grouped by what
    they are about (the quilt, buttons and income, time, the 7x7 bonus)
    so that the groups add up to the difference; the line ends' facts are
    shown side by side.

    \b
    Examples:
      patchsolve explain --move walk
      patchsolve explain --move 4:0@a1 --nodes 100000 --json
    """
    from patchsolve.review.explanation import explain as explain_move

    pos = load_position(position, position_file)
    if pos.is_over:
        raise CliError("the game is over: there is no move to explain")
    e = explain_move(pos, pos.parse_move(move), budget)
    if as_json:
        emit_json(e.to_dict())
        return 0
    click.echo(e.text(top=top))
    return 0


# -- quiz --------------------------------------------------------------------------


@click.command(context_settings=CONTEXT)
@click.argument("record", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--player", type=click.IntRange(0, 1), default=None, help="Only this player's mistakes.")
@click.option(
    "--threshold",
    type=click.FloatRange(min=0),
    default=3.0,
    show_default=True,
    help="A move is an exercise when it lost more than this many points.",
)
@budget_options
@click.option(
    "--tolerance",
    type=click.FloatRange(min=0),
    default=1.0,
    show_default=True,
    help="An answer within this many points of the best counts as found.",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
@click.option("--json", "as_json", is_flag=True, help="List the exercises as JSON (for other front ends).")
def quiz(record, player, threshold, budget, tolerance, quiet, as_json):
    """Learn from your mistakes: the positions of a game where a player lost
    the most, one at a time; type the move you would play.

    \b
    The game is reviewed first (patchsolve analyze, the same budget). Each
    exercise's moves are ranked in one search that also values the move
    played (choice first), so their values are comparable; the move played
    is never an answer. An answer outside the ranked rows is valued
    against the best in one search of its position. At the prompt: a move,
    'skip', 'hint' or 'quit'; end of input ends the session. The score is
    the exercises found within --tolerance points of the best.

    \b
    Examples:
      patchsolve play --p0 engine --p1 engine --nodes 2000 --record game.txt --quiet
      patchsolve quiz game.txt --player 0 --nodes 100000 --json
      printf 'walk\\nquit\\n' | patchsolve quiz game.txt --nodes 50000
    """
    from patchsolve.review.analysis import analyze_game
    from patchsolve.review.quiz import exercises, grade
    from patchsolve.rules import render
    from patchsolve.rules.position import Position

    game = Game.from_text(read_file(record))
    if len(game) == 0:
        raise CliError("the game has no moves to practise")
    info(quiet, f"reviewing the {len(game)} moves at {budget.text()}")
    review = analyze_game(game, budget)
    found = exercises(review, player=player, threshold=threshold, tolerance=tolerance)
    if as_json:
        emit_json(
            {
                "threshold": threshold,
                "tolerance": tolerance,
                "budget": budget.to_dict(),
                "exercises": [e.to_dict() for e in found],
            }
        )
        return 0
    if not found:
        who = "either player" if player is None else f"player {player}"
        click.echo(f"no move of {who} lost more than {threshold:g} points: nothing to practise")
        return 0
    solved = tried = 0
    for k, e in enumerate(found, 1):
        pos = Position(e.position)
        click.echo(
            f"\nExercise {k} of {len(found)}: move {e.number}, player {e.player} to move "
            f"(the game's move lost {e.played_loss:.1f} points)"
        )
        click.echo(render.text_position(pos, pos.labels_or_tiling()))
        while True:
            click.echo("your move ('skip', 'hint', 'quit'): ", nl=False)
            line = sys.stdin.readline()
            if not line:
                return _quiz_score(solved, tried, len(found))
            answer = line.strip()
            if answer == "quit":
                return _quiz_score(solved, tried, len(found))
            if answer == "skip":
                click.echo(f"best: {e.best} ({e.best_value:+.0f}, {e.bound}); line: {' '.join(e.pv[:8])}")
                break
            if answer == "hint":
                kind = (
                    "walk"
                    if e.best == "walk"
                    else "a leather patch"
                    if e.best.startswith("leather")
                    else f"patch {e.best.split(':')[0]}"
                )
                click.echo(f"hint: the best move plays {kind}")
                continue
            try:
                g = grade(e, answer, tolerance=tolerance)
            except PatchsolveError as err:
                click.echo(f"not a legal move here: {err}")
                continue
            tried += 1
            if g.correct:
                solved += 1
                same = "the best" if g.loss == 0 else f"within {g.loss:.1f} points of the best"
                click.echo(f"found: {g.move} is {same} ({g.value:+.0f}, {g.bound})")
            else:
                click.echo(
                    f"{g.move} loses {g.loss:.1f} points ({g.value:+.0f} against {e.best_value:+.0f}, "
                    f"{g.bound}); the game's move lost {e.played_loss:.1f}"
                )
            others = [d["move"] for d in e.acceptable if d["move"] != g.move][:4]
            click.echo(
                f"best: {e.best}; line: {' '.join(e.pv[:8])}"
                + (f"; also fine: {', '.join(others)}" if others else "")
            )
            break
    return _quiz_score(solved, tried, len(found))


def _quiz_score(solved: int, tried: int, total: int) -> int:
    click.echo(f"\nscore: {solved} of {total} found ({tried} answered)")
    return 0


__all__ = ["analyze", "explain", "quiz"]
