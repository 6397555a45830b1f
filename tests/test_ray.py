"""The Ray backend on a real local Ray of two workers (no mock): the same
games and table as the local backend, every game kept once, and a game
whose worker is lost (the process dies mid-game) played again."""

import os
import signal
import threading
import time
from collections import Counter

import pytest

ray = pytest.importorskip("ray")

from patchsolve import PatchsolveError  # noqa: E402
from patchsolve.arena.backends import BackendError, LocalBackend, RayBackend  # noqa: E402
from patchsolve.arena.tournament import _play_job, pairing_jobs, run_tournament, to_markdown  # noqa: E402

SPECS = ["alphabeta:depth=2", "alphabeta:nodes=2000", "mcts:iterations=300"]
CHEAP = ["alphabeta:depth=2", "greedy"]  # for the lost-worker tests: 4 quick games


@pytest.fixture(scope="module")
def ray_session():
    """One Ray for the module (its start takes seconds); the backend uses
    an open session as it is."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(
        address="local", num_cpus=2, include_dashboard=False, logging_level="warning", log_to_driver=False
    )
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def local_games():
    """The reference: the round robin of SPECS played in this process."""
    return run_tournament(SPECS, pairs=1, seed=3)


def moves_of(results):
    return [(g.first, g.second, g.circle, g.moves, g.scores) for r in results for g in r.games]


def test_ray_plays_the_same_games_and_table_as_the_local_backend(ray_session, local_games):
    seen = Counter()
    results = run_tournament(
        SPECS, pairs=1, seed=3, backend=RayBackend(2), on_game=lambda pairing, k, out: seen.update([k])
    )
    assert moves_of(results) == moves_of(local_games)
    assert to_markdown(results) == to_markdown(local_games)
    assert seen == Counter(range(6))  # each game reported once, as it ended
    assert not any(r.interrupted for r in results)


def crash_first_attempt(fn, marker_dir, victim):
    """``fn``, except that the worker running job ``victim`` dies on its
    first attempt (a marker file says whether it was tried). A closure, so
    Ray ships it by value to workers that cannot import the tests."""

    def job(item):
        k, inner = item
        if k == victim:
            try:
                os.close(os.open(os.path.join(marker_dir, "tried"), os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                pass
            else:
                os._exit(1)  # the worker process is gone mid-task
        return fn(inner)

    return job


class CrashingOnce(RayBackend):
    """The Ray backend, with job ``victim``'s first worker dying."""

    def __init__(self, marker_dir, victim, **options):
        super().__init__(2, **options)
        self.marker_dir, self.victim = str(marker_dir), victim

    def run(self, fn, jobs):
        return super().run(crash_first_attempt(fn, self.marker_dir, self.victim), list(enumerate(jobs)))


@pytest.mark.parametrize("max_retries", [0, 2], ids=["resubmitted-by-the-backend", "retried-by-ray"])
def test_a_game_whose_worker_dies_is_played_again_and_counted_once(ray_session, tmp_path, max_retries):
    seen = Counter()
    backend = CrashingOnce(tmp_path, victim=1, max_retries=max_retries)
    results = run_tournament(
        CHEAP, pairs=2, seed=1, backend=backend, on_game=lambda pairing, k, out: seen.update([k])
    )
    assert (tmp_path / "tried").exists()  # the worker did die
    assert seen == Counter(range(4))
    assert moves_of(results) == moves_of(run_tournament(CHEAP, pairs=2, seed=1))


def test_a_worker_killed_from_outside_has_its_game_rerun(ray_session, tmp_path):
    """SIGKILL to the worker process found through the task's pid."""
    pid_file = tmp_path / "pid"
    killed = []

    def slow_first(item):
        k, job = item
        if k == 0 and not os.path.exists(str(pid_file)):
            with open(str(pid_file) + ".tmp", "w") as fh:
                fh.write(str(os.getpid()))
            os.replace(str(pid_file) + ".tmp", str(pid_file))
            time.sleep(120)  # killed long before this ends
        return os.getpid(), _play_job(job)

    def killer():
        while not pid_file.exists():
            time.sleep(0.05)
        pid = int(pid_file.read_text())
        os.kill(pid, signal.SIGKILL)
        killed.append(pid)

    jobs = list(enumerate(pairing_jobs("greedy", "random", 2, 5, "revised")))
    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    finished = list(RayBackend(2, max_retries=0).run(slow_first, jobs))
    thread.join(timeout=5)
    assert sorted(k for k, _ in finished) == [0, 1, 2, 3]  # each once
    got = dict(finished)
    assert killed and got[0][0] != killed[0]  # game 0 was finished by another worker
    expected = dict(LocalBackend(1).run(_play_job, [job for _, job in jobs]))
    assert {k: (out.moves, out.scores) for k, (_, out) in got.items()} == {
        k: (out.moves, out.scores) for k, out in expected.items()
    }


def test_a_job_that_raises_raises_its_own_error_and_is_not_rerun(ray_session, tmp_path):
    def refuse(job):
        with open(os.path.join(str(tmp_path), f"run{job}-{os.getpid()}-{time.monotonic_ns()}"), "w"):
            pass
        raise PatchsolveError(f"bad job {job}")

    with pytest.raises(PatchsolveError, match="bad job 0"):
        list(RayBackend(2).run(refuse, [0]))
    assert len(list(tmp_path.iterdir())) == 1


def test_a_job_lost_every_time_ends_the_run_with_a_patchsolve_error(ray_session):
    def always_dies(job):
        os._exit(1)

    with pytest.raises(BackendError, match="lost 2 times"):
        list(RayBackend(2, max_retries=0, resubmits=1).run(always_dies, [0]))


def running_ray_tasks():
    """Pids of the Ray workers running one of our tasks (their process
    title says so; idle workers read ray::IDLE)."""
    pids = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                if b"ray::_ray_task" in fh.read():
                    pids.append(int(entry))
        except (OSError, ValueError):
            continue
    return pids


def test_the_cli_starts_its_own_ray_reruns_a_killed_game_and_stops_on_ctrl_c(tmp_path):
    """No address: the command starts a local Ray of --workers CPUs (a
    second one beside the module's, idle meanwhile). A worker SIGKILLed
    mid-game has its game played again; the games written are the local
    backend's, each once; Ctrl-C prints the JSON of the finished games."""
    import csv
    import json

    from test_interrupt import PATIENCE, start

    games = tmp_path / "games.csv"
    proc = start(
        "tournament",
        *CHEAP,
        "--pairs",
        200,
        "--workers",
        2,
        "--seed",
        4,
        "--backend",
        "ray",
        "--games",
        games,
        "-q",
        "--json",
    )
    killed, deadline = [], time.monotonic() + 180

    def rows_written(n):  # the header and n games
        while time.monotonic() < deadline and not (
            games.exists() and len(games.read_text().splitlines()) > n
        ):
            time.sleep(0.1)

    rows_written(1)
    while time.monotonic() < deadline and not killed:
        for pid in running_ray_tasks()[:1]:
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
        time.sleep(0.05)
    rows_written(6)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    code, took = proc.returncode, time.monotonic() - t0
    with open(games) as fh:
        rows = list(csv.DictReader(fh))
    assert killed and code == 130 and took < PATIENCE, err
    assert 5 <= len(rows) < 400 and json.loads(out)[0]["games"] == len(rows)  # stdout: only the JSON
    assert len({row["game"] for row in rows}) == len(rows)  # each game once
    jobs = list(pairing_jobs(*CHEAP, 200, 4, "revised"))
    for row in rows:
        local = _play_job(jobs[int(row["game"])])
        assert [int(row["score_first"]), int(row["score_second"])] == list(local.scores)
        assert row["first"] == local.first


def test_the_cli_plays_the_local_games_on_an_existing_cluster(tmp_path):
    """--address: a cluster started apart (`ray start --head`, as on a
    real cluster's head node) runs the games; the table is the local one."""
    import json
    import socket
    import subprocess
    import sys
    from pathlib import Path

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    # one machine, one user: Ray's token authentication is not what is tested here
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}
    ray_cli = Path(sys.executable).with_name("ray")
    head = subprocess.Popen(
        [
            str(ray_cli),
            "start",
            "--head",
            "--block",
            "--num-cpus",
            "2",
            "--port",
            str(port),
            "--include-dashboard=false",
            "--disable-usage-stats",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.5)
        base = [sys.executable, "-m", "patchsolve.cli", "tournament", *CHEAP, "--pairs", "2", "--json", "-q"]
        remote = subprocess.run(
            base + ["--backend", "ray", "--address", f"127.0.0.1:{port}"],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
    finally:
        head.terminate()  # the head stops the processes it started
        try:
            head.wait(timeout=60)
        except subprocess.TimeoutExpired:
            head.kill()
    assert remote.returncode == 0, remote.stderr
    local = [r.row() for r in run_tournament(CHEAP, pairs=2)]
    assert json.loads(remote.stdout) == local


def test_self_play_data_generated_on_ray_equals_the_local_data(ray_session, tmp_path):
    """The training pipeline's self-play runs on the same backends: the
    rows of each game do not depend on where it ran."""
    import csv

    from patchsolve.training import selfplay

    local, remote = tmp_path / "local.csv", tmp_path / "ray.csv"
    selfplay.generate(local, 3, seed=7, nodes=200, noise_plies=4)
    selfplay.generate(remote, 3, seed=7, nodes=200, noise_plies=4, backend="ray", workers=2)

    def rows(path):
        with open(path, newline="") as fh:
            return sorted(tuple(r.values()) for r in csv.DictReader(fh))

    assert rows(local) == rows(remote) and len({r[0] for r in rows(local)}) == 3


def test_many_games_reviewed_on_ray_give_the_local_rows(ray_session):
    from pathlib import Path

    from patchsolve import Game
    from patchsolve.review.analysis import review_games

    golden = Game.read(Path(__file__).parent / "data" / "golden_game.txt")
    records = [(f"tail{k}", Game(golden.position(k), golden.moves[k:]).to_text()) for k in (30, 36, 40)]
    local = sorted(r for rows in review_games(records, depth=2) for r in map(tuple, map(dict.items, rows)))
    on_ray = sorted(
        r
        for rows in review_games(records, depth=2, backend="ray", workers=2)
        for r in map(tuple, map(dict.items, rows))
    )
    assert on_ray == local and len(local) == 6
