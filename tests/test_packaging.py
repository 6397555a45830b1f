"""The README's set-up commands stay true: CI runs the README's test command."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ci_runs_the_readme_test_command():
    ci_lines = [ln.strip() for ln in (ROOT / ".ci" / "run").read_text().splitlines()]
    command = next(ln for ln in ci_lines if "pytest" in ln and not ln.startswith("#"))
    assert command in (ROOT / "README.md").read_text()


def test_the_readme_main_job_is_patchsolve_best():
    assert "pip install . && patchsolve best" in (ROOT / "README.md").read_text()


def test_the_web_page_ships_as_package_data():
    import fnmatch
    import re

    line = re.search(r"^patchsolve = \[(.*)\]$", (ROOT / "pyproject.toml").read_text(), re.M).group(1)
    globs = [g.strip().strip('"') for g in line.split(",")]
    static = ROOT / "src" / "patchsolve" / "web" / "static"
    files = [p.relative_to(static.parents[1]).as_posix() for p in static.iterdir()]
    assert {"web/static/index.html", "web/static/app.js", "web/static/style.css"} <= set(files)
    assert all(any(fnmatch.fnmatch(f, g) for g in globs) for f in files)


def test_test_extra_installs_the_adapters_packages():
    """CI installs [test]; it must bring the optional packages the adapters'
    tests would otherwise skip without."""
    lines = {ln.split("=", 1)[0].strip(): ln for ln in (ROOT / "pyproject.toml").read_text().splitlines() if "=" in ln}
    assert "patchsolve[openspiel,pettingzoo]" in lines["test"]
    assert '"open_spiel' in lines["openspiel"]
    assert all(f'"{name}' in lines["pettingzoo"] for name in ("pettingzoo", "gymnasium", "cairosvg"))


def test_ci_has_the_adapters_packages():
    """Under CI the adapters' tests must run, not skip."""
    import importlib
    import os

    import pytest

    if os.environ.get("CI") != "true":
        pytest.skip("only checked under CI (CI=true)")
    for name in ("pyspiel", "pettingzoo", "gymnasium", "cairosvg"):
        importlib.import_module(name)
