"""The commands that run an engine on a position: best, eval, solve, and
their tables."""

from __future__ import annotations

from collections.abc import Callable

import click

from patchsolve.cli.common import (
    CONTEXT,
    DEFAULT_TIME,
    INTERRUPTED,
    CliError,
    color_option,
    count,
    describe_move,
    emit_json,
    engine_options,
    exit_code,
    fmt_score,
    info,
    limits_text,
    load_position,
    position_arguments,
    proof_text,
    result_summary,
    run_search,
    use_color,
)
from patchsolve.cli.review import check_writable, write_text
from patchsolve.rules import render
from patchsolve.rules.position import Position
from patchsolve.search import solve as exact
from patchsolve.search.limits import Limits
from patchsolve.search.result import SolveProgress, choice_of, rank_key

# -- best / eval -----------------------------------------------------------------


def _searchable(pos: Position):
    if pos.is_over:
        s = pos.scores()
        raise CliError(f"the game is over (scores {s[0]} / {s[1]}): nothing to search")


@click.command(context_settings=CONTEXT)
@position_arguments
@engine_options(DEFAULT_TIME)
@click.option(
    "--level",
    type=click.IntRange(1, 10),
    default=None,
    help="The move an opponent of this level plays (1 weakest .. 10 the full engine).",
)
@color_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def best(position, position_file, engine, level, color, as_json):
    """Search POSITION and print the best move, its evaluation, the principal
    variation, search statistics and the quilt after the move.

    \b
    Examples:
      patchsolve best
      patchsolve new --seed 2 > position.txt
      patchsolve best --engine alphabeta --depth 6 -f position.txt
      patchsolve new --seed 2 | patchsolve best - --engine mcts --iterations 5000 --json
      patchsolve best --level 3 --seed 1
    """
    pos = load_position(position, position_file)
    _searchable(pos)
    if level is not None and level < 10:
        return _level_move(pos, level, engine, as_json)
    limits, options = engine.limits()
    r = run_search(pos, engine.name, limits, options, engine.quiet)
    move = r.best_move
    after = pos.play(move)
    if as_json:
        data = r.to_dict()
        data.update({"position": pos.to_text(), "to_move": pos.to_move, "after": after.to_text()})
        emit_json(data)
        return exit_code(r)
    mover = pos.to_move
    if r.interrupted:
        click.echo("interrupted: the best move found so far")
    click.echo(f"best move: {move}  ({describe_move(pos, move)})")
    click.echo(f"score: {fmt_score(r.score)} ({r.bound}) for player {mover}, the player to move")
    if r.win_probability is not None:
        click.echo(f"win probability: {100 * r.win_probability:.1f}%")
    if r.proven or r.proven_best or (r.lower is not None and r.upper is not None and r.lower < r.upper):
        click.echo(f"solver: {proof_text(r)} for player {mover}")
    click.echo("pv: " + (" ".join(str(m) for m in r.pv) if r.pv else str(move)))
    stats = [f"engine {r.engine or engine.name}"]
    if r.iterations is not None:
        stats.append(f"iterations {r.iterations}")
    if r.depth:
        stats.append(f"depth {r.depth}")
    stats += [f"nodes {count(r.nodes)}", f"time {r.time:.2f}s", f"nps {count(r.nps)}"]
    if r.workers:
        stats.append(f"workers {r.workers}")
    if r.seed is not None:
        stats.append(f"seed {r.seed}")
    click.echo("stats: " + "  ".join(stats))
    col = use_color(color)
    # every patch drawn with its symbol (as board text draws it, so the rows can be copied into a
    # table), from the position's labels or a tiling; '#' only where neither says which patch
    known = pos.labels_or_tiling()
    labels = dict(known[mover]) if known else {}
    title = f"quilt of player {mover} after {move}"
    if move.kind != "walk":
        new_label = render.LEATHER if move.kind == "leather" else move.patch
        labels.update({sq: new_label for sq in range(81) if move.mask >> sq & 1})
        title += f" (the new patch drawn as {render.symbol(new_label)})"
    click.echo(title + ":")
    for line in render.quilt_lines(after.quilt(mover), labels, col):
        click.echo("  " + line, color=col)
    return exit_code(r)


def check_level_alone(level, engine) -> None:
    """A level below 10 has its own engine and budget: refuse an engine or
    limits given beside it (silently ignoring them would mislead)."""
    if engine.engine_given:
        raise CliError(
            f"level {level} plays with its own engine (alpha-beta at a small depth): "
            "give --engine only with --level 10"
        )
    if engine.limits_given():
        raise CliError(
            f"level {level} has its own budget: give --time/--depth/--nodes/... only with --level 10"
        )


def _level_move(pos: Position, level: int, engine, as_json) -> int:
    from patchsolve.review.levels import level_move

    check_level_alone(level, engine)
    seed = engine.seed
    move, r = level_move(pos, level, seed=seed or 0)
    if as_json:
        emit_json(
            {
                "position": pos.to_text(),
                "to_move": pos.to_move,
                "level": level,
                "seed": seed or 0,
                "move": str(move),
                "rows": [
                    {
                        "move": str(d["move"]),
                        "kind": d.get("kind"),
                        "choice": d.get("choice"),
                        "score": d["score"],
                    }
                    for d in r.root_moves
                ],
            }
        )
        return 0
    click.echo(f"level {level} plays: {move}  ({describe_move(pos, move)})")
    click.echo(
        f"drawn (seed {seed or 0}) among its {len(r.root_moves)} ranked moves at depth {r.depth}: "
        + ", ".join(f"{d['move']} {fmt_score(d['score'])}" for d in r.root_moves)
    )
    return 0


def _root_table(pos: Position, r, top: int) -> list[dict]:
    """The top root moves, choice first (``kind`` "choice": walking or a
    patch with its best placement; "placement": a further placement of a
    patch listed above), with every engine's columns (visits: MCTS only)."""
    rows = []
    for d in r.root_moves[:top]:
        rows.append(
            {
                "move": str(d["move"]),
                "kind": d.get("kind", "choice"),
                "choice": d.get("choice"),
                "score": d["score"],
                "win_probability": d["win_probability"],
                "bound": d["bound"],
                "depth": d.get("depth"),
                "proven": d["proven"],
                "choice_visits": d.get("choice_visits"),
                "visits": d.get("visits"),
            }
        )
    if not rows and r.best_move is not None:
        rows.append(
            {
                "move": str(r.best_move),
                "kind": "choice",
                "choice": choice_of(r.best_move),
                "score": r.score,
                "win_probability": r.win_probability,
                "bound": r.bound,
                "depth": r.depth or None,
                "proven": r.proven,
                "choice_visits": None,
                "visits": None,
            }
        )
    return rows


def _fmt_cell(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.3f}" if abs(v) < 10 else f"{v:.1f}"
    return str(v)


def _what(row: dict) -> str:
    """What a ranked row chooses: walking, a patch (its best placement), the
    leather patch, or another placement of a patch listed above."""
    choice = row.get("choice")
    name = "walk" if choice == "walk" else "leather patch" if choice == "leather" else f"patch {choice}"
    return name if row.get("kind", "choice") == "choice" else f"{name}, another placement"


# a bound is printed as one: "<= -16" reads as at most -16, a bare "-16"
# beside an exact -16 reads as just as good
BOUND_SIGN = {"upper": "<= ", "lower": ">= "}


def _row_cell(row: dict, key: str) -> str:
    """A ranked row's cell; its score (and win chance) marked when a bound."""
    cell = _fmt_cell(row.get(key, ""))
    if key in ("score", "win_probability") and row.get(key) is not None:
        cell = BOUND_SIGN.get(str(row.get("bound")), "") + cell
    return cell


@click.command("eval", context_settings=CONTEXT)
@position_arguments
@engine_options(DEFAULT_TIME)
@click.option(
    "--top",
    type=click.IntRange(1, 256),
    default=5,
    show_default=True,
    help="Moves to list, ranked (alpha-beta: MultiPV, every row searched to the same depth).",
)
@click.option(
    "--map",
    "show_map",
    is_flag=True,
    help="Also the chance that each square of each quilt ends covered (1000 greedy continuations).",
)
@click.option(
    "--map-svg",
    "map_svg",
    type=click.Path(dir_okay=False),
    default=None,
    help="Draw that map as an SVG heat map to FILE.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def eval_cmd(position, position_file, engine, top, show_map, map_svg, as_json):
    """Print the evaluation of POSITION and its top moves ranked with their scores.

    \b
    The moves come choice first: walking and each patch you can buy (with
    its best placement), best first; then further placements of those
    patches, marked "another placement". Mirror images of a placement are
    shown once.

    \b
    Examples:
      patchsolve eval --nodes 100000 --top 8
      patchsolve new --seed 5 > position.txt
      patchsolve eval -f position.txt --engine alphabeta --depth 5 --json
    """
    pos = load_position(position, position_file)
    _searchable(pos)
    limits, options = engine.limits(multipv=top)
    if map_svg:
        check_writable(map_svg)
    r = run_search(pos, engine.name, limits, options, engine.quiet)
    rows = _root_table(pos, r, top)
    cmap = None
    if show_map or map_svg:
        from patchsolve.review.coverage import coverage_map, coverage_svg

        cmap = coverage_map(pos, seed=limits.seed or 0)
        if map_svg:
            write_text(map_svg, coverage_svg(cmap))
    if as_json:
        data = {
            "position": pos.to_text(),
            "to_move": pos.to_move,
            "engine": r.engine or engine.name,
            "score": r.score,
            "bound": r.bound,
            "proven": r.proven,
            "proven_best": r.proven_best,
            "lower": r.lower,
            "upper": r.upper,
            "win_probability": r.win_probability,
            "interrupted": r.interrupted,
            "workers": r.workers,
            "best_move": None if r.best_move is None else str(r.best_move),
            "top_moves": rows,
        }
        if cmap is not None:
            data["map"] = cmap.to_dict()
        emit_json(data)
        return exit_code(r)
    if r.interrupted:
        click.echo("interrupted: the evaluation so far")
    line = f"evaluation: {fmt_score(r.score)} ({r.bound}) for player {pos.to_move}, the player to move"
    if r.win_probability is not None:
        line += f"; win probability {100 * r.win_probability:.1f}%"
    if proof_text(r):
        line += f"; {proof_text(r)}"
    click.echo(line)
    keys = ["move", "what", "score", "win_probability", "bound"]
    keys += [
        k for k in ("depth", "proven", "choice_visits", "visits") if any(row[k] is not None for row in rows)
    ]
    table = [
        [str(i + 1)] + [_what(row) if k == "what" else _row_cell(row, k) for k in keys]
        for i, row in enumerate(rows)
    ]
    header = ["#"] + [{"win_probability": "win", "choice_visits": "choice visits"}.get(k, k) for k in keys]
    widths = [max(len(x) for x in col) for col in zip(header, *table)]
    click.echo("  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip())
    for t in table:
        click.echo("  ".join(c.ljust(w) for c, w in zip(t, widths)).rstrip())
    if len(rows) < top:
        click.echo(
            f"({len(rows)} of the {top} rows asked: the position has {len(pos.legal_moves())} legal moves"
            + ("" if engine.name == "alphabeta" else f"; {engine.name} ranks the moves it explored")
            + ")"
        )
    if show_map and cmap is not None:
        from patchsolve.review.coverage import coverage_text

        click.echo()
        click.echo(coverage_text(cmap))
    return exit_code(r)


# -- solve -----------------------------------------------------------------------


def _solve_progress(quiet: bool) -> Callable[[SolveProgress], None] | None:
    """The solver's progress callback: one stderr line a report."""
    if quiet:
        return None

    def report(d: SolveProgress) -> None:
        what = f"move {d['move']}  " if d["move"] else ""
        info(
            False,
            f"  {what}{d['time']:.0f}s  test {d['gamma']:+d}  bounds [{d['lower']:+d}, {d['upper']:+d}]"
            f"{'  (who wins)' if d['wdl'] else ''}  nodes {count(d['nodes'])}  nps {count(d['nps'])}",
        )

    return report


def _question(wdl: bool, at_least, best: bool) -> str:
    """The question asked, for the progress line."""
    if wdl:
        return " who wins"
    if at_least is not None:
        return f" whether the margin is at least {at_least:+d}"
    return " for a best move" if best else ""


def _move_claim(r, proven: bool, at_least) -> str:
    """What the best-move line claims, and no more than was proven."""
    if r.proven_best or (proven and r.bound == "exact"):
        return "(proven best)"
    if at_least is not None and r.at_least:
        return f"(proven to keep a margin of at least {at_least:+d})"
    if r.proven == "win" and proven:
        return "(proven to win)"
    return "(not proven best)"


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
        click.echo(
            f"{name:>8} {result:>7} {len(wins):>6} {losses:>7} {len(ds):>6}  {(wins or ds)[0]['move']}"
        )


def _move_rows(pos: Position, rows: list, wdl: bool = False) -> None:
    """--all-moves: per patch (and walk, leather), the best placement's value,
    how many placements reach it, and the others' proven bounds."""
    groups: dict = {}
    for d in rows:
        groups.setdefault(d["group"], []).append(d)
    if wdl:
        _wdl_move_rows(groups)
        return
    click.echo(f"{'patch':>8} {'best':>6} {'bound':>6} {'at best':>8} {'moves':>6}  example   others")
    # each group's first row by the rule of every ranking, and the groups in
    # that order too, so the column of scores reads in order
    tops = {group: min(ds, key=rank_key) for group, ds in groups.items()}
    for group, ds in sorted(groups.items(), key=lambda kv: rank_key(tops[kv[0]])):
        top = tops[group]
        at_best = sum(d["bound"] == "exact" and d["score"] == top["score"] for d in ds)
        rest = [d for d in ds if d is not top and not (d["bound"] == "exact" and d["score"] == top["score"])]
        others = f"<= {max(d['upper'] for d in rest):+d}" if rest else "-"
        name = f"patch {group}" if isinstance(group, int) else group
        click.echo(
            f"{name:>8} {top['score']:>+6d} {top['bound']:>6} {at_best:>8} {len(ds):>6}  "
            f"{top['move']!s:<9} {others}"
        )


@click.command(context_settings=CONTEXT)
@position_arguments
@click.option(
    "--time",
    "time_limit",
    type=float,
    default=None,
    help="Give up after this many seconds, up to 86400 (default: the solver's own, 30 s).",
)
@click.option("--nodes", type=int, default=None, help="Give up after this many nodes (1..2**62).")
@click.option(
    "--hash-mb", type=int, default=None, help="Transposition table memory (MB, 1..65536; default 64)."
)
@click.option(
    "--workers", type=int, default=None, help="Threads (1..256; default: every core, 1 with --nodes)."
)
@click.option("--wdl", is_flag=True, help="Prove only who wins (far cheaper than the exact margin).")
@click.option(
    "--at-least",
    "at_least",
    type=click.IntRange(-1000, 1000),
    default=None,
    metavar="K",
    help="Prove only whether the margin is at least K points (one test: cheap unless K is near the value).",
)
@click.option("--best", is_flag=True, help="Prove a best move without its exact value.")
@click.option("--all-moves", is_flag=True, help="The proven value of every legal move, by patch.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def solve(
    position,
    position_file,
    time_limit,
    nodes,
    hash_mb,
    workers,
    wdl,
    at_least,
    best,
    all_moves,
    quiet,
    as_json,
):
    """Solve POSITION exactly: the final score margin under perfect play
    (both players maximising their own margin) and a best move. When the
    budget runs out first, prints the proven interval the value lies in and
    exits with 1. Weaker questions are answered sooner: --wdl proves only
    who wins (equal scores: the first to reach 53), --at-least K whether the
    margin is at least K, --best a best move (its value may stay an
    interval); --all-moves values every move. Progress (test value, bounds,
    nodes) goes to stderr about once a second.

    \b
    Examples:
      echo "revised 3,7,13,25,0,11,9,23,18,19,31 1f80e6f3d9fccff7dfee7/1cfffcff7ffc1c0f3fff3 11/11 14/15 45/45 0 50 - - -" > endgame.txt
      patchsolve solve -f endgame.txt
      patchsolve solve -f endgame.txt --time 5 --json
      patchsolve solve -f endgame.txt --wdl
      patchsolve solve -f endgame.txt --at-least 10
      patchsolve solve -f endgame.txt --best --time 5
      patchsolve solve -f endgame.txt --all-moves --time 30
    """  # noqa: E501  (a position's notation is one long word)
    pos = load_position(position, position_file)
    _searchable(pos)
    asked = [
        name
        for name, on in (
            ("--wdl", wdl),
            ("--at-least", at_least is not None),
            ("--best", best),
        )
        if on
    ]
    if all_moves and asked and asked != ["--wdl"]:
        asked.append("--all-moves")
    if len(asked) > 1:
        raise click.UsageError(f"ask one question at a time, not {' and '.join(asked)}")
    # one Limits, refused here (one line, before any output) when the solver cannot take it
    limits = Limits(time=time_limit, nodes=nodes, hash_mb=hash_mb, workers=workers).for_engine("solve")
    info(quiet, f"solving{_question(wdl, at_least, best)} ({limits_text(limits) or 'default budget'})")
    r = exact(
        pos,
        limits,
        wdl=wdl,
        at_least=at_least,
        best=best,
        all_moves=all_moves,
        progress=_solve_progress(quiet),
    )
    info(quiet, f"done: {result_summary(r)}")
    proven = (
        r.at_least is not None
        if at_least is not None
        else r.proven_best
        if best
        else r.bound == "exact" or (wdl and r.proven is not None)
    )
    if as_json:
        data = r.to_dict()
        data.update({"position": pos.to_text(), "to_move": pos.to_move, "solved": proven})
        emit_json(data)
        return INTERRUPTED if r.interrupted else 0 if proven else 1
    who = f"player {pos.to_move}, the player to move"
    if r.interrupted:
        click.echo("interrupted: the result so far")
    if at_least is not None:
        answer = {True: "yes", False: "no", None: "NOT proven either way within the budget"}[r.at_least]
        click.echo(f"margin at least {at_least:+d} for {who}: {answer} (margin in {_interval(r)})")
    elif best:
        value = f"exact {fmt_score(r.score)}" if r.bound == "exact" else f"in {_interval(r)}"
        click.echo(f"value: {value} for {who}")
    elif wdl and proven:
        verb = "wins" if r.proven == "win" else "loses"
        click.echo(f"result: {who}, {verb} (proven; margin in {_interval(r)})")
    elif proven:
        click.echo(f"value: {fmt_score(r.score)} for {who}: exact")
    else:
        click.echo(
            f"value: in {_interval(r)} for {who}: NOT solved within the budget "
            f"(proven bounds; {r.bound} bound {fmt_score(r.score)})"
        )
    click.echo(
        f"best move: {r.best_move}  ({describe_move(pos, r.best_move)})  {_move_claim(r, proven, at_least)}"
    )
    click.echo("pv: " + " ".join(str(m) for m in r.pv))
    if all_moves:
        _move_rows(pos, r.root_moves, wdl)
    click.echo(f"stats: nodes {count(r.nodes)}  time {r.time:.2f}s  nps {count(r.nps)}  threads {r.workers}")
    if r.interrupted:
        return INTERRUPTED
    return 0 if proven else 1
