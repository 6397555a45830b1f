"""The calibration of the win probability (patchsolve.arena.calibration): the fit
recovers known parameters from synthetic outcomes drawn with a seed, the
decile table and the Brier score count right, the split is by game, and the
parameters file round-trips."""

import json
import math
from importlib import resources

import numpy as np
import pytest

from data_files import MANIFEST, corpus
from patchsolve.arena import calibration as cal
from patchsolve.arena.tournament import wilson
from patchsolve.rules.position import Position
from patchsolve.search.result import win_probability_of

TRUE = {"intercept": 0.2, "phase": -0.3, "score": 1.6, "score_x_phase": -0.9}


def draw(n, seed, coef=TRUE):
    """Scores, phases and outcomes drawn from the model with ``coef``."""
    rng = np.random.default_rng(seed)
    score = rng.normal(0, 12, n)
    phase = rng.integers(0, 107, n).astype(float)
    p = cal.CalibrationModel(dict(coef)).predict(score, phase)
    return score, phase, (rng.random(n) < p).astype(float), p


def test_the_fit_recovers_known_parameters():
    score, phase, won, _ = draw(60_000, seed=1)
    model = cal.fit(score, phase, won)
    assert model.converged and model.samples == 60_000
    for name, value in TRUE.items():
        assert model.coef[name] == pytest.approx(value, abs=0.12), (name, model.coef)

    # the fit is not just near: it beats the truth's log-likelihood on its own data (it is the maximum)
    def loglik(coef):
        p = np.clip(cal.CalibrationModel(coef).predict(score, phase), 1e-12, 1 - 1e-12)
        return float(np.sum(won * np.log(p) + (1 - won) * np.log(1 - p)))

    assert loglik(model.coef) >= loglik(TRUE)


def test_another_seed_draws_other_data_and_a_close_fit():
    a = cal.fit(*draw(20_000, seed=2)[:3])
    b = cal.fit(*draw(20_000, seed=3)[:3])
    assert a.coef != b.coef
    assert all(abs(a.coef[k] - b.coef[k]) < 0.4 for k in TRUE)


def test_a_fit_needs_both_outcomes_and_enough_samples():
    with pytest.raises(cal.CalibrationError):
        cal.fit([1.0] * 50, [50] * 50, [1.0] * 50)
    with pytest.raises(cal.CalibrationError):
        cal.fit([1.0, -1.0], [50, 50], [1.0, 0.0])


def test_the_decile_table_sums_to_the_samples():
    score, phase, won, p = draw(1003, seed=4)
    rows = cal.decile_table(p, won)
    assert len(rows) == 10 and [r["decile"] for r in rows] == list(range(1, 11))
    assert sum(r["n"] for r in rows) == 1003
    assert {r["n"] for r in rows} <= {100, 101}
    assert sum(r["wins"] for r in rows) == int(won.sum())
    assert sum(r["predicted"] * r["n"] for r in rows) == pytest.approx(float(p.sum()))
    assert all(a["high"] <= b["low"] for a, b in zip(rows, rows[1:]))  # sorted by prediction
    for r in rows:
        assert r["observed"] == r["wins"] / r["n"]
        assert r["ci95"] == list(wilson(r["wins"], r["n"]))
        assert r["gap"] == pytest.approx(r["observed"] - r["predicted"])


def test_a_hand_counted_decile_table_and_brier_score():
    p = [0.1, 0.2, 0.3, 0.9]
    y = [0, 1, 0, 1]
    rows = cal.decile_table(p, y, bins=2)
    assert [(r["n"], r["wins"]) for r in rows] == [(2, 1), (2, 1)]
    assert [r["predicted"] for r in rows] == pytest.approx([0.15, 0.6])
    assert cal.brier(p, y) == pytest.approx((0.01 + 0.64 + 0.09 + 0.01) / 4)


def records_from(score, phase, won, per_game=20):
    """Synthetic self-play records: ``per_game`` samples a game, the player
    to move alternating, the winner set so the outcome of each sample holds
    for its player (a record keeps one winner, so a game's samples agree)."""
    out = []
    for g in range(len(score) // per_game):
        sl = slice(g * per_game, (g + 1) * per_game)
        winner = 0
        evals = []
        for k, (s, t, w) in enumerate(zip(score[sl], phase[sl], won[sl])):
            player = k % 2
            if k == 0:
                winner = player if w else 1 - player
            elif (winner == player) != bool(w):
                s = -s  # keep the sample consistent with the game's one winner: the mirror sample
            evals.append(
                {
                    "player": player,
                    "score": float(s),
                    "bound": "estimate",
                    "left": [int(t) // 2, int(t) - int(t) // 2],
                }
            )
        evals.append({"player": 0, "score": 3.0, "bound": "exact", "left": [0, 1]})  # never a sample
        out.append({"winner": winner, "evals": evals})
    return out


def test_samples_take_the_estimates_for_the_player_to_move():
    record = {
        "winner": 1,
        "evals": [
            {"player": 0, "score": -2.5, "bound": "estimate", "left": [53, 50]},
            {"player": 1, "score": 4.0, "bound": "estimate", "left": [40, 41]},
            {"player": 1, "score": 6.0, "bound": "exact", "left": [3, 4]},
            {"player": 0, "score": None, "bound": None, "left": [2, 2]},
        ],
    }
    s = cal.samples([record, record])
    assert s["score"].tolist() == [-2.5, 4.0, -2.5, 4.0]
    assert s["phase"].tolist() == [103, 81, 103, 81]
    assert s["won"].tolist() == [0.0, 1.0, 0.0, 1.0]
    assert s["game"].tolist() == [0, 0, 1, 1]
    assert cal.samples([record], bounds=("exact",))["score"].tolist() == [6.0]


def test_the_split_is_by_game_and_seeded():
    train, test = cal.split_games(100, 0.3, seed=7)
    assert len(test) == 30 and len(train) == 70
    assert sorted(set(train) | set(test)) == list(range(100)) and not set(train) & set(test)
    again = cal.split_games(100, 0.3, seed=7)
    assert again[1].tolist() == test.tolist()
    assert cal.split_games(100, 0.3, seed=8)[1].tolist() != test.tolist()
    with pytest.raises(cal.CalibrationError):
        cal.split_games(10, 1.5)


def test_calibrate_judges_the_fit_and_the_current_mapping_on_held_out_games():
    # outcomes drawn from the shipped mapping (a model of the fitted form):
    # both it and the fit must be calibrated within a few points
    rng = np.random.default_rng(11)
    n = 40_000
    score = rng.normal(0, 12, n)
    phase = rng.integers(0, 107, n).astype(float)
    p = np.array([win_probability_of(s, t) for s, t in zip(score, phase)])
    won = (rng.random(n) < p).astype(float)
    records = records_from(score, phase, won, per_game=2)  # tiny games: samples almost independent
    result = cal.calibrate(records, seed=0)
    assert result["test"]["games"] == round(0.3 * len(records))
    assert result["train"]["moves"] + result["test"]["moves"] == 2 * len(records)
    # (1,200 held-out moves a decile: sampling noise alone is about 1.5 points)
    assert result["max_gap_current"] < cal.CALIBRATION_TOLERANCE
    assert result["max_gap"] < cal.CALIBRATION_TOLERANCE
    assert result["brier"] < result["brier_base_rate"] and result["brier_current"] < result["brier_base_rate"]
    assert abs(result["brier"] - result["brier_current"]) < 0.005
    # a mapping that is wrong shows: the fit on outcomes drawn from a flatter curve beats today's
    flat = (rng.random(n) < np.array([win_probability_of(s / 3, 106) for s in score])).astype(float)
    result = cal.calibrate(records_from(score, phase, flat, per_game=2), seed=0)
    assert result["max_gap_current"] > 0.1 and result["max_gap"] < cal.CALIBRATION_TOLERANCE
    assert result["brier"] < result["brier_current"]
    assert "## Win probability calibration" in cal.calibration_markdown(result)


def test_the_split_does_not_depend_on_the_order_the_games_ended_in():
    score, phase, won, _ = draw(4000, seed=9)
    records = records_from(score, phase, won, per_game=20)
    for i, r in enumerate(records):
        r.update(circle_index=i // 2, edition=("revised", "original")[i % 2], first=(i // 2) % 2)
    shuffled = [records[i] for i in np.random.default_rng(1).permutation(len(records))]
    a, b = cal.calibrate(records, seed=3), cal.calibrate(shuffled, seed=3)
    assert a["model"].coef == b["model"].coef and a["deciles"] == b["deciles"]


def test_calibrate_refuses_too_few_moves():
    with pytest.raises(cal.CalibrationError, match="too few"):
        cal.calibrate([{"winner": 0, "evals": []}] * 10)


def test_the_parameters_round_trip_and_give_the_fitted_probability(tmp_path):
    model = cal.fit(*draw(5000, seed=5)[:3])
    path = tmp_path / "calibration.json"
    cal.write_params(model, path)
    back = cal.read_params(path)
    assert back.coef == model.coef and back.samples == 5000
    by_hand = 1 / (
        1
        + math.exp(
            -(
                model.coef["intercept"]
                + model.coef["phase"] * 40 / 106
                + (model.coef["score"] + model.coef["score_x_phase"] * 40 / 106) * 7.5 / 10
            )
        )
    )
    for params in (model, back, model.to_dict(), path, str(path)):
        assert cal.fitted_win_probability(7.5, 40, params) == pytest.approx(by_hand)


def test_a_bad_parameters_file_is_one_clear_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(cal.CalibrationError, match="not JSON"):
        cal.read_params(bad)
    bad.write_text('{"model": "logistic"}')
    with pytest.raises(cal.CalibrationError, match="not calibration parameters"):
        cal.read_params(bad)
    with pytest.raises(cal.CalibrationError, match="cannot read"):
        cal.read_params(tmp_path / "missing.json")


def test_the_phase_of_a_position_is_both_players_spaces_left():
    pos = Position.start(seed=3)
    assert cal.phase_of(pos) == 106
    pos = pos.play(pos.legal_moves()[0])  # a walk: to the space in front of the opponent (1)
    assert cal.phase_of(pos) == 106 - pos.time(0) - pos.time(1) == 105


CORPUS = "selfplay_leather.jsonl.xz"  # in tests/data/: the 800-game corpus, whole


def test_the_shipped_mapping_is_the_fit_on_the_corpus_and_within_five_points_on_its_held_out_games():
    # the package's win_probability.json is the manifest of its own fit: the
    # corpus it names, split as it says, gives its coefficients again, and the
    # shipped mapping is within the 5 points in every decile of the
    # games the fit never saw
    shipped = json.loads((resources.files("patchsolve") / "data" / "win_probability.json").read_text())
    info = shipped["info"]
    # the data it names is the fixture (the same bytes: test_data_files.py checks the SHA-256)
    assert info["data"] == [MANIFEST[CORPUS]["source"]]
    result = cal.calibrate(corpus(CORPUS), seed=info["seed"], test_fraction=info["test_fraction"])
    for name, value in shipped["coef"].items():
        assert result["model"].coef[name] == pytest.approx(value, rel=1e-9)
    assert result["test"]["games"] == info["held_out"]["games"] == 240
    assert result["max_gap_current"] == pytest.approx(info["held_out"]["max_decile_gap"], abs=5e-4)
    assert result["max_gap_current"] <= cal.CALIBRATION_TOLERANCE
    assert result["brier_current"] == pytest.approx(info["held_out"]["brier"], abs=5e-5)
