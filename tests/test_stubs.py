"""The Cython modules' stubs (``_core.pyi``, ``search/_*.pyi``) agree with
the built modules: mypy's stubtest imports each module and checks every
name, signature, default and property of the stub against it (issue 54
item 4). What stubtest cannot tell apart in a compiled module is listed,
with its reason, in ``stubtest_allowlist.txt``; the one signature it
cannot read, a cdef class's ``__cinit__`` (at runtime ``__new__`` takes
``*args, **kwargs``), is compared with the stub's ``__new__`` from the
sources here."""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import patchsolve

# Every Cython module (each has a .pyi beside its .pyx).
MODULES = [
    "patchsolve._core",
    "patchsolve.search._alphabeta",
    "patchsolve.search._eval",
    "patchsolve.search._learned",
    "patchsolve.search._mcts",
    "patchsolve.search._packing",
    "patchsolve.search._patterns",
    "patchsolve.search._solver",
    "patchsolve.search._zobrist",
]
ALLOWLIST = Path(__file__).resolve().parent / "stubtest_allowlist.txt"
PACKAGE = Path(patchsolve.__file__).resolve().parent


def test_every_cython_module_is_checked():
    pyx = {
        p.relative_to(PACKAGE.parent).with_suffix("").as_posix().replace("/", ".")
        for p in PACKAGE.rglob("*.pyx")
    }
    assert pyx == set(MODULES)
    for module in MODULES:
        assert (PACKAGE.parent / (module.replace(".", "/") + ".pyi")).is_file(), module


def test_stubs_match_the_built_modules(tmp_path):
    # mypy comes with the [lint] extra, which .ci/run installs: under CI the
    # check must run, elsewhere it is skipped without mypy
    if importlib.util.find_spec("mypy") is None and os.environ.get("CI") != "true":
        pytest.skip("mypy is not installed (pip install -e '.[lint]'): stubtest comes with it")
    # the stubs and the modules from where the tests import patchsolve
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(filter(None, [str(PACKAGE.parent), os.environ.get("PYTHONPATH")])),
    )
    run = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "--allowlist", str(ALLOWLIST), *MODULES],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,  # no mypy config and no cache in the tree
    )
    assert run.returncode == 0, run.stdout + run.stderr


def cinit_parameters(pyx: Path) -> dict[str, list[tuple[str, str, bool]]]:
    """Class -> (name, kind, has a default) of each parameter of its
    ``__cinit__`` after ``self``; kind "positional" or "keyword" (after
    ``*``)."""
    out = {}
    for block in re.split(r"^(?=cdef class )", pyx.read_text(), flags=re.M)[1:]:
        m = re.search(r"^    def __cinit__\(self,?(.*?)\):", block, re.M | re.S)
        if m is None:
            continue
        params, kind = [], "positional"
        for piece in (p.strip() for p in m.group(1).split(",")):
            if piece == "*":
                kind = "keyword"
            elif piece:
                params.append((piece.split("=")[0].split()[-1], kind, "=" in piece))
        out[block.split()[2].rstrip(":(")] = params
    return out


def new_parameters(pyi: Path) -> dict[str, list[tuple[str, str, bool]]]:
    """The same for each class's ``__new__`` in a stub, after ``cls``."""
    out = {}
    for node in ast.parse(pyi.read_text()).body:
        if isinstance(node, ast.ClassDef):
            for f in node.body:
                if isinstance(f, ast.FunctionDef) and f.name == "__new__":
                    a = f.args
                    pos = a.posonlyargs + a.args
                    defaults = [False] * (len(pos) - len(a.defaults)) + [True] * len(a.defaults)
                    params = [(p.arg, "positional", d) for p, d in zip(pos, defaults)][1:]
                    params += [(p.arg, "keyword", d is not None) for p, d in zip(a.kwonlyargs, a.kw_defaults)]
                    out[node.name] = params
    return out


def test_cinit_arguments_are_the_stubs_new():
    seen = 0
    for module in MODULES:
        pyx = PACKAGE.parent / (module.replace(".", "/") + ".pyx")
        cinit = cinit_parameters(pyx)
        new = new_parameters(pyx.with_suffix(".pyi"))
        assert set(new) <= set(cinit), f"{module}: __new__ without a __cinit__: {set(new) - set(cinit)}"
        for cls, params in cinit.items():
            assert new.get(cls) == params, f"{module}.{cls}: __cinit__ {params}, stub __new__ {new.get(cls)}"
            seen += 1
    assert seen == 3  # _alphabeta.Searcher, _mcts.Searcher, _solver.Solver
