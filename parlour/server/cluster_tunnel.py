"""A player's WebSocket served by another process (``parlour.server.cluster``): the two ends of
the tunnel over the bus.  On the process the player reached (the *edge*), a :class:`Tunnel`
carries the socket's messages to the table's owner and the owner's back; on the owner, a
:class:`RemoteTransport` looks like a socket to the WebSocket session.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from parlour.core.said import N_
from parlour.server.bus import Bus

# close codes: 1012 "service restart" makes a browser reconnect (to whichever process)
MOVED = 1012


class RemoteTransport:
    """On the owner: a player connected to another process (the *edge*), seen as a socket."""

    def __init__(self, bus: Bus, cid: str, edge: str) -> None:
        self.bus = bus
        self.cid = cid
        self.edge = edge
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.ended = False

    async def receive(self) -> str | None:
        return await self.inbox.get()

    async def send_text(self, text: str) -> None:
        if self.ended:
            raise ConnectionError("the forwarded connection is closed")
        self.bus.send(self.edge, "out", self.cid, text)

    async def close(self, code: int, reason: str = "") -> None:
        if not self.ended:
            self.ended = True
            self.bus.send(self.edge, "end", self.cid, json.dumps({"code": code, "reason": reason}))

    def gone(self) -> None:
        """The edge or the bus is gone: the session ends as if the socket closed."""
        self.ended = True
        self.inbox.put_nowait(None)


class Tunnel:
    """On the edge: a local socket served by the owner ``owner``."""

    def __init__(self, owner: str, code: str) -> None:
        self.owner = owner
        self.code = code
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.close_code = MOVED
        self.reason = ""

    def end(self, code: int, reason: str) -> None:
        self.close_code, self.reason = code, reason
        self.outbox.put_nowait(None)

    async def pump(self, transport: Any, bus: Bus, cid: str, timeout: float) -> None:
        """Carry the local socket's messages to the owner and the owner's back, until either
        side ends (a message the socket cannot take within ``timeout`` ends it as too slow)."""

        async def inbound() -> None:
            while True:
                text = await transport.receive()
                if text is None:
                    return
                bus.send(self.owner, "in", cid, text)

        async def outbound() -> None:
            while True:
                text = await self.outbox.get()
                if text is None:
                    return
                try:
                    await asyncio.wait_for(transport.send_text(text), timeout)
                except TimeoutError:
                    self.close_code, self.reason = 4008, N_("too slow: a message waited too long")
                    return

        tasks = {asyncio.create_task(inbound()), asyncio.create_task(outbound())}
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for t in tasks:
                t.cancel()
            for t in tasks:
                with contextlib.suppress(BaseException):
                    await t
