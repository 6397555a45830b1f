"""The backend interface without Ray: the local backend, and the checks
that need no cluster (names, addresses, a missing Ray). The Ray backend
itself is tested on a real Ray in test_ray.py."""

import socket
import subprocess
import sys

import pytest

from patchsolve.arena.backends import (
    BackendError,
    LocalBackend,
    RayBackend,
    import_ray,
    make_backend,
    probe_address,
)
from patchsolve.arena.tournament import _play_job, pairing_jobs

JOBS = list(pairing_jobs("greedy", "random", 2, 7, "revised"))


@pytest.mark.parametrize("workers", [1, 2])
def test_the_local_backend_yields_every_job_once_with_its_index(workers):
    got = list(LocalBackend(workers).run(_play_job, JOBS))
    assert sorted(k for k, _ in got) == list(range(len(JOBS)))
    for k, out in got:
        assert out.first == JOBS[k][0] and out.circle == tuple(JOBS[k][2])
        assert out.moves == _play_job(JOBS[k]).moves


def test_bad_backend_arguments_are_refused():
    with pytest.raises(BackendError, match="unknown backend 'spark'"):
        make_backend("spark")
    with pytest.raises(BackendError, match="for the ray backend"):
        make_backend("local", address="127.0.0.1:6379")
    with pytest.raises(BackendError, match="host:port or auto"):
        RayBackend(address="nowhere")


def test_an_unreachable_cluster_is_refused_at_once_not_retried_for_minutes():
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(BackendError, match="cannot reach the Ray cluster"):
        probe_address(f"127.0.0.1:{port}")


def test_a_missing_ray_is_named_with_its_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # what an environment without Ray sees
    with pytest.raises(BackendError, match=r"pip install 'patchsolve\[ray\]'"):
        import_ray()


def test_the_cli_refuses_an_address_without_the_ray_backend():
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "patchsolve.cli",
            "tournament",
            "greedy",
            "random",
            "--address",
            "127.0.0.1:6379",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == "patchsolve: error: --address is for --backend ray\n"


def test_ci_installs_ray_so_the_ray_tests_run():
    import os
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    install = next(ln for ln in (root / ".ci" / "run").read_text().splitlines() if "pip install" in ln)
    assert "ray" in install.split("'")[1].strip(".[]").split(",")
    if os.environ.get("CI") == "true":  # there, the Ray tests must run, not skip
        import_ray()


def test_ctrl_c_while_a_game_is_being_kept_waits_until_it_is_kept():
    """SIGINT in the middle of on_game, with another thread running (as
    Ray's and the process pool's do, which take the signal when the main
    thread masks it): the game is wholly kept, then the run stops."""
    import os
    import signal
    import threading
    import time

    from patchsolve.arena.tournament import run_tournament

    threading.Thread(target=time.sleep, args=(3,), daemon=True).start()
    kept = []

    def on_game(pairing, k, out):
        os.kill(os.getpid(), signal.SIGINT)
        deadline = time.monotonic() + 0.3  # the signal arrives meanwhile
        while time.monotonic() < deadline:
            pass
        kept.append(k)

    [result] = run_tournament(["greedy", "random"], pairs=3, seed=1, on_game=on_game)
    assert kept == [0] and result.n == 1 and result.interrupted
