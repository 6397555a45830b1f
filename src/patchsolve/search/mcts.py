"""Monte Carlo tree search: the Python side of ``patchsolve.search(engine="mcts")``.

The iterations run in C (``_mcts.Searcher``); this module checks the limits
and options, runs one search or several in worker processes (root
parallelism), merges the root statistics and builds the :class:`SearchResult`.

``DEFAULTS`` is the one table of the search parameters (the C side has no
defaults of its own). What the default configuration does and why:

- ``tree="twolevel"``: a buy is two decisions of the same player, which patch
  (or walk) and then which placement, placements added by progressive
  widening, most compact first, so that hundreds of near-identical
  placements do not starve the choice of what to buy. ``"plain"`` is
  full-width UCT over all legal moves, the baseline.
- ``leaf="eval"``: a new leaf is valued by the evaluation (the learned one
  when its weights are loaded): its margin, and as its win chance
  logistic(margin / 5.14), about Phi(margin / 8.75) for an evaluation
  whose error is 8.75 points; a patch chosen but not yet placed is first
  placed as a playout would. No playout: 3.5-4x the iterations a second.
- ``minimax=0.3``: implicit minimax backups (Lanctot et al. 2014). Each node
  also keeps the best leaf value below it for the player who chooses there,
  and UCT's exploitation term is 0.7 x the mean + 0.3 x that value.
- ``leaf="playout"``, ``policy="heuristic"`` (the default before): playouts
  buy the patch with the best button gain net of time, place it as
  compactly as a few sampled placements allow, and choose at random with
  probability ``epsilon``; ``"uniform"`` playouts are about twice as fast
  and nearly as good.
- ``value="blend"``: mostly the win/loss result, partly a logistic of the
  final margin, so the search still prefers larger wins and smaller losses.
- the MCTS-solver proves wins and losses; a proven win ends the search, in
  a proven loss the search goes on ignoring proofs to find the best loss.

How each value was chosen, and the options tried and retired, are in
``benchmarks/results/mcts.md``, ``benchmarks/results/mcts_knowledge.md`` and
``benchmarks/results/retired_options.md``.

Statistics are always from the point of view of the player to move in the
searched position: ``score`` is the mean margin (player to move minus
opponent) of the leaves through the chosen move (evaluated, or played out
to the end), ``win_probability`` their mean win chance (1.0 / 0.0 once
proven; ``result.proven`` is then "win" / "loss").
"""

from __future__ import annotations

import multiprocessing
import time as _time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from patchsolve.errors import LimitError
from patchsolve.rules.position import Move, Position, as_position
from patchsolve.search._mcts import Searcher
from patchsolve.search.endgame import endgame_shortcut, near_end
from patchsolve.search.limits import Limits, allocation, split, with_defaults
from patchsolve.search.proof import keep_the_win
from patchsolve.search.result import RootMove, SearchResult, finished_result, root_move
from patchsolve.search.stop import interruptible, raise_if_ctrl_c, stop_requested

DEFAULT_ITERATIONS = 20_000
DEFAULT_MAX_NODES = 4_000_000  # the tree indexes nodes with C ints: limits.py caps it at 2**30

CHOICES = {
    "tree": ("twolevel", "plain"),
    "policy": ("heuristic", "uniform"),
    "value": ("win", "margin", "blend"),
    "leaf": ("playout", "eval"),
}
DEFAULTS = {
    "tree": "twolevel",
    "policy": "heuristic",
    "value": "blend",
    "blend": 0.25,  # value="blend": weight of the margin reward
    "margin_scale": 10.0,  # margin reward = logistic(margin / margin_scale)
    "c": 0.7,  # UCT: mean + c * sqrt(ln N / n)
    "pw_c": 0.25,  # widening: at most 1 + pw_c * visits ** pw_alpha placements
    "pw_alpha": 0.5,
    "solver": True,
    "epsilon": 0.25,  # heuristic playouts: chance of a random walk/patch choice
    "samples": 4,  # heuristic playouts: placements sampled, most compact kept
    "time_weight": 1.0,  # heuristic playouts: buttons one time space is worth
    "hole_penalty": 4,  # placement order/playouts: points against a 1-square hole
    "leaf": "eval",  # a new leaf is valued by the (learned) evaluation; "playout": played out
    "minimax": 0.3,  # implicit minimax backups: weight of the best-line value in UCT
}
_FLOATS = {
    "blend": (0.0, 1.0),
    "margin_scale": (1e-9, None),
    "c": (0.0, None),
    "pw_c": (1e-9, None),
    "pw_alpha": (0.0, 1.0),
    "epsilon": (0.0, 1.0),
    "time_weight": (0.0, 10.0),
    "minimax": (0.0, 1.0),
}


# --------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------


def _positive_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise LimitError(f"{name} must be a positive integer, not {value!r}")
    return value


def _budget(limits: Limits) -> tuple[int | None, float | None, int, int]:
    """(iterations, seconds, seed, workers) with the MCTS's defaults."""
    iterations, seconds = limits.iterations, limits.time
    if iterations is None and seconds is None:
        iterations = DEFAULT_ITERATIONS
    return iterations, seconds, limits.seed or 0, limits.workers or 1


def check_options(options: dict) -> dict:
    """The MCTS options completed with the defaults, each checked (a LimitError names a bad one)."""
    return check_config(options)


def check_config(options: dict) -> dict:
    """The full MCTS configuration: defaults overridden by ``options``,
    every value checked (LimitError names the bad one)."""
    cfg = with_defaults(options, DEFAULTS, "MCTS")
    for name, allowed in CHOICES.items():
        if cfg[name] not in allowed:
            raise LimitError(f"{name} must be one of {', '.join(allowed)}, not {cfg[name]!r}")
    for name, (lo, hi) in _FLOATS.items():
        v = cfg[name]
        if (
            isinstance(v, bool)
            or not isinstance(v, (int, float))
            or v != v
            or v < lo
            or (hi is not None and v > hi)
        ):
            raise LimitError(f"{name} must be a number in [{lo}, {'inf' if hi is None else hi}], not {v!r}")
        cfg[name] = float(v)
    if not isinstance(cfg["solver"], bool):
        raise LimitError(f"solver must be True or False, not {cfg['solver']!r}")
    if (
        isinstance(cfg["hole_penalty"], bool)
        or not isinstance(cfg["hole_penalty"], int)
        or not 0 <= cfg["hole_penalty"] <= 16
    ):
        raise LimitError(f"hole_penalty must be an integer in 0 .. 16, not {cfg['hole_penalty']!r}")
    cfg["samples"] = _positive_int("samples", cfg["samples"])
    if cfg["samples"] > 64:
        raise LimitError(f"samples must be at most 64, not {cfg['samples']}")
    return cfg


# --------------------------------------------------------------------------
# Root statistics: one worker's, merged, and the choice of a move
# --------------------------------------------------------------------------


@dataclass
class _Stat:
    visits: int = 0
    value: float = 0.0
    wins: int = 0
    margin: int = 0
    proven: int = 0  # +1 win / -1 loss for the player to move at the root

    def add(self, d: Mapping[str, Any]) -> None:
        self.visits += d["visits"]
        self.value += d["value"]
        self.wins += d["wins"]
        self.margin += d["margin"]
        self.proven = self.proven or d["proven"]  # a proof in any worker is a proof


@dataclass
class _Option:
    """A first-level choice: a full move, or (two-level tree) a patch whose
    placements are ``children`` (code -> _Stat)."""

    stat: _Stat = field(default_factory=_Stat)
    children: dict = field(default_factory=dict)


def _merge(children_lists: Iterable[list[dict]]) -> dict[tuple[str, object], _Option]:
    """Sum the root statistics of several searches of the same position."""
    options: dict[tuple[str, object], _Option] = {}
    for children in children_lists:
        for d in children:
            key = ("patch", d["patch"]) if d["patch"] >= 0 else ("move", d["move"])
            opt = options.setdefault(key, _Option())
            opt.stat.add(d)
            for g in d.get("children", ()):
                opt.children.setdefault(g["move"], _Stat()).add(g)
    return options


def _pick(stats: Mapping[Any, _Stat]) -> Any:
    """A proven win, else the most visited not proven lost, else the most visited."""
    if not stats:
        return None
    for k, s in stats.items():
        if s.proven > 0:
            return k
    alive = {k: s for k, s in stats.items() if s.proven >= 0} or stats
    return max(alive, key=lambda k: (alive[k].visits, alive[k].value))


def _choose(
    options: dict[tuple[str, object], _Option], searcher: Any, position: Position
) -> tuple[int, _Stat]:
    """(best move code, the _Stat that speaks for it)."""
    key = _pick({k: o.stat for k, o in options.items()})
    opt = options[key]
    if key[0] == "move":
        return key[1], opt.stat
    code = _pick(opt.children)
    if code is None or opt.children[code].visits == 0 and opt.children[code].proven == 0:
        return searcher.best_placement(position._c, key[1]), opt.stat
    return code, opt.children[code]


def _proven_name(p: int) -> str | None:
    return "win" if p > 0 else "loss" if p < 0 else None


def _root_moves(options: dict[tuple[str, object], _Option]) -> list[RootMove]:
    """Per-root-move statistics, best first as ``_pick`` chooses: proven
    wins, then by the visits of the move's choice (``choice_visits``: its
    patch's for a buy, its own for walking or the leather patch), then the
    placement's own (``visits``), each tie broken by value; for
    ``patchsolve eval``."""
    # (sort key, move code, the move's _Stat, its patch's _Stat or None)
    rows: list[tuple[tuple[int, float, int, float], Any, _Stat, _Stat | None]] = []
    for key, opt in options.items():
        if key[0] == "move":
            rows.append(
                ((opt.stat.visits, opt.stat.value, opt.stat.visits, opt.stat.value), key[1], opt.stat, None)
            )
            continue
        for code, st in opt.children.items():
            rows.append(((opt.stat.visits, opt.stat.value, st.visits, st.value), code, st, opt.stat))
    rows.sort(key=lambda r: (r[2].proven > 0, r[0]), reverse=True)
    out = []
    for _, code, st, parent in rows:
        n = st.visits
        proven = _proven_name(st.proven)
        out.append(
            root_move(
                Move.from_code(code),
                st.margin / n if n else None,
                "estimate",
                win_probability=float(proven == "win") if proven else (st.wins / n if n else None),
                proven=proven,
                visits=n,
                value=st.value / n if n else None,
                choice_visits=n if parent is None else parent.visits,
            )
        )
    return out


# --------------------------------------------------------------------------
# Searching
# --------------------------------------------------------------------------


def _derive_seed(seed: int, index: int) -> int:
    """Independent-looking per-worker / per-move seeds (splitmix64)."""
    x = (seed + 0x9E3779B97F4A7C15 * (index + 1)) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return x ^ (x >> 31)


def _new_searcher(cfg: dict, max_nodes: int) -> Any:
    with allocation("MCTS tree", None):
        s = Searcher(max_nodes)
    s.configure(**cfg)
    return s


def _run_worker(args: tuple) -> tuple[list[dict], list[int], int, int]:
    """One root-parallel worker (a separate process): search and report."""
    fields_core, cfg, max_nodes, iterations, deadline, seed = args
    s = _new_searcher(cfg, max_nodes)
    s.set_root(fields_core, False)
    seconds = 0.0 if deadline is None else max(1e-3, deadline - _time.monotonic())
    done, _ = s.run(iterations or 0, seconds, seed)
    return s.root_children(), s.pv(), done, s.n_nodes


def _finish(
    position: Position,
    searcher: Any,
    children_lists: list[list[dict]],
    pvs: list[list[int]],
    iterations: int,
    nodes: int,
    elapsed: float,
    seed: int,
) -> SearchResult:
    options = _merge(children_lists)
    code, st = _choose(options, searcher, position)
    best = Move.from_code(code)
    pv = next((p for p in pvs if p and p[0] == code), [code])
    n = st.visits
    proven = _proven_name(st.proven)
    if proven is not None:
        win_probability = 1.0 if st.proven > 0 else 0.0
    else:
        win_probability = st.wins / n if n else 0.5
    return SearchResult(
        best_move=best,
        score=st.margin / n if n else 0.0,
        bound="estimate",
        pv=[Move.from_code(c) for c in pv],
        depth=len(pv),
        nodes=nodes,
        time=elapsed,
        nps=iterations / elapsed if elapsed > 0 else 0.0,
        seed=seed,
        engine="mcts",
        iterations=iterations,
        win_probability=win_probability,
        root_moves=_root_moves(options),
        proven=proven,
    )


def run(position: Position, limits: Limits, cfg: dict) -> SearchResult:
    """Search ``position`` (not finished) by MCTS for ``iterations`` and/or
    ``time`` seconds (whichever runs out first; neither: 20,000 iterations).
    The same seed and iteration budget give the same answer, also with
    ``workers`` > 1, which runs that many independent searches in processes,
    each with the full budget and a seed derived from ``seed``, and sums
    their root statistics. ``cfg``: the full configuration ``check_config``
    returns (the dispatcher checks once)."""
    iterations, time, seed, workers = _budget(limits)
    max_nodes = limits.max_nodes or DEFAULT_MAX_NODES
    t0 = _time.monotonic()
    searcher = _new_searcher(cfg, max_nodes if workers == 1 else 16)
    searcher.set_root(position._c, False)
    if workers == 1:
        done, _ = searcher.run(iterations or 0, time or 0.0, seed)
        result = _finish(
            position,
            searcher,
            [searcher.root_children()],
            [searcher.pv()],
            done,
            searcher.n_nodes,
            _time.monotonic() - t0,
            seed,
        )
    else:
        deadline = None if time is None else t0 + time
        jobs = [
            (position._c, cfg, max_nodes, iterations, deadline, _derive_seed(seed, i)) for i in range(workers)
        ]
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            reports = pool.map(_run_worker, jobs)
        result = _finish(
            position,
            searcher,
            [r[0] for r in reports],
            [r[1] for r in reports],
            sum(r[2] for r in reports),
            sum(r[3] for r in reports),
            _time.monotonic() - t0,
            seed,
        )
    result.workers = workers
    return result


class MCTSTree:
    """An MCTS that keeps its tree between searches: each search starts from
    the subtree of the position it is asked about when that position was
    reached from its previous root (after its own move and the opponent's
    replies). Single process only. :meth:`new_game` drops the tree. The
    arena's player of spec ``mcts`` is one
    (:class:`patchsolve.arena.players.MCTSPlayer`); the web page's analysis
    searches one in time slices.

    >>> tree = MCTSTree(iterations=2000, seed=1)
    >>> result = tree.search(position)
    """

    def __init__(self, reuse: bool = True, endgame_solve: bool = True, **kwargs: Any) -> None:
        limits, options = split(kwargs)
        self.limits = limits.for_engine("mcts")
        if (limits.workers or 1) != 1:
            raise LimitError("MCTSTree runs one process: use patchsolve.search for workers > 1")
        self.iterations, self.time, self.seed, _ = _budget(limits)
        self.endgame = bool(endgame_solve)
        self.max_nodes = limits.max_nodes or DEFAULT_MAX_NODES
        self.config = check_config(options)
        self.reuse = bool(reuse)
        self._searcher = _new_searcher(self.config, self.max_nodes)
        self._moves = 0
        self.reused_visits = 0  # visits kept from the previous search (last call)

    def search(self, position: Position) -> SearchResult:
        """Search ``position`` (from the kept subtree when it was reached
        from the previous root) and return the SearchResult; Ctrl-C and
        :func:`patchsolve.request_stop` stop it as they stop
        :func:`patchsolve.search`."""
        position = as_position(position)
        seed = _derive_seed(self.seed, self._moves)
        self._moves += 1
        with interruptible():
            result = self._search(position, seed)
            result.interrupted = stop_requested()
        raise_if_ctrl_c(result)
        return result

    def _search(self, position: Position, seed: int) -> SearchResult:
        t0 = _time.monotonic()
        budget = self.time
        if position.is_over:
            return finished_result(position, "mcts", seed)
        proof = None
        if self.endgame and near_end(position):
            solved, _, proof = endgame_shortcut(position, Limits(time=self.time, seed=seed), "mcts")
            if solved is not None:
                return solved
        self.reused_visits = self._searcher.set_root(position._c, self.reuse)
        # the endgame try, the reserve to test a proven win's move and finding
        # the kept subtree count against the time budget
        reserve = proof.reserve.get("time", 0.0) if proof else 0.0
        left = 0.0 if budget is None else max(1e-3, budget - reserve - (_time.monotonic() - t0))
        done, _ = self._searcher.run(self.iterations or 0, left, seed)
        found = _finish(
            position,
            self._searcher,
            [self._searcher.root_children()],
            [self._searcher.pv()],
            done,
            self._searcher.n_nodes,
            _time.monotonic() - t0,
            seed,
        )
        return keep_the_win(position, found, proof)

    def new_game(self) -> None:
        """Drop the tree and restart the per-move seeds, as when made."""
        self._searcher = _new_searcher(self.config, self.max_nodes)
        self._moves = 0


__all__ = ["run", "MCTSTree", "DEFAULTS", "check_config", "check_options"]
