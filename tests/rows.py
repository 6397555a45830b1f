"""What every ranked list of root moves promises (choice first), checked
the same way wherever rows are shown: the API, the CLI's JSON, the web."""


def assert_choice_first(rows, key="score"):
    """The best row of each choice first (walking, each patch, the leather
    patch: one row each, ``kind="choice"``), in order of ``key``; then the
    further placements (``kind="placement"``) in order; a placement never
    worth more than its choice's row; the first row the best of all."""
    kinds = [r["kind"] for r in rows]
    firsts = [r for r in rows if r["kind"] == "choice"]
    rest = [r for r in rows if r["kind"] == "placement"]
    assert kinds == ["choice"] * len(firsts) + ["placement"] * len(rest), kinds
    assert len({str(r["choice"]) for r in firsts}) == len(firsts)
    assert [r[key] for r in firsts] == sorted((r[key] for r in firsts), reverse=True)
    assert [r[key] for r in rest] == sorted((r[key] for r in rest), reverse=True)
    best_of = {str(r["choice"]): r[key] for r in firsts}
    assert all(str(r["choice"]) in best_of and r[key] <= best_of[str(r["choice"])] for r in rest)
    assert rows[0][key] == max(r[key] for r in rows)
