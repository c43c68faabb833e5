"""One player's WebSocket session: the welcome, each client message parsed strictly and handed to
the table, and the connection's send queue drained to the socket (a slow socket is closed, not
waited for).  ``run_session`` serves a WebSocket of this process or, in a cluster, a connection
another process forwards (``parlour.server.cluster``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import weakref
from collections.abc import Callable
from typing import Any, Protocol

from fastapi import WebSocket, WebSocketDisconnect
from fastapi.websockets import WebSocketState
from websockets.exceptions import InvalidState
from websockets.protocol import OPEN, SERVER

from parlour.core.said import N_
from parlour.core.text import tell
from parlour.i18n import messages
from parlour.server import chat
from parlour.server.connection import Connection, encode
from parlour.server.errors import LobbyError, Rejected
from parlour.server.guard import BadInput, parse_json
from parlour.server.lobby import TableServer
from parlour.server.table import Table

log = logging.getLogger("parlour.server")

#: the wire protocol's version (``docs/protocol.md``), in the welcome and ``/api/info``
PROTOCOL = 1
CLIENT_TYPES = ("action", "sync", "start", "ping", "contribute", "hint", "review", *chat.TYPES)


class Transport(Protocol):
    """Where a player's messages come from and go to: a WebSocket, or a connection served
    through another process (:mod:`parlour.server.cluster`)."""

    async def receive(self) -> str | None:
        """The next client message (``None``: the client is gone)."""
        ...

    async def send_text(self, text: str) -> None: ...

    async def close(self, code: int, reason: str = "") -> None: ...


#: what :meth:`WsTransport.receive` gives for a binary frame that is not UTF-8 (no JSON text
#: can be it: a NUL byte cannot start a JSON message)
NOT_UTF8 = "\x00not utf-8"

#: the scope key under which ``GuardMiddleware`` leaves uvicorn's WebSocket protocol object
WS_PROTOCOL = "parlour.ws_protocol"


def sansio_protocol(protocol: Any) -> bool:
    """Is this uvicorn's ``websockets-sansio`` WebSocket protocol (what ``ws="auto"`` picks
    when websockets is installed), whose ``send`` of a text is synchronous once the socket is
    writable?  Only then does :meth:`WsTransport.send_now` write by itself."""
    if protocol is None:
        return False
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    except ImportError:  # pragma: no cover - another uvicorn
        return False
    return type(protocol) is WebSocketsSansIOProtocol and all(
        hasattr(protocol, name)
        for name in (
            "conn",
            "transport",
            "writable",
            "handshake_complete",
            "close_sent",
            "disconnected",
            "initial_response",
        )
    )


def text_frame(data: bytes) -> bytes:
    """One final, unmasked WebSocket text frame (RFC 6455 §5.2) holding ``data``: the bytes
    websockets' ``Frame(TEXT, data).serialize(mask=False)`` writes, with no extension."""
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    if n < 65536:
        return bytes((0x81, 126, n >> 8, n & 0xFF)) + data
    return bytes((0x81, 127)) + n.to_bytes(8, "big") + data


class WsTransport:
    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        protocol = ws.scope.get(WS_PROTOCOL)
        self._protocol = protocol if sansio_protocol(protocol) else None
        #: :meth:`send_now`, or ``None`` when this socket is not served by the sans-I/O protocol
        self.direct: Callable[[str], bool] | None = self.send_now if self._protocol else None

    def send_now(self, text: str) -> bool:
        """Write one text frame now, the way uvicorn's ``send`` does it (frame it with the
        connection's websockets ``ServerProtocol``, one ``transport.write``), without the ASGI
        layers or a task; ``False`` (nothing written) unless the socket is open and writable.

        ``send`` awaits only ``writable`` (set unless the transport's buffer is over its high
        mark) and then writes without awaiting, so when ``writable`` is set, writing here is
        what the sender task would have done, minus the task's wake-up, and nothing is written
        twice: a text either goes here or is queued for the sender, never both.  Order is kept by
        the caller (``Connection.send_text``: only while its queue is empty and its sender is not
        sending).  A socket that is paused, closing or closed gets ``False``, so its messages
        take the queue and the sender's timeout as before."""
        p = self._protocol
        if (
            p is None
            or self.ws.application_state is not WebSocketState.CONNECTED
            or not p.handshake_complete
            or p.close_sent
            or p.disconnected
            or p.initial_response is not None
            or not p.writable.is_set()
            or p.transport.is_closing()
        ):
            return False
        try:
            data = text.encode()
        except UnicodeEncodeError:  # never expected (encode() escapes surrogates): the queue's way
            return False
        conn = p.conn
        if (
            conn.state is OPEN
            and conn.side is SERVER
            # (read with a default: a websockets without them takes its own way)
            and not getattr(conn, "extensions", True)
            and not getattr(conn, "writes", True)
            and not getattr(conn, "expect_continuation_frame", True)
        ):
            # what ``send_text`` + ``data_to_send`` would give: one unmasked text frame (a
            # server's), no extension to encode it, nothing else pending; framed here without
            # websockets' Frame object, BytesIO and struct calls (~2 per action)
            frame = text_frame(data)
        else:
            try:
                conn.send_text(data)
            except InvalidState:  # closing: nothing was framed; the queue's way ends in the close
                return False
            frame = b"".join(conn.data_to_send())
        try:
            p.transport.write(frame)
        except Exception:  # a transport gone under us: the frame is lost with it, and the
            return False  # queued copy's send fails and closes the connection as before
        return True

    async def receive(self) -> str | None:
        msg = await self.ws.receive()
        if msg["type"] == "websocket.disconnect":
            return None
        raw = msg.get("text")
        if raw is None and msg.get("bytes") is not None:
            try:
                raw = msg["bytes"].decode("utf-8")
            except UnicodeDecodeError:
                # refused by ``_handle`` (also when it is passed on to another process)
                return NOT_UTF8
        return raw or ""

    async def send_text(self, text: str) -> None:
        await self.ws.send_text(text)

    async def close(self, code: int, reason: str = "") -> None:
        await self.ws.close(code=code, reason=reason or None)


async def refuse(transport: Transport, exc: LobbyError, lang: str = "en") -> None:
    """A table that cannot be opened: the error (told in ``lang``), then the close (4404, 4410,
    4503, …)."""
    kind = {410: "gone", 503: "unavailable"}.get(exc.status, "no_table")
    message = tell(exc.message, messages(lang))
    await transport.send_text(encode({"type": "error", "code": kind, "message": message}))
    await transport.close(4000 + exc.status if exc.status < 1000 else 4404)


async def run_session(
    server: TableServer,
    transport: Transport,
    code: str,
    seat: str | None,
    contrib: str | None,
    table: Table | None = None,
    *,
    deltas: bool = False,
    lang: str = "en",
) -> None:
    """Serve one player's (or spectator's) connection to a table until it ends (``deltas``: the
    client asked for ``state`` deltas)."""
    if table is None:
        try:
            table = await server.get(code)
        except LobbyError as exc:
            await refuse(transport, exc, lang)
            return
    seat_no: int | None = None
    bad_token = False
    if seat:
        seat_no = table.seat_for_token(seat)
        bad_token = seat_no is None
    cfg = server.config
    conn = Connection(
        seat_no,
        table.resync_text,
        max_messages=cfg.send_queue_messages,
        max_bytes=cfg.send_queue_bytes,
        deltas=deltas,
        lang=lang,
    )
    conn.direct = getattr(transport, "direct", None)
    sender = asyncio.create_task(_sender(transport, conn, cfg.send_timeout))
    receiver: asyncio.Task[None] | None = None
    try:
        contrib_error = None
        if seat_no is not None and contrib is not None and table.status == "waiting":
            try:
                await table.contribute(seat_no, contrib)
            except Rejected as exc:
                contrib_error = exc
        _welcome(table, conn, bad_token, contrib_error)
        changed = table.attach(conn)
        conn.send(table.state_message(conn, full=True))
        await table.connected(conn, changed)
        receiver = asyncio.create_task(_receive(transport, server, table, conn))
        await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
    except WebSocketDisconnect:
        pass
    finally:
        if receiver is not None and not receiver.done():
            receiver.cancel()
            with contextlib.suppress(BaseException):
                await receiver
        await table.disconnect(conn)
        conn.close()
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(sender, timeout=2)
        if not sender.done():
            sender.cancel()


def _welcome(
    table: Table, conn: Connection, bad_token: bool, contrib_error: Rejected | None
) -> None:
    """The first messages of a session: ``welcome`` (the table), then what went wrong with the
    seat link or the contribution it carried, if anything."""
    conn.send(
        {
            "type": "welcome",
            "protocol": PROTOCOL,
            "code": table.code,
            "seat": conn.seat,
            "spectator": conn.seat is None,
            "game": table.entry.name,
            "preset": table.meta.preset,
            "rules": table.meta.rules,
            "players": table.players,
            "table": table.record(),
        }
    )
    if bad_token:
        conn.send(
            {
                "type": "error",
                "code": "bad_token",
                "message": tell(
                    N_(
                        "that seat token is not valid at this table (wrong link, or "
                        "the player left); you are watching as a spectator"
                    ),
                    messages(conn.lang),
                ),
                "version": table.version,
            }
        )
    if contrib_error is not None:
        _error(conn, table, contrib_error.code, contrib_error.message)


async def _receive(
    transport: Transport, server: TableServer, table: Table, conn: Connection
) -> None:
    """Read client messages until the socket closes; one bad message never ends it."""
    while True:
        raw = await transport.receive()
        if raw is None:
            return
        try:
            await _handle(server, table, conn, raw)
        except Exception:  # one bad message must not drop the connection
            log.exception("table %s: message failed", table.code)
            _error(conn, table, "server_error", N_("the server failed on that message"))


class _Watchdog:
    """Closes the connections whose message has waited too long for its socket.

    One timer per second for the whole process instead of a timeout per message sent (a
    ``wait_for`` task, or an ``asyncio.timeout`` timer, on every message was a few per cent of
    the server's time): a sender notes when its message started waiting
    (``Connection.sending_since``), and a message still waiting ``timeout`` seconds later gets
    its sender cancelled."""

    def __init__(self) -> None:
        self.senders: dict[asyncio.Task[None], tuple[Connection, float]] = {}
        self.timer: asyncio.TimerHandle | None = None
        self.overdue: set[asyncio.Task[None]] = set()

    @staticmethod
    def of(loop: asyncio.AbstractEventLoop) -> _Watchdog:
        dog = _watchdogs.get(loop)
        if dog is None:
            dog = _watchdogs[loop] = _Watchdog()
        return dog

    def add(self, task: asyncio.Task[None], conn: Connection, timeout: float) -> None:
        self.senders[task] = (conn, timeout)
        if self.timer is None:
            self.timer = asyncio.get_running_loop().call_later(min(1.0, timeout), self._check)

    def remove(self, task: asyncio.Task[None]) -> None:
        self.senders.pop(task, None)
        self.overdue.discard(task)

    def _check(self) -> None:
        self.timer = None
        if not self.senders:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        for task, (conn, timeout) in list(self.senders.items()):
            since = conn.sending_since
            if since is not None and now - since > timeout and task not in self.overdue:
                self.overdue.add(task)
                task.cancel()
        self.timer = loop.call_later(min(1.0, *(t for _, t in self.senders.values())), self._check)


_watchdogs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Watchdog] = (
    weakref.WeakKeyDictionary()
)


async def _sender(transport: Transport, conn: Connection, timeout: float) -> None:
    """Send the connection's messages; a socket that cannot take one within ``timeout`` seconds
    (its client is not reading) or fails in any way is closed with a reason."""
    reason = ""
    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()
    watchdog = _Watchdog.of(loop)
    watchdog.add(task, conn, timeout)
    try:
        while True:
            text = await conn.next()
            if text is None:
                reason = conn.close_reason
                break
            conn.sending_since = loop.time()
            try:
                await transport.send_text(text)
            except asyncio.CancelledError:
                if task not in watchdog.overdue:
                    raise
                task.uncancel()
                reason = N_(
                    "too slow: a message waited over {seconds} s to be read",
                    seconds=f"{timeout:g}",
                )
                break
            except UnicodeEncodeError:  # never expected: encode() escapes surrogates
                await asyncio.wait_for(
                    transport.send_text(text.encode("utf-8", "replace").decode()), timeout
                )
            conn.sending_since = None
    except Exception as exc:
        reason = f"send failed: {type(exc).__name__}"
    finally:
        conn.sending_since = None
        watchdog.remove(task)
    conn.close(reason)
    if reason:
        log.info("closing a connection: %s", reason)
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(transport.close(4008, close_reason(reason, conn.lang)), 1.0)


def close_reason(reason: str, lang: str) -> str:
    """A close frame's reason told in ``lang`` and cut to what a close frame holds (123 bytes of
    UTF-8, RFC 6455 §5.5: a reason in German or Portuguese is cut on a character, not a byte)."""
    text = tell(reason, messages(lang))
    return text.encode("utf-8")[:120].decode("utf-8", "ignore")


def _error(conn: Connection, table: Any, code: str, message: str, request: Any = None) -> None:
    out: dict[str, Any] = {
        "type": "error",
        "code": code,
        "message": tell(message, messages(conn.lang)),
        "version": table.version,
    }
    if isinstance(request, dict):
        out["request"] = request
        if "id" in request:
            out["id"] = request["id"]
    conn.send(out)


async def _handle(server: TableServer, table: Table, conn: Connection, raw: str) -> None:
    """One message from the client: read and checked, then answered (a request) or submitted
    (an action)."""
    started = time.perf_counter()
    msg = _read(server, table, conn, raw)
    if msg is None:
        return
    kind = msg["type"]
    if kind in ("ping", "sync", "hint", "review", "start", "contribute") or kind in chat.TYPES:
        await _request(server, table, conn, kind, msg)
    else:
        await _act(server, table, conn, msg, started)


def _read(server: TableServer, table: Table, conn: Connection, raw: str) -> dict[str, Any] | None:
    """The message as a JSON object of a known type, or ``None`` (the client was told why)."""
    if raw == NOT_UTF8:
        _error(
            conn, table, "bad_json", N_("a binary frame must hold UTF-8 text; this one does not")
        )
        return None
    limit = server.config.max_message
    size = len(raw.encode("utf-8", "surrogatepass"))
    if size > limit:
        _error(
            conn,
            table,
            "too_large",
            N_("message of {size} bytes; the limit is {limit}", size=size, limit=limit),
        )
        return None
    try:
        msg = parse_json(raw)
    except BadInput as exc:
        _error(conn, table, exc.code, exc.message)
        return None
    if not isinstance(msg, dict):
        _error(conn, table, "bad_json", N_("a message must be a JSON object with a 'type'"))
        return None
    kind = msg.get("type")
    if kind not in CLIENT_TYPES:
        _error(
            conn,
            table,
            "unknown_type",
            N_(
                "unknown message type {type}; expected one of {types}",
                type=repr(str(kind)[:40]),
                types=", ".join(CLIENT_TYPES),
            ),
            msg,
        )
        return None
    return msg


async def _request(
    server: TableServer, table: Table, conn: Connection, kind: str, msg: dict[str, Any]
) -> None:
    """A message that is not a move: ping, sync, chat, hint, review, start, contribute."""
    if kind == "ping":
        conn.send({"type": "pong", "t": msg.get("t")})
        return
    if kind == "sync":
        conn.send(table.state_message(conn, full=True))
        return
    if kind in chat.TYPES:  # --- issue 33 hook: table chat ---
        try:
            await chat.handle(server, table, conn, kind, msg)
        except chat.ChatRefused as exc:
            _error(conn, table, exc.code, exc.message, msg)
        return
    if kind in ("start", "contribute") and conn.seat is None:
        _error(
            conn,
            table,
            "spectator",
            N_("spectators cannot start the match")
            if kind == "start"
            else N_("spectators cannot add to the shuffle"),
            msg,
        )
        return
    try:
        if kind == "hint":
            await table.hint(conn)
        elif kind == "review":
            table.send_review(conn)
        elif kind == "start":
            await table.start()
        elif conn.seat is not None:
            await table.contribute(conn.seat, msg.get("value"))
    except Rejected as exc:
        _error(conn, table, exc.code, exc.message, msg)


async def _act(
    server: TableServer, table: Table, conn: Connection, msg: dict[str, Any], started: float
) -> None:
    """A move: submitted to the table, which answers with the new state (or an error)."""
    if "seat" in msg and msg["seat"] != conn.seat:
        _error(
            conn,
            table,
            "not_your_seat",
            N_(
                "this connection plays seat {seat}; it cannot act for seat {other}",
                seat=str(conn.seat),
                other=json.dumps(msg["seat"])[:20],
            )
            if conn.seat is not None
            else N_(
                "this connection is a spectator's; it cannot act for seat {other}",
                other=json.dumps(msg["seat"])[:20],
            ),
            msg,
        )
        return
    try:
        await table.submit(
            conn.seat,
            msg.get("version"),
            msg.get("action"),
            reply_to=conn,
            request_id=msg.get("id"),
        )
        # read → checked, journaled, applied, its state queued for this socket
        server.action_took(time.perf_counter() - started)
    except Rejected as exc:
        _error(conn, table, exc.code, exc.message, msg)
        if exc.code == "stale_version":
            conn.send(table.state_message(conn))
    except Exception:
        log.exception("table %s: action failed", table.code)
        _error(conn, table, "server_error", N_("the server could not apply the action"), msg)
