"""The README's set-up commands stay true: CI runs the README's test command."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ci_runs_the_readme_test_command():
    """CI runs the README's test command, with only more extras installed
    (the manual's and the linters')."""
    import re

    ci_lines = [ln.strip() for ln in (ROOT / ".ci" / "run").read_text().splitlines()]
    ci = next(ln for ln in ci_lines if "pytest" in ln and not ln.startswith("#"))
    readme = next(
        ln.strip()
        for ln in (ROOT / "README.md").read_text().splitlines()
        if "pytest" in ln and "pip install" in ln
    )
    extras = re.compile(r"\[([a-z,]+)\]")
    assert extras.sub("[]", ci) == extras.sub("[]", readme)
    assert set(extras.search(readme).group(1).split(",")) <= set(extras.search(ci).group(1).split(","))


def test_ci_sets_ci_and_builds_the_manual_with_warnings_as_errors():
    ci = [
        ln.strip() for ln in (ROOT / ".ci" / "run").read_text().splitlines() if not ln.strip().startswith("#")
    ]
    assert "export CI=true" in ci
    assert any(ln.startswith("python3 -m sphinx -W") and ln.endswith("docs docs/_build/html") for ln in ci)


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
    lines = {
        ln.split("=", 1)[0].strip(): ln
        for ln in (ROOT / "pyproject.toml").read_text().splitlines()
        if "=" in ln
    }
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


def test_the_wheel_installs_into_a_fresh_venv_and_runs(tmp_path):
    """``python -m build`` makes the sdist and, from it, the wheel; the wheel
    installs into a new virtual environment and ``patchsolve best --depth 2``
    runs from there (not from this checkout). Under CI only: it compiles the
    extensions again and downloads the build and run dependencies (about a
    minute)."""
    import json
    import os
    import subprocess
    import sys
    import zipfile

    import pytest

    if os.environ.get("CI") != "true":
        pytest.skip("only run under CI (CI=true): builds and installs the package")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # nothing from this checkout

    def run(*command, timeout=900):
        done = subprocess.run(
            [str(c) for c in command], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=timeout
        )
        assert done.returncode == 0, (
            f"{' '.join(map(str, command))}: exit {done.returncode}\n{done.stderr[-3000:]}"
        )
        return done.stdout

    dist, venv = tmp_path / "dist", tmp_path / "venv"
    run(sys.executable, "-m", "build", "--outdir", dist, ROOT)
    sdists, wheels = sorted(dist.glob("*.tar.gz")), sorted(dist.glob("*.whl"))
    assert len(sdists) == 1 and len(wheels) == 1, sorted(p.name for p in dist.iterdir())
    names = zipfile.ZipFile(wheels[0]).namelist()
    for shipped in (
        "patchsolve/py.typed",
        "patchsolve/web/static/index.html",
        "patchsolve/data/eval_weights.json",
        "patchsolve/data/win_probability.json",
    ):
        assert shipped in names, f"{shipped} is not in the wheel"
    assert any(n.startswith("patchsolve/_core.") and n.endswith((".so", ".pyd")) for n in names)

    run(sys.executable, "-m", "venv", venv)
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    run(bindir / "python", "-m", "pip", "install", "-q", wheels[0])
    result = json.loads(run(bindir / "patchsolve", "best", "--depth", "2", "--json", timeout=120))
    assert result["best_move"] and result["depth"] == 2
    where = run(bindir / "python", "-c", "import patchsolve; print(patchsolve.__file__)")
    assert str(venv) in where, f"the venv imported {where.strip()}, not its own install"
