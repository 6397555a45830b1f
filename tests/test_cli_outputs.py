"""The outputs the command-line page shows are the outputs the commands
print (issue 55: "each CLI page shows a real command with its real output,
generated and checked, so it cannot go stale").

``docs/cli.md``'s section "What each command prints" has a subsection per
command, each with ``console`` blocks: ``$ `` lines are commands, the lines
after one are what it printed on standard output. Each block runs in a fresh
empty folder, its commands in order. An output is compared line by line,
with these allowances:

- a line ``...`` stands for any number of lines (a long output shown in part);
- times and speeds (``0.05s``, ``time 0.41s``, ``nps 1,234``, ``... leaves/s``,
  ``... nodes/s``, a peak memory in MiB) may differ, and so may the blanks
  that align them.

Every command of the CLI has its subsection with at least one shown output.
``serve`` runs until it prints where it serves, then gets Ctrl-C.

After a change to what a command prints::

    python tests/test_cli_outputs.py --write

reruns every block and writes the outputs into the page (keeping the number
of lines shown before and after a ``...``).
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

import patchsolve
from patchsolve.cli import cli

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "cli.md"
SECTION = "## What each command prints"
TIMEOUT = 300
VOLATILE = [
    (re.compile(r"\b\d+(?:\.\d+)?s\b"), "<seconds>s"),
    (re.compile(r"\bnps [\d,]+"), "nps <n>"),
    (re.compile(r"[\d,]+(?:\.\d+)? (leaves|games|nodes|iterations)/s"), r"<n> \1/s"),
    (re.compile(r"\b\d+ MiB"), "<n> MiB"),
]


def normal(line: str) -> str:
    """A line with its times and speeds blanked, and runs of blanks as one
    (a speed's column is as wide as the number)."""
    for pattern, mark in VOLATILE:
        line = pattern.sub(mark, line)
    return " ".join(line.split())


def sections(text: str) -> list[tuple[str, list[tuple[int, list[tuple[str, list[str]]]]]]]:
    """(command, blocks) of the section: each block its first line number
    and its (command, shown output lines) in order."""
    body = text[text.index(SECTION) :]
    body = body[: body.find("\n## ", len(SECTION))] if "\n## " in body[len(SECTION) :] else body
    offset = text[: text.index(SECTION)].count("\n")
    out: list = []
    block = None
    for number, line in enumerate(body.splitlines(), offset + 1):
        if block is None and line.startswith("### "):
            out.append((line[4:].strip(), []))
        elif line.strip() == "```console" and out:
            block = (number, [])
            out[-1][1].append(block)
        elif line.strip() == "```" and block is not None:
            block = None
        elif block is not None:
            if line.startswith("$ "):
                block[1].append((line[2:], []))
            elif block[1]:
                block[1][-1][1].append(line)
    return out


def env_with_package(bin_dir: Path) -> dict:
    """``patchsolve`` as this interpreter's package under test."""
    bin_dir.mkdir(exist_ok=True)
    shim = bin_dir / "patchsolve"
    shim.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m patchsolve.cli "$@"\n')
    shim.chmod(0o755)
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    package_root = str(Path(patchsolve.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    env["COLUMNS"] = "100"
    return env


def run_serve(command: str, cwd: Path, env: dict) -> list[str]:
    proc = subprocess.Popen(
        ["bash", "-c", command],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: list[str] = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip("\n"))
            if "serving on" in line:
                break
        os.killpg(proc.pid, signal.SIGINT)
        rest, _ = proc.communicate(timeout=30)
        lines += rest.splitlines()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return lines


def run_block(commands: list[str], folder: Path, env: dict) -> list[list[str]]:
    """Each command's standard output, as lines, run in order in ``folder``."""
    outputs = []
    for command in commands:
        if command.startswith("patchsolve serve"):
            outputs.append(run_serve(command, folder, env))
            continue
        r = subprocess.run(
            ["bash", "-c", "set -o pipefail; " + command],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        assert r.returncode == 0, f"{command}\nexit {r.returncode}\n{r.stderr[-2000:]}"
        outputs.append(r.stdout.splitlines())
    return outputs


def matches(shown: list[str], actual: list[str]) -> bool:
    """``shown`` (with ``...`` lines standing for any lines) against ``actual``."""
    parts: list[list[str]] = [[]]
    for line in shown:
        if line.strip() == "...":
            parts.append([])
        else:
            parts[-1].append(normal(line))
    got = [normal(line) for line in actual]
    if len(parts) == 1:
        return parts[0] == got
    head, *middle, tail = parts
    if got[: len(head)] != head or (tail and got[len(got) - len(tail) :] != tail):
        return False
    at, end = len(head), len(got) - len(tail)
    for piece in middle:
        while at + len(piece) <= end and got[at : at + len(piece)] != piece:
            at += 1
        if at + len(piece) > end:
            return False
        at += len(piece)
    return at <= end


def shown_like(shown: list[str], actual: list[str]) -> list[str]:
    """``actual`` cut as ``shown`` is: the same number of lines before and
    after its ``...`` (the whole output when it has none)."""
    if "..." not in [line.strip() for line in shown]:
        return actual
    k = [line.strip() for line in shown].index("...")
    head, tail = k, len(shown) - k - 1
    if head + tail >= len(actual):
        return actual
    return actual[:head] + ["..."] + (actual[len(actual) - tail :] if tail else [])


BLOCKS = [
    (name, line, block)
    for name, blocks in sections(PAGE.read_text(encoding="utf-8"))
    for line, block in blocks
]


def test_every_command_shows_an_output():
    shown = {name for name, _, block in BLOCKS if any(out for _, out in block)}
    assert shown >= set(cli.commands), sorted(set(cli.commands) - shown)


@pytest.mark.parametrize("name, line, block", BLOCKS, ids=[f"{n}:{k}" for n, k, _ in BLOCKS])
def test_the_page_shows_what_the_command_prints(name, line, block, tmp_path):
    if name == "serve" and os.environ.get("CI") != "true":
        pytest.importorskip("uvicorn")
        pytest.importorskip("starlette")
    work = tmp_path / "work"
    work.mkdir()
    outputs = run_block([command for command, _ in block], work, env_with_package(tmp_path / "bin"))
    for (command, shown), actual in zip(block, outputs):
        if name == "serve":  # up to where it serves; the server's log after it varies
            actual = actual[: len(shown)]
        assert matches(shown, actual), (
            f"docs/cli.md:{line}: {command}\nshown:\n" + "\n".join(shown) + "\nprinted:\n" + "\n".join(actual)
        )


def write() -> None:
    """Rerun every block and write the outputs into the page."""
    text = PAGE.read_text(encoding="utf-8")
    lines = text.splitlines()
    found = [(name, number, block) for name, blocks in sections(text) for number, block in blocks]
    with tempfile.TemporaryDirectory() as tmp:
        env = env_with_package(Path(tmp) / "bin")
        for name, number, block in reversed(found):  # from the bottom: the line numbers above stay
            work = Path(tmp) / f"work-{number}"
            work.mkdir()
            outputs = run_block([c for c, _ in block], work, env)
            new = []
            for (command, shown), actual in zip(block, outputs):
                if name == "serve":  # where it serves; the server's log after it varies
                    actual = actual[: 1 + next((k for k, a in enumerate(actual) if "serving on" in a), 0)]
                new.append(f"$ {command}")
                new += shown_like(shown, actual)
            end = number  # ``number`` is the 1-based line of the opening fence: its block starts there
            while lines[end].strip() != "```":
                end += 1
            lines[number:end] = new
            print(f"{name}: {len(block)} command(s)", file=sys.stderr)
    PAGE.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write()
    else:
        print(__doc__)
