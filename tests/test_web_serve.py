"""``patchsolve serve``: its errors, the warning off loopback, the browser."""

import socket
import threading
import time
import webbrowser

import pytest
from click.testing import CliRunner

from browser import need

need("starlette")
need("uvicorn")

import patchsolve.web as web  # noqa: E402
from patchsolve.cli import cli  # noqa: E402


class FakeServer:
    def __init__(self):
        self.started = False
        self.ran = threading.Event()

        class State:
            jobs = type("J", (), {"kill": lambda self: None})()

        self.config = type("C", (), {"app": type("A", (), {"state": State()})()})()

    def run(self, sockets=None):
        self.started = True
        time.sleep(0.3)  # long enough for the browser thread to see it start
        self.ran.set()


def fake(monkeypatch):
    server = FakeServer()
    opened = []
    monkeypatch.setattr(web, "bind", lambda host, port: socket.socket())

    def make(host, port, token=None):
        server.host, server.token = host, token
        return server

    monkeypatch.setattr(web, "make_server", make)
    monkeypatch.setattr(webbrowser, "open", lambda url: opened.append(url))
    return server, opened


def test_serve_opens_the_page_and_is_quiet_on_loopback(monkeypatch):
    server, opened = fake(monkeypatch)
    r = CliRunner().invoke(cli, ["serve", "--port", "9123"])
    assert r.exit_code == 0, r.output
    assert server.ran.is_set()
    assert opened == ["http://127.0.0.1:9123/"]
    assert "warning" not in r.stderr and "serving on http://127.0.0.1:9123/" in r.stderr


def test_serve_warns_off_loopback_and_no_browser_opens_nothing(monkeypatch):
    server, opened = fake(monkeypatch)
    r = CliRunner().invoke(cli, ["serve", "--host", "0.0.0.0", "--no-browser"])
    assert r.exit_code == 0, r.output
    assert "patchsolve: warning: serving on 0.0.0.0" in r.stderr
    assert opened == []
    # the URL printed is one a browser can open (this machine's address), not the wildcard
    assert "serving on http://" in r.stderr and "http://0.0.0.0" not in r.stderr
    assert web.reachable_url("0.0.0.0", 8765) in r.stderr  # 8765: the default port


def test_serve_on_a_taken_port_is_one_error_line():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        r = CliRunner().invoke(cli, ["serve", "--port", str(port), "--no-browser"])
    assert r.exit_code == 2
    assert r.stderr.strip().splitlines() == [
        f"patchsolve: error: cannot serve on 127.0.0.1:{port}: Address already in use"
    ]
    r = CliRunner().invoke(cli, ["serve", "--port", "70000"])
    assert r.exit_code == 2 and "70000" in r.stderr


def test_serve_lan_prints_the_address_with_a_new_token_a_qr_code_and_the_warning(monkeypatch):
    pytest.importorskip("segno")
    server, opened = fake(monkeypatch)
    r = CliRunner().invoke(cli, ["serve", "--lan", "--no-browser", "--port", "9124"])
    assert r.exit_code == 0, r.output
    assert server.host == "0.0.0.0" and server.token and len(server.token) >= 20
    url = web.reachable_url("0.0.0.0", 9124) + f"?token={server.token}"
    assert f"serving to the local network on {url}" in r.stderr
    assert "plain HTTP" in r.stderr and "trust" in r.stderr
    assert web.qr_text(url).rstrip("\n") in r.stderr  # the QR code of that address
    assert opened == []
    again, _ = fake(monkeypatch)
    CliRunner().invoke(cli, ["serve", "--lan", "--no-browser", "--host", "127.0.0.1"])
    assert again.host == "127.0.0.1" and again.token != server.token  # a new token each time


def test_the_qr_code_reads_back_as_the_address():
    """segno draws what it is given: its matrix of the address is the one drawn (two rows a line)."""
    segno = pytest.importorskip("segno")
    url = "http://192.0.2.7:8765/?token=abc"
    text = web.qr_text(url)
    matrix = segno.make(url, error="m").matrix
    assert text and len(text.rstrip("\n").splitlines()) >= (len(matrix) + 1) // 2
