"""The training pipeline: seeded self-play data and the fit's manifest."""

import json

from data_files import MANIFEST, corpus
from patchsolve.search import _learned as kn
from patchsolve.training import fit, selfplay


def test_selfplay_is_deterministic_and_resumable(tmp_path):
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    selfplay.generate(a, 2, seed=5, nodes=300, noise_plies=6)
    selfplay.generate(b, 1, seed=5, nodes=300, noise_plies=6)
    selfplay.generate(b, 2, seed=5, nodes=300, noise_plies=6)  # resumes: only game 1 is new
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


def test_rows_carry_the_search_score_of_their_position(tmp_path):
    from patchsolve.rules.position import Position
    from patchsolve.search import search

    data = tmp_path / "d.csv"
    selfplay.generate(data, 1, seed=3, nodes=300, noise_plies=6)
    rows = fit.read_rows([data])
    for r in rows[:5] + rows[-3:]:
        pos = Position(r["position"])
        assert int(r["mover"]) == pos.to_move
        assert float(r["search_score"]) == search(pos, engine="alphabeta", nodes=300, learned=False).score


def test_a_blended_target_needs_search_scores_and_is_recorded(tmp_path):
    import pytest

    data = tmp_path / "d.csv"
    selfplay.generate(data, 4, seed=9, nodes=300, noise_plies=6)
    rows = fit.read_rows([data])
    outcome = fit.fit(rows, held_out=0.25, seed=1)
    blend = fit.fit(rows, held_out=0.25, seed=1, outcome=0.3)
    assert blend["manifest"]["outcome_weight"] == 0.3 and outcome["manifest"]["outcome_weight"] == 1.0
    assert blend["weights"] != outcome["weights"]
    # the held-out error is against the outcomes either way: the margin-now baseline is the same
    assert blend["manifest"]["held_out"]["margin_now"] == outcome["manifest"]["held_out"]["margin_now"]
    for r in rows:
        r["search_score"] = ""
    with pytest.raises(ValueError, match="search_score"):
        fit.fit(rows, held_out=0.25, seed=1, outcome=0.3)


def test_appending_to_a_file_of_other_columns_is_refused(tmp_path):
    import pytest

    old = tmp_path / "old.csv"
    old.write_text("game,ply,mover,final_margin,position\n")
    with pytest.raises(ValueError, match="columns"):
        selfplay.generate(old, 1, seed=1, nodes=100)


CORPUS = "selfplay_2000.jsonl.xz"  # in tests/data/: the 2,000-game corpus, whole


def test_corpus_rows_label_every_position_with_its_movers_final_margin_and_the_kept_score():
    record = corpus(CORPUS)[0]
    rows = selfplay.corpus_rows(0, record)
    assert len(rows) == len(record["moves"])
    first_margin = record["scores"][0] - record["scores"][1]
    for (_, _, mover, final, _, score), ev in zip(rows, record["evals"], strict=True):
        assert final == (first_margin if mover == 0 else -first_margin)
        assert score == (ev["score"] if ev["player"] == mover else -ev["score"])
    # from where the solver proved the end, the kept score is the exact value: the final margin
    proven = record["proven"]["ply"]
    assert all(score == final for _, ply, _, final, _, score in rows if ply >= proven)


def test_the_shipped_weights_are_the_fit_of_the_data_their_manifest_names():
    """Generation 4: refitting the corpus's rows with the manifest's settings
    gives the weights in the package, digit for digit."""
    from patchsolve.search import learned

    data = learned.read()
    man = data["manifest"]
    assert man["data"] == ["corpus2000_rows.csv"]
    # the rows' corpus is the fixture: the file its command read, whose SHA-256 test_data_files.py checks
    assert MANIFEST[CORPUS]["source"] in man["data_command"][0]
    rows = [  # as the CSV the manifest's command read: every value a string
        dict(zip(selfplay.COLUMNS, map(str, row)))
        for i, record in enumerate(corpus(CORPUS))
        for row in selfplay.corpus_rows(i, record)
    ]
    assert len(rows) == man["positions"]
    model = fit.fit(rows, man["held_out_fraction"], man["split_seed"], man["ridge"], man["outcome_weight"])
    assert model["weights"] == data["weights"]
    assert model["manifest"]["held_out"] == man["held_out"]
