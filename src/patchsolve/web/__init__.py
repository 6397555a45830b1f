"""The local web app (``patchsolve serve``): a Starlette server with a JSON
API over the engine and a static page (``static/``: plain HTML, CSS and
JavaScript, no build step). Needs the ``[web]`` extra (starlette, uvicorn).
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import sys
import threading
import time


def is_loopback(host: str) -> bool:
    """True when ``host`` can only be reached from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        try:
            return all(ipaddress.ip_address(info[4][0]).is_loopback
                       for info in socket.getaddrinfo(host, None))
        except (OSError, ValueError):
            return False


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (OSError when it cannot be had),
    bound here rather than by uvicorn so a refusal is an error to report
    rather than uvicorn's exit."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def make_server(host: str = "127.0.0.1", port: int = 8765):
    """A uvicorn server for the app (``server.run()`` serves until stopped)."""
    import uvicorn

    from patchsolve.web.app import LOOPBACK_NAMES, create_app

    # on loopback only this machine's names; elsewhere any (the user was warned)
    allowed = LOOPBACK_NAMES + (host,) if is_loopback(host) else None
    config = uvicorn.Config(create_app(allowed), host=host, port=port, log_level="warning", access_log=False)
    return uvicorn.Server(config)


@contextlib.contextmanager
def serving_in_thread(host: str = "127.0.0.1", port: int = 0):
    """Serve the app from a background thread (``port=0``: a free port);
    yields ``(url, server)`` and shuts the server and its search process
    down on exit. For tests, scripts and notebooks."""
    sock = bind(host, port)
    port = sock.getsockname()[1]
    server = make_server(host, port)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            sock.close()
            raise RuntimeError("the web server did not start")
        time.sleep(0.02)
    try:
        yield f"http://{'[' + host + ']' if ':' in host else host}:{port}", server
    finally:
        server.should_exit = True
        thread.join(10)
        server.config.app.state.jobs.kill()
        sock.close()


def serve(host: str = "127.0.0.1", port: int = 8765, open_browser: bool = True) -> None:
    """Serve until Ctrl-C; OSError when the address cannot be had."""
    sock = bind(host, port)
    server = make_server(host, port)
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    if not is_loopback(host):
        print(f"patchsolve: warning: serving on {host}, which other machines may reach; "
              "the app has no login", file=sys.stderr)
    print(f"patchsolve: serving on {url} (Ctrl-C to stop)", file=sys.stderr)
    if open_browser:
        threading.Thread(target=_open_when_started, args=(server, url), daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        server.config.app.state.jobs.kill()
        sock.close()


def _open_when_started(server, url: str) -> None:
    import webbrowser

    for _ in range(200):
        if server.started:
            webbrowser.open(url)
            return
        time.sleep(0.05)
