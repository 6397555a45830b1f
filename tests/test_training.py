"""The training pipeline: seeded self-play data and the fit's manifest."""

import json

from patchsolve.search import _knowledge as kn
from patchsolve.training import fit, selfplay


def test_selfplay_is_deterministic_and_resumable(tmp_path):
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    selfplay.generate(a, 2, seed=5, nodes=300, noise_plies=6)
    selfplay.generate(b, 1, seed=5, nodes=300, noise_plies=6)
    selfplay.generate(b, 2, seed=5, nodes=300, noise_plies=6)    # resumes: only game 1 is new
    assert a.read_text() == b.read_text()
    rows = fit.read_rows([a])
    assert {r["game"] for r in rows} == {"5000000", "5000001"}
    # the labels are the final margins: the two players' labels of one game are opposite
    for game in ("5000000", "5000001"):
        labels = {int(r["mover"]): int(r["final_margin"]) for r in rows if r["game"] == game}
        assert labels[0] == -labels[1]


def test_fit_writes_weights_that_load_and_a_manifest_that_adds_up(tmp_path):
    data = tmp_path / "d.csv"
    selfplay.generate(data, 6, seed=9, nodes=300, noise_plies=6)
    model = fit.fit(fit.read_rows([data]), held_out=0.34, seed=1)
    out = tmp_path / "w.json"
    fit.write(model, out, {"generation": 0})
    saved = json.loads(out.read_text())
    man = saved["manifest"]
    assert saved["features"] == list(kn.FEATURES) and len(saved["weights"]) == len(kn.FEATURES)
    assert man["games"] == 6 and man["train_positions"] + man["held_out_positions"] == man["positions"]
    assert set(man["held_out"]) == {"learned", "hand_tuned", "margin_now"}
