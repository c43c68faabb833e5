"""Issue 21: a message for a socket that is idle and writable is written at once
(``WsTransport.send_now``), without waking the connection's sender task; anything else is queued
as before.  Order is kept and nothing is written twice."""

from __future__ import annotations

import time
from typing import Any

import pytest

from parlour.server.connection import Connection
from parlour.server.session import WsTransport
from tests.server.conftest import LiveServer


def _server_conns(server: LiveServer, code: str) -> list[Connection]:
    table = server.app.state.server.tables[code]
    return list(table.connections)


def test_a_direct_write_only_while_nothing_is_queued_or_being_sent() -> None:
    wire: list[str] = []
    writable = {"open": False}

    def direct(text: str) -> bool:
        if not writable["open"]:
            return False
        wire.append(text)
        return True

    conn = Connection(0)
    conn.direct = direct
    conn.send_text("a")  # the socket cannot take it: queued
    writable["open"] = True
    conn.send_text("b")  # something is queued: "b" waits behind "a", not written ahead of it
    assert wire == [] and list(conn.queue) == ["a", "b"]
    conn.queue.clear()
    conn.bytes = 0
    conn.sending_since = 1.0  # the sender is writing a message: the next one waits for it
    conn.send_text("c")
    assert wire == [] and list(conn.queue) == ["c"]
    conn.queue.clear()
    conn.bytes = 0
    conn.sending_since = None
    conn.send_text("d")
    assert wire == ["d"] and not conn.queue
    conn.lagging = True  # a connection due for a resync gets nothing else, written or queued
    conn.send_text("e")
    conn.lagging = False
    conn.close()
    conn.send_text("f")
    assert wire == ["d"] and not conn.queue


def _count_direct_writes(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """What each ``WsTransport.send_now`` answered (True: written at once), in order."""
    answers: list[bool] = []
    original = WsTransport.send_now

    def counting(self: WsTransport, text: str) -> bool:
        done = original(self, text)
        answers.append(done)
        return done

    monkeypatch.setattr(WsTransport, "send_now", counting)
    return answers


def test_pongs_come_back_in_order_once_each_mostly_written_directly(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = _count_direct_writes(monkeypatch)
    t = server.create(game="toy", players=2, seats=[{"kind": "human"}, {"kind": "bot"}])
    client = server.ws(t["code"], t["seats"][0]["token"])
    client.until("state")
    (conn,) = _server_conns(server, t["code"])
    assert conn.direct is not None  # uvicorn's sans-I/O protocol (ws="auto") serves the tests
    n = 300
    for i in range(n):
        client.send({"type": "ping", "t": i})
    pongs: list[Any] = []
    deadline = time.monotonic() + 20
    while len(pongs) < n and time.monotonic() < deadline:
        m = client.recv()
        if m["type"] == "pong":
            pongs.append(m["t"])
    assert pongs == list(range(n))
    client.drain(0.3)
    assert [m["t"] for m in client.messages if m["type"] == "pong"] == list(range(n))
    assert sum(written) >= n // 2  # most went out without the sender task
    client.close()


def test_a_paused_socket_takes_the_queue_and_the_sender(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = server.create(game="toy", players=2, seats=[{"kind": "human"}, {"kind": "bot"}])
    client = server.ws(t["code"], t["seats"][0]["token"])
    client.until("state")
    (conn,) = _server_conns(server, t["code"])
    assert conn.direct is not None
    transport = conn.direct.__self__  # type: ignore[attr-defined]
    protocol = transport._protocol
    assert protocol.writable.is_set()
    calls = _count_direct_writes(monkeypatch)
    conn.direct = transport.send_now
    # as if the transport's buffer were over its high mark (uvicorn's pause_writing): send_now
    # refuses, the pongs are queued for the sender (which waits for ``writable``), and they go
    # out in order once the socket resumes.  The server's loop runs in its own thread.
    protocol.loop.call_soon_threadsafe(protocol.writable.clear)
    time.sleep(0.2)
    for i in range(5):
        client.send({"type": "ping", "t": i})
    time.sleep(0.3)
    assert calls and not any(calls)  # refused while paused
    client.drain(0.1)
    assert not [m for m in client.messages if m["type"] == "pong"]
    protocol.loop.call_soon_threadsafe(protocol.writable.set)
    assert [client.until("pong")["t"] for _ in range(5)] == list(range(5))
    client.close()


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_a_text_frame_is_the_frame_websockets_writes(size: int) -> None:
    """``send_now`` frames a text itself (no extension, nothing pending): the same bytes as
    websockets' own server-side framing (a compressed connection, an extension, keeps websockets'
    way: tests/server/test_compression.py)."""
    from websockets.frames import Frame, Opcode
    from websockets.protocol import OPEN, SERVER
    from websockets.server import ServerProtocol

    from parlour.server.session import text_frame

    data = ("é" * (size // 2) + "x" * (size % 2)).encode()
    assert text_frame(data) == Frame(Opcode.TEXT, data).serialize(mask=False)
    # and what a server protocol's own send_text puts on the wire
    proto = ServerProtocol()
    proto.state = OPEN
    assert proto.side is SERVER
    proto.send_text(data)
    assert b"".join(proto.data_to_send()) == text_frame(data)
