"""Honest win probabilities: how often does the player to move win, given
the search's score and the phase of the game?

Fitted on a self-play corpus (:mod:`patchsolve.arena.selfplay`): every move with a
search estimate is a sample (the score the search reported for the player
to move, the phase, and whether that player went on to win). Games, not
moves, are split into a training and a held-out set by a seeded shuffle
(the moves of one game are far from independent), after sorting the games
by circle, edition and first player (so the split does not depend on the
order the games ended in). The model is a logistic
regression, fitted by Newton's method (iteratively reweighted least
squares; numpy only)::

    P(win) = 1 / (1 + exp(-z)),
    z = intercept + phase * t + (score + score_x_phase * t) * s

with ``s`` = score / SCORE_SCALE and ``t`` = phase / PHASE_SCALE, the phase
being both players' spaces left to the last space (106 at the start, 0 at
the end): the same score is surer late in the game, when less can change.
On the held-out games it reports the Brier score and predicted against
observed by decile of the prediction, for the fitted model and for the
shipped ``win_probability`` (:func:`patchsolve.search.result.win_probability_of`,
itself a model of this form: ``data/win_probability.json``).

:func:`fitted_win_probability` is a fitted mapping; the engines use the
shipped one, replaced by writing a better fit to that file.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from patchsolve.arena.tournament import wilson
from patchsolve.errors import PatchsolveError
from patchsolve.rules.patches import LAST_SPACE
from patchsolve.search import result as _result

FEATURES = ("intercept", "phase", "score", "score_x_phase")
SCORE_SCALE = 10.0  # points: keeps the Newton steps well conditioned
PHASE_SCALE = float(2 * LAST_SPACE)  # both players' spaces left at the start
MIN_SAMPLES = 20  # per split: fewer cannot be fitted or judged
CALIBRATION_TOLERANCE = 0.05  # the target: every decile within 5 points of the observed rate


class CalibrationError(PatchsolveError):
    """Too few samples to fit or judge a calibration, or a bad parameters file."""


def phase_of(position) -> int:
    """The phase of a position: both players' spaces left to the last space."""
    return _result.phase_of(position)


def design(score, phase) -> np.ndarray:
    """The model's feature matrix (columns as ``FEATURES``)."""
    s = np.asarray(score, dtype=float) / SCORE_SCALE
    t = np.asarray(phase, dtype=float) / PHASE_SCALE
    return np.column_stack([np.ones_like(s), t, s, s * t])


def _sigmoid(z):
    return 0.5 * (1.0 + np.tanh(0.5 * np.asarray(z, dtype=float)))  # no overflow for large |z|


@dataclass
class CalibrationModel:
    """Fitted coefficients (by feature name) and how they were fitted."""

    coef: dict
    """The logistic model's coefficients, by feature name (``intercept``, ``phase``, ``score``, ``score_x_phase``)."""
    samples: int = 0
    """The positions it was fitted on."""
    games: int = 0
    """The games those positions came from."""
    iterations: int = 0
    """The fitting's iterations."""
    converged: bool = True
    """Whether the fitting converged."""
    info: dict = field(default_factory=dict)
    """Anything else worth keeping about the fit (the scales, the held-out scores)."""

    def predict(self, score, phase) -> np.ndarray:
        """P(the player to move wins) for arrays of scores and phases."""
        beta = np.array([self.coef[f] for f in FEATURES])
        return _sigmoid(design(score, phase) @ beta)

    def to_dict(self) -> dict:
        """The parameters as written to a JSON file."""
        return {
            "model": "logistic",
            "features": list(FEATURES),
            "score_scale": SCORE_SCALE,
            "phase_scale": PHASE_SCALE,
            "coef": {f: float(self.coef[f]) for f in FEATURES},
            "samples": self.samples,
            "games": self.games,
            "iterations": self.iterations,
            "converged": self.converged,
            **({"info": self.info} if self.info else {}),
        }

    @classmethod
    def from_dict(cls, data: dict) -> CalibrationModel:
        """A model from :meth:`to_dict`'s dict; CalibrationError if it is not one."""
        try:
            if data.get("model") != "logistic" or list(data["features"]) != list(FEATURES):
                raise ValueError
            if float(data["score_scale"]) != SCORE_SCALE or float(data["phase_scale"]) != PHASE_SCALE:
                raise ValueError
            coef = {f: float(data["coef"][f]) for f in FEATURES}
        except (AttributeError, KeyError, TypeError, ValueError):
            raise CalibrationError(
                "not calibration parameters of this version (model, features, scales, coef)"
            ) from None
        if not all(math.isfinite(v) for v in coef.values()):
            raise CalibrationError("calibration parameters must be finite numbers")
        return cls(
            coef,
            int(data.get("samples", 0)),
            int(data.get("games", 0)),
            int(data.get("iterations", 0)),
            bool(data.get("converged", True)),
            dict(data.get("info", {})),
        )


def fit(score, phase, won, iterations: int = 50, ridge: float = 1e-6, tol: float = 1e-10) -> CalibrationModel:
    """Logistic regression of ``won`` (0/1) on the features of (``score``,
    ``phase``) by Newton's method; ``ridge`` (a tiny L2 penalty, not on the
    intercept) keeps the steps finite when the data separate."""
    X = design(score, phase)
    y = np.asarray(won, dtype=float)
    if len(y) != len(X):
        raise CalibrationError("score, phase and won must have the same length")
    if len(y) < MIN_SAMPLES or y.min() == y.max():
        raise CalibrationError(f"{len(y)} samples with {int(y.sum())} wins: too few, or one outcome only")
    beta = np.zeros(X.shape[1])
    penalty = ridge * np.eye(X.shape[1])
    penalty[0, 0] = 0.0
    converged = False
    steps = 0
    while steps < iterations:
        steps += 1
        p = _sigmoid(X @ beta)
        w = np.maximum(p * (1 - p), 1e-12)
        grad = X.T @ (y - p) - penalty @ beta
        hess = (X * w[:, None]).T @ X + penalty
        step = np.linalg.solve(hess, grad)
        beta = beta + step
        if float(np.max(np.abs(step))) < tol:
            converged = True
            break
    coef = dict(zip(FEATURES, map(float, beta)))
    return CalibrationModel(coef, samples=len(y), iterations=steps, converged=converged)


def brier(predicted, won) -> float:
    """The Brier score: the mean squared error of the probabilities (lower is better)."""
    p, y = np.asarray(predicted, dtype=float), np.asarray(won, dtype=float)
    return float(np.mean((p - y) ** 2)) if len(p) else math.nan


def decile_table(predicted, won, bins: int = 10) -> list[dict]:
    """Predicted against observed: the samples sorted by prediction and cut
    into ``bins`` groups of (nearly) equal size; per group its size, the
    range and mean of the predictions, the observed win rate with its 95%
    Wilson interval, and the gap (observed minus predicted)."""
    p, y = np.asarray(predicted, dtype=float), np.asarray(won, dtype=float)
    order = np.argsort(p, kind="stable")
    rows = []
    for k, idx in enumerate(np.array_split(order, bins)):
        if not len(idx):
            continue
        n, wins = len(idx), int(y[idx].sum())
        lo, hi = wilson(wins, n)
        rows.append(
            {
                "decile": k + 1,
                "n": n,
                "wins": wins,
                "low": float(p[idx].min()),
                "high": float(p[idx].max()),
                "predicted": float(p[idx].mean()),
                "observed": wins / n,
                "ci95": [lo, hi],
                "gap": wins / n - float(p[idx].mean()),
            }
        )
    return rows


def samples(records, bounds=("estimate",)) -> dict:
    """The calibration samples of self-play records: per move whose search
    reported a score with one of ``bounds``, the score (for the player to
    move), the phase, whether that player won, and the game's index."""
    score, phase, won, game = [], [], [], []
    for g, r in enumerate(records):
        for e in r.get("evals", []):
            if e.get("score") is None or e.get("bound") not in bounds:
                continue
            score.append(float(e["score"]))
            phase.append(sum(e["left"]))
            won.append(1.0 if r["winner"] == e["player"] else 0.0)
            game.append(g)
    return {
        "score": np.array(score, dtype=float),
        "phase": np.array(phase, dtype=float),
        "won": np.array(won, dtype=float),
        "game": np.array(game, dtype=int),
    }


def split_games(n_games: int, test_fraction: float = 0.3, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Game indices for training and held-out, by a seeded shuffle."""
    if not 0.0 < test_fraction < 1.0:
        raise CalibrationError(f"test_fraction must be between 0 and 1, not {test_fraction!r}")
    order = np.random.default_rng(seed).permutation(n_games)
    cut = int(round(test_fraction * n_games))
    return np.sort(order[cut:]), np.sort(order[:cut])


def canonical_order(records) -> list[dict]:
    """The records sorted by their game (circle, edition, first player), so
    that the held-out split does not depend on the order the games ended in
    (parallel workers, a resumed run); records without those keys keep
    their order."""

    def game(item):
        i, r = item
        return (r.get("circle_index", -1), str(r.get("edition", "")), r.get("first", -1), i)

    return [r for _, r in sorted(enumerate(records), key=game)]


def current_win_probability(score, phase) -> np.ndarray:
    """The engines' win probability today (the shipped calibration) on arrays."""
    return np.array(
        [
            _result.win_probability_of(float(s), float(t))
            for s, t in zip(np.asarray(score, dtype=float), np.asarray(phase, dtype=float))
        ]
    )


def calibrate(
    records, seed: int = 0, test_fraction: float = 0.3, bounds=("estimate",), bins: int = 10
) -> dict:
    """Fit the calibration on a seeded share of the games and judge it, and
    the current ``win_probability``, on the held-out games: the model, the
    sizes, the Brier scores (fitted, current, and the base rate's), the
    decile tables and their largest gaps."""
    records = canonical_order(records)
    data = samples(records, bounds)
    train_games, test_games = split_games(len(records), test_fraction, seed)
    train = np.isin(data["game"], train_games)
    test = np.isin(data["game"], test_games)
    if test.sum() < MIN_SAMPLES or train.sum() < MIN_SAMPLES:
        raise CalibrationError(
            f"too few scored moves to calibrate ({int(train.sum())} training, {int(test.sum())} held out; "
            f"at least {MIN_SAMPLES} each)"
        )
    model = fit(data["score"][train], data["phase"][train], data["won"][train])
    model.games = len(train_games)
    model.info = {"seed": seed, "test_fraction": test_fraction, "bounds": list(bounds)}
    y = data["won"][test]
    fitted = model.predict(data["score"][test], data["phase"][test])
    current = current_win_probability(data["score"][test], data["phase"][test])
    base = np.full(len(y), float(data["won"][train].mean()))
    deciles, deciles_current = decile_table(fitted, y, bins), decile_table(current, y, bins)
    return {
        "model": model,
        "train": {"games": len(train_games), "moves": int(train.sum())},
        "test": {"games": len(test_games), "moves": int(test.sum())},
        "brier": brier(fitted, y),
        "brier_current": brier(current, y),
        "brier_base_rate": brier(base, y),
        "deciles": deciles,
        "deciles_current": deciles_current,
        "max_gap": max(abs(r["gap"]) for r in deciles),
        "max_gap_current": max(abs(r["gap"]) for r in deciles_current),
    }


def calibration_markdown(cal: dict) -> str:
    """A calibration (from :func:`calibrate`) as a Markdown section."""
    m = cal["model"]
    tol = 100 * CALIBRATION_TOLERANCE
    lines = [
        "## Win probability calibration",
        "",
        f"Fitted on {cal['train']['games']} games ({cal['train']['moves']} scored moves), judged on "
        f"{cal['test']['games']} held-out games ({cal['test']['moves']} moves). Model: "
        + ", ".join(f"{k} {v:+.4f}" for k, v in m.coef.items())
        + f" (score / {SCORE_SCALE:g}, phase / {PHASE_SCALE:g}; {m.iterations} Newton steps"
        + ("" if m.converged else ", NOT converged")
        + ").",
        "",
        f"Brier score (lower is better): fitted {cal['brier']:.4f}, current `win_probability` "
        f"{cal['brier_current']:.4f}, the base rate alone {cal['brier_base_rate']:.4f}. Largest gap "
        f"between predicted and observed in a decile: fitted {100 * cal['max_gap']:.1f} points, current "
        f"{100 * cal['max_gap_current']:.1f} (target: at most {tol:g}).",
        "",
        "| decile | moves | fitted: predicted | observed (95% CI) | current: predicted | observed (95% CI) |",
        "|---:|---:|---:|---|---:|---|",
    ]
    for a, b in zip(cal["deciles"], cal["deciles_current"]):
        lines.append(
            f"| {a['decile']} | {a['n']} | {100 * a['predicted']:.1f}% | {100 * a['observed']:.1f}% "
            f"[{100 * a['ci95'][0]:.1f}, {100 * a['ci95'][1]:.1f}] | {100 * b['predicted']:.1f}% | "
            f"{100 * b['observed']:.1f}% [{100 * b['ci95'][0]:.1f}, {100 * b['ci95'][1]:.1f}] |"
        )
    return "\n".join(lines)


def write_params(model: CalibrationModel, path) -> None:
    """Write the fitted parameters to a small JSON file."""
    try:
        Path(path).write_text(json.dumps(model.to_dict(), indent=1) + "\n")
    except OSError as e:
        raise CalibrationError(f"cannot write {path}: {e.strerror}") from None


def read_params(path) -> CalibrationModel:
    """The parameters written by :func:`write_params`."""
    try:
        data = json.loads(Path(path).read_text())
    except OSError as e:
        raise CalibrationError(f"cannot read {path}: {e.strerror}") from None
    except ValueError:
        raise CalibrationError(f"{path}: not JSON") from None
    return CalibrationModel.from_dict(data)


def fitted_win_probability(score: float, phase: float, params) -> float:
    """P(the player to move wins) by the fitted calibration ``params`` (a
    :class:`CalibrationModel`, its dict, or the path of its JSON file), for
    a search score (points, for the player to move) and a phase (both
    players' spaces left; :func:`phase_of`)."""
    if isinstance(params, (str, Path)):
        params = read_params(params)
    elif isinstance(params, dict):
        params = CalibrationModel.from_dict(params)
    return float(params.predict([score], [phase])[0])


__all__ = [
    "FEATURES",
    "CalibrationError",
    "CalibrationModel",
    "phase_of",
    "design",
    "fit",
    "brier",
    "decile_table",
    "samples",
    "split_games",
    "canonical_order",
    "calibrate",
    "calibration_markdown",
    "write_params",
    "read_params",
    "fitted_win_probability",
    "current_win_probability",
]
