"""The tests read only small fixtures under tests/data/: every file there is
listed in its manifest, together they stay under 2 MB, a copy of a larger
file holds exactly the bytes its manifest's SHA-256 names, and no test reads
anything under benchmarks/results/ (generated data that may leave the tree)."""

import ast
import hashlib
from pathlib import Path

import pytest

from data_files import DATA, MANIFEST, data_bytes

TESTS = Path(__file__).resolve().parent
MAX_BYTES = 2_000_000


def test_every_file_in_tests_data_is_in_the_manifest_and_the_folder_stays_small():
    files = {p.name for p in DATA.iterdir() if p.is_file()} - {"manifest.json"}
    listed = {name for name in MANIFEST if not name.startswith("_")}
    assert files == listed
    assert all(MANIFEST[name]["what"] for name in listed)
    assert sum(p.stat().st_size for p in DATA.iterdir() if p.is_file()) <= MAX_BYTES


@pytest.mark.parametrize("name", [n for n, e in MANIFEST.items() if isinstance(e, dict) and "sha256" in e])
def test_a_copied_fixture_holds_the_bytes_its_manifest_names(name):
    entry = MANIFEST[name]
    content = data_bytes(name)
    assert len(content) == entry["bytes"]
    assert hashlib.sha256(content).hexdigest() == entry["sha256"]
    assert {"source", "commit", "made_by"} <= set(entry)


def paths_into_results(source: str) -> list[str]:
    """The places in a test module's code (docstrings and comments aside)
    that name benchmarks/results/: a string holding the path, or a path
    built with ``/`` from a "benchmarks" part followed by a "results" part."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if "benchmarks/results" in node.value.replace("\\", "/"):
                found.append(f"line {node.lineno}: {node.value!r}")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            parts, left = [], node
            while isinstance(left, ast.BinOp) and isinstance(left.op, ast.Div):
                if isinstance(left.right, ast.Constant):
                    parts.append(left.right.value)
                left = left.left
            parts.reverse()
            if any(a == "benchmarks" and b == "results" for a, b in zip(parts, parts[1:])):
                found.append(f"line {node.lineno}: {' / '.join(map(str, parts))}")
    return found


def test_the_check_finds_the_ways_a_test_could_name_the_results():
    assert paths_into_results('CORPUS = ROOT / "benchmarks" / "results" / "selfplay_2000" / "corpus.jsonl"\n')
    assert paths_into_results('open("benchmarks/results/x.csv")\n')
    assert not paths_into_results('"""Measured in benchmarks/results/x.md."""\n# benchmarks/results/y.md\n')


def test_no_test_reads_anything_under_benchmarks_results():
    hits = {
        path.relative_to(TESTS).as_posix(): found
        for path in sorted(TESTS.rglob("*.py"))
        if path.name != "test_data_files.py"  # this file names the path to look for it
        and (found := paths_into_results(path.read_text()))
    }
    assert hits == {}


def test_the_tracked_tree_stays_under_6_mib_with_no_file_over_1_mib():
    """Generated data stays out of the tree (issue 54): measured as
    ``git ls-files -z | xargs -0 du -cb`` measures it."""
    import os
    import subprocess

    root = TESTS.parent
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True, timeout=60
        ).stdout
    except (OSError, subprocess.SubprocessError):
        pytest.skip("needs a git checkout")
    sizes = {}
    for name in filter(None, listed.decode().split("\0")):
        path = root / name
        if os.path.lexists(path):
            sizes[name] = os.lstat(path).st_size
    assert sizes
    assert {n: s for n, s in sizes.items() if s > 1 << 20} == {}
    assert sum(sizes.values()) <= 6 << 20
