"""One WebSocket's side of a table: the text sent on the wire (:func:`encode`), the bounded queue
of messages waiting for the socket (:class:`Connection`), and the deltas a connection that asked
for them receives (:func:`patch`).

Nothing here knows a table: the table (``parlour.server.table_messages``) builds the messages and
hands them to each connection; the WebSocket session (``parlour.server.session``) drains them.
"""

from __future__ import annotations

import asyncio
import collections
import json
from collections.abc import Callable
from typing import Any

import orjson

from parlour.core.said import N_


def encode(message: dict[str, Any]) -> str:
    """JSON text for the wire (orjson: ~10x faster than ``json`` on a state message); what
    orjson refuses — a lone surrogate anywhere (never sendable as UTF-8), an integer beyond 64
    bits — goes through ``json``, with surrogates escaped."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        pass
    text = json.dumps(message, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(message, ensure_ascii=True)
    return text


class Connection:
    """One WebSocket: its seat (``None`` = watching) and the messages waiting to go out.

    The queue is bounded in messages and bytes.  A connection that falls behind (its client
    reads slower than the table plays, or not at all) loses its backlog and gets one full
    ``state`` of the table as it is when the socket can take it (``resync``); nothing queues
    without bound.  ``behind`` counts how often that happened."""

    MAX_MESSAGES = 64
    MAX_BYTES = 1 << 21

    def __init__(
        self,
        seat: int | None,
        resync: Callable[[Connection], str] | None = None,
        *,
        max_messages: int = MAX_MESSAGES,
        max_bytes: int = MAX_BYTES,
        deltas: bool = False,
        lang: str = "en",
    ) -> None:
        self.seat = seat
        #: the reader's language (``?lang=``, issue 34): every line told to this connection
        self.lang = lang
        #: the client asked for deltas (``?deltas=1``): a ``state`` after the first carries only
        #: what changed since the previous ``state`` sent on this connection (docs/protocol.md)
        self.deltas = deltas
        #: what the previous ``state`` on this connection carried (seat, version, payload, seats):
        #: the base of the next delta (the socket delivers in order, so the client has it)
        self.base: tuple[int | None, int, dict[str, Any], list[dict[str, Any]]] | None = None
        #: when the message being sent started waiting for the socket (``None``: not sending)
        self.sending_since: float | None = None
        self.queue: collections.deque[str] = collections.deque()
        self.bytes = 0
        self.sent_event = -1
        self.resync = resync
        self.max_messages = max_messages
        self.max_bytes = max_bytes
        self.lagging = False
        self.behind = 0
        self.closed = False
        self.close_reason = ""
        #: the client asked for reviews: it is sent each new one when it is ready
        self.wants_review = False
        #: writes a text to the socket at once, without the sender task, and says whether it
        #: did (``False``: the socket cannot take it now; it is queued as any other).  Set by
        #: ``app.run_session`` for a WebSocket whose writes are synchronous (``WsTransport.
        #: send_now``); used only while nothing is queued or being sent, so order is kept.
        self.direct: Callable[[str], bool] | None = None
        self._ready = asyncio.Event()

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        if self.closed or self.lagging:
            return  # the resync that is due will carry the latest state
        if (
            self.direct is not None
            and not self.queue
            and self.sending_since is None
            and self.direct(text)
        ):
            return  # written: the sender task is neither woken nor needed
        if len(self.queue) >= self.max_messages or self.bytes + len(text) > self.max_bytes:
            self.queue.clear()
            self.bytes = 0
            self.behind += 1
            self.lagging = self.resync is not None
            if not self.lagging:
                self.close(N_("too slow: the connection did not read its messages"))
        else:
            self.queue.append(text)
            self.bytes += len(text)
        self._ready.set()

    def close(self, reason: str = "") -> None:
        """No more messages: the sender ends after what is queued."""
        if not self.closed:
            self.closed = True
            self.close_reason = reason
        self._ready.set()

    async def next(self) -> str | None:
        """The next text to send (``None``: close the socket)."""
        while True:
            if self.queue:
                text = self.queue.popleft()
                self.bytes -= len(text)
                return text
            if self.lagging and self.resync is not None and not self.closed:
                self.lagging = False
                return self.resync(self)
            if self.closed:
                return None
            self._ready.clear()
            await self._ready.wait()


def patch(
    old: dict[str, Any],
    new: dict[str, Any],
    old_seats: list[dict[str, Any]],
    seats: list[dict[str, Any]],
) -> list[list[Any]]:
    """What turns one ``state`` payload (and seat list) into the next, as operations
    ``[path, value]`` (set) and ``[path]`` (remove), a path being the keys from the message's top
    (``["view", "hand"]``).  Objects are compared key by key and descended into; anything else
    (lists included) that changed is sent whole.  Every value comes from ``new``."""
    ops: list[list[Any]] = []
    _diff(old, new, [], ops)
    if old_seats is not seats and old_seats != seats:
        ops.append([["seats"], seats])
    return ops


def _diff(old: dict[str, Any], new: dict[str, Any], path: list[str], ops: list[list[Any]]) -> None:
    for key, value in new.items():
        if key in old:
            before = old[key]
            if before is value:
                continue
            if type(before) is type(value):
                if type(value) is dict:
                    _diff(before, value, [*path, key], ops)
                    continue
                if before == value:
                    continue
        ops.append([[*path, key], value])
    for key in old:
        if key not in new:
            ops.append([[*path, key]])
