"""Every example in every ``--help`` runs (issue 25 section 3).

The examples are read from the Click group itself (the group's help and each
command's), so an example added later is tested too. Each runs through
``/bin/sh`` in a fresh folder, as a user would type it (pipes, ``>`` and
``&&`` included), with ``patchsolve`` standing for ``python -m patchsolve.cli``
of the package under test. The files the examples name (``position.txt``,
``endgame.txt``, ``game.txt``, a folder ``games/``) are laid down first. An example passes when it
exits with 0 and prints no error and no traceback; ``serve`` must answer a
request before Ctrl-C ends it.
"""

import os
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

import patchsolve
from patchsolve import Game
from patchsolve.cli import cli

SRC = Path(patchsolve.__file__).resolve().parents[1]  # the package under test, not an installed one
GOLDEN = Path(__file__).parent / "data" / "golden_game.txt"
# 6 plies left, exact value -6 for the player to move: solved in well under a second
ENDGAME = "revised 3,7,13,25,0,11,9,23,18,19,31 1f80e6f3d9fccff7dfee7/1cfffcff7ffc1c0f3fff3 11/11 14/15 45/45 0 50 - - -"  # noqa: E501
TIMEOUT = 180


def help_examples() -> list[tuple[str, str]]:
    """(command name, example line) for every line of every help text that
    starts with 'patchsolve ' (the group's help is named 'patchsolve')."""
    found = []
    for name, command in [("patchsolve", cli)] + sorted(cli.commands.items()):
        for line in (command.help or "").splitlines():
            line = line.strip()
            if line.startswith("patchsolve "):
                found.append((name, line))
    return found


EXAMPLES = help_examples()


def test_every_command_has_an_example():
    named = {name for name, _ in EXAMPLES}
    assert named == {"patchsolve", *cli.commands}, sorted({"patchsolve", *cli.commands} - named)
    assert len(EXAMPLES) >= 30  # the reader above did find the examples


def shell_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SRC)] + [p for p in [env.get("PYTHONPATH")] if p])
    env["BROWSER"] = "true"  # serve's "open the page" runs true(1), not a browser
    return env


def script(line: str) -> str:
    """The example, with ``patchsolve`` the package under test."""
    return f'patchsolve() {{ {shlex.quote(sys.executable)} -m patchsolve.cli "$@"; }}\n{line}\n'


@pytest.fixture
def folder(tmp_path):
    game = Game.read(GOLDEN)
    (tmp_path / "game.txt").write_text(GOLDEN.read_text())
    (tmp_path / "position.txt").write_text(game.position(16).to_text() + "\n")
    (tmp_path / "endgame.txt").write_text(ENDGAME + "\n")
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "golden.txt").write_text(GOLDEN.read_text())
    (tmp_path / "games" / "tail.txt").write_text(Game(game.position(30), game.moves[30:]).to_text())
    return tmp_path


def port_in_use(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def run_serve(line: str, folder: Path):
    """Start the server, wait for its page, then Ctrl-C it."""
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    words = line.split()
    port = int(words[words.index("--port") + 1]) if "--port" in words else 8765
    if port_in_use(port):
        pytest.skip(f"port {port} is taken on this machine")
    proc = subprocess.Popen(
        script(line),
        shell=True,
        cwd=folder,
        env=shell_env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        page = None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                    page = r.status
                    break
            except OSError:
                time.sleep(0.2)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert page == 200, err
    assert "serving on" in err and "Traceback" not in err, err


@pytest.mark.parametrize("name, line", EXAMPLES, ids=[f"{n}: {line}"[:90] for n, line in EXAMPLES])
def test_the_help_example_runs(name, line, folder):
    if name == "serve":
        run_serve(line, folder)
        return
    if "--backend ray" in line:
        pytest.importorskip("ray")
    r = subprocess.run(
        script(line),
        shell=True,
        cwd=folder,
        env=shell_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert r.returncode == 0, f"{line}\nexit {r.returncode}\n{r.stderr[-2000:]}"
    assert "Traceback" not in r.stderr and "patchsolve: error" not in r.stderr, r.stderr[-2000:]
    assert r.stdout.strip(), f"{line} printed nothing"
