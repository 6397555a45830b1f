"""Every example in every ``--help`` runs as printed, in an empty folder
(issue 25 section 3, issue 55).

The examples are read from the Click group itself (the group's help and each
command's), so an example added later is tested too: the lines indented
under a help text's ``Examples:`` (or ``Example:``) line. Each runs through
``/bin/sh`` in a fresh empty folder, as a user would type it (pipes, ``>``
and ``&&`` included), with ``patchsolve`` standing for ``python -m
patchsolve.cli`` of the package under test. An example that reads a file
(``game.txt``, ``position.txt``, a folder ``games/``) needs an earlier line
of the same block that writes it (``--record game.txt``, ``> position.txt``,
``--records games``): the help then shows where the file comes from, and
the test runs that line first, in the same folder. An example passes when
it exits with 0 and prints no error and no traceback; ``serve`` must answer
a request before Ctrl-C ends it. Examples that need an extra (``--backend
ray``, ``serve``) skip where it is missing, except under CI, which installs
them all.
"""

import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

import patchsolve
from patchsolve.cli import cli

SRC = Path(patchsolve.__file__).resolve().parents[1]  # the package under test, not an installed one
TIMEOUT = 180
# an option or redirection followed by the file or folder it writes
WRITES = re.compile(r"(?:--record|--records|--out|--csv|--games|--svg|--report|>)\s+(\S+)")
FILE_WORD = re.compile(r"^[A-Za-z][\w.-]*(?:\.[A-Za-z]\w*|/)$")  # game.txt, games/, c.jsonl


def example_blocks() -> list[tuple[str, list[str]]]:
    """(command name, the lines of its Examples block) for the group
    (named 'patchsolve') and every command."""
    found = []
    for name, command in [("patchsolve", cli)] + sorted(cli.commands.items()):
        lines = (command.help or "").splitlines()
        for k, line in enumerate(lines):
            if line.strip() in ("Examples:", "Example:"):
                indent = len(line) - len(line.lstrip())
                block = []
                for follow in lines[k + 1 :]:
                    if not follow.strip() or len(follow) - len(follow.lstrip()) <= indent:
                        break
                    block.append(follow.strip())
                found.append((name, block))
    return found


def examples() -> list[tuple[str, str, list[str]]]:
    """(command name, example, the earlier lines of its block that write
    the files it reads, in order)."""
    out = []
    for name, block in example_blocks():
        for k, line in enumerate(block):
            setup: list[str] = []
            wanted = _reads(line)
            for earlier in reversed(block[:k]):  # the nearest writer of each file
                if _writes(earlier) & wanted:
                    wanted -= _writes(earlier)
                    wanted |= _reads(earlier)
                    setup.insert(0, earlier)
            out.append((name, line, setup))
    return out


def _norm(word: str) -> str:
    return word.rstrip("/")


def _writes(line: str) -> set[str]:
    return {_norm(w) for w in WRITES.findall(line)}


def _reads(line: str) -> set[str]:
    """The files and folders ``line`` names but does not write itself."""
    words = {_norm(w) for w in shlex.split(line.replace("|", " ").replace("&&", " ")) if FILE_WORD.match(w)}
    return words - _writes(line)


EXAMPLES = examples()


def test_every_command_has_an_example():
    named = {name for name, _, _ in EXAMPLES}
    assert named == {"patchsolve", *cli.commands}, sorted({"patchsolve", *cli.commands} - named)
    assert len(EXAMPLES) >= 40  # the reader above did find the examples


def test_an_example_that_reads_a_file_shows_where_it_comes_from():
    # an example reading a file no earlier line of its block writes would
    # fail in an empty folder: the help must show the line that makes it
    for name, line, setup in EXAMPLES:
        made = set().union(*(_writes(s) for s in setup)) if setup else set()
        missing = {w for w in _reads(line) - made if not w.startswith("-")}
        assert not missing, f"{name}: {line}: reads {sorted(missing)}, which no earlier example writes"


@pytest.mark.parametrize("name", ["patchsolve", *sorted(cli.commands)])
def test_the_help_reads_well(name):
    """A blank line before 'Examples:', and the prose wrapped to an 80-column terminal."""
    args = ["--help"] if name == "patchsolve" else [name, "--help"]
    text = CliRunner().invoke(cli, args, terminal_width=80).output
    lines = text.splitlines()
    heads = [k for k, line in enumerate(lines) if line.strip() in ("Examples:", "Example:")]
    assert heads, text
    for k in heads:
        assert not lines[k - 1].strip(), f"{name} --help: no blank line before {lines[k]!r}"
    commands = {line.strip() for _, line, _ in EXAMPLES}
    for line in lines:
        if line.strip() not in commands:  # a command cannot wrap; prose can
            assert len(line) <= 80, f"{name} --help: a line of {len(line)} characters: {line!r}"


def shell_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SRC)] + [p for p in [env.get("PYTHONPATH")] if p])
    env["BROWSER"] = "true"  # serve's "open the page" runs true(1), not a browser
    return env


def script(lines: list[str]) -> str:
    """The lines, with ``patchsolve`` the package under test; the first to fail stops the rest."""
    body = "\n".join(f"{line} || exit $?" for line in lines)
    return f'patchsolve() {{ {shlex.quote(sys.executable)} -m patchsolve.cli "$@"; }}\n{body}\n'


def needs_extra(module: str) -> None:
    if os.environ.get("CI") != "true":
        pytest.importorskip(module)


def port_in_use(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def run_serve(line: str, folder: Path):
    """Start the server, wait for its page, then Ctrl-C it."""
    needs_extra("starlette")
    needs_extra("uvicorn")
    words = line.split()
    port = int(words[words.index("--port") + 1]) if "--port" in words else 8765
    if port_in_use(port):
        pytest.skip(f"port {port} is taken on this machine")
    proc = subprocess.Popen(
        script([line]),
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
            except urllib.error.HTTPError as e:  # --lan: refused without its access token
                page = e.code
                break
            except OSError:
                time.sleep(0.2)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert page == (401 if "--lan" in words else 200), err
    assert ("serving to the local network" if "--lan" in words else "serving on") in err, err
    assert "Traceback" not in err, err


@pytest.mark.parametrize("name, line, setup", EXAMPLES, ids=[f"{n}: {line}"[:90] for n, line, _ in EXAMPLES])
def test_the_help_example_runs(name, line, setup, tmp_path):
    assert not any(tmp_path.iterdir())  # an empty folder
    if name == "serve":
        run_serve(line, tmp_path)
        return
    if "--backend ray" in " ".join(setup + [line]):
        needs_extra("ray")
    r = subprocess.run(
        script(setup + [line]),
        shell=True,
        cwd=tmp_path,
        env=shell_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert r.returncode == 0, f"{setup + [line]}\nexit {r.returncode}\n{r.stderr[-2000:]}"
    assert "Traceback" not in r.stderr and "patchsolve: error" not in r.stderr, r.stderr[-2000:]
    assert r.stdout.strip() or list(tmp_path.iterdir()), f"{line} printed nothing and wrote nothing"
