"""The public patch catalogue: patchsolve.PATCHES and ``patchsolve patches``."""

import csv
import json
from pathlib import Path

from click.testing import CliRunner

import patchsolve as ps
from patchsolve.cli import cli

CSV = Path(ps.__file__).parent / "data" / "patches.csv"


def test_patches_hold_every_row_of_the_catalogue_with_its_fields():
    rows = list(csv.DictReader(CSV.open()))
    assert len(ps.PATCHES) == len(rows) == 33
    for p, r in zip(ps.PATCHES, rows):
        assert (p.id, p.name, p.cost, p.buttons, p.time, p.income, p.shape) == (
            int(r["id"]),
            r["name"],
            int(r["buttons"]),
            int(r["buttons"]),
            int(r["time"]),
            int(r["income"]),
            r["shape"],
        )
        assert p.size == r["shape"].count("#")


def test_symbols_are_distinct_single_characters_and_never_the_leather_L():
    symbols = [p.symbol for p in ps.PATCHES]
    assert len(set(symbols)) == 33 and all(len(s) == 1 for s in symbols)
    assert "L" not in symbols and "." not in symbols
    assert ps.PATCHES[12].symbol == "C" and ps.PATCHES[21].symbol == "M"


def test_the_patches_command_draws_each_shape_with_the_patch_symbol():
    r = CliRunner().invoke(cli, ["patches"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    for p in ps.PATCHES:
        head = f"{p.id} ({p.symbol}) {p.name}"
        row = next(i for i, line in enumerate(lines) if head in line)
        col = lines[row].index(head)
        assert f"cost {p.buttons} time {p.time} income {p.income}" in lines[row + 1][col:]
        drawn = [lines[row + 2 + k][col : col + len(s)].rstrip() for k, s in enumerate(p.shape.split("/"))]
        assert drawn == [s.replace(".", " ").replace("#", p.symbol).rstrip() for s in p.shape.split("/")]


def test_the_patches_command_json_is_the_catalogue():
    r = CliRunner().invoke(cli, ["patches", "--json"])
    assert r.exit_code == 0
    data = json.loads(r.output)
    assert data == [p.to_dict() for p in ps.PATCHES]
    assert data[8] == {
        "id": 8,
        "symbol": "8",
        "name": "L4_expensive",
        "cost": 4,
        "time": 6,
        "income": 2,
        "size": 4,
        "shape": "###/#..",
    }
