"""The two indexes of benchmarks/ stay complete: benchmarks/README.md names
every script (by its path under benchmarks/), no script or experiment diff
lives among the results, and benchmarks/results/README.md names every note,
folder and file of results/ with its status (current or superseded)."""

import fnmatch
import re
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
RESULTS = BENCH / "results"

pytestmark = pytest.mark.skipif(not BENCH.is_dir(), reason="needs a source checkout (benchmarks/)")


def scripts() -> list[str]:
    return sorted(p.relative_to(BENCH).as_posix() for p in BENCH.rglob("*") if p.suffix in (".py", ".sh"))


def test_every_script_is_named_in_the_benchmarks_index():
    index = (BENCH / "README.md").read_text()
    assert scripts()
    assert [s for s in scripts() if f"`{s}`" not in index] == []


def test_results_hold_notes_and_data_only():
    assert [s for s in scripts() if s.startswith("results/")] == []
    assert sorted(p.relative_to(RESULTS).as_posix() for p in RESULTS.rglob("*.diff")) == []


def index_entries() -> dict[str, str]:
    """{name or pattern: its line} of the results index's list items."""
    entries = {}
    for line in (RESULTS / "README.md").read_text().splitlines():
        if line.startswith("- `"):
            head = line.split(" -- ", 1)[0]
            for name in re.findall(r"`([^`]+)`", head):
                entries[name] = line
    return entries


def test_every_note_folder_and_file_of_the_results_is_in_its_index_with_a_status():
    entries = index_entries()
    here = sorted(
        p.name + "/" if p.is_dir() else p.name
        for p in RESULTS.iterdir()
        if p.name != "README.md" and not p.name.startswith(".")
    )
    missing = [n for n in here if not any(fnmatch.fnmatchcase(n, pattern) for pattern in entries)]
    assert missing == []
    for name, line in entries.items():
        status = line.split(" -- ", 1)[1] if " -- " in line else ""
        assert status.startswith(("current", "superseded")), line
        # every name the index lists is there (a pattern matches something)
        assert any(fnmatch.fnmatchcase(n, name) for n in here), name


def test_a_superseded_note_names_what_replaced_it_and_that_is_in_the_index():
    entries = index_entries()
    for line in entries.values():
        if " -- superseded by " in line:
            replaced_by = line.split(" -- superseded by ", 1)[1].split(":", 1)[0]
            assert re.findall(r"`([^`]+)`", replaced_by), line
            assert all(name in entries for name in re.findall(r"`([^`]+)`", replaced_by)), line
