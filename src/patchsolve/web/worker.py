"""The search process of the web app.

The engines hold the GIL while they search, so a search in the server's own
process would freeze it (no progress polls, no other page). Searches run in
one child process instead; the server sends it one job at a time over a pipe
and reads back progress messages and the result. Killing the process is how
a search that overruns its cap is stopped.

Messages from the child: ("started", None) as it takes a job (the job's
time cap counts from there), then ("progress", dict) and ("done", dict) or
("error", str).
"""

from __future__ import annotations

import os
import time

NICENESS = 5  # the search process yields the CPU to the server's: pages answer while it searches


def worker_main(conn) -> None:
    """Serve jobs from ``conn`` until it closes (at a lower priority than the server)."""
    try:
        os.nice(NICENESS)
    except (AttributeError, OSError):  # no nice() (Windows), or not allowed: run as it is
        pass
    while True:
        try:
            kind, payload = conn.recv()
        except (EOFError, OSError):
            return
        conn.send(("started", None))
        try:
            result = JOBS[kind](payload, lambda data: conn.send(("progress", data)))
            conn.send(("done", result))
        except Exception as e:  # reported to the page as the job's error, never raised
            from patchsolve.errors import PatchsolveError

            conn.send(("error", str(e) if isinstance(e, PatchsolveError) else f"{type(e).__name__}: {e}"))


def result_dict(r) -> dict:
    """``r.to_dict()``, with a ranked row's missing line (``pv`` None: the
    rows the solver valued near the end carry none, and SearchResult.to_dict
    cannot write None) written as an empty line."""
    for row in r.root_moves:
        if isinstance(row, dict) and "pv" in row and row["pv"] is None:
            row["pv"] = []
    return r.to_dict()


MCTS_SLICES = 8  # an MCTS search reports this many times ...
MCTS_MIN_SLICE = 0.1  # ... but at most every 0.1 s


def _search_job(payload, report) -> dict:
    from patchsolve.rules.position import Position

    pos = Position.from_text(payload["position"])
    if payload.get("level", 10) < 10:
        from patchsolve.review.levels import level_move

        move, r = level_move(pos, payload["level"], seed=payload.get("level_seed", 0))
        return {**result_dict(r), "best_move": str(move), "level": payload["level"]}
    if payload["engine"] == "mcts":
        return _mcts_in_slices(pos, payload["time"], payload.get("seed", 0), report)
    return _alphabeta_by_depth(pos, payload["time"], payload.get("depth"), payload.get("top", 1), report)


def _mcts_in_slices(pos, budget, seed, report) -> dict:
    """The MCTS in time slices on one kept tree (MCTSTree reuses its tree
    when asked about the same position again), reporting after each slice:
    the page sees the visits, best move and PV grow while it thinks."""
    from patchsolve.search.mcts import MCTSTree

    start = time.perf_counter()
    piece = max(MCTS_MIN_SLICE, budget / MCTS_SLICES)
    player = MCTSTree(time=piece, seed=seed)
    total = 0
    k = 0
    while True:
        left = budget - (time.perf_counter() - start)
        if left < 0.01 and total:
            break
        # the first slices short and growing (0.25 s, 0.5 s, ...): a Stop early on has a tree to keep
        player.time = max(0.01, min(piece, 0.25 * 2**k, left))
        k += 1
        r = player.search(pos)
        total += r.iterations or 0
        out = result_dict(r)
        out.update({"iterations": total, "time": time.perf_counter() - start})
        if r.bound == "exact" or r.iterations is None:  # proven by the endgame solver
            return out
        report(out)
    return out


def _alphabeta_by_depth(pos, budget, max_depth, top, report) -> dict:
    """One alpha-beta search (the endgame solver first near the end),
    reporting each finished depth through the engine's ``on_iteration``
    (best move, value, PV, and with ``top`` > 1 that many ranked root moves)
    while it thinks; the last report is the answer if the search is cut off."""
    from patchsolve.search import search

    start = time.perf_counter()

    def on_iteration(r):
        d = result_dict(r)
        d["elapsed"] = time.perf_counter() - start
        report(d)

    limits: dict = {"multipv": top} if top > 1 else {}
    if max_depth is not None:  # a depth limit means one thread (a reproducible answer): only when asked
        limits["depth"] = max_depth
    r = search(pos, engine="alphabeta", time=budget, on_iteration=on_iteration, **limits)
    best = result_dict(r)
    best["time"] = time.perf_counter() - start
    return best


def _analyze_job(payload, report) -> dict:
    from patchsolve.review.analysis import analyze_game
    from patchsolve.review.judge import Budget
    from patchsolve.review.svg import review_svg
    from patchsolve.rules.game import Game

    game = Game.from_text(payload["record"])
    partial: dict = {}

    def progress(k, n):
        report({"position": k + 1, "positions": n, **partial})

    def so_far(review):
        # what a Stop keeps: the review of the moves judged so far (jobs.JobRunner._kept)
        partial["partial"] = {**review.to_dict(), "svg": review_svg(review), "partial": True}

    review = analyze_game(game, Budget(nodes=payload["nodes"]), progress=progress, on_review=so_far)
    return {**review.to_dict(), "svg": review_svg(review)}


def _quiz_job(payload, report) -> dict:
    """The exercises of a review's moves (patchsolve.review.quiz), one thread."""
    from patchsolve.review.quiz import exercises_of_moves

    found = exercises_of_moves(
        payload["moves"],
        payload["player"],
        payload["threshold"],
        count=payload["count"],
        nodes=payload["nodes"],
    )
    return {"exercises": [e.to_dict() for e in found]}


def _grade_job(payload, report) -> dict:
    """An answer to an exercise, valued on its footing (patchsolve.review.quiz.grade)."""
    from patchsolve.review.quiz import exercise_of_dict, grade

    g = grade(exercise_of_dict(payload["exercise"]), payload["move"])
    return {"move": g.move, "value": g.value, "loss": g.loss, "correct": g.correct, "bound": g.bound}


JOBS = {"search": _search_job, "analyze": _analyze_job, "quiz": _quiz_job, "grade": _grade_job}
