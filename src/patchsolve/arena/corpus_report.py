"""The statistics of a self-play corpus (:mod:`patchsolve.arena.selfplay`'s
records) and their report: :func:`statistics` (every proportion with its
95% Wilson interval, every mean with a normal one), :func:`report_markdown`,
:func:`write_plots` (PNG, with matplotlib: the ``stats`` extra) and
:func:`write_report`, which writes them all into a folder with the
calibration of the win probability (:mod:`patchsolve.arena.calibration`)
fitted on the same games (``patchsolve statistics``).

The records are read, not played, here: any corpus file
(:func:`patchsolve.arena.selfplay.read_corpus`), or several, gives the same
numbers for the same games.
"""

from __future__ import annotations

import json
import math
import statistics as _stats
from pathlib import Path

from patchsolve.arena.selfplay import EDITIONS, CorpusError
from patchsolve.arena.tournament import wilson

# -- the statistics -----------------------------------------------------------------


def _rate(k: int, n: int) -> dict:
    """A proportion with its 95% Wilson interval."""
    lo, hi = wilson(k, n)
    return {"k": k, "n": n, "rate": k / n if n else None, "ci95": [lo, hi]}


def _mean_ci(values) -> dict:
    """Mean, its normal 95% interval, median, standard deviation, range."""
    values = list(values)
    n = len(values)
    if not n:
        return {
            "n": 0,
            "mean": None,
            "ci95": [None, None],
            "median": None,
            "sd": None,
            "min": None,
            "max": None,
        }
    mean = sum(values) / n
    sd = _stats.stdev(values) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return {
        "n": n,
        "mean": mean,
        "ci95": [mean - half, mean + half],
        "median": float(_stats.median(values)),
        "sd": sd,
        "min": min(values),
        "max": max(values),
    }


def first_margin(record: dict) -> int:
    """The first player's final margin (their score minus the other's)."""
    a, b = record["scores"]
    return a - b if record["first"] == 0 else b - a


MARGIN_BINS = (-math.inf, -30, -20, -10, -5, 0, 1, 6, 11, 21, 31, math.inf)


def margin_histogram(margins) -> list[dict]:
    """Counts of margins in fixed bins (``MARGIN_BINS``: [lo, hi) each)."""
    rows = []
    for lo, hi in zip(MARGIN_BINS, MARGIN_BINS[1:]):
        if lo == -math.inf:
            label = f"< {hi}"
        elif hi == math.inf:
            label = f">= {lo}"
        else:
            label = str(lo) if hi - 1 == lo else f"{lo} .. {hi - 1}"
        rows.append({"bin": label, "count": sum(lo <= m < hi for m in margins)})
    return rows


def _edition_stats(records: list[dict]) -> dict:
    n = len(records)
    margins = [first_margin(r) for r in records]
    first_wins = sum(r["winner"] == r["first"] for r in records)
    bonus = [r for r in records if r.get("bonus")]
    leather: dict[int, dict] = {}
    for r in records:
        for t in r.get("leather", []):
            d = leather.setdefault(t["space"], {"taken": 0, "by_first": 0, "by_winner": 0, "plies": []})
            d["taken"] += 1
            d["by_first"] += t["player"] == r["first"]
            d["by_winner"] += t["player"] == r["winner"]
            d["plies"].append(t["ply"])
    proven = [r["proven"] for r in records if r.get("proven")]
    return {
        "games": n,
        "first_player_wins": _rate(first_wins, n),
        "first_player_margin": _mean_ci(margins),
        "winning_margin": _mean_ci(abs(m) for m in margins),
        "margin_histogram": margin_histogram(margins),
        "ties_on_score": _rate(sum(m == 0 for m in margins), n),
        "tie_won_by_first_at_end": _rate(
            sum(r["winner"] == r.get("first_at_end") for r in records if first_margin(r) == 0),
            sum(first_margin(r) == 0 for r in records),
        ),
        "bonus_taken": _rate(len(bonus), n),
        "bonus_by_first": _rate(sum(r["bonus"]["player"] == r["first"] for r in bonus), len(bonus)),
        "bonus_by_winner": _rate(sum(r["bonus"]["player"] == r["winner"] for r in bonus), len(bonus)),
        "bonus_ply": _mean_ci(r["bonus"]["ply"] for r in bonus),
        "leather": {
            space: {
                "taken": _rate(d["taken"], n),
                "by_first": _rate(d["by_first"], d["taken"]),
                "by_winner": _rate(d["by_winner"], d["taken"]),
                "ply": _mean_ci(d["plies"]),
            }
            for space, d in sorted(leather.items())
        },
        "plies": _mean_ci(r["plies"] for r in records),
        "proven": _rate(len(proven), n),
        "proven_phase": _mean_ci(p["phase"] for p in proven),
    }


def _edition_comparison(records: list[dict]) -> dict | None:
    """Revised against original on the circles played in both: the
    difference of the first player's mean margin (paired by circle and
    first player) and of the first player's win rate."""
    by_key: dict[tuple, dict[str, dict]] = {}
    for r in records:
        by_key.setdefault((r["circle_index"], r["first"], tuple(r["players"])), {})[r["edition"]] = r
    pairs = [(d["revised"], d["original"]) for d in by_key.values() if len(d) == 2]
    if not pairs:
        return None
    diffs = [first_margin(a) - first_margin(b) for a, b in pairs]
    same_winner = sum(a["winner"] == b["winner"] for a, b in pairs)
    wins = [sum(x["winner"] == x["first"] for x in side) for side in zip(*pairs)]
    return {
        "paired_games": len(pairs),
        "margin_difference": _mean_ci(diffs),  # revised minus original, first player's margin
        "first_win_rate_difference": (wins[0] - wins[1]) / len(pairs),
        "same_winner": _rate(same_winner, len(pairs)),
    }


def statistics(records) -> dict:
    """The statistics of a corpus (every proportion with its 95% Wilson
    interval, every mean with a normal 95% interval): overall and per
    edition, the first player's win rate and margin, the margins'
    distribution, ties, the 7x7 bonus (how often, by the first player, by
    the winner), each leather patch's taker, game length, the ply where the
    value was proven, and the two editions compared on the same circles."""
    records = list(records)
    editions = sorted(
        {r["edition"] for r in records}, key=lambda e: EDITIONS.index(e) if e in EDITIONS else 9
    )
    return {
        "games": len(records),
        "players": sorted({" vs ".join(dict.fromkeys(r["players"])) for r in records}),
        "all": _edition_stats(records),
        "editions": {e: _edition_stats([r for r in records if r["edition"] == e]) for e in editions},
        "comparison": _edition_comparison(records),
    }


# -- the report ---------------------------------------------------------------------


def _pct(d: dict) -> str:
    if not d["n"]:
        return "-"
    lo, hi = d["ci95"]
    return f"{100 * d['rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] ({d['k']}/{d['n']})"


def _num(d: dict, digits: int = 1) -> str:
    if not d["n"]:
        return "-"
    lo, hi = d["ci95"]
    return f"{d['mean']:+.{digits}f} [{lo:+.{digits}f}, {hi:+.{digits}f}], median {d['median']:g}"


def _plain(d: dict) -> str:
    if not d["n"]:
        return "-"
    return f"{d['mean']:.1f} (median {d['median']:g}, {d['min']:g} .. {d['max']:g})"


def report_markdown(
    stats: dict, calibration: dict | None = None, plots: list[str] | None = None, note=""
) -> str:
    """The statistics (and the calibration, when given) as a Markdown page;
    ``plots``: the PNG files to show ([] says that matplotlib is missing,
    None leaves the section out)."""
    eds = list(stats["editions"])
    cols = ["all"] + eds
    data = {"all": stats["all"], **stats["editions"]}
    out = ["# Self-play statistics", ""]
    if note:
        out += [note, ""]
    out += [
        f"{stats['games']} games; players: {', '.join(f'`{p}`' for p in stats['players']) or '-'}. "
        "Intervals are 95% (Wilson for proportions, normal for means); margins are the first player's "
        "(their final score minus the other's).",
        "",
        "| | " + " | ".join(cols) + " |",
        "|---|" + "---|" * len(cols),
    ]
    rows = [
        ("games", lambda d: str(d["games"])),
        ("first player wins", lambda d: _pct(d["first_player_wins"])),
        ("first player's margin", lambda d: _num(d["first_player_margin"])),
        ("winning margin", lambda d: _num(d["winning_margin"])),
        ("equal scores (tie-break)", lambda d: _pct(d["ties_on_score"])),
        ("7x7 bonus taken", lambda d: _pct(d["bonus_taken"])),
        ("... by the first player", lambda d: _pct(d["bonus_by_first"])),
        ("... by the winner", lambda d: _pct(d["bonus_by_winner"])),
        ("... at ply", lambda d: _plain(d["bonus_ply"])),
        ("plies a game", lambda d: _plain(d["plies"])),
        ("value proven by the solver", lambda d: _pct(d["proven"])),
        ("... with spaces left (both)", lambda d: _plain(d["proven_phase"])),
    ]
    for name, cell in rows:
        out.append(f"| {name} | " + " | ".join(cell(data[c]) for c in cols) + " |")
    for e in eds:
        lea = stats["editions"][e]["leather"]
        if not lea:
            continue
        out += [
            "",
            f"## Leather patches ({e})",
            "",
            "| space | taken | by the first player | by the winner | at ply |",
            "|---:|---|---|---|---|",
        ]
        for space, d in lea.items():
            cells = [_pct(d["taken"]), _pct(d["by_first"]), _pct(d["by_winner"]), _plain(d["ply"])]
            out.append(f"| {space} | " + " | ".join(cells) + " |")
    out += [
        "",
        "## Margins (first player)",
        "",
        "| margin | " + " | ".join(cols) + " |",
        "|---|" + "---:|" * len(cols),
    ]
    for i, row in enumerate(stats["all"]["margin_histogram"]):
        out.append(
            f"| {row['bin']} | "
            + " | ".join(str(data[c]["margin_histogram"][i]["count"]) for c in cols)
            + " |"
        )
    comp = stats["comparison"]
    out += ["", "## The editions compared", ""]
    if comp:
        out += [
            f"On {comp['paired_games']} circles played in both editions (same first player): the first player's "
            f"margin, revised minus original: {_num(comp['margin_difference'])}; the first player's win rate, "
            f"revised minus original: {100 * comp['first_win_rate_difference']:+.1f} points; "
            f"the same player won both: {_pct(comp['same_winner'])}.",
        ]
    else:
        out.append("No circle was played in both editions.")
    if calibration:
        from patchsolve.arena.calibration import calibration_markdown

        out += ["", calibration_markdown(calibration)]
    if plots is not None:  # None: a page without plots (printed, or --no-plots)
        out += ["", "## Plots", ""]
        if plots:
            out += [f"![{Path(p).stem}]({Path(p).name})" for p in plots]
        else:
            out.append("No plots: matplotlib is not installed (pip install 'patchsolve[stats]').")
    return "\n".join(out) + "\n"


def write_plots(stats: dict, folder: Path, calibration: dict | None = None) -> list[str]:
    """PNG plots of the statistics into ``folder`` (the margins'
    distribution, the first player's win rate per edition, the calibration
    when given); the paths written, or [] when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    written = []
    eds = list(stats["editions"])
    fig, ax = plt.subplots(figsize=(7, 4))
    bins = [row["bin"] for row in stats["all"]["margin_histogram"]]
    width = 0.8 / max(1, len(eds))
    for k, e in enumerate(eds):
        counts = [row["count"] for row in stats["editions"][e]["margin_histogram"]]
        ax.bar([i + k * width for i in range(len(bins))], counts, width=width, label=e)
    ax.set_xticks([i + width * (len(eds) - 1) / 2 for i in range(len(bins))])
    ax.set_xticklabels(bins, rotation=45, ha="right")
    ax.set_xlabel("first player's final margin")
    ax.set_title(f"{stats['games']} self-play games")
    ax.set_ylabel("games")
    ax.legend()
    fig.tight_layout()
    written.append(str(folder / "margins.png"))
    fig.savefig(written[-1], dpi=100)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(5, 4))
    names = ["all"] + eds
    ds = [stats["all"]["first_player_wins"]] + [stats["editions"][e]["first_player_wins"] for e in eds]
    rates = [100 * (d["rate"] or 0) for d in ds]
    err = [
        [r - 100 * d["ci95"][0] for r, d in zip(rates, ds)],
        [100 * d["ci95"][1] - r for r, d in zip(rates, ds)],
    ]
    ax.bar(names, rates, yerr=err, capsize=6, color="#7a9cc6")
    ax.axhline(50, color="grey", lw=1, ls="--")
    ax.set_ylabel("first player's win rate (%), 95% CI")
    ax.set_title(f"{stats['games']} self-play games")
    ax.set_ylim(0, 100)
    fig.tight_layout()
    written.append(str(folder / "first_player.png"))
    fig.savefig(written[-1], dpi=100)
    plt.close(fig)

    if calibration and calibration.get("deciles"):
        fig, ax = plt.subplots(figsize=(5, 5))
        for name, key in (("fitted", "deciles"), ("current win_probability", "deciles_current")):
            rows = calibration.get(key) or []
            ax.plot([r["predicted"] for r in rows], [r["observed"] for r in rows], "o-", label=name)
        ax.plot([0, 1], [0, 1], color="grey", lw=1, ls="--")
        ax.set_xlabel("predicted P(player to move wins)")
        ax.set_ylabel("observed (held-out games)")
        ax.set_title(f"{calibration['test']['moves']} moves of {calibration['test']['games']} held-out games")
        ax.legend()
        fig.tight_layout()
        written.append(str(folder / "calibration.png"))
        fig.savefig(written[-1], dpi=100)
        plt.close(fig)
    return written


def write_report(records, folder, seed: int = 0, note: str = "", plots: bool = True) -> dict:
    """Write ``report.md``, ``statistics.json`` (the numbers), the fitted
    ``calibration.json`` (when the corpus has enough scored moves) and PNG
    plots (when matplotlib is installed) into ``folder``; return the
    statistics (with the calibration under "calibration")."""
    from patchsolve.arena.calibration import CalibrationError, calibrate, write_params

    records = list(records)
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CorpusError(f"cannot write {e.filename}: {e.strerror}") from None
    stats = statistics(records)
    try:
        cal = calibrate(records, seed=seed)
    except CalibrationError as e:
        cal = None
        note = (note + "\n\n" if note else "") + f"No calibration: {e}."
    written = write_plots(stats, folder, cal) if plots else None
    (folder / "report.md").write_text(report_markdown(stats, cal, written, note))
    stats = dict(stats, calibration=cal)
    (folder / "statistics.json").write_text(stats_json(stats) + "\n")
    if cal:
        write_params(cal["model"], folder / "calibration.json")
    return stats


def stats_json(stats: dict) -> str:
    """The statistics (with a calibration's model) as indented JSON."""
    return json.dumps(stats, indent=1, default=_json_default)


def _json_default(value):
    from patchsolve.arena.calibration import CalibrationModel

    if isinstance(value, CalibrationModel):
        return value.to_dict()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    raise TypeError(f"not JSON: {type(value).__name__}")


__all__ = [
    "statistics",
    "report_markdown",
    "write_plots",
    "write_report",
    "stats_json",
    "first_margin",
    "margin_histogram",
]
