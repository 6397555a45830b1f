"""The solver's progress reports (``search/solver.py``, ``progress=``) give
their bounds and test value in points, the result's scale, also while the
win/loss pass runs (whose values are 2 margin -+ 1; they used to be
reported as such: new-user review 2026-12-02, defect 22)."""

import patchsolve
from patchsolve.search import solver
from patchsolve.search.solver import c_solver
from test_alphabeta import noisy_greedy_game

NOTHING_YET = 10000  # a solver reports -INF/INF (30000, or 15000 points) before its search starts


def reports(pos, **kwargs):
    seen = []
    result = patchsolve.solve(pos, progress=seen.append, **kwargs)
    return result, [d for d in seen if abs(d["lower"]) < NOTHING_YET]


def test_progress_bounds_are_points_during_the_win_loss_pass_and_after(monkeypatch):
    monkeypatch.setattr(solver, "PROGRESS_EVERY", 0.001)
    pos = noisy_greedy_game(3)[20]  # its win/loss search alone takes about a million nodes
    lo, hi = c_solver(1).bounds(pos._c)  # static bounds, in points
    assert lo < -1 and hi > 1  # doubled, both sides would stray beyond them
    for kwargs in ({"nodes": 2_000_000}, {"nodes": 2_000_000, "wdl": True}):
        result, seen = reports(pos, **kwargs)
        assert any(d["wdl"] for d in seen), "no report from a win/loss search"
        for d in seen:
            # a win/loss value's margin bounds are one wider than the exact ones
            assert lo - 1 <= d["lower"] <= d["upper"] <= hi + 1, (kwargs, d, lo, hi)
            assert lo - 1 <= d["gamma"] <= hi + 1, (kwargs, d)
            # two proven intervals of one value meet
            assert max(d["lower"], result.lower) <= min(d["upper"], result.upper), (kwargs, d, result)


def test_a_solver_reports_nothing_proven_before_its_search_starts():
    s = c_solver(1, wdl=True)
    assert (s.lo, s.hi) == (-30000, 30000)
