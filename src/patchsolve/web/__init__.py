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
            return all(
                ipaddress.ip_address(info[4][0]).is_loopback for info in socket.getaddrinfo(host, None)
            )
        except (OSError, ValueError):
            return False


WILDCARDS = ("0.0.0.0", "::", "")


def _outbound_address() -> str | None:
    """This machine's address on its default route (a UDP socket is
    connected, which sends nothing), or None without a network."""
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                return s.getsockname()[0]
        except OSError:
            continue
    return None


def machine_names(host: str) -> tuple[str, ...]:
    """The Host names a server bound to ``host`` answers: loopback, ``host``
    itself (unless a wildcard), and this machine's own name, full name and
    addresses. Anything else (another site's name pointed at this machine:
    DNS rebinding) is refused, whichever interface the server listens on."""
    from patchsolve.web.app import LOOPBACK_NAMES

    names = set(LOOPBACK_NAMES)
    if host not in WILDCARDS:
        names.add(host)
    if is_loopback(host):
        return tuple(sorted(names))
    for name in {socket.gethostname(), socket.getfqdn()} - {""}:
        names.add(name)
        try:
            names.update(str(info[4][0]).split("%")[0] for info in socket.getaddrinfo(name, None))
        except OSError:
            pass
    address = _outbound_address()
    if address:
        names.add(address)
    return tuple(sorted(n.lower() for n in names))


def reachable_url(host: str, port: int) -> str:
    """A URL of the server a browser can open: ``host`` itself, or for a
    wildcard bind this machine's address (``http://0.0.0.0:...`` is not)."""
    if host in WILDCARDS:
        host = _outbound_address() or socket.gethostname() or "127.0.0.1"
    return f"http://{'[' + host + ']' if ':' in host else host}:{port}/"


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


def make_server(host: str = "127.0.0.1", port: int = 8765, token: str | None = None):
    """A uvicorn server for the app (``server.run()`` serves until stopped);
    with a ``token``, every request must carry it (``serve --lan``)."""
    import uvicorn

    from patchsolve.web.app import create_app
    from patchsolve.web.protocol import HeadTimeoutProtocol

    config = uvicorn.Config(
        create_app(machine_names(host), token=token),
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        http=HeadTimeoutProtocol,  # h11 with a deadline for each request head (slowloris)
    )
    return uvicorn.Server(config)


@contextlib.contextmanager
def serving_in_thread(host: str = "127.0.0.1", port: int = 0, token: str | None = None):
    """Serve the app from a background thread (``port=0``: a free port);
    yields ``(url, server)`` and shuts the server and its search process
    down on exit. For tests, scripts and notebooks."""
    sock = bind(host, port)
    port = sock.getsockname()[1]
    server = make_server(host, port, token=token)
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


LAN_WARNING = (
    "patchsolve: this is plain HTTP, for a network you trust (your home's wifi): anyone on it who has the "
    "address above, token included, can use the board, and anyone on the way can read what passes. "
    "Not for a public network."
)


def new_token() -> str:
    """A random access token for ``serve --lan`` (128 bits, URL-safe)."""
    import secrets

    return secrets.token_urlsafe(16)


def qr_text(text: str) -> str | None:
    """``text`` as a QR code drawn for a terminal, or None without segno
    (the ``[lan]`` extra)."""
    try:
        import segno
    except ImportError:
        return None
    import io

    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def serve(host: str = "127.0.0.1", port: int = 8765, open_browser: bool = True, lan: bool = False) -> None:
    """Serve until Ctrl-C; OSError when the address cannot be had. With
    ``lan``, every request must carry a new random access token: the
    address printed (and drawn as a QR code for a phone) carries it."""
    sock = bind(host, port)
    token = new_token() if lan else None
    server = make_server(host, port, token=token)
    url = reachable_url(host, port)
    if lan:
        url += f"?token={token}"
        print(f"patchsolve: serving to the local network on {url} (Ctrl-C to stop)", file=sys.stderr)
        qr = qr_text(url)
        print(
            qr.rstrip("\n") if qr else "patchsolve: (pip install 'patchsolve[lan]' to see a QR code here)",
            file=sys.stderr,
        )
        print(LAN_WARNING, file=sys.stderr)
    else:
        if not is_loopback(host):
            print(
                f"patchsolve: warning: serving on {host or 'every address'}, which other machines may reach; "
                "the app has no login (it answers only this machine's names and addresses; "
                "--lan asks for an access token)",
                file=sys.stderr,
            )
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
