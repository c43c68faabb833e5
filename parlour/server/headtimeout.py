"""A deadline for a request's head (issue 31, hole 7): uvicorn's HTTP protocols with a timer.

uvicorn closes a connection idle between two requests after ``timeout_keep_alive`` seconds, but
has no deadline for the request line and headers themselves: a client sending one header byte
every few seconds held its connection (and its memory) open for as long as it liked — 300 such
sockets stayed open in the probe.  These subclasses of uvicorn's two HTTP protocols give each
request head ``head_timeout`` seconds from the moment the connection opens (or its previous
response ended); a head not complete by then gets ``408 Request Timeout`` and the connection is
closed.  A WebSocket is not affected once its upgrade request is read, nor is a slow handler.

``parlour serve`` uses them (``uvicorn.Config(http=HTTP_PROTOCOL)``); the deadline comes from
``--header-timeout`` through ``PARLOUR_HEADER_TIMEOUT`` (the workers of ``--workers N`` inherit
it), default :data:`HEAD_TIMEOUT`.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

#: seconds a client has to send a request line and headers (a browser sends them at once)
HEAD_TIMEOUT = 10.0
ENV = "PARLOUR_HEADER_TIMEOUT"

_TIMED_OUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: 38\r\n\r\nthe request headers came in too slowly"
)


def head_timeout() -> float:
    """The deadline in force: ``PARLOUR_HEADER_TIMEOUT``, else :data:`HEAD_TIMEOUT`."""
    try:
        value = float(os.environ.get(ENV, HEAD_TIMEOUT))
    except ValueError:
        return HEAD_TIMEOUT
    return value if value > 0 else HEAD_TIMEOUT


class _HeadDeadline:
    """The timer, shared by both protocols (a mix-in before uvicorn's class)."""

    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport
    _head_timer: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(head_timeout(), self._head_late)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.write(_TIMED_OUT)
            self.transport.close()

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)  # type: ignore[misc]

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        if not self.transport.is_closing():
            self._arm()  # the next request on this connection has its own deadline


class H11HeadDeadline(_HeadDeadline, H11Protocol):
    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        import h11

        # past IDLE: the request's head was read (its body, or the next cycle, may follow)
        if self.conn.their_state is not h11.IDLE:
            self._disarm()


HTTP_PROTOCOL = "parlour.server.headtimeout:H11HeadDeadline"

if importlib.util.find_spec("httptools") is not None:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class HttpToolsHeadDeadline(_HeadDeadline, HttpToolsProtocol):
        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

    #: what ``parlour serve`` gives uvicorn (an import path: the workers of ``--workers N``
    #: import it themselves); httptools when it is installed, as uvicorn's own "auto" would
    HTTP_PROTOCOL = "parlour.server.headtimeout:HttpToolsHeadDeadline"
