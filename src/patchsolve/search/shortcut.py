"""The near-end shortcut: near the end of the game the exact solver is tried
first with a share of the search's budget (under a node budget alone, a
budget of its own in solver nodes, the engine keeping its whole budget:
``_apart``); when it proves the value, that is the answer, whatever the
engine. When it proves only who wins (its win/loss pass), that still
decides: the engine searches with the rest, and its move is played only if
it is proven to keep the win (a win/loss test of that move within a reserve
of the budget); otherwise a move the solver proved to win is played
(``keep_the_win``). The solver's values order by the margin and then by who
wins (a margin of 0 is won by who reached 53 first: ``_solver.pyx``,
"Values"), so its rows, and the moves it proves, do too. Ranked moves
(``multipv``) come from the solver's value of every root move when it
settles them all (``settled``); otherwise the engine's rows are kept within
what it proved of each move (``_rank_within``).

With a second core, the alpha-beta under a time limit alone runs the
solver *beside* the search instead (``solver_beside``): one thread solves
for the whole move time while the search runs on the others, and a proof
stops the search at once. At 0.1 s a move on two threads that gives exact
answers in 8 of the 32 near-end positions of the perfect-play set, where
the solver first gave 3 (benchmarks/results/solver_beside.md).

When the alpha-beta's last iteration evaluated no leaf, every line of its
(pruned) tree ran to the end of the game, and it stops before its budget:
a deeper iteration would search the same tree again. What is left of the
budget then goes to the solver (``hand_over``), whose answer is taken only
when it proves a move best. Near the end most of the alpha-beta's losses
against perfect play are of this kind: the pruned tree searched to its
end, its best move not the game's (benchmarks/results/end_placements/).
With one move asked for, the solver's tests of which choice is best
(walking, which patch: ``solver.choice_or_value``) take turns with the
value; a move of a choice proven better than the engine's replaces its
move (``_within_choice``; benchmarks/results/best_choice/). When the budget
runs out before that proof, what the tests left standing still counts
(``_left_standing``): a move of a choice proven worth at least what the
engine's can be, or the one choice not shown below the test value where
the engine's was (benchmarks/results/standing/).

Used by :func:`patchsolve.search` (``dispatch.py``) and by the MCTS player
that keeps its tree (``mcts.MCTSPlayer``); it sits below both and imports
only the solver (and the alpha-beta's move order, for a placement), so no
engine module needs the dispatcher.
"""

from __future__ import annotations

import threading
import time as _time

from patchsolve.patches import LAST_SPACE
from patchsolve.position import Position
from patchsolve.search import alphabeta, questions, solver
from patchsolve.search._alphabeta import ordered_moves
from patchsolve.search.limits import Limits, threads_for
from patchsolve.search.questions import row_units
from patchsolve.search.result import (
    choice_of,
    finished_result,
    phase_of,
    rank_key,
    root_move,
    win_probability_of,
)

ENDGAME_SPACES = 15  # try the exact solver first when a token is this close to 53 ...
ENDGAME_SHARE = 0.25  # ... with this share of the time budget ...
SOLVER_NODES_SHARE = 0.83  # ... or under a node budget, solver nodes of its own per node of it ...
ENDGAME_NODES = 200_000  # ... or this many nodes under a depth / iteration budget (deterministic)
KEEP_SHARE = 0.1  # of the budget, kept back to test the engine's move when a win is proven
SHORTCUT_HASH_MB = (4, 16)  # the solver's table in the shortcut: small budgets, larger ones
SHORTCUT_SMALL_TIME = 0.5  # seconds of shortcut budget counted as small ...
SHORTCUT_SMALL_NODES = 1_000_000  # ... and nodes


def near_end(position: Position) -> bool:
    """Whether the shortcut is tried: the game is not over and a time token
    is within ENDGAME_SPACES of the last space."""
    return not position.is_over and LAST_SPACE - min(position.time(0), position.time(1)) <= ENDGAME_SPACES


def endgame_shortcut(position: Position, limits: Limits, engine: str):
    """(The proven answer, limits, None) when the solver finds it within its
    share of the budget, else (None, the limits left for the engine, what
    was proven: a dict with ``proven`` -- "win", "loss" or None --, the
    margin's ``lower`` and ``upper`` bounds, ``move`` -- a move proven to
    win, or None --, ``limits`` for :func:`keep_the_win` and ``table``: the
    solver's table, for the alpha-beta's hand-over, or None). Under a node
    budget alone the solver's nodes are its own (``_apart``): the engine
    keeps its whole budget."""
    apart = _apart(limits)
    budget = _share(limits, ENDGAME_SHARE, ENDGAME_NODES)
    if apart and limits.nodes is not None:
        budget["nodes"] = max(1, int(limits.nodes * SOLVER_NODES_SHARE))
    # the solver's threads follow the alpha-beta's (every core under a time
    # limit unless workers says otherwise); the MCTS gets one thread, since
    # its workers are processes that may each get here
    budget["workers"] = limits.workers if engine == "alphabeta" else 1
    t0 = _time.perf_counter()
    # the alpha-beta's hand-over searches on in the same table: what is proven here stays
    # proven there (benchmarks/results/best_choice/, round 3)
    table = solver.new_table(_solver_limits(limits, budget)) if engine == "alphabeta" else None
    r, decided = _ask_solver(position, limits, budget, table)
    if decided:
        return _solved(position, r, limits, engine), limits, None
    win = _winning_move(r)
    reserve = _share(limits, KEEP_SHARE, ENDGAME_NODES // 4) if r.proven == "win" else {}
    left = {}
    if limits.time is not None:
        left["time"] = max(1e-3, limits.time - (_time.perf_counter() - t0) - reserve.get("time", 0.0))
    if limits.nodes is not None and not apart:
        left["nodes"] = max(1, limits.nodes - r.nodes - reserve.get("nodes", 0))
    proof = {
        "proven": r.proven,
        "lower": r.lower,
        "upper": r.upper,
        "move": win,
        "limits": reserve,
        "table": table,
        "nodes": r.nodes,  # the solver's, added to the answer's (``keep_the_win``)
    }
    if (limits.multipv or 1) > 1:  # what the solver proved of each root move bounds the engine's rows
        proof["rows"] = _proven_rows(position, r)
    return None, limits.replace(**left), proof


def _ask_solver(position: Position, limits: Limits, budget: dict, table=None):
    """(The solver's run on ``budget`` -- on ``table`` if given -- for the
    answer ``limits`` asks for, whether it decides). Ranked moves (multipv >
    1) come from its value of every root move and need every row settled;
    one move needs an exact value with a move proven to keep it."""
    ranked = (limits.multipv or 1) > 1
    r = _solve_run(position, _solver_limits(limits, budget), {"all_moves": ranked}, table)
    return r, r.bound == "exact" and (settled(r.root_moves) if ranked else _decides(r))


def _proven_rows(position: Position, r) -> dict:
    """The solver's rows of ``r``, by move, with every engine's keys: what it
    proved of each root move (``within_proof``'s ``rows``)."""
    return {d["move"]: _row(position, d) for d in r.root_moves}


def _solved(position: Position, r, limits: Limits, engine: str):
    """The solver's deciding result ``r`` as the engine's answer; ranked,
    the move played first among equals, then as many rows as asked, with
    every engine's keys."""
    r.engine = engine
    r.seed = limits.seed
    if (limits.multipv or 1) > 1:
        rows = sorted(r.root_moves, key=lambda d: d["move"] != r.best_move)
        rows = sorted(rows, key=rank_key)[: limits.multipv]
        r.root_moves = [_row(position, d) for d in rows]
    return r


HAND_OVER_MIN = 0.05  # of the budget: less left than this is not handed to the solver


def hand_over(position: Position, result, limits: Limits, used: float, table=None):
    """The solver's answer with what is left of ``limits`` when the engine
    (``result``, after ``used`` seconds) stopped before its budget and
    before its depth limit (its tree ended), if it proves a move best
    (searching on ``table``, the near-end shortcut's, when given);
    else, with one move asked for, the engine's answer within what the
    solver proved of the choices (``_within_choice``); ranked
    (``multipv``), the solver's rows when it settles them all, else the
    engine's rows within what it proved of each move. Otherwise
    ``result``. Only under a time or node budget."""
    if result.bound == "exact" or (limits.depth is not None and result.depth >= limits.depth):
        return result
    left: dict = {}
    if limits.time is not None:
        left["time"] = limits.time - used
        if left["time"] < HAND_OVER_MIN * limits.time:
            return result
    if limits.nodes is not None:
        left["nodes"] = limits.nodes - result.nodes
        if left["nodes"] < HAND_OVER_MIN * limits.nodes:
            return result
    if not left:
        return result
    budget = dict(left, workers=threads_for(limits, "solve"))  # the engine's cores are free now
    if (limits.multipv or 1) > 1:
        r, decided = _ask_solver(position, limits, budget, table)
        if decided:
            return _instead(position, result, r, limits)
        proof = {"proven": r.proven, "lower": r.lower, "upper": r.upper, "rows": _proven_rows(position, r)}
        return within_proof(result, proof)
    if result.best_move is None:
        return result
    # kept back for the engine's look at a choice left standing (``_left_standing``)
    if "time" in budget:
        budget["time"] = max(budget["time"] - STANDING_CHECK_TIME, budget["time"] / 2)
    if "nodes" in budget:
        budget["nodes"] = max(budget["nodes"] - STANDING_CHECK_NODES, budget["nodes"] // 2)
    r, choice, standing, nodes = questions.choice_or_value(
        position, _solver_limits(limits, budget), result.best_move, int(round(result.score)), table
    )
    if r is not None and _decides(r):
        return _instead(position, result, r, limits)
    result.nodes += nodes
    if choice is not None:
        _within_choice(position, result, *choice)
    elif standing is not None:
        what, lower, below, at_most, proven = standing
        _left_standing(
            position, result, what, lower, below, at_most, limits.seed, limits.time is not None, proven
        )
    return result


def _instead(position: Position, result, r, limits: Limits):
    """The solver's deciding result ``r`` in place of the engine's
    ``result``, with the engine's nodes, threads and depth (the depth its
    tree ended at, not the length of the solver's line: "depth 13" read as
    a shallow search)."""
    nodes, workers, depth = result.nodes, result.workers, result.depth
    r = _solved(position, r, limits, result.engine)
    r.nodes += nodes
    r.workers = workers
    r.depth = depth
    return r


def _within_choice(position: Position, result, move, lower: int, same: bool, proven=None) -> None:
    """``result`` (the engine's, in place) kept within what the solver
    proved of the choices (``solver.ChoiceProof``): the value is at least
    ``lower``; when the engine's move's choice (walking, its patch, the
    leather patch) is not the best, ``move`` -- of the best choice, proven
    worth at least as much as any move of another choice, so also as the
    engine's -- is played instead. Where the engine's choice is the best
    its move stays (``same``): its placement is not proven, unless it lost
    where another placement of its choice wins (then that one is played).
    ``proven`` "win": the position is proven won, and the move played wins."""
    result.lower = lower if result.lower is None else max(result.lower, lower)
    if result.score < lower:
        result.score, result.bound = lower, "lower"
        result.win_probability = win_probability_of(lower, phase_of(position))
    if proven == "win":
        result.proven, result.win_probability = "win", 1.0
    if not same:
        result.best_move, result.pv = move, [move]
        result.root_moves = [
            root_move(
                move,
                result.score,
                result.bound,
                result.win_probability,
                proven=proven,
                lower=lower,
                phase=phase_of(position),
            )
        ]
    elif proven == "win":  # the engine's move is proven to win: its row says so
        result.root_moves = [
            {**d, "proven": "win", "win_probability": 1.0} if d["move"] == move else d
            for d in result.root_moves
        ]


# the engine's look at the one choice left standing: at most this many
# nodes or seconds (the same decisions at 20,000 nodes as at 300,000 in the
# six games and the set position measured; benchmarks/results/standing/)
STANDING_CHECK_NODES = 20_000
STANDING_CHECK_TIME = 0.01


def _left_standing(
    position: Position, result, what, lower, below, at_most, seed=None, timed=False, proven=None
) -> None:
    """``result`` (the engine's, in place) after the choice tests ran out
    of budget with ``solver._ChoiceSearch.standing``'s answer: a move of
    another choice proven worth at least ``lower``, where the engine's is
    proven worth at most that (played as a proven choice is); or the one
    choice ``what`` not shown below ``below`` where the engine's was
    (walking, or the patch's placement the engine ranks first), its score
    then ``below``: an estimate, the value the tests found it alone may
    reach. That guess is played only if the engine itself, searching the
    move's child for STANDING_CHECK_NODES, does not value it below what its
    own move is proven worth at most (``at_most``): the tests had not yet
    shown a far worse choice below the test value (benchmarks/results/standing/).
    ``proven`` "win": ``lower`` proves that ``what`` wins."""
    if lower is not None:
        _within_choice(position, result, what, lower, False, proven)
        return
    # walking, or the placement of the patch the alpha-beta ranks first
    # (``ordered_moves``: one a patch, by the learned evaluation after it)
    moves = {m.code: m for m in position.legal_moves() if choice_of(m) == what}
    code = next((c for c in ordered_moves(position._c, 1, True) if c in moves), None)
    if code is None:
        return
    move = moves[code]
    value, nodes = _engine_value(position, move, seed, timed)
    result.nodes += nodes
    if value < at_most:
        return
    result.best_move, result.pv = move, [move]
    result.score, result.bound = below, "estimate"
    result.win_probability = win_probability_of(below, phase_of(position))
    result.root_moves = [root_move(move, below, "estimate", result.win_probability)]


def _engine_value(position: Position, move, seed, timed=False) -> tuple[float, int]:
    """The alpha-beta's value of ``move`` for the player to move (its
    search of the child within STANDING_CHECK_NODES, one thread, and
    STANDING_CHECK_TIME when the move is ``timed``; a node budget alone
    stays deterministic), and the nodes searched."""
    child = position.play(move)
    if child.is_over:
        r = finished_result(child, "alphabeta", seed)
    else:
        time = STANDING_CHECK_TIME if timed else None
        limits = Limits(nodes=STANDING_CHECK_NODES, time=time, workers=1, hash_mb=1, seed=seed)
        r = alphabeta.run(child, limits, alphabeta.check_options({}))
    return (r.score if child.to_move == position.to_move else -r.score), r.nodes


def settled(rows) -> bool:
    """Whether the solver's ``all_moves`` rows are final: each exact (its
    margin and who wins), or shown worth less than its patch's best
    placement (the budget cut none short), so the best is proven and each
    row says what is proven of it (a row "at most 3" may rank above an
    exact 1: ``rank_key``). Compared by margin and then by who wins
    (``solver.row_units``)."""
    units = [row_units(d) for d in rows]
    best: dict = {}
    for d, (lo, hi) in zip(rows, units):
        if lo >= hi:
            best[d["group"]] = max(best.get(d["group"], lo), lo)
    return all(lo >= hi or hi < best.get(d["group"], hi) for d, (lo, hi) in zip(rows, units))


def _row(position: Position, d: dict) -> dict:
    """A solver's row with every engine's keys."""
    return root_move(
        d["move"],
        d["score"],
        d["bound"],
        proven=d["proven"],
        lower=d["lower"],
        upper=d["upper"],
        phase=phase_of(position),
    )


BESIDE_MAX_TIME = 1.0  # seconds a move: from here the solver first, then the hand-over, gain more


def beside(engine: str, limits: Limits) -> bool:
    """Whether the solver runs beside the search rather than before it: the
    alpha-beta, a time limit alone (a node or depth budget stays
    deterministic) under BESIDE_MAX_TIME, one move asked for, and at least
    two threads. With a second, the hand-over's questions on the
    shortcut's table prove more than one thread beside the search for the
    whole move (the perfect-play set on two threads: 0.471 -> 0.353 points
    a move at 1 s, 0.392 -> 0.275 at 2 s, level at 0.25 and 0.5 s;
    benchmarks/results/best_choice/, round 3); under it the solver beside
    proves more (benchmarks/results/solver_beside.md)."""
    return (
        engine == "alphabeta"
        and limits.time is not None
        and limits.time < BESIDE_MAX_TIME
        and limits.nodes is None
        and limits.depth is None
        and (limits.multipv or 1) == 1
        and threads_for(limits, engine) >= 2
    )


def solver_beside(position: Position, limits: Limits, options: dict, module):
    """(result, proof) of the solver on one thread beside ``module``'s
    search on the others, both for the move time less the reserve that
    tests the engine's move when only a win is proven. A value the solver
    proves with its move is the answer (the search is halted then); else
    the engine's answer, with what was proven for :func:`keep_the_win`."""
    threads = threads_for(limits, "alphabeta")
    t0 = _time.perf_counter()
    seconds = float(limits.time or 0.0)  # ``beside`` holds: a time limit
    share = seconds * (1 - KEEP_SHARE)
    lock = threading.Lock()
    box: dict = {}

    def on_searcher(searcher) -> None:
        with lock:
            box["searcher"] = searcher
            if "solved" in box and _decides(box["solved"]):
                searcher.interrupt()

    def solve() -> None:
        budget: dict = {"time": share, "workers": 1}
        try:
            r = _solve_run(position, _solver_limits(limits, budget), {})
        except BaseException as e:  # re-raised in the caller's thread
            box["error"] = e
            return
        with lock:
            box["solved"] = r
            if _decides(r) and "searcher" in box:
                box["searcher"].interrupt()

    thread = threading.Thread(target=solve, name="patchsolve-solver", daemon=True)
    thread.start()
    try:
        result = module.run(position, limits.replace(time=share, workers=threads - 1), options, on_searcher)
    finally:
        thread.join()
    if "error" in box:
        raise box["error"]
    r = box["solved"]
    if _decides(r):
        r.engine = "alphabeta"
        r.seed = limits.seed
        r.workers = threads
        return r, None
    result.nodes += r.nodes
    result.workers = threads
    left = {"time": max(1e-3, seconds - (_time.perf_counter() - t0))}
    return result, {
        "proven": r.proven,
        "lower": r.lower,
        "upper": r.upper,
        "move": _winning_move(r),
        "limits": left,
    }


def _decides(r) -> bool:
    """The solver's result is the answer: an exact value and a move proven
    to keep it."""
    return r.bound == "exact" and bool(r.proven_best)


def _winning_move(r):
    """A root move the solver's result proves to win, or None."""
    return next((d["move"] for d in r.root_moves or () if d["proven"] == "win"), None)


def _apart(limits: Limits) -> bool:
    """Under a node budget alone, the near-end solver's nodes are its own
    and the engine keeps its whole budget: the deterministic counterpart
    of the solver beside the search, which under a time budget gets a core
    of its own for the move's time. SOLVER_NODES_SHARE is the solver's
    nodes per alpha-beta node in the same CPU time near the end (0.83 on
    the perfect-play set), so the solver gets what the engine's budget is
    worth in time. Node budgets stand in for timed play (self-play, the
    level ladders, reviews); counted against the engine's, the solver got
    a quarter of them and threw away wins it proves in a fraction of a
    second (benchmarks/results/tie_break/)."""
    return limits.nodes is not None and limits.time is None


def _share(limits: Limits, share: float, nodes: int) -> dict:
    """``share`` of the time and node budget of ``limits``, or ``nodes``
    nodes under a depth or iteration budget (deterministic): the shortcut's
    budget, and the reserve for testing the engine's move."""
    out: dict = {}
    if limits.time is not None:
        out["time"] = limits.time * share
    if limits.nodes is not None:
        out["nodes"] = max(1, int(limits.nodes * share))
    if not out:
        out["nodes"] = nodes
    return out


def keep_the_win(position: Position, result, proof):
    """``result`` (the engine's, on ``position``) with what the shortcut
    proved (:func:`within_proof`) and -- when a win is proven -- a move that
    keeps it: the engine's if it is proven to win (a win/loss test within
    the reserve, ``proof["limits"]``), else the solver's winning move (its
    line: that move alone). When the shortcut proved the win but no move
    for it, half the reserve tests the engine's move and the other half
    looks for a winning move (a win/loss solve of the position). The
    shortcut's solver nodes count in the answer's."""
    if proof is None:
        return result
    result.nodes += proof.get("nodes", 0)
    within_proof(result, proof)
    win = proof["move"]
    if proof["proven"] != "win" or result.best_move is None or result.best_move == win:
        return result
    if _proven_to_win(result):
        return result
    if win is None:
        half = {k: v / 2 if k == "time" else max(1, v // 2) for k, v in proof["limits"].items()}
        if _wins(position, result.best_move, half):
            return result
        win = _winning_move_of(position, half)
        if win is None or win == result.best_move:
            return result
    elif _wins(position, result.best_move, proof["limits"]):
        return result
    result.best_move, result.pv = win, [win]
    if result.bound != "estimate":  # what was proven was of the root or of the move replaced
        result.bound, result.proven_best = "estimate", False
    result.root_moves = [
        root_move(
            win, result.score, result.bound, 1.0, proven="win", lower=result.lower, phase=phase_of(position)
        )
    ]
    return result


def _proven_to_win(result) -> bool:
    """``result``'s move is proven to win: it keeps an exact value that wins
    (the hand-over's answer: exact, its move proven, and the outcome a win
    -- a margin of 0 included when its tie-break is won), or its row says
    the move itself is a proven win (the hand-over's choice proof). It is
    kept with no test. (Testing it again within the reserve could run out
    of time and swap it for a move that wins by less:
    benchmarks/results/best_choice/, round 3.)"""
    if result.bound == "exact" and result.proven_best and result.proven == "win":
        return True
    return any(d["move"] == result.best_move and d.get("proven") == "win" for d in result.root_moves)


def within_proof(result, proof):
    """``result`` kept within what the shortcut proved (in place, and
    returned): ranked rows within each move's proven bounds
    (``_rank_within``), and once the outcome is proven, the outcome and the
    margin's bounds (the engine's estimate of the position moved into
    them). Also what the engine reports while it searches
    (``on_iteration``), so that progress and a stopped search say no more
    than the answer would."""
    if proof.get("rows"):
        _rank_within(result, proof)
    if proof["proven"] is None:
        return result
    result.proven = proof["proven"]
    # what the result proved itself (the hand-over's exact value) stays: intersect
    result.lower = proof["lower"] if result.lower is None else max(result.lower, proof["lower"])
    result.upper = proof["upper"] if result.upper is None else min(result.upper, proof["upper"])
    result.score = min(max(result.score, result.lower), result.upper)
    result.win_probability = 1.0 if proof["proven"] == "win" else 0.0
    return result


def _rank_within(result, proof) -> None:
    """The engine's ranked rows (``result.root_moves``) kept within what
    the solver proved of each move (``proof["rows"]``): a proven value
    replaces the estimate, an estimate beyond a proven bound becomes that
    bound (its ``bound`` says which), and the solver's exact rows the
    engine did not rank join in; re-sorted, as many as before, the first
    row the answer."""
    known = proof["rows"]
    rows, seen = [], set()
    for d in result.root_moves:
        seen.add(d["move"])
        k = known.get(d["move"])
        if k is None:
            rows.append(d)
        elif k["lower"] >= k["upper"] or d["score"] > k["upper"]:
            rows.append({**k, "score": k["upper"], "bound": "exact" if k["lower"] >= k["upper"] else "upper"})
        elif d["score"] < k["lower"]:
            rows.append({**k, "score": k["lower"], "bound": "lower"})
        elif k["proven"]:  # the estimate stands, and the outcome is proven
            rows.append({**d, "lower": k["lower"], "upper": k["upper"], "proven": k["proven"]})
            rows[-1]["win_probability"] = k["win_probability"]
        else:
            rows.append({**d, "lower": k["lower"], "upper": k["upper"]})
    rows += [k for m, k in known.items() if m not in seen and k["lower"] >= k["upper"]]
    rows.sort(key=rank_key)
    keys = {k: None for d in rows for k in d}  # one set of keys for every row (None: not known)
    result.root_moves = [{**keys, **d} for d in rows[: max(1, len(result.root_moves))]]
    top = rows[0]
    if top["move"] != result.best_move:
        result.best_move, result.pv = top["move"], [top["move"]]
    result.score = top["score"]
    # the first row keeps the root's exact value: its margin, and who wins (a win is the
    # most there is at that margin; a loss is the root's value once the root is proven lost)
    outcome = top.get("proven")
    if (
        top["bound"] == "exact"
        and proof["lower"] == proof["upper"] == top["score"]
        and outcome is not None
        and (outcome == "win" or proof["proven"] == outcome)
    ):
        result.bound, result.proven_best = "exact", True
        result.win_probability = top["win_probability"]


def _wins(position: Position, move, budget: dict) -> bool:
    """``move`` is proven to win for ``position``'s player to move (within
    ``budget``, one thread: the test is small and runs alone)."""
    child = position.play(move)
    if child.is_over:
        return child.winner() == position.to_move
    r = _solve_run(child, Limits(hash_mb=SHORTCUT_HASH_MB[0], workers=1, **budget), {"wdl": True})
    return r.proven == ("win" if child.to_move == position.to_move else "loss")


def _winning_move_of(position: Position, budget: dict):
    """A move of ``position`` proven to win for its player to move (a
    win/loss solve within ``budget``, one thread), or None."""
    r = _solve_run(position, Limits(hash_mb=SHORTCUT_HASH_MB[0], workers=1, **budget), {"wdl": True})
    return r.best_move if r.proven == "win" and r.depth > 0 else None  # depth: the proven line's length


def _solver_limits(limits: Limits, budget: dict) -> Limits:
    """The solver's limits for ``budget`` (time, nodes, workers), within
    the search's ``limits``: its seed, and a table sized to the budget."""
    return Limits(hash_mb=_shortcut_hash_mb(limits, budget), seed=limits.seed, **budget)


def _shortcut_hash_mb(limits: Limits, budget: dict) -> int:
    """A table sized to the shortcut's small budget: a fresh 64 MB table
    costs more in first-touch page faults than a 0.1 s solve takes (at 0.25 s
    a move, 11-13 of 21 near-end positions proven with 64 MB, 15-17 with 4 MB;
    benchmarks/results/shortcut_table.md)."""
    small = budget.get("time", 0) <= SHORTCUT_SMALL_TIME and budget.get("nodes", 0) <= SHORTCUT_SMALL_NODES
    mb = SHORTCUT_HASH_MB[0] if small else SHORTCUT_HASH_MB[1]
    return min(mb, limits.hash_mb) if limits.hash_mb else mb


def _solve_run(position, limits, options, table=None):
    """The solver's run (on ``table`` if given); ``options`` checked (and
    completed) once, here."""
    return questions.ask(position, limits, options, table)


__all__ = [
    "near_end",
    "endgame_shortcut",
    "keep_the_win",
    "within_proof",
    "beside",
    "solver_beside",
    "settled",
    "hand_over",
    "ENDGAME_SPACES",
    "ENDGAME_SHARE",
    "ENDGAME_NODES",
    "BESIDE_MAX_TIME",
]
