"""A real uvicorn server with the web app on 127.0.0.1 and a free port
(``patchsolve.web.serving_in_thread``), for the API and browser tests; and a
small JSON client over urllib."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request


def running_server():
    from patchsolve.web import serving_in_thread

    return serving_in_thread("127.0.0.1", 0)


def call(
    base: str,
    path: str,
    body=None,
    raw: bytes | None = None,
    method: str | None = None,
    headers: dict | None = None,
):
    """(status, decoded JSON or text) of one request."""
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        base + path,
        data=data,
        method=method or ("GET" if data is None else "POST"),
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            status, payload, ctype = resp.status, resp.read(), resp.headers.get("content-type", "")
    except urllib.error.HTTPError as e:
        status, payload, ctype = e.code, e.read(), e.headers.get("content-type", "")
    text = payload.decode()
    return status, json.loads(text) if "json" in ctype else text


def wait_job(base: str, job: dict, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    seen = [job]
    while job["status"] == "running":
        assert time.monotonic() < deadline, job
        time.sleep(0.05)
        status, job = call(base, f"/api/jobs/{job['id']}")
        assert status == 200, job
        seen.append(job)
    job["seen"] = seen
    return job
