"""Every code example of the README and the manual runs, so none can rot.

- ```` ```python ```` blocks: the blocks of one page run in order in one
  namespace (a page reads like a notebook), in a temporary folder.
- ```` ```console ```` blocks: each line starting with ``$ `` runs through a
  shell, the lines of one page in order in one temporary folder (a command
  may read a file an earlier one wrote), and must exit with status 0 and
  print no traceback. ``patchsolve`` and ``python`` are this interpreter,
  importing the same patchsolve as the tests. ``pip`` lines are not run
  (installs are what ``.ci/run`` and ``test_packaging.py`` check), and
  ``patchsolve serve`` runs with ``--help`` added, which still refuses an
  unknown option but does not start a server.
- ```` ```pycon ```` blocks are ``>>>`` sessions with their output: run
  by doctest, the blocks of one page in one namespace, and the output must
  match (``...`` stands for any text).
- ```` ```sh ```` blocks without a prompt are the set-up commands: the
  README's are checked by ``test_packaging.py`` and run by ``.ci/run``.
- ```` ```text ```` blocks are data (board text, notation, output), not run.

A block of another language, or of none, fails: an example cannot evade
these tests by its label. Searches in examples must be cheap: a search
command without a depth, node or iteration budget fails.

The ``>>>`` examples of the docstrings of the main objects (``DOCTESTED``)
run by doctest too.
"""

from __future__ import annotations

import doctest
import importlib
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import patchsolve

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
RUN_LANGUAGES = {"python", "console", "pycon"}
DOCTEST_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
# the modules whose docstrings show >>> examples of the main objects
DOCTESTED = [
    "patchsolve.rules.position",
    "patchsolve.rules.game",
    "patchsolve.rules.patches",
    "patchsolve.interop.actions",
    "patchsolve.search.limits",
    "patchsolve.search.result",
]
DATA_LANGUAGES = {"text", "sh"}
OPTIONAL_MODULES = {"pyspiel", "pettingzoo", "gymnasium", "cairosvg", "ray"}
BUDGETS = ("--depth", "--nodes", "--iterations")
# the commands whose default budget is time (analyze, explain and quiz judge
# at a node budget by default: seconds, and the same verdicts every run)
SEARCH_COMMANDS = {"best", "eval", "play", "solve"}
TIMEOUT = 180  # seconds per command: generous for a loaded machine; the budgets keep each far below


def blocks(path: Path) -> list[tuple[str, int, str]]:
    """The fenced code blocks of a Markdown page: (language, first line, text)."""
    out, lang, start, body = [], None, 0, []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        fence = re.match(r"^(`{3,})(.*)$", line)
        if lang is None and fence:
            lang, start, body = fence.group(2).strip(), number, []
        elif lang is not None and fence and not fence.group(2).strip():
            out.append((lang, start, "\n".join(body) + "\n"))
            lang = None
        elif lang is not None:
            body.append(line)
    assert lang is None, f"{path.name}: a code block opened at line {start} is not closed"
    return out


def page_id(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_every_block_has_a_known_language():
    for path in PAGES:
        for lang, line, _ in blocks(path):
            if lang.startswith("{"):  # a MyST directive (toctree, eval-rst, include)
                continue
            assert lang in RUN_LANGUAGES | DATA_LANGUAGES, (
                f"{page_id(path)}:{line}: code block labelled {lang!r}: use python, console, sh or text"
            )


def test_the_pages_have_examples():
    """The collection below finds what it should (a broken parser would make every test vacuous)."""
    langs = [lang for path in PAGES for lang, _, _ in blocks(path)]
    assert langs.count("python") >= 10 and langs.count("console") >= 10


@pytest.mark.parametrize("path", [p for p in PAGES if any(b[0] == "python" for b in blocks(p))], ids=page_id)
def test_python_examples(path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    scope: dict = {"__name__": "__docs__"}
    for lang, line, code in blocks(path):
        if lang != "python":
            continue
        try:
            exec(compile(code, f"{page_id(path)}:{line}", "exec"), scope)
        except ModuleNotFoundError as error:
            if error.name in OPTIONAL_MODULES and os.environ.get("CI") != "true":
                pytest.skip(f"{page_id(path)}:{line} needs the optional {error.name}")
            raise


@pytest.mark.parametrize("path", [p for p in PAGES if any(b[0] == "pycon" for b in blocks(p))], ids=page_id)
def test_pycon_examples(path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    scope: dict = {"__name__": "__docs__"}
    runner = doctest.DocTestRunner(optionflags=DOCTEST_FLAGS)
    for lang, line, code in blocks(path):
        if lang == "pycon":
            test = doctest.DocTestParser().get_doctest(
                code, scope, f"{page_id(path)}:{line}", str(path), line
            )
            runner.run(test, clear_globs=False)
            scope.update(test.globs)  # the next block goes on from here (DocTest copies its globals)
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted > 0, f"{page_id(path)}: {result}"


@pytest.mark.parametrize("module", DOCTESTED)
def test_docstring_examples(module):
    mod = importlib.import_module(module)
    result = doctest.testmod(mod, optionflags=DOCTEST_FLAGS, verbose=False)
    assert result.failed == 0 and result.attempted > 0, f"{module}: {result}"


def test_the_main_objects_have_examples():
    """A >>> example each of Position, Move, Game, search and solve (in the
    docstrings above or the pages' pycon blocks, all run)."""
    finder = doctest.DocTestFinder()
    sources = [
        example.source
        for m in DOCTESTED
        for test in finder.find(importlib.import_module(m))
        for example in test.examples
    ]
    parser = doctest.DocTestParser()
    for path in PAGES:
        for lang, _, code in blocks(path):
            if lang == "pycon":
                sources += [example.source for example in parser.get_examples(code)]
    for used in (
        r"Position\.start\(|Position\(",
        r"Move\.from_text\(",
        r"\bGame\(",
        r"\.search\(",
        r"\.solve\(",
    ):
        assert any(re.search(used, source) for source in sources), f"no >>> example uses {used}"
    assert len(sources) >= 40, len(sources)


def commands(path: Path) -> list[tuple[int, str]]:
    """The ``$ `` lines of a page's console blocks: (line number, command)."""
    out = []
    for lang, start, code in blocks(path):
        if lang == "console":
            for k, line in enumerate(code.splitlines(), start + 1):
                if line.startswith("$ "):
                    out.append((k, line[2:].strip()))
    return out


def check_budget(where: str, command: str) -> None:
    """A search in an example names a small budget (the defaults search for seconds)."""
    for part in command.split("|"):
        words = shlex.split(part)
        if len(words) > 1 and words[0] == "patchsolve" and words[1] in SEARCH_COMMANDS:
            # a level below 10 has its own small budget
            levelled = "--level" in words and words[words.index("--level") + 1] != "10"
            # pondering needs a time limit alone: a tenth of a second a move at most
            brief = "--time" in words and float(words[words.index("--time") + 1]) <= 0.1
            assert levelled or brief or any(w.split("=")[0] in BUDGETS for w in words), (
                f"{where}: give the search a --depth, --nodes or --iterations budget (or --time 0.1 at most): {command}"
            )


def shell_env(bin_dir: Path) -> dict:
    """``patchsolve`` and ``python`` as this interpreter, importing this patchsolve."""
    bin_dir.mkdir()
    for name, run in (("patchsolve", "-m patchsolve.cli"), ("python", "")):
        script = bin_dir / name
        script.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} {run} "$@"\n')
        script.chmod(0o755)
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    package_root = str(Path(patchsolve.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    return env


@pytest.mark.parametrize("path", [p for p in PAGES if commands(p)], ids=page_id)
def test_console_examples(path, tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    for folder in ("examples", "benchmarks"):  # the scripts an example may run from a checkout
        (work / folder).symlink_to(ROOT / folder)
    env = shell_env(tmp_path / "bin")
    for line, command in commands(path):
        where = f"{page_id(path)}:{line}"
        if command.startswith("pip "):
            continue
        check_budget(where, command)
        if command.startswith("patchsolve serve"):
            command += " --help"
        run = subprocess.run(
            ["bash", "-c", "set -o pipefail; " + command],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        assert run.returncode == 0, (
            f"{where}: {command}\nexit {run.returncode}\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}"
        )
        assert "Traceback" not in run.stderr, f"{where}: {command}\n{run.stderr[-2000:]}"


def test_the_api_reference_names_every_public_name():
    """A name added to ``patchsolve.__all__`` appears in the manual's API page
    (the exceptions through ``automodule:: patchsolve.errors``)."""
    api = (ROOT / "docs" / "api.md").read_text()
    documented = set(re.findall(r"^\.\. auto(?:class|function|data):: patchsolve\.(\w+)$", api, re.M))
    if ".. automodule:: patchsolve.errors" in api:
        documented |= {"errors"} | set(
            patchsolve.errors.__all__ if hasattr(patchsolve.errors, "__all__") else []
        )
        documented |= {
            n
            for n in patchsolve.__all__
            if isinstance(getattr(patchsolve, n), type)
            and issubclass(getattr(patchsolve, n), patchsolve.errors.PatchsolveError)
        }
    assert set(patchsolve.__all__) <= documented, sorted(set(patchsolve.__all__) - documented)
