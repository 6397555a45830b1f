"""The local web app (``patchsolve serve``): a Starlette server with a JSON
API over the engine and a static page (``static/``: plain HTML, CSS and
JavaScript, no build step). Needs the ``[web]`` extra (starlette, uvicorn).
"""

from __future__ import annotations

import ipaddress
import socket
import sys
import threading


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


def make_server(host: str = "127.0.0.1", port: int = 8765):
    """A uvicorn server for the app (``server.run()`` serves until stopped)."""
    import uvicorn

    from patchsolve.web.app import create_app

    config = uvicorn.Config(create_app(), host=host, port=port, log_level="warning", access_log=False)
    return uvicorn.Server(config)


def serve(host: str = "127.0.0.1", port: int = 8765, open_browser: bool = True) -> None:
    server = make_server(host, port)
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    if not is_loopback(host):
        print(f"patchsolve: warning: serving on {host}, which other machines may reach; "
              "the app has no login", file=sys.stderr)
    print(f"patchsolve: serving on {url} (Ctrl-C to stop)", file=sys.stderr)
    if open_browser:
        threading.Thread(target=_open_when_started, args=(server, url), daemon=True).start()
    server.run()


def _open_when_started(server, url: str) -> None:
    import time
    import webbrowser

    for _ in range(200):
        if server.started:
            webbrowser.open(url)
            return
        time.sleep(0.05)
