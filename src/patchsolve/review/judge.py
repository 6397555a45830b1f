"""One measure of a move: the move played and the best move valued on the
same footing, the same on every run.

Every verdict on a person's move -- the review (``analyze``), ``explain``,
the quiz, the web page's ``why?`` -- comes from :func:`measure`:

- **One search.** The alpha-beta searches the position before the move, one
  thread, within a node (or depth) budget, and values the move played as a
  line of its own in every iteration (``include``: UCI's ``searchmoves``,
  in addition to the best line). Both values are read from the same
  iteration, at the same depth, so the loss is the difference of two values
  that look equally far ahead. A move valued as high as the best loses 0;
  the loss is never negative (the best is the higher of the two).
- **Steady across the horizon.** The loss is the smallest of the last
  ``LOSS_OVER`` (3) finished iterations' losses, the best line's and the
  move played's values both from that one iteration (the latest on a tie),
  and the best move is that iteration's: a move is charged what three
  horizons in a row agree it loses at least, so a verdict does not swing
  with the depth an iteration happened to reach. A move the last iteration
  values as the best still loses 0.
- **Proven where it can be.** Within ``ENDGAME_SPACES`` of the end, the
  exact solver values both positions (the one before the move and the one
  after it) within ``Budget.solver_nodes`` each. Where it proves both, the
  loss is exact (``bound="exact"``); where it proves bounds, each estimate
  is kept within them, so the loss is within what is proven. Where the
  search's first choice is the move played and the solver proves it worth
  less than the search thought, the best move is the best of the others
  (ranked by a search of the same budget): a move is charged by what the
  position after it is worth, even when it is the search's own choice.
- **Re-checked when it matters.** A move that the first search finds losing
  ``RECHECK_AT`` points or more (and that the solver did not prove) is
  measured again at ``Budget.recheck`` times the budget (two plies deeper
  under a depth budget), and that measure is the verdict: a loss the review
  will class is one that held up in a deeper search (benchmarks/judge/).
- **Reproducible.** A node or depth budget on one thread: the same position,
  move and budget give the same measure on every run and every machine.

Values are final score margins for the player who moves (the mover). The
win probability of each side is the calibrated curve of the estimate
(``search.result.win_probability_of``, at the position's phase), or 1 or 0
where the solver proved who wins.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, cast

from patchsolve.errors import IllegalMoveError, LimitError, PatchsolveError

if TYPE_CHECKING:
    from patchsolve.search.result import RootMove

DEFAULT_NODES = 300_000  # alpha-beta nodes a position (benchmarks/judge/)
# a loss of RECHECK_AT points or more is measured again at this many times the budget: with 8
# (against 4) the default is within a point of the 20x measure on 92.7% of early moves (88.0%),
# for about half as much CPU again a move; 16 gives 96.0% for 2.5 times the CPU
# (benchmarks/results/judge/README.md)
DEFAULT_RECHECK = 8
RECHECK_AT = 2.0  # points: the least loss the review classes (analysis.MIN_POINTS[0])
RECHECK_PLIES = 2  # under a depth budget the re-check searches this much deeper
SOLVER_RATIO = 3  # solver nodes per alpha-beta node of the budget (a solver node costs about a third)
MAX_NODES = 2**40
# the loss is the smallest of the last LOSS_OVER finished iterations' losses: with 3 (against
# the last iteration's alone) the 10x measure agrees with the 20x one on 95.0% of early moves
# (87.0%), flagged classes survive 10x on 100% (93.4%), and the default budget is within a
# point of 20x on 87.5% (83.5%); late, optimal moves best or good 97.6% (95.0%)
# (benchmarks/results/judge/README.md)
LOSS_OVER = 3
OTHER_ROWS = 8  # MultiPV rows when the best move of the others is asked for: every choice comes first


@dataclass(frozen=True)
class Budget:
    """What stands behind a verdict: an alpha-beta budget a position (one
    thread) -- ``nodes`` or a ``depth`` -- and, near the end, the exact
    solver's nodes for each of the two positions it values."""

    nodes: int | None = None
    depth: int | None = None
    recheck: int = DEFAULT_RECHECK
    """A loss worth classing is measured again at this many times the budget (1: never)."""

    def __post_init__(self):
        if self.nodes is None and self.depth is None:
            object.__setattr__(self, "nodes", DEFAULT_NODES)
        if (
            isinstance(self.recheck, bool)
            or not isinstance(self.recheck, int)
            or not 1 <= self.recheck <= 100
        ):
            raise LimitError(f"recheck must be an integer in 1..100, not {self.recheck!r}")
        if self.nodes is not None and self.depth is not None:
            raise LimitError("a review's budget is nodes or a depth, not both")
        if self.nodes is not None and (
            isinstance(self.nodes, bool)
            or not isinstance(self.nodes, int)
            or not 1_000 <= self.nodes <= MAX_NODES
        ):
            raise LimitError(f"nodes must be an integer in 1000..{MAX_NODES}, not {self.nodes!r}")
        if self.depth is not None and (
            isinstance(self.depth, bool) or not isinstance(self.depth, int) or not 1 <= self.depth <= 64
        ):
            raise LimitError(f"depth must be an integer in 1..64, not {self.depth!r}")

    @property
    def solver_nodes(self) -> int:
        """The exact solver's nodes for each position near the end."""
        return SOLVER_RATIO * (self.nodes if self.nodes is not None else DEFAULT_NODES)

    def limits(self) -> dict:
        """The alpha-beta's limits (one thread: reproducible)."""
        given = {"nodes": self.nodes} if self.nodes is not None else {"depth": self.depth}
        return {**given, "workers": 1, "seed": 0}

    def deeper(self) -> Budget | None:
        """The re-check's budget (None: no re-check)."""
        if self.recheck <= 1:
            return None
        if self.nodes is not None:
            return Budget(nodes=min(MAX_NODES, self.nodes * self.recheck), recheck=1)
        return Budget(depth=min(64, (self.depth or 0) + RECHECK_PLIES), recheck=1)

    def text(self) -> str:
        """The budget in words, e.g. ``300,000 nodes a position, a loss of 2
        points or more re-checked at 2,400,000 nodes``."""
        first = f"{self.nodes:,} nodes" if self.nodes is not None else f"depth {self.depth}"
        deeper = self.deeper()
        if deeper is None:
            return f"{first} a position"
        again = f"{deeper.nodes:,} nodes" if deeper.nodes is not None else f"depth {deeper.depth}"
        return f"{first} a position, a loss of {RECHECK_AT:g} points or more re-checked at {again}"

    def to_dict(self) -> dict:
        """JSON-ready: the budget and its words."""
        return {
            "nodes": self.nodes,
            "depth": self.depth,
            "recheck": self.recheck,
            "solver_nodes": self.solver_nodes,
            "text": self.text(),
        }


def as_budget(budget=None, **limits) -> Budget:
    """A :class:`Budget` from a Budget, or from ``nodes=`` / ``depth=``
    keywords (none: the default)."""
    if budget is not None:
        if not isinstance(budget, Budget):
            raise LimitError(f"budget must be a patchsolve Budget, not {type(budget).__name__}")
        if limits:
            raise LimitError("give the budget either as a Budget or as nodes/depth, not both")
        return budget
    unknown = sorted(set(limits) - {"nodes", "depth"})
    if unknown:
        raise LimitError(
            f"a review's budget is nodes or depth ({', '.join(unknown)} given): a time or more threads "
            "would make its verdicts change from run to run"
        )
    return Budget(**limits)


@dataclass(frozen=True)
class Side:
    """One of the two moves compared: its value for the mover, what kind of
    number it is, and its line."""

    move: str
    """The move (notation)."""
    value: float
    """Its value for the player who moves: the final margin expected."""
    bound: str
    """What kind of number the value is: 'exact', 'lower', 'upper' (proven bounds) or 'estimate'."""
    win_probability: float
    """The mover's chance to win after it (1 or 0 where proven)."""
    proven: str | None
    """'win' or 'loss' for the mover where the solver proved it, else None."""
    pv: list[str] = field(default_factory=list)
    """The line the value comes from, the move first."""


@dataclass(frozen=True)
class Measure:
    """The move played against the best, on one footing (see the module)."""

    position: str
    """Notation, before the move."""
    player: int
    """The mover."""
    played: Side
    """The move played."""
    best: Side
    """The best move found by the same measure (the move played when it is as good)."""
    loss: float
    """``best.value - played.value``, never negative (points)."""
    win_loss: float
    """``best.win_probability - played.win_probability``, never negative."""
    exact: bool
    """Both values proven exactly."""
    depth: int
    """The alpha-beta iteration both values come from (0: none finished)."""
    forced: bool
    """The only legal move."""
    budget: Budget
    """The budget of the measure (a re-check's is ``budget.recheck`` times it)."""
    rows: list[dict] = field(default_factory=list)
    """The search's ranked rows (choice first), JSON-ready."""
    interrupted: bool = False
    """Ctrl-C / request_stop cut a search short."""
    rechecked: bool = False
    """The numbers are the re-check's (Budget.deeper())."""
    iterations: list[tuple[int, int, float, float]] = field(default_factory=list)
    """Every finished alpha-beta iteration of the search the numbers come
    from, as (depth, nodes when it finished, the best move's value, the
    move played's value), the values for the mover and each pair from its
    own iteration: how the loss moved with the depth."""

    @property
    def is_best(self) -> bool:
        """The move played is as good as the best by this measure."""
        return self.loss <= 0 and self.win_loss <= 0

    def to_dict(self) -> dict:
        """JSON-ready."""
        return {
            "position": self.position,
            "player": self.player,
            "played": vars(self.played),
            "best": vars(self.best),
            "loss": self.loss,
            "win_loss": self.win_loss,
            "exact": self.exact,
            "depth": self.depth,
            "forced": self.forced,
            "budget": self.budget.to_dict(),
            "rows": self.rows,
            "interrupted": self.interrupted,
            "rechecked": self.rechecked,
            "iterations": [list(t) for t in self.iterations],
        }


def measure(position, move, budget: Budget | None = None, *, rows: int = 1, **limits) -> Measure:
    """The move ``move`` (text or Move) played in ``position`` against the
    best move there, valued on the same footing (see the module), within
    ``budget`` (a :class:`Budget`, or ``nodes=`` / ``depth=``; default
    :data:`DEFAULT_NODES` nodes). ``rows`` > 1 also ranks that many moves
    (choice first) in the same search (the quiz's acceptable moves)."""
    from patchsolve.rules.position import Position, as_position

    budget = as_budget(budget, **limits)
    pos = Position(position) if isinstance(position, str) else as_position(position)
    if pos.is_over:
        raise PatchsolveError("the game is over: there is no move to judge")
    if isinstance(rows, bool) or not isinstance(rows, int) or not 1 <= rows <= 64:
        raise LimitError(f"rows must be an integer in 1..64, not {rows!r}")
    played = pos.parse_move(move) if isinstance(move, str) else move
    if not pos.is_legal(played):
        raise IllegalMoveError(f"{played} is not a legal move in this position")
    first = _Measurer(pos, played, budget, rows).run()
    deeper = budget.deeper()
    if first.exact or first.interrupted or first.loss < RECHECK_AT or deeper is None:
        return first
    again = _Measurer(pos, played, deeper, rows).run()
    if again.interrupted:
        return first
    return replace(again, budget=budget, rechecked=True)


class _Measurer:
    """One :func:`measure`: the alpha-beta's two lines, then the solver's proofs."""

    def __init__(self, pos, played, budget: Budget, rows: int):
        self.pos, self.played, self.budget, self.rows = pos, played, budget, rows
        self.mover = pos.to_move
        self.interrupted = False
        self.iterations: list[tuple[int, int, float, float]] = []
        self._rows_at: dict[int, list[RootMove]] = {}  # each finished iteration's ranked rows
        self._root: _Proof | None = None  # what the solver proved of the position (near the end)

    def run(self) -> Measure:
        from patchsolve.search.endgame import near_end
        from patchsolve.search.result import choice_first, row_dict

        rows, depth = self._search()
        rows, depth = self._steadiest(rows, depth)
        best_row = rows[0]
        played_row = next(d for d in rows if d["move"] == self.played)
        best = self._side(best_row)
        played = self._side(played_row)
        if near_end(self.pos) and not self.interrupted:
            best, played = self._prove(best, played)
        if best.move == played.move and best.value != played.value:
            # the move played valued twice near the end: from the position before it (the
            # search's first choice, kept within what the solver proved of that position) and
            # from the one after it (the solver's proof of that one)
            if best.bound == "exact" and played.bound != "exact":
                played = best  # the position before proven, and this move the best: it loses nothing
            else:
                # the move is worth what the position after it is proven worth, less than the
                # search thought: the best move is the best of the others (benchmarks/judge/)
                best = self._best_other(played)
        if played.value >= best.value and played.win_probability >= best.win_probability:
            best = played  # the move played is as good as any this measure finds: it is the best
        exact = best.bound == "exact" and played.bound == "exact"
        return Measure(
            self.pos.to_text(),
            self.mover,
            played,
            best,
            max(0.0, best.value - played.value),
            max(0.0, best.win_probability - played.win_probability),
            exact,
            depth,
            len(self.pos.legal_moves()) == 1,
            self.budget,
            [row_dict(d) for d in choice_first(self.pos, rows, keep=[self.played])],
            self.interrupted,
            iterations=list(self.iterations),
        )

    def _search(self) -> tuple[list[RootMove], int]:
        """The ranked rows of one alpha-beta search, the move played among
        them (valued in the same iteration), and the depth."""
        from patchsolve.search import search

        def on_iteration(r) -> None:
            # the best line's and the move played's values, both from this iteration
            values = [float(cast(float, d["score"])) for d in r.root_moves]
            mine = [float(cast(float, d["score"])) for d in r.root_moves if d["move"] == self.played]
            if values and mine:
                self.iterations.append((r.depth, r.nodes, max(values), mine[0]))
                self._rows_at[r.depth] = list(r.root_moves)

        # Ctrl-C in a script raises SearchInterrupted through here (the review keeps what it judged)
        r = search(
            self.pos,
            engine="alphabeta",
            endgame_solve=False,
            multipv=self.rows,
            include=[self.played],
            on_iteration=on_iteration,
            **self.budget.limits(),
        )
        self.interrupted = r.interrupted
        rows = list(r.root_moves)
        valued = any(d["move"] == self.played for d in rows)
        if not valued:  # no iteration finished: the move valued statically
            rows.append(_static_row(self.pos, self.played))
        rows.sort(
            key=lambda d: -cast(float, d["score"])
        )  # the best first (choice-first order is kept for display)
        return rows, r.depth

    def _best_other(self, played: Side) -> Side:
        """The best move other than the one played, by a search of the same
        budget ranking every choice (``OTHER_ROWS``), kept within what the
        solver proved of the position; the move played where none is better."""
        from patchsolve.search import search

        r = search(
            self.pos,
            engine="alphabeta",
            endgame_solve=False,
            multipv=OTHER_ROWS,
            **self.budget.limits(),
        )
        self.interrupted = self.interrupted or r.interrupted
        others = [d for d in r.root_moves if d["move"] != self.played]
        if not others:
            return played
        other = self._side(max(others, key=lambda d: cast(float, d["score"])))
        if self._root is not None:
            other = _within(other, _Proof(None, self._root.upper, None, []), self._wp)
        return other if other.value > played.value else played

    def _steadiest(self, rows: list[RootMove], depth: int) -> tuple[list[RootMove], int]:
        """The ranked rows (the best first) and the depth of the one of the
        last ``LOSS_OVER`` finished iterations whose loss is the smallest
        (the latest on a tie): the best move, both values and the rows all
        of one iteration, and a move the last iteration values as the best
        still loses 0."""
        its = self.iterations[-LOSS_OVER:]
        if len(its) < 2 or its[-1][0] != depth:
            return rows, depth
        d = min(reversed(its), key=lambda t: max(0.0, t[2] - t[3]))[0]
        if d == depth:
            return rows, depth
        return sorted(self._rows_at[d], key=lambda r: -cast(float, r["score"])), d

    def _wp(self, value: float) -> float:
        """The mover's win probability of an estimated ``value``."""
        from patchsolve.search.result import phase_of, win_probability_of

        return win_probability_of(value, phase_of(self.pos))

    def _side(self, row: RootMove) -> Side:
        proven = row.get("proven")
        value = float(cast(float, row["score"]))  # an alpha-beta row always has one
        wp = (1.0 if proven == "win" else 0.0) if proven is not None else self._wp(value)
        pv = [str(m) for m in row.get("pv") or [row["move"]]]
        return Side(str(row["move"]), value, row["bound"], wp, proven, pv)

    def _prove(self, best: Side, played: Side) -> tuple[Side, Side]:
        """Near the end: the solver's values of the position (the best move)
        and of the position after the move played, each estimate kept
        within what it proves."""
        solved = self._solve(self.pos)
        root = self._root = _for_mover(solved, self.pos, self.mover)
        move = _proven_best(solved)
        best = _within(best, root, self._wp, move, root.pv if move else None)
        child = self.pos.play(self.played)
        if child.is_over:
            played = _finished(child, self.mover, str(self.played))
        else:
            r = self._solve(child)
            proof = _for_mover(r, child, self.mover)
            if root.upper is not None and (proof.upper is None or root.upper < proof.upper):
                # no move is worth more than its position is proven worth at most
                proof = _Proof(proof.lower, root.upper, proof.proven, proof.pv)
            exact_line = r.bound == "exact" and r.proven_best
            played = _within(
                played, proof, self._wp, None, [str(self.played)] + proof.pv if exact_line else None
            )
        return best, played

    def _solve(self, pos):
        """The solver's result on ``pos`` within the budget."""
        from patchsolve.search import solve

        r = solve(pos, nodes=self.budget.solver_nodes, workers=1, hash_mb=16)
        self.interrupted = self.interrupted or r.interrupted
        return r


def _proven_best(r) -> str | None:
    """The solver's best move when it proved it with an exact value."""
    if r.bound == "exact" and r.proven_best and r.best_move is not None:
        return str(r.best_move)
    return None


@dataclass(frozen=True)
class _Proof:
    """What the solver proved of a position, for the mover: bounds on its
    value (None: none), the outcome, and a line keeping the value."""

    lower: float | None
    upper: float | None
    proven: str | None
    pv: list


def _for_mover(r, pos, mover: int) -> _Proof:
    """A solver result on ``pos`` as a proof for ``mover`` (negated across a
    change of the player to move)."""
    lo = r.lower if r.lower is not None else (r.score if r.bound in ("exact", "lower") else None)
    hi = r.upper if r.upper is not None else (r.score if r.bound in ("exact", "upper") else None)
    proven = r.proven
    if pos.to_move != mover:
        lo, hi = (None if hi is None else -hi), (None if lo is None else -lo)
        proven = None if proven is None else ("loss" if proven == "win" else "win")
    return _Proof(lo, hi, proven, [str(m) for m in r.pv or []])


def _within(side: Side, proof, wp_of, move: str | None = None, pv: list | None = None) -> Side:
    """``side`` with its value kept within ``proof``'s bounds (a result
    for the mover): exact where they meet. ``wp_of`` turns a value into the
    mover's win probability (the calibrated curve at the position's
    phase). ``move`` and ``pv``, where the solver proved them, replace the
    side's move and line."""
    lo, hi = proof.lower, proof.upper
    value = side.value
    if lo is not None:
        value = max(value, float(lo))
    if hi is not None:
        value = min(value, float(hi))
    if lo is not None and hi is not None and lo >= hi:
        bound = "exact"
    elif lo is not None and value <= lo:
        bound = "lower"
    elif hi is not None and value >= hi:
        bound = "upper"
    else:
        bound = side.bound
    proven = proof.proven
    if proven is not None:
        wp = 1.0 if proven == "win" else 0.0
    elif value != side.value:  # the estimate moved into the proof: its win probability follows
        wp = wp_of(value)
    else:
        wp = side.win_probability
    return Side(move or side.move, value, bound, wp, proven, list(pv) if pv else side.pv)


def _finished(child, mover: int, move: str) -> Side:
    """The move ends the game: its real margin and outcome for the mover."""
    s = child.scores()
    won = child.winner() == mover
    return Side(
        move, float(s[mover] - s[1 - mover]), "exact", 1.0 if won else 0.0, "win" if won else "loss", [move]
    )


def _static_row(pos, move) -> RootMove:
    """A row for ``move`` from the static evaluation of the position after
    it (no iteration of the search finished)."""
    from patchsolve.search.alphabeta import evaluate
    from patchsolve.search.result import phase_of, root_move

    child = pos.play(move)
    v = evaluate(child)
    value = v if child.is_over or child.to_move == pos.to_move else -v
    return root_move(move, value, "estimate", phase=phase_of(pos), pv=[move])


__all__ = ["Budget", "Measure", "Side", "measure", "as_budget", "DEFAULT_NODES"]
