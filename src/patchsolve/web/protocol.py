"""The server's HTTP protocol: uvicorn's h11 protocol with a deadline for
every request head.

uvicorn closes a keep-alive connection that stays idle after an answer, and
the app times out a late request body (``app.BODY_TIMEOUT``), but nothing
closes a connection whose request head never completes: a client that
connects and sends nothing, half a request line, or headers without the
blank line that ends them holds a connection (and a file descriptor) for as
long as it likes, and a few thousand of them starve the server (slowloris).
Here each connection has ``HEAD_TIMEOUT`` seconds from its opening, and from
the end of each answer, for the next request head to arrive; past that it is
answered 408 (when some of a head came) and closed.
"""

from __future__ import annotations

import asyncio
import json

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_TIMEOUT = 15.0  # seconds for a request head to arrive (issue: 10-30 s)


def _timeout_answer() -> bytes:
    body = json.dumps({"error": f"the request head did not arrive within {HEAD_TIMEOUT:g} s"}).encode()
    head = (
        "HTTP/1.1 408 Request Timeout\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


class HeadTimeoutProtocol(H11Protocol):
    """h11 with a deadline for each request head (see the module text)."""

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:
        """A new connection: its first request head is due within HEAD_TIMEOUT."""
        super().connection_made(transport)
        self._arm_head_timer()

    def handle_events(self) -> None:
        """uvicorn's event loop; a new request cycle means a whole head arrived."""
        before = self.cycle
        super().handle_events()
        if self.cycle is not before:
            self._cancel_head_timer()

    def on_response_complete(self) -> None:
        """An answer sent: the next head is due within HEAD_TIMEOUT (armed
        first, so a pipelined head already buffered cancels it at once)."""
        self._arm_head_timer()
        super().on_response_complete()

    def connection_lost(self, exc) -> None:
        """The connection ended: no deadline to keep."""
        self._cancel_head_timer()
        super().connection_lost(exc)

    def _arm_head_timer(self) -> None:
        self._cancel_head_timer()
        self._head_timer = self.loop.call_later(HEAD_TIMEOUT, self._head_timed_out)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        if self.conn.trailing_data[0]:  # part of a head came: say why (an idle connection just goes)
            self.transport.write(_timeout_answer())
        if self.conn.our_state != h11.ERROR:
            try:
                self.conn.send(h11.ConnectionClosed())
            except h11.LocalProtocolError:
                pass
        self.transport.close()
