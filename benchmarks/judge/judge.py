"""How far a review's verdicts can be trusted: the one measure of a move
(patchsolve.review.measure) against exact values and against itself at a
deeper budget.

Two sets, each written as JSON lines while it runs (a row a move judged):

``late``   The perfect-play set (benchmarks/exact_26_34.jsonl: positions of
           the last third of self-play games, every legal move valued by the
           solver), positions whose value is exact. In each: up to two
           optimal moves, two moves losing 1-3 points and two losing 6 or
           more (exactly, or proven no better than value - 6), seeded.
``early``  Positions at plies 6-30 of seeded engine self-play games (20,000
           nodes a move): the move played there and a seeded random legal
           move, each measured at the budget and at ``--deep`` times it (10
           and 20 times: the same-footing references, since no exact values
           exist this early).

    python benchmarks/judge/judge.py late --nodes 300000 --out late_300k.jsonl
    python benchmarks/judge/judge.py early --nodes 300000 --deep 10,20 --out early_300k.jsonl
    python benchmarks/judge/judge.py report late_300k.jsonl early_300k.jsonl

Early rows keep, for the measure at the budget without the re-check
(``base``), the re-check's search (``re``, made wherever some candidate
loss asks for it) and the references, the last 3 finished iterations as
[depth, nodes, best value, played value]. The 20x reference is searched;
the 10x one is its iterations up to 10x the nodes (one thread, a fresh
table: the same iterations; checked on every move against the base and
the re-check, and against the measured 10x of older rows with ``report
--against``), measured on its own near the end, where the solver bounds
it (``fill`` does that for rows written before). ``report`` scores each
candidate loss (``CANDIDATES``: the last iteration's, the smallest / the
mean of the last two, the smallest / median / mean of the last three),
the re-check applied to each candidate's own loss, against the same
candidate at 10x and 20x.

``remeasure`` measures stored rows again at another ``--nodes`` or
``--recheck``, keeping their references (early rows keep the position):

    python benchmarks/judge/judge.py remeasure early_300k.jsonl --recheck 8 --out early_r8.jsonl

``report`` recomputes every class from the stored losses (so the class
boundaries can be changed without searching again: ``--min-points``) and
prints the issue's targets: optimal moves classed mistake or blunder (at
most 1%) and best or good (at least 95%); moves losing 6 or more classed
best or good (at most 5%); the mean |measured - exact loss| (at most 0.5);
early, the share of moves whose loss agrees within 1 point with the deep
reference (at least 90%) and the share of flagged classes that survive the
deep search (at least 90%).
"""

from __future__ import annotations

import argparse
import json
import lzma
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import patchsolve as ps  # noqa: E402
from bench_exact import DATA, read_rows  # noqa: E402
from patchsolve.review import Budget, analysis, measure  # noqa: E402
from patchsolve.search.result import phase_of  # noqa: E402

FLAGGED = ("inaccuracy", "mistake", "blunder")


def _measured(pos, move, budget: Budget) -> dict:
    """The measure's raw numbers (what a class is computed from), without
    its iterations."""
    raw = _raw(*_timed(pos, move, budget))
    del raw["it"]
    return raw


def late_moves(row: dict, rng: random.Random) -> list[tuple[str, str, float, bool]]:
    """(kind, move, exact loss or its least value, whether that is a bound)
    for the moves judged in a position of the perfect-play set."""
    value = row["value"]
    optimal, small, big = [], [], []
    for m in row["moves"]:
        if m["bound"] == "exact":
            loss = value - m["score"]
            if loss == 0:
                optimal.append((m["move"], 0.0, False))
            elif 1 <= loss <= 3:
                small.append((m["move"], float(loss), False))
            elif loss >= 6:
                big.append((m["move"], float(loss), False))
        elif value - m["upper"] >= 6:
            big.append((m["move"], float(value - m["upper"]), True))
    out = []
    for kind, moves in (("optimal", optimal), ("loses_1_3", small), ("loses_6", big)):
        for move, loss, bound in rng.sample(moves, min(2, len(moves))):
            out.append((kind, move, loss, bound))
    return out


def run_late(args) -> None:
    budget = Budget(nodes=args.nodes, recheck=args.recheck)
    rows = [r for path in args.data for r in read_rows(Path(path))]
    with open(args.out, "w") as fh:
        for i, row in enumerate(rows[: args.positions]):
            rng = random.Random(args.seed * 100_003 + i)
            pos = ps.Position(row["position"])
            for kind, move, loss, bound in late_moves(row, rng):
                rec = {"set": "late", "index": i, "kind": kind, "move": move, "exact_loss": loss}
                rec["exact_loss_is_bound"] = bound
                rec["phase"] = phase_of(pos)
                rec.update(_measured(pos, move, budget))
                fh.write(json.dumps(rec) + "\n")
                fh.flush()
            print(f"[{i + 1}/{min(len(rows), args.positions)}]", file=sys.stderr, flush=True)


def early_positions(count: int, seed: int, start: int = 0) -> list[tuple[ps.Position, str]]:
    """(position, the move the engine played there) at plies 6-30 of seeded
    self-play games, one a game: games ``start`` to ``count - 1``."""
    out = []
    for g in range(start, count):
        game = ps.Game.new(seed=seed * 1_000 + g)
        stop = 6 + (g * 7) % 25
        while len(game) < stop and not game.end.is_over:
            game.push(ps.search(game.end, nodes=20_000, workers=1, seed=0).best_move)
        pos = game.end
        played = ps.search(pos, nodes=20_000, workers=1, seed=0).best_move
        out.append((pos, str(played)))
    return out


LAST = 3  # finished iterations kept a measure: enough for every candidate loss of ``report``


def _iterations(m) -> list[list]:
    """The last ``LAST`` finished iterations of a measure: [depth, nodes, best value, played value]."""
    return [list(t) for t in m.iterations[-LAST:]]


def _stop_at(limit: int) -> int:
    """The node count at which a search limited to ``limit`` nodes stops:
    the limit is checked every 1,024 nodes (``_search.pxd``, CHECK_EVERY),
    so an iteration finishing below the first checkpoint at or over the
    limit counts as finished."""
    return -(-limit // 1024) * 1024


def _prefix(iterations: list, limit: int) -> list:
    """The iterations a search limited to ``limit`` nodes finishes, from a
    longer search's (one thread, a fresh table: the same iterations in the
    same order, each with the same node count)."""
    return [t for t in iterations if t[1] < _stop_at(limit)]


def _from_iterations(its: list, phase: int, forced: bool) -> dict:
    """A reference's raw numbers from its iterations (the last one's: the
    measure's), as ``_measured`` gives them."""
    from patchsolve.search.result import win_probability_of

    depth, _, best, played = its[-1]
    return {
        "loss": max(0.0, best - played),
        "win_loss": max(0.0, win_probability_of(best, phase) - win_probability_of(played, phase)),
        "win_before": win_probability_of(best, phase),
        "proven_before": None,
        "proven_after": None,
        "exact": False,
        "forced": forced,
        "depth": depth,
        "rechecked": False,
        "it": [list(t) for t in its[-LAST:]],
        "derived": True,
    }


def _shallower(pos, move, full: list, nodes: int, phase: int, forced: bool) -> dict:
    """A shallower reference: the deepest one's iterations up to ``nodes``,
    or, near the end (where the solver bounds the values: ``near_end``) or
    where none finished, a measure of its own."""
    from patchsolve.search.endgame import near_end

    its = _prefix(full, nodes)
    if its and not near_end(pos):
        return _from_iterations(its, phase, forced)
    return _raw(*_timed(pos, move, Budget(nodes=nodes, recheck=1)))


def run_fill(args) -> None:
    """Stored early rows with their shallower references measured again
    where ``_shallower`` now measures them (near the end: rows written
    before it did)."""
    from patchsolve.search.endgame import near_end

    deeps = sorted(int(x) for x in args.deep.split(","))
    recs = [json.loads(line) for path in args.files for line in _text(Path(path)).splitlines() if line]
    with open(args.out, "w") as fh:
        for rec in recs:
            pos = ps.Position(rec["position"])
            for k in deeps[:-1]:
                if rec[f"deep{k}"].get("derived") and near_end(pos):
                    budget = Budget(nodes=args.nodes * k, recheck=1)
                    rec[f"deep{k}"] = _raw(*_timed(pos, rec["move"], budget))
            fh.write(json.dumps(rec, separators=(",", ":")) + "\n")


def _raw(m, cpu: float) -> dict:
    """A measure's raw numbers and its last iterations."""
    return {
        "loss": m.loss,
        "win_loss": m.win_loss,
        "win_before": m.best.win_probability,
        "proven_before": m.best.proven,
        "proven_after": m.played.proven,
        "exact": m.exact,
        "forced": m.forced,
        "depth": m.depth,
        "best": m.best.move,
        "rechecked": m.rechecked,
        "cpu": cpu,
        "it": _iterations(m),
    }


def _timed(pos, move, budget: Budget):
    t0 = time.process_time()
    m = measure(pos, move, budget)
    return m, time.process_time() - t0


def run_early(args) -> None:
    """Each move: the measure at the budget without the re-check (``base``),
    the re-check's search at ``--recheck`` times the budget wherever some
    candidate loss of ``report`` would ask for it (the larger of the last two
    iterations' losses is RECHECK_AT or more), and the deepest reference; the
    shallower references are the deepest one's iterations up to their node
    limit (one thread, a fresh table: a search stopped earlier finishes the
    same iterations, each with the same node count; checked on every move
    against the base measure and the re-check: ``prefix_ok``). The top-level
    numbers are the default measure's (the re-check's where the base loss is
    RECHECK_AT or more), as ``measure`` gives them."""
    from patchsolve.review.judge import RECHECK_AT

    base_budget = Budget(nodes=args.nodes, recheck=1)
    deeps = sorted(int(x) for x in args.deep.split(","))
    with open(args.out, "w") as fh:
        for i, (pos, played) in enumerate(early_positions(args.positions, args.seed, args.start), args.start):
            rng = random.Random(args.seed * 100_003 + i)
            moves = [("played", played), ("random", str(rng.choice(pos.legal_moves())))]
            phase = phase_of(pos)
            for kind, move in moves:
                rec = {"set": "early", "index": i, "kind": kind, "move": move, "position": pos.to_text()}
                rec["phase"] = phase
                base, cpu = _timed(pos, move, base_budget)
                rec["base"] = _raw(base, cpu)
                losses = [max(0.0, b - p) for _, _, b, p in base.iterations[-2:]] or [base.loss]
                again = None
                if not base.exact and not base.interrupted and max(losses + [base.loss]) >= RECHECK_AT:
                    again, cpu2 = _timed(pos, move, Budget(nodes=args.nodes * args.recheck, recheck=1))
                    rec["re"] = _raw(again, cpu2)
                default = rec["re"] if again is not None and base.loss >= RECHECK_AT else rec["base"]
                rec.update({k: v for k, v in default.items() if k != "it"})
                rec["rechecked"] = default is not rec["base"]
                rec["cpu"] = rec["base"]["cpu"] + (rec["re"]["cpu"] if rec["rechecked"] else 0.0)
                top, cpu3 = _timed(pos, move, Budget(nodes=args.nodes * deeps[-1], recheck=1))
                rec[f"deep{deeps[-1]}"] = _raw(top, cpu3)
                full = [list(t) for t in top.iterations]
                ok = _prefix(full, args.nodes)[-LAST:] == rec["base"]["it"]
                if again is not None:
                    ok = ok and _prefix(full, args.nodes * args.recheck)[-LAST:] == rec["re"]["it"]
                rec["prefix_ok"] = ok
                for k in deeps[:-1]:
                    rec[f"deep{k}"] = _shallower(pos, move, full, args.nodes * k, phase, base.forced)
                fh.write(json.dumps(rec, separators=(",", ":")) + "\n")
                fh.flush()
            print(f"[{i + 1}/{args.positions}]", file=sys.stderr, flush=True)


def run_remeasure(args) -> None:
    """The stored rows measured again at another budget or re-check, their
    references (exact losses, the deep measures) kept: a change to the
    measure's default compared on the same moves without the deep searches."""
    budget = Budget(nodes=args.nodes, recheck=args.recheck)
    recs = [json.loads(line) for path in args.files for line in _text(Path(path)).splitlines() if line]
    with open(args.out, "w") as fh:
        for i, rec in enumerate(recs):
            pos = ps.Position(rec["position"]) if "position" in rec else None
            if pos is None:
                raise SystemExit(f"row {i} has no position (late rows before 0.3 did not keep it)")
            rec.update(_measured(pos, rec["move"], budget))
            fh.write(json.dumps(rec) + "\n")
            fh.flush()
            print(f"[{i + 1}/{len(recs)}]", file=sys.stderr, flush=True)


def class_of(rec: dict, min_points) -> str:
    """The review's class of a measured move, with ``min_points`` as the floor."""
    if rec["forced"]:
        return "best"
    if rec["proven_before"] == "win" and rec["proven_after"] == "loss":
        return "blunder"
    saved = analysis.MIN_POINTS
    analysis.MIN_POINTS = tuple(min_points)
    try:
        return analysis.classify(rec["loss"], rec["win_loss"], rec["win_before"])
    finally:
        analysis.MIN_POINTS = saved


def share(hits: int, n: int) -> str:
    return f"{hits}/{n} = {100 * hits / n:.1f}%" if n else "none"


def _text(path: Path) -> str:
    """A plain or .xz file's text."""
    raw = path.read_bytes()
    return (lzma.decompress(raw) if path.suffix == ".xz" else raw).decode()


def report(args) -> None:
    min_points = tuple(float(x) for x in args.min_points.split(","))
    recs = [json.loads(line) for path in args.files for line in _text(Path(path)).splitlines() if line]
    late = [r for r in recs if r["set"] == "late"]
    early = [r for r in recs if r["set"] == "early"]
    print(
        f"class floors (points): inaccuracy {min_points[0]}, mistake {min_points[1]}, blunder {min_points[2]}"
    )
    if late:
        opt = [r for r in late if r["kind"] == "optimal"]
        big = [r for r in late if r["kind"] == "loses_6"]
        small = [r for r in late if r["kind"] == "loses_1_3"]
        cls = {id(r): class_of(r, min_points) for r in late}
        print(f"late set: {len(late)} moves in {len({r['index'] for r in late})} positions")
        print(
            "  optimal classed mistake/blunder (<= 1%):",
            share(sum(cls[id(r)] in ("mistake", "blunder") for r in opt), len(opt)),
        )
        print(
            "  optimal classed best/good (>= 95%):",
            share(sum(cls[id(r)] in ("best", "good") for r in opt), len(opt)),
        )
        print(
            "  losing >= 6 classed best/good (<= 5%):",
            share(sum(cls[id(r)] in ("best", "good") for r in big), len(big)),
        )
        exact = [r for r in late if not r["exact_loss_is_bound"]]
        err = [abs(r["loss"] - r["exact_loss"]) for r in exact]
        print(f"  mean |loss - exact loss| (<= 0.5): {sum(err) / len(err):.3f} over {len(err)} moves")
        print(f"  measured exactly: {share(sum(r['exact'] for r in late), len(late))}")
        for name, group in (("optimal", opt), ("loses_1_3", small), ("loses_6", big)):
            counts = {c: sum(cls[id(r)] == c for r in group) for c in analysis.CLASSES}
            print(f"  {name}: {counts}")
        cpu = [r["cpu"] for r in late]
        print(f"  CPU a move: mean {sum(cpu) / len(cpu):.2f} s, max {max(cpu):.2f} s")
        bands = [(1, 12), (13, 25), (26, 35)]
        weighted: dict = {}
        for lo, hi in bands:
            band = [r for r in late if "phase" in r and lo <= r["phase"] <= hi]
            if not band:
                continue
            o = [r for r in band if r["kind"] == "optimal"]
            b6 = [r for r in band if r["kind"] == "loses_6"]
            ex = [r for r in band if not r["exact_loss_is_bound"]]
            print(
                f"  phase {lo}-{hi}: {len(band)} moves; optimal as mistake/blunder "
                f"{share(sum(cls[id(r)] in ('mistake', 'blunder') for r in o), len(o))}, as best/good "
                f"{share(sum(cls[id(r)] in ('best', 'good') for r in o), len(o))}; 6+ as best/good "
                f"{share(sum(cls[id(r)] in ('best', 'good') for r in b6), len(b6))}; mean error "
                f"{sum(abs(r['loss'] - r['exact_loss']) for r in ex) / max(1, len(ex)):.2f}; exact "
                f"{share(sum(r['exact'] for r in band), len(band))}"
            )
            if o and b6 and ex:
                w = (hi - lo + 1) / (bands[-1][1] - bands[0][0] + 1)
                for key, value in (
                    (
                        "optimal as mistake/blunder",
                        sum(cls[id(r)] in ("mistake", "blunder") for r in o) / len(o),
                    ),
                    ("optimal as best/good", sum(cls[id(r)] in ("best", "good") for r in o) / len(o)),
                    ("6+ as best/good", sum(cls[id(r)] in ("best", "good") for r in b6) / len(b6)),
                    ("mean error", sum(abs(r["loss"] - r["exact_loss"]) for r in ex) / len(ex)),
                ):
                    weighted[key] = weighted.get(key, 0.0) + w * value
        if weighted:  # each band weighted by its share of the last third: positions spread evenly over it
            print(
                "  over the last third, bands weighted by their width: "
                + "; ".join(
                    f"{k} {v:.3f}" if k == "mean error" else f"{k} {100 * v:.1f}%"
                    for k, v in weighted.items()
                )
            )
    if early:
        print(f"early set: {len(early)} moves in {len({r['index'] for r in early})} positions")
        agree = sum(abs(r["loss"] - r["deep20"]["loss"]) <= 1 for r in early)
        print("  loss within 1 point of 20x the budget (>= 90%):", share(agree, len(early)))
        deep = [r["deep10"] | {"forced": r["forced"]} for r in early]
        flagged = [(r, d) for r, d in zip(early, deep) if class_of(r, min_points) in FLAGGED]
        kept = sum(class_of(d, min_points) in FLAGGED for _, d in flagged)
        same = sum(class_of(d, min_points) == class_of(r, min_points) for r, d in flagged)
        print("  flagged classes still flagged at 10x (>= 90%):", share(kept, len(flagged)))
        print("  flagged classes the same class at 10x:", share(same, len(flagged)))
        good = [(r, d) for r, d in zip(early, deep) if class_of(r, min_points) in ("best", "good")]
        stay = sum(class_of(d, min_points) in ("best", "good") for _, d in good)
        print("  best/good still best/good at 10x:", share(stay, len(good)))
        counts = {c: sum(class_of(r, min_points) == c for r in early) for c in analysis.CLASSES}
        print(f"  classes at the budget: {counts}")
        cpu = [r["cpu"] for r in early]
        print(f"  CPU a move: mean {sum(cpu) / len(cpu):.2f} s at the budget")
        report_candidates(early, min_points)
    if args.against:
        older = [json.loads(line) for line in _text(Path(args.against)).splitlines() if line]
        by_key = {(r["set"], r["index"], r["kind"], r["move"]): r for r in older}
        pairs = [(r, by_key.get((r["set"], r["index"], r["kind"], r["move"]))) for r in recs]
        pairs = [(r, o) for r, o in pairs if o is not None]
        print(f"against {args.against}: {len(pairs)} moves in both")
        for key in ("", "deep10", "deep20"):
            same = sum(
                all(
                    abs((r[key] if key else r)[k] - (o[key] if key else o)[k]) < 1e-9
                    for k in ("loss", "win_loss", "depth")
                )
                for r, o in pairs
                if not key or (key in r and key in o)
            )
            print(f"  {key or 'the measure'}: the same loss, win loss and depth {share(same, len(pairs))}")


CANDIDATES = ("final", "min2", "mean2", "min3", "median3", "mean3")
"""The candidate losses ``report`` scores from stored iterations: the last
finished iteration's (the measure's), the smaller of the last two
iterations' losses, and their mean (each iteration's loss is its best
value minus its value of the move played); the same over the last three
(the smallest, the median, the mean). Only ``final``, ``min2`` and
``min3`` keep a move the last iteration values as the best at a loss of 0."""


def candidate(its: list, rule: str, phase: int) -> dict:
    """A candidate's (loss, win_loss, win_before) from a measure's last
    iterations ([depth, nodes, best, played]), as ``class_of`` reads them."""
    from patchsolve.search.result import win_probability_of

    def wp(v: float) -> float:
        return win_probability_of(v, phase)

    if rule.endswith("3"):
        triples = [(max(0.0, b - p), max(0.0, wp(b) - wp(p)), wp(b)) for _, _, b, p in its[-3:]]
        ranked = sorted(reversed(triples), key=lambda t: t[0])  # by loss, the later first on a tie
        if rule == "min3":
            loss, win_loss, before = ranked[0]
        elif rule == "median3":
            loss, win_loss, before = ranked[(len(ranked) - 1) // 2]
        else:
            loss = sum(t[0] for t in triples) / len(triples)
            win_loss, before = sum(t[1] for t in triples) / len(triples), triples[-1][2]
        return {"loss": loss, "win_loss": win_loss, "win_before": before}
    pairs = [(max(0.0, b - p), max(0.0, wp(b) - wp(p)), wp(b)) for _, _, b, p in its[-2:]]
    if rule == "final" or len(pairs) == 1:
        loss, win_loss, before = pairs[-1]
    elif rule == "min2":  # the iteration whose loss is the smaller (the last on a tie), both its numbers
        loss, win_loss, before = pairs[0] if pairs[0][0] < pairs[1][0] else pairs[1]
    elif rule == "mean2":
        loss, win_loss = sum(x for x, _, _ in pairs) / 2, sum(y for _, y, _ in pairs) / 2
        before = pairs[-1][2]
    else:
        raise ValueError(rule)
    return {"loss": loss, "win_loss": win_loss, "win_before": before}


def candidate_measure(rec: dict, rule: str, recheck_at: float) -> dict:
    """A candidate's measure of an early row: its loss at the budget, or the
    re-check's where that loss is ``recheck_at`` or more (the re-check
    applied to the candidate's own loss)."""
    if rec["exact"]:  # the solver's values: no rule changes them
        return {
            k: rec[k] for k in ("loss", "win_loss", "win_before", "forced", "proven_before", "proven_after")
        }
    c = candidate(rec["base"]["it"], rule, rec["phase"])
    if c["loss"] >= recheck_at and "re" in rec:
        c = candidate(rec["re"]["it"], rule, rec["phase"])
    elif c["loss"] >= recheck_at:
        c["unstored"] = True  # a candidate asking for a re-check the run did not make (mean3 only can)
    return c | {"forced": rec["forced"], "proven_before": None, "proven_after": None}


def near(rec: dict) -> bool:
    """The row's position is near the end (the solver bounds its measures)."""
    from patchsolve.search.endgame import near_end

    return near_end(ps.Position(rec["position"]))


def candidate_ref(rec: dict, key: str, rule: str) -> dict:
    """A candidate's reference (``deep10``, ``deep20``): the solver's
    numbers where it proved both values, else the rule over its iterations."""
    d = rec[key]
    if d["exact"]:
        keep = ("loss", "win_loss", "win_before", "proven_before", "proven_after")
        return {k: d[k] for k in keep} | {"forced": rec["forced"]}
    c = candidate(d["it"], rule, rec["phase"])
    return c | {"forced": rec["forced"], "proven_before": None, "proven_after": None}


def report_candidates(early: list, min_points) -> None:
    """Each candidate loss scored against the same candidate at 10x and 20x
    (the references without a re-check)."""
    from patchsolve.review.judge import RECHECK_AT

    rows = [r for r in early if "base" in r]
    if not rows:
        return
    if any(not r["base"]["it"] for r in rows):
        print("  (rows without a finished iteration are left out of the candidates)")
        rows = [r for r in rows if r["base"]["it"]]
    bounded = sum(not r["exact"] and (r["proven_before"] or r["proven_after"]) is not None for r in rows)
    print(
        f"  {sum(r['exact'] for r in rows)} rows exact (the solver's numbers for every candidate); "
        f"{sum(not r['exact'] and near(r) for r in rows)} other rows near the end (the candidates "
        f"from the iterations, before the solver's bounds; {bounded} with a proven outcome)"
    )
    print(
        f"candidate losses ({len(rows)} moves; prefix check {share(sum(r['prefix_ok'] for r in rows), len(rows))}):"
    )
    whole = sum(
        all(
            m["it"][-1][0] == m["depth"]
            and [t[0] for t in m["it"]] == list(range(m["depth"] - len(m["it"]) + 1, m["depth"] + 1))
            for m in [r["base"], r["deep20"]] + ([r["re"]] if "re" in r else [])
        )
        for r in rows
    )
    print(
        "  the move played valued in every iteration kept (consecutive depths up to the measure's):",
        share(whole, len(rows)),
    )
    same_as_measure = sum(candidate_measure(r, "final", RECHECK_AT)["loss"] == r["loss"] for r in rows)
    print("  the final candidate equals the stored measure's loss:", share(same_as_measure, len(rows)))
    for rule in CANDIDATES:
        own = [candidate_measure(r, rule, RECHECK_AT) for r in rows]
        d10 = [candidate_ref(r, "deep10", rule) for r in rows]
        d20 = [candidate_ref(r, "deep20", rule) for r in rows]
        agree = sum(abs(a["loss"] - b["loss"]) <= 1 for a, b in zip(own, d20))
        ref = sum(abs(a["loss"] - b["loss"]) <= 1 for a, b in zip(d10, d20))
        flagged = [(a, b) for a, b in zip(own, d10) if class_of(a, min_points) in FLAGGED]
        kept = sum(class_of(b, min_points) in FLAGGED for _, b in flagged)
        same = sum(class_of(a, min_points) == class_of(b, min_points) for a, b in flagged)
        good = [(a, b) for a, b in zip(own, d10) if class_of(a, min_points) in ("best", "good")]
        stay = sum(class_of(b, min_points) in ("best", "good") for _, b in good)
        unstored = sum(c.get("unstored", False) for c in own)
        rechecked = sum(candidate(r["base"]["it"], rule, r["phase"])["loss"] >= RECHECK_AT for r in rows)
        print(
            f"  {rule}: within 1 point of 20x {share(agree, len(rows))}; 10x within 1 of 20x "
            f"{share(ref, len(rows))}; flagged still flagged at 10x {share(kept, len(flagged))}; "
            f"same class {share(same, len(flagged))}; best/good kept {share(stay, len(good))}; "
            f"re-checked {rechecked}" + (f" ({unstored} not stored: base kept)" if unstored else "")
        )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    for name in ("late", "early"):
        p = sub.add_parser(name)
        p.add_argument("--nodes", type=int, default=300_000)
        p.add_argument("--positions", type=int, default=1_000 if name == "late" else 100)
        p.add_argument("--seed", type=int, default=0)
        p.add_argument("--out", required=True)
        p.add_argument("--recheck", type=int, default=1, help="Budget.recheck (1: none)")
        if name == "late":
            p.add_argument("--data", nargs="+", default=[str(DATA)], help="position sets (JSON lines, .xz)")
        if name == "early":
            p.add_argument("--deep", default="10,20", help="the references' budgets, times the budget")
            p.add_argument("--start", type=int, default=0, help="the first position (to extend a set)")
    p = sub.add_parser("remeasure")
    p.add_argument("files", nargs="+")
    p.add_argument("--nodes", type=int, default=300_000)
    p.add_argument("--recheck", type=int, default=1, help="Budget.recheck (1: none)")
    p.add_argument("--out", required=True)
    p = sub.add_parser("fill")
    p.add_argument("files", nargs="+")
    p.add_argument("--nodes", type=int, default=300_000)
    p.add_argument("--deep", default="10,20")
    p.add_argument("--out", required=True)
    p = sub.add_parser("report")
    p.add_argument("files", nargs="+")
    p.add_argument("--against", help="an older rows file: how many of the same moves measure the same")
    p.add_argument("--min-points", default=",".join(str(x) for x in analysis.MIN_POINTS))
    for name in ("late", "remeasure"):
        sub.choices[name].add_argument(
            "--loss-over", type=int, default=None, help="review.judge.LOSS_OVER (default: the module's)"
        )
    args = ap.parse_args(argv)
    if getattr(args, "loss_over", None) is not None:
        from patchsolve.review import judge as judge_module

        judge_module.LOSS_OVER = args.loss_over
    {
        "late": run_late,
        "early": run_early,
        "remeasure": run_remeasure,
        "fill": run_fill,
        "report": report,
    }[args.command](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
