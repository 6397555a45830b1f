"""The web server (``patchsolve serve``) under hostile and heavy use.

Starts the server in a child process (a real uvicorn on 127.0.0.1, one
with an access token as ``serve --lan`` runs it), then, while a sampler asks
for ``/api/patches`` every 50 ms and times each answer:

- slow heads: connections that send nothing, half a request line, or
  headers without the blank line that ends them (slowloris); each must be
  closed once the request-head timeout has passed, none held longer;
- slow bodies: a declared body that never comes (408 at the body timeout);
- a foreign Host (400), a missing or wrong access token (401, 403), a body
  over the size limit (413), JSON nested 100,000 deep (400);
- 20 searches asked for at once (one is run, the others are refused as busy: 409).

It reports every status seen (no 500 may appear), how long each stalled
connection stayed open, and the latency of /api/patches meanwhile (median,
95th percentile, maximum; the target is 50 ms), with the load average.

    python benchmarks/bench_web.py [--out benchmarks/results/web_server.md]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "bench-token-0123456789"
STALLED = 30  # connections of each slow kind


def serve_forever(port: int, token: str | None) -> None:
    """The child: serve on 127.0.0.1:port until killed."""
    from patchsolve.web import bind, make_server

    sock = bind("127.0.0.1", port)
    server = make_server("127.0.0.1", port, token=token)
    try:
        server.run(sockets=[sock])
    finally:
        server.config.app.state.jobs.kill()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(token: str | None):
    port = free_port()
    args = [sys.executable, __file__, "--serve", str(port)] + (["--token", token] if token else [])
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc, port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def request(port, method, path, body=None, headers=None, timeout=60):
    """(status, decoded body) of one request on its own connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        hdrs = {"Content-Type": "application/json", **(headers or {})}
        data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        conn.request(method, path, body=data, headers=hdrs)
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


class Sampler(threading.Thread):
    """Asks for /api/patches every 50 ms and keeps each answer's time (ms)."""

    def __init__(self, port, headers=None):
        super().__init__(daemon=True)
        self.port, self.headers, self.times, self.statuses = port, headers or {}, [], Counter()
        self.at: list[float] = []  # when each answer was asked for (time.monotonic())
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set():
            t0 = time.perf_counter()
            self.at.append(time.monotonic())
            try:
                status, _ = request(self.port, "GET", "/api/patches", headers=self.headers, timeout=10)
            except OSError as e:
                status = type(e).__name__
            self.times.append(1000 * (time.perf_counter() - t0))
            self.statuses[status] += 1
            time.sleep(0.05)


def stall(port, head: bytes, results: list, limit: float):
    """Open a connection, send ``head`` and wait until the server closes it (or ``limit`` s)."""
    t0 = time.monotonic()
    s = socket.create_connection(("127.0.0.1", port), timeout=limit)
    try:
        s.sendall(head)
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                results.append((time.monotonic() - t0, data[:12].decode("latin-1")))
                return
            data += chunk
    except TimeoutError:
        results.append((None, "still open"))
    finally:
        s.close()


def slow_phase(port, head_timeout, body_timeout):
    kinds = {
        "nothing sent": b"",
        "half a request line": b"GET / HT",
        "headers without their end": b"POST /api/load HTTP/1.1\r\nHost: 127.0.0.1\r\n",
        "a body that never comes": (
            b"POST /api/load HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n{"
        ),
    }
    results = {k: [] for k in kinds}
    threads = []
    limit = max(head_timeout, body_timeout) + 15
    for kind, head in kinds.items():
        for _ in range(STALLED):
            t = threading.Thread(target=stall, args=(port, head, results[kind], limit), daemon=True)
            t.start()
            threads.append(t)
    for t in threads:
        t.join()
    return results


def hostile_phase(port, token_port):
    seen = {}
    big = b'{"text": "' + b"x" * (300 * 1024) + b'"}'
    nested = b"[" * 100_000 + b"]" * 100_000
    cases = {
        "foreign Host": (port, "GET", "/api/patches", None, {"Host": "evil.example"}),
        "no access token": (token_port, "GET", "/api/patches", None, {}),
        "wrong access token": (token_port, "GET", "/api/patches", None, {"X-Patchsolve-Token": "guess"}),
        "the right token": (token_port, "GET", "/api/patches", None, {"X-Patchsolve-Token": TOKEN}),
        "body over 256 KiB": (port, "POST", "/api/load", big, {}),
        "JSON nested 100,000 deep": (port, "POST", "/api/game", nested, {}),
        "grade at a budget of 10^9 nodes": (
            port,
            "POST",
            "/api/quiz/grade",
            {
                "exercise": {
                    "number": 1,
                    "player": 0,
                    "position": "revised 4,8,30,21,20,6,1,11,15,27,18,22,28,24,3,23,5,26,7,19,12,31,10,13,"
                    "16,17,9,2,14,29,32,25,0 0/0 5/5 0/0 0/0 0 26,32,38,44,50 - - -",
                    "played": "walk",
                    "played_loss": 5,
                    "best": "walk",
                    "best_value": 0,
                    "bound": "estimate",
                    "depth": 40,
                    "acceptable": [],
                    "pv": [],
                    "budget": {"nodes": 10**9, "depth": None, "recheck": 4},
                },
                "move": "walk",
            },
            {},
        ),
    }
    for name, (p, method, path, body, headers) in cases.items():
        status, data = request(p, method, path, body, headers)
        seen[name] = (status, data[:90].decode("utf-8", "replace"))
    return seen


def search_phase(port):
    statuses = Counter()
    ids = []
    start = threading.Barrier(20)

    def one():
        start.wait()
        status, data = request(port, "POST", "/api/search", {"game": {"moves": []}, "time": 3})
        statuses[status] += 1
        if status == 202:
            ids.append(json.loads(data)["id"])

    threads = [threading.Thread(target=one) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for job in ids:  # wait for the search to end, polling as the page does
        while json.loads(request(port, "GET", f"/api/jobs/{job}")[1])["status"] == "running":
            time.sleep(0.15)
    return statuses


def latency(times):
    times = sorted(times)
    return {
        "answers": len(times),
        "median": statistics.median(times),
        "p95": times[int(0.95 * (len(times) - 1))],
        "max": times[-1],
    }


def when(at: float, phases) -> str:
    """``at`` as seconds into the phase it fell in."""
    before = [p for p in phases if p[1] <= at]
    if not before:
        return f"the start of the {phases[0][0]}"
    name, start = max(before, key=lambda p: p[1])
    return f"{at - start:.1f} s into the {name}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "web_server.md")
    ap.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--token", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve_forever(args.serve, args.token)
        return
    from patchsolve.web.app import BODY_TIMEOUT
    from patchsolve.web.protocol import HEAD_TIMEOUT

    load_before = os.getloadavg()
    server, port = start_server(None)
    token_server, token_port = start_server(TOKEN)
    try:
        sampler = Sampler(port)
        sampler.start()
        t0 = time.monotonic()
        searches = search_phase(port)
        search_time = time.monotonic() - t0
        phases = [("20 searches", t0)]
        phases.append(("hostile requests", time.monotonic()))
        hostile = hostile_phase(port, token_port)
        phases.append(("stalled connections", time.monotonic()))
        slow = slow_phase(port, HEAD_TIMEOUT, BODY_TIMEOUT)
        sampler.stop.set()
        sampler.join()
    finally:
        for proc in (server, token_server):
            proc.kill()
            proc.wait()
    err = server.stderr.read() + token_server.stderr.read()
    load_after = os.getloadavg()
    lat = latency(sampler.times)
    lines = [
        "# The web server under hostile and heavy use (`benchmarks/bench_web.py`)",
        "",
        f"`python benchmarks/bench_web.py`, {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, "
        f"load average {load_before[0]:.2f} before and {load_after[0]:.2f} after (1 min). The server runs in "
        "a child process on 127.0.0.1 (a second one with an access token, as `serve --lan`).",
        "",
        f"Request-head timeout {HEAD_TIMEOUT:g} s, body timeout {BODY_TIMEOUT:g} s.",
        "",
        f"## {STALLED} stalled connections of each kind, all at once",
        "",
        "| kind | closed by the server | seconds open (min / max) | first bytes answered |",
        "|---|---|---|---|",
    ]
    for kind, res in slow.items():
        closed = [t for t, _ in res if t is not None]
        answers = Counter(a for _, a in res)
        span = f"{min(closed):.1f} / {max(closed):.1f}" if closed else "-"
        lines.append(
            f"| {kind} | {len(closed)} of {len(res)} | {span} | "
            + ", ".join(f"`{a or '(nothing)'}` x{n}" for a, n in answers.items())
            + " |"
        )
    lines += ["", "## Hostile requests", "", "| request | status | answer (cut) |", "|---|---|---|"]
    for name, (status, text) in hostile.items():
        lines.append(f"| {name} | {status} | `{text.replace('|', '/')}` |")
    lines += [
        "",
        "## 20 searches asked for at once",
        "",
        ", ".join(f"{n} x {s}" for s, n in sorted(searches.items()))
        + f" (the one run has a 3 s budget; {search_time:.1f} s until it ended).",
        "",
        "## `/api/patches` meanwhile (every 50 ms, through all the phases above)",
        "",
        f"{lat['answers']} answers, statuses {dict(sampler.statuses)}: median {lat['median']:.1f} ms, "
        f"95th percentile {lat['p95']:.1f} ms, max {lat['max']:.1f} ms (target: within 50 ms).",
        "",
        "The five slowest answers, and when: "
        + "; ".join(
            f"{ms:.1f} ms at {when(at, phases)}"
            for ms, at in sorted(zip(sampler.times, sampler.at), reverse=True)[:5]
        )
        + ".",
        "",
        "Server stderr: " + ("(empty)" if not err.strip() else f"\n\n```text\n{err.strip()[:2000]}\n```"),
        "",
    ]
    text = "\n".join(lines)
    print(text)
    args.out.write_text(text)


if __name__ == "__main__":
    main()
