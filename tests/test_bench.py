"""The bench set and the one bench behind `patchsolve bench`."""

from pathlib import Path

from patchsolve.search import bench


def test_the_bench_set_has_four_positions_per_phase_in_notation():
    positions = bench.read_positions()
    phases = [phase for phase, _pos in positions]
    assert phases == ["opening"] * 4 + ["middle"] * 4 + ["endgame"] * 4
    assert all(not pos.is_over for _phase, pos in positions)


def test_the_source_checkout_shows_the_bench_set_under_benchmarks():
    link = Path(__file__).resolve().parents[1] / "benchmarks" / "positions.txt"
    assert link.read_text() == bench.bench_set_text()


def test_the_bench_gives_the_pinned_signature():
    """A change that alters what a search or the core does changes this
    number: pin the new one with the change (bench.SIGNATURE)."""
    result = bench.run()
    assert result["signature"] == bench.SIGNATURE
    assert f"signature {bench.SIGNATURE}" == result["lines"][-1]
