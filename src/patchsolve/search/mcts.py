"""Monte Carlo tree search: the Python side of ``patchsolve.search(engine="mcts")``.

The iterations run in C (``_mcts.Searcher``); this module checks the limits
and options, runs one search or several in worker processes (root
parallelism), merges the root statistics and builds the :class:`SearchResult`.

Default configuration (why, in short; the figures are in
``benchmarks/bench_mcts.py`` and the branch's report):

- ``tree="twolevel"``: a buy is two decisions of the same player, which patch
  (or walk) then which placement, placements added by progressive widening
  (``pw_c=0.5``) most compact first. Plain full-width UCT spends its
  iterations trying each of up to 1345 near-identical root placements once;
  the two-level tree beats it clearly at equal time.
- ``policy="heuristic"``: playouts buy the patch with the best button gain
  net of time (``time_weight``), place it as compactly as ``samples`` random
  placements allow, and pick walk or a patch at random with probability
  ``epsilon=0.25`` (0.1 and 0.4 were weaker in self-play). At equal time it
  is only slightly better than uniform playouts, which run about twice as fast.
- ``value="blend"``: 0.75 x win/loss + 0.25 x logistic((margin - centre) / 10)
  with the centre at 0. Pure win/loss lost about 36% of games against it in
  self-play; pure margin was about even. Centred at 0 the margin reward
  saturates once a game is decided (every move scores about 0 or 1), so the
  search stops caring by how much it wins or loses. ``centre_margin=True``
  centres it on the alpha-beta evaluation of the root instead; with
  ``blend=0.5`` that cut the points lost per move (judged by a deeper
  alpha-beta search on 49 mid-game positions) from 2.1 to 1.2, but did not
  win more games: against alpha-beta 37 of 120 games at 0.1 s per move
  (default 29), 7 of 40 at 0.25 s (default 13), even in self-play (19 of 40).
  Winning, not the margin, is what the default optimises, so it stays off.
- the MCTS-solver is on: proven wins and losses are reported as such. A
  proven win ends the search; in a proven loss the search goes on ignoring
  proofs, so the player still picks the loss with the best margin and the
  most chances against a fallible opponent.
- ``playout_plies=0``: playouts run to the end. Cutting them off after a few
  plies and scoring with a static evaluation (``playout_plies``,
  ``eval_scale``) or the ``policy="eval"`` playouts (each option scored by
  that evaluation) are available, but were no stronger against alpha-beta.
- ``c=0.7`` (UCT: mean + c * sqrt(ln N / n)); 0.4 and 1.0 were no better.
- ``minimax=0``: implicit minimax backups (Lanctot et al. 2014) are off.
  With ``minimax=a`` every node also keeps the alpha-beta evaluation backed
  up by minimax over its children (exact once a line reaches the end), and
  selection uses (1 - a) x mean + a x logistic(minimax / eval_scale). Against
  alpha-beta at 0.1 s per move it was no better at a = 0.1 or 0.2 and much
  worse at 0.6 or 1 (``benchmarks/RESULTS_mcts.md``): the static evaluation
  is good only behind a few plies of full-width search.

The static evaluation used by cut-off playouts, ``policy="eval"`` and the
minimax backups is the alpha-beta searcher's tuned one
(``_alphabeta.pxd``: ``evaluate_margin``), so both engines judge a position
by the same numbers.

Alpha-beta hybrids (all off by default; ``_alphabeta.probe_value`` runs a
fixed-depth heuristic alpha-beta search, with the engine's placement
pruning, move ordering and a TT kept by the searcher across probes):

- ``ab_root_depth`` > 0: before iterating, every option at the root (walk,
  or a patch at its first placement) is probed by iterative deepening, one
  depth for all options at a time, within ``ab_root_share`` of the time (to
  ``ab_root_depth`` plies under an iteration budget); the deepest values
  found for all options become ``ab_root_visits`` virtual visits of each
  (``ab_root_placements`` > 1: a patch is worth the best probe of its first
  k placements). Under an iteration budget (no time) the probes go all the
  way to ``ab_root_depth`` (deterministic): keep it small there (4-6).
  Measured at 0.1 s a move against alpha-beta (paired games, seeds 11-18):
  ``ab_root_depth=30, ab_root_share=0.3, ab_root_visits=500`` won 38.8% of
  320 games (mean margin -4.0) where the default won about 30% (-6.5 to -8);
  not yet enough to make it the default.
- ``ab_prior_depth`` > 0: a decision node (which patch, or walk) with at
  least ``ab_prior_min`` visits gives each of its options
  ``ab_prior_visits`` virtual visits valued by a depth-``ab_prior_depth``
  probe (at most ``ab_prior_nodes`` nodes each, 0 = no limit).
- ``ab_leaf_depth`` > 0: each new leaf's reward blends in a probe of its
  position with weight ``ab_leaf_weight``.

Virtual visits count like playouts whose reward (``value="blend"``: the
same mix of logistic(margin / eval_scale) and logistic(margin /
margin_scale)) comes from the probe's margin for the option's mover.

Statistics are always from the point of view of the player to move in the
searched position: ``score`` is the mean final margin (player to move minus
opponent) of the playouts through the chosen move, ``win_probability`` their
win rate (1.0 / 0.0 once proven; ``result.proven`` is then "win" / "loss").
"""

from __future__ import annotations

import multiprocessing
import os
import time as _time
from dataclasses import dataclass, field

from patchsolve.errors import PatchsolveError
from patchsolve.position import Move, Position
from patchsolve.search._mcts import Searcher
from patchsolve.search.result import SearchResult

DEFAULT_ITERATIONS = 20_000
ENDGAME_SPACES = 15        # near the end, try the exact solver first ...
ENDGAME_SHARE = 0.25       # ... with this share of the time budget
ENDGAME_NODES = 200_000    # ... or this many nodes under an iteration budget (deterministic)
DEFAULT_MAX_NODES = 4_000_000
MAX_NODES_LIMIT = 1 << 30   # the tree indexes nodes with C ints; doubling must not overflow

CHOICES = {
    "tree": ("twolevel", "plain"),
    "policy": ("heuristic", "uniform", "eval"),
    "value": ("win", "margin", "blend"),
}
DEFAULTS = {
    "tree": "twolevel",
    "policy": "heuristic",
    "value": "blend",
    "blend": 0.25,          # value="blend": weight of the margin reward
    "margin_scale": 10.0,   # margin reward = logistic((margin - centre) / margin_scale)
    "c": 0.7,               # UCT: mean + c * sqrt(ln N / n)
    "pw_c": 0.5,            # widening: at most 1 + pw_c * visits ** pw_alpha placements
    "pw_alpha": 0.5,
    "solver": True,
    "epsilon": 0.25,        # heuristic playouts: chance of a random walk/patch choice
    "samples": 4,           # heuristic playouts: placements sampled, most compact kept
    "time_weight": 1.0,     # heuristic playouts: buttons one time space is worth
    "hole_penalty": 4,      # placement order/playouts: points against a 1-square hole
    "playout_plies": 0,     # > 0: cut playouts off after this many plies and evaluate
    "eval_scale": 5.0,      # win chance of an evaluated margin m: logistic(m / eval_scale)
    "minimax": 0.0,         # selection mixes in this much of the implicit minimax value
    "centre_margin": False,  # True: centre = the root's evaluated margin (else 0)
    "ab_prior_depth": 0,    # > 0: seed the options of decision nodes with a depth-d alpha-beta value
    "ab_prior_visits": 20,  # ... worth this many virtual visits each
    "ab_prior_min": 0,      # ... once the decision node has this many visits
    "ab_prior_nodes": 0,    # ... each probe stopped after this many nodes (0: no limit)
    "ab_hash_mb": 8,        # transposition table of the alpha-beta probes (megabytes)
    "ab_leaf_depth": 0,     # > 0: each new leaf's result blends in a depth-d alpha-beta value ...
    "ab_leaf_weight": 0.5,  # ... with this weight
    "ab_root_depth": 0,     # > 0: before iterating, probe the root's options by alpha-beta up to this depth ...
    "ab_root_share": 0.5,   # ... within this share of the time budget ...
    "ab_root_visits": 200,  # ... and give each option the deepest values as this many virtual visits
    "ab_root_placements": 1,  # ... a patch option valued by the best of its first k placements
}
_INTS = {"ab_prior_depth": (0, 20), "ab_prior_visits": (0, 1_000_000), "ab_prior_min": (0, 2**30),
         "ab_prior_nodes": (0, 2**40), "ab_hash_mb": (1, 4096), "ab_leaf_depth": (0, 20),
         "ab_root_depth": (0, 100), "ab_root_visits": (0, 1_000_000),
         "ab_root_placements": (1, 8)}
_FLOATS = {"blend": (0.0, 1.0), "margin_scale": (1e-9, None), "c": (0.0, None),
           "pw_c": (1e-9, None), "pw_alpha": (0.0, 1.0), "epsilon": (0.0, 1.0),
           "time_weight": (0.0, 10.0), "eval_scale": (1e-9, None),
           "minimax": (0.0, 1.0), "ab_leaf_weight": (0.0, 1.0),
           "ab_root_share": (0.0, 0.95)}


class LimitError(PatchsolveError):
    """A search limit or MCTS option that is out of range or of the wrong type."""


# --------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------

def _positive_int(name, value, allow_none=True):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise LimitError(f"{name} must be a positive integer, not {value!r}")
    return value


def _check_limits(iterations, time, seed, workers):
    iterations = _positive_int("iterations", iterations)
    if time is not None:
        if isinstance(time, bool) or not isinstance(time, (int, float)) or not time > 0 or time != time \
                or time == float("inf"):
            raise LimitError(f"time must be a positive number of seconds, not {time!r}")
        time = float(time)
    if iterations is None and time is None:
        iterations = DEFAULT_ITERATIONS
    if seed is None:
        seed = 0
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise LimitError(f"seed must be an integer in 0 .. 2**64-1, not {seed!r}")
    workers = _positive_int("workers", workers, allow_none=False)
    if workers > 256:
        raise LimitError(f"workers must be at most 256, not {workers}")
    return iterations, time, seed, workers


def check_config(options: dict) -> dict:
    """The full MCTS configuration: defaults overridden by ``options``,
    every value checked (LimitError names the bad one)."""
    unknown = sorted(set(options) - set(DEFAULTS) - {"max_nodes"})
    if unknown:
        raise LimitError(f"unknown MCTS option(s) {', '.join(unknown)} "
                         f"(known: iterations, time, seed, workers, {', '.join(DEFAULTS)}, max_nodes)")
    cfg = dict(DEFAULTS)
    cfg.update({k: v for k, v in options.items() if k != "max_nodes"})
    for name, allowed in CHOICES.items():
        if cfg[name] not in allowed:
            raise LimitError(f"{name} must be one of {', '.join(allowed)}, not {cfg[name]!r}")
    for name, (lo, hi) in _FLOATS.items():
        v = cfg[name]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v or v < lo or (hi is not None and v > hi):
            raise LimitError(f"{name} must be a number in [{lo}, {'inf' if hi is None else hi}], not {v!r}")
        cfg[name] = float(v)
    for name in ("solver", "centre_margin"):
        if not isinstance(cfg[name], bool):
            raise LimitError(f"{name} must be True or False, not {cfg[name]!r}")
    if isinstance(cfg["hole_penalty"], bool) or not isinstance(cfg["hole_penalty"], int) \
            or not 0 <= cfg["hole_penalty"] <= 16:
        raise LimitError(f"hole_penalty must be an integer in 0 .. 16, not {cfg['hole_penalty']!r}")
    if isinstance(cfg["playout_plies"], bool) or not isinstance(cfg["playout_plies"], int) \
            or not 0 <= cfg["playout_plies"] <= 1000:
        raise LimitError(f"playout_plies must be an integer in 0 .. 1000, not {cfg['playout_plies']!r}")
    for name, (lo, hi) in _INTS.items():
        v = cfg[name]
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise LimitError(f"{name} must be an integer in {lo} .. {hi}, not {v!r}")
    cfg["samples"] = _positive_int("samples", cfg["samples"], allow_none=False)
    if cfg["samples"] > 64:
        raise LimitError(f"samples must be at most 64, not {cfg['samples']}")
    return cfg


def _check_position(position):
    if not isinstance(position, Position):
        raise PatchsolveError(f"search needs a patchsolve.Position, not {type(position).__name__}")
    return position


def _max_nodes(options):
    n = options.get("max_nodes", DEFAULT_MAX_NODES)
    _positive_int("max_nodes", n, allow_none=False)
    if not 16 <= n <= MAX_NODES_LIMIT:
        raise LimitError(f"max_nodes must be between 16 and {MAX_NODES_LIMIT}, not {n}")
    return n


# --------------------------------------------------------------------------
# Root statistics: one worker's, merged, and the choice of a move
# --------------------------------------------------------------------------

@dataclass
class _Stat:
    visits: int = 0
    value: float = 0.0
    wins: int = 0
    margin: int = 0
    proven: int = 0          # +1 win / -1 loss for the player to move at the root

    def add(self, d):
        self.visits += d["visits"]
        self.value += d["value"]
        self.wins += d["wins"]
        self.margin += d["margin"]
        self.proven = self.proven or d["proven"]   # a proof in any worker is a proof


@dataclass
class _Option:
    """A first-level choice: a full move, or (two-level tree) a patch whose
    placements are ``children`` (code -> _Stat)."""

    stat: _Stat = field(default_factory=_Stat)
    children: dict = field(default_factory=dict)


def _merge(children_lists):
    """Sum the root statistics of several searches of the same position."""
    options = {}
    for children in children_lists:
        for d in children:
            key = ("patch", d["patch"]) if d["patch"] >= 0 else ("move", d["move"])
            opt = options.setdefault(key, _Option())
            opt.stat.add(d)
            for g in d.get("children", ()):
                opt.children.setdefault(g["move"], _Stat()).add(g)
    return options


def _pick(stats: dict):
    """A proven win, else the most visited not proven lost, else the most visited."""
    if not stats:
        return None
    for k, s in stats.items():
        if s.proven > 0:
            return k
    alive = {k: s for k, s in stats.items() if s.proven >= 0} or stats
    return max(alive, key=lambda k: (alive[k].visits, alive[k].value))


def _choose(options, searcher, position):
    """(best move code, the _Stat that speaks for it)."""
    key = _pick({k: o.stat for k, o in options.items()})
    opt = options[key]
    if key[0] == "move":
        return key[1], opt.stat
    code = _pick(opt.children)
    if code is None or opt.children[code].visits == 0 and opt.children[code].proven == 0:
        return searcher.best_placement(position._c, key[1]), opt.stat
    return code, opt.children[code]


def _proven_name(p):
    return "win" if p > 0 else "loss" if p < 0 else None


def _root_moves(options):
    """Per-root-move statistics, best first (first-level visits, then the
    placement's own), for ``patchsolve eval``."""
    rows = []
    for key, opt in options.items():
        if key[0] == "move":
            rows.append(((opt.stat.visits, opt.stat.visits), key[1], opt.stat, None))
            continue
        for code, st in opt.children.items():
            rows.append(((opt.stat.visits, st.visits), code, st, opt.stat))
    rows.sort(key=lambda r: (r[2].proven > 0, r[0]), reverse=True)
    out = []
    for _, code, st, parent in rows:
        n = st.visits
        out.append({
            "move": Move.from_code(code),
            "visits": n,
            "mean": st.margin / n if n else None,
            "win_rate": st.wins / n if n else None,
            "value": st.value / n if n else None,
            "proven": _proven_name(st.proven),
            "patch_visits": None if parent is None else parent.visits,
        })
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


def _new_searcher(cfg, max_nodes):
    s = Searcher(max_nodes)
    s.configure(**cfg)
    return s


def _prime_root(searcher, cfg, seconds):
    """Deep alpha-beta root priors (option ab_root_depth) within
    ``ab_root_share`` of ``seconds`` (None: to ab_root_depth, deterministic).
    Returns the seconds used."""
    if not cfg["ab_root_depth"]:
        return 0.0
    t0 = _time.monotonic()
    searcher.prime_root(0.0 if seconds is None else max(1e-4, seconds * cfg["ab_root_share"]))
    return _time.monotonic() - t0


def _run_worker(args):
    """One root-parallel worker (a separate process): search and report."""
    fields_core, cfg, max_nodes, iterations, deadline, seed = args
    s = _new_searcher(cfg, max_nodes)
    s.set_root(fields_core, False)
    _prime_root(s, cfg, None if deadline is None else deadline - _time.monotonic())
    seconds = 0.0 if deadline is None else max(1e-3, deadline - _time.monotonic())
    done, _ = s.run(iterations or 0, seconds, seed)
    return s.root_children(), s.pv(), done, s.n_nodes


def _finish(position, searcher, children_lists, pvs, iterations, nodes, elapsed, seed, cfg):
    if position.is_over:
        # nobody is to move: the score is player 0's margin, as a finished
        # game has no other point of view
        a, b = position.scores()
        return SearchResult(best_move=None, score=float(a - b), bound="exact", time=elapsed,
                            seed=seed, engine="mcts", iterations=0)
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
    result = SearchResult(
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
    )
    result.proven = proven       # "win" / "loss" once the chosen move is proven
    result.config = dict(cfg)
    return result


def _near_end(position) -> bool:
    return not position.is_over and 53 - min(position.time(0), position.time(1)) <= ENDGAME_SPACES


def _endgame_solve(position, time, seed, t0):
    """Close to the end, random playouts misjudge what the exact solver
    proves in a fraction of the budget: try it first (a share of the time,
    or a fixed node budget, so an iteration budget stays deterministic).
    Returns a SearchResult when the value is proven, else None."""
    from patchsolve.search.solver import solve

    budget = {"time": time * ENDGAME_SHARE} if time is not None else {"nodes": ENDGAME_NODES}
    r = solve(position, **budget)
    if r.bound != "exact":
        return None
    r.engine = "mcts"
    r.seed = seed
    r.iterations = 0
    # the solver names the winner of a proven line (tie rule included)
    r.win_probability = {"win": 1.0, "loss": 0.0}.get(r.proven, 0.5)
    r.time = _time.monotonic() - t0
    return r


def search_mcts(position, iterations=None, time=None, seed=0, workers=1, **options) -> SearchResult:
    """Search ``position`` by MCTS for ``iterations`` and/or ``time`` seconds
    (whichever runs out first; neither: 20,000 iterations). The same seed and
    iteration budget give the same answer (also with ``workers`` > 1, which
    runs that many independent searches in processes, each with the full
    budget and a seed derived from ``seed``, and sums their root statistics).
    ``options``: see ``DEFAULTS`` (tree, policy, value, c, ...) and max_nodes;
    ``endgame_solve`` (default True): within 15 spaces of the end, return the
    exact solver's move when it proves the value within a quarter of the time
    (or 200,000 nodes under an iteration budget)."""
    position = _check_position(position)
    iterations, time, seed, workers = _check_limits(iterations, time, seed, workers)
    endgame = bool(options.pop("endgame_solve", True))
    max_nodes = _max_nodes(options)
    cfg = check_config(options)
    t0 = _time.monotonic()
    if endgame and _near_end(position):
        solved = _endgame_solve(position, time, seed, t0)
        if solved is not None:
            return solved
        if time is not None:
            time = max(1e-3, time - (_time.monotonic() - t0))
    searcher = _new_searcher(cfg, max_nodes if workers == 1 else 16)
    searcher.set_root(position._c, False)
    if position.is_over:
        return _finish(position, searcher, [], [], 0, 0, 0.0, seed, cfg)
    if workers == 1:
        if time is not None:
            time = max(1e-3, time - _prime_root(searcher, cfg, time))
        else:
            _prime_root(searcher, cfg, None)
        done, _ = searcher.run(iterations or 0, time or 0.0, seed)
        return _finish(position, searcher, [searcher.root_children()], [searcher.pv()], done,
                       searcher.n_nodes, _time.monotonic() - t0, seed, cfg)
    deadline = None if time is None else t0 + time
    jobs = [(position._c, cfg, max_nodes, iterations, deadline, _derive_seed(seed, i)) for i in range(workers)]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        reports = pool.map(_run_worker, jobs)
    return _finish(position, searcher, [r[0] for r in reports], [r[1] for r in reports],
                   sum(r[2] for r in reports), sum(r[3] for r in reports), _time.monotonic() - t0, seed, cfg)


class MCTSPlayer:
    """An MCTS player for self-play and matches that keeps its tree between
    moves: each search starts from the subtree of the position it is asked
    about when that position was reached from its previous root (after its
    own move and the opponent's replies). Single process only.

    >>> player = MCTSPlayer(time=0.5, seed=1)
    >>> move = player.choose(position)
    """

    def __init__(self, iterations=None, time=None, seed=0, reuse=True, **options):
        self.iterations, self.time, self.seed, _ = _check_limits(iterations, time, seed, 1)
        self.endgame = bool(options.pop("endgame_solve", True))
        self.max_nodes = _max_nodes(options)
        self.config = check_config(options)
        self.reuse = bool(reuse)
        self._searcher = _new_searcher(self.config, self.max_nodes)
        self._moves = 0
        self.reused_visits = 0      # visits kept from the previous search (last call)

    def search(self, position) -> SearchResult:
        position = _check_position(position)
        t0 = _time.monotonic()
        seed = _derive_seed(self.seed, self._moves)
        self._moves += 1
        budget = self.time
        if self.endgame and _near_end(position):
            solved = _endgame_solve(position, self.time, seed, t0)
            if solved is not None:
                return solved
        self.reused_visits = self._searcher.set_root(position._c, self.reuse)
        if position.is_over:
            return _finish(position, self._searcher, [], [], 0, 0, 0.0, seed, self.config)
        # the endgame try and finding the kept subtree count against the time budget
        left = None if budget is None else max(1e-3, budget - (_time.monotonic() - t0))
        _prime_root(self._searcher, self.config, left)
        left = 0.0 if budget is None else max(1e-3, budget - (_time.monotonic() - t0))
        done, _ = self._searcher.run(self.iterations or 0, left, seed)
        return _finish(position, self._searcher, [self._searcher.root_children()], [self._searcher.pv()],
                       done, self._searcher.n_nodes, _time.monotonic() - t0, seed, self.config)

    def choose(self, position) -> Move:
        return self.search(position).best_move

    def reset(self):
        self._searcher = _new_searcher(self.config, self.max_nodes)
        self._moves = 0


__all__ = ["search_mcts", "MCTSPlayer", "LimitError", "DEFAULTS", "check_config"]
