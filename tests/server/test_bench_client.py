"""The load bench's lean WebSocket client (``bench/server.py``, ``LeanSeat``): its frames are
what a WebSocket server expects, and it reads what the protocol sends (docs/protocol.md) the way
a player must — the acknowledged action timed, deltas followed, pings and closes answered."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import random
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
from websockets.frames import Frame, Opcode
from websockets.streams import StreamReader

from tests.support.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
bench = load_script("bench/server.py", "bench_server")


def parse_client_frames(data: bytes) -> list[Frame]:
    """Frames as a server reads them (masked, as RFC 6455 requires of a client)."""
    reader = StreamReader()
    reader.feed_data(data)
    frames = []
    while reader.buffer:
        parser = Frame.parse(reader.read_exact, mask=True)
        try:
            while True:
                next(parser)
        except StopIteration as done:
            frames.append(done.value)
    return frames


def server_frame(payload: bytes, opcode: int = 1, fin: bool = True) -> bytes:
    n = len(payload)
    head = bytes(((0x80 if fin else 0) | opcode,))
    if n < 126:
        head += bytes((n,))
    elif n < 1 << 16:
        head += bytes((126,)) + n.to_bytes(2, "big")
    else:
        head += bytes((127,)) + n.to_bytes(8, "big")
    return head + payload


class FakeTransport:
    def __init__(self) -> None:
        self.written = bytearray()
        self.closed = False

    def write(self, data: bytes) -> None:
        if self.closed:  # as uvloop does
            raise RuntimeError("unable to perform operation on a closed transport")
        self.written += data

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def take(self) -> list[Frame]:
        frames = parse_client_frames(bytes(self.written))
        self.written.clear()
        return frames


@pytest.mark.parametrize("size", [0, 1, 125, 126, 65535, 65536, 70001])
def test_frames_are_masked_and_read_back_by_the_websockets_parser(size: int) -> None:
    payload = bytes(random.Random(size).randrange(256) for _ in range(size))
    (frame,) = parse_client_frames(bench.ws_frame(1, payload))
    assert frame.opcode == Opcode.TEXT and frame.fin and frame.data == payload


def test_each_frame_has_a_mask_of_its_own() -> None:
    masks = {bench.ws_frame(1, b"abcd")[2:6] for _ in range(20)}
    assert len(masks) == 20  # random 32-bit keys (a repeat: about 1 in 10^7)


def test_mask_in_python_equals_the_c_one() -> None:
    rng = random.Random(5)
    for n in (0, 1, 3, 4, 5, 127, 1000):
        data = bytes(rng.randrange(256) for _ in range(n))
        mask = bytes(rng.randrange(256) for _ in range(4))
        assert bench._mask_py(data, mask) == bench._apply_mask(data, mask)


def _seat(think: float = 0.0) -> tuple[Any, FakeTransport, Any]:
    stats = bench.Stats()
    seat = bench.LeanSeat(
        "127.0.0.1:1", "/ws/ABC?seat=t", stats, think, time.monotonic() + 60,
        random.Random(1), "ABC", 0.0,
    )  # fmt: skip
    transport = FakeTransport()
    seat.connection_made(transport)
    request = bytes(transport.written)
    transport.written.clear()
    assert request.startswith(b"GET /ws/ABC?seat=t HTTP/1.1\r\n")
    assert b"Upgrade: websocket\r\n" in request and b"Sec-WebSocket-Version: 13\r\n" in request
    accept = base64.b64encode(hashlib.sha1(seat.key + bench._WS_GUID).digest())
    seat.data_received(b"HTTP/1.1 101 Switching Protocols\r\nSec-WebSocket-Accept: " + accept)
    assert not seat.opened.done()  # the response is not complete yet
    seat.data_received(b"\r\nUpgrade: websocket\r\n\r\n")
    assert seat.opened.done() and seat.opened.exception() is None
    return seat, transport, stats


def _json(frame: Frame) -> Any:
    assert frame.opcode == Opcode.TEXT
    return orjson.loads(frame.data)


LEGAL = [{"action": {"type": "Draw"}, "text": "draw"}]


@pytest.mark.asyncio
async def test_plays_its_turn_times_the_acknowledgement_and_follows_deltas() -> None:
    seat, transport, stats = _seat()
    whole = {"type": "state", "version": 4, "status": "playing", "seat": 0, "to_act": 0,
             "your_turn": True, "view": {"hand": ["3♣"]}, "legal": LEGAL, "events": []}  # fmt: skip
    seat.data_received(server_frame(orjson.dumps(whole)))
    (sent,) = transport.take()
    assert _json(sent) == {"type": "action", "version": 4, "action": {"type": "Draw"}, "id": 1}
    # the acknowledging delta (split over two reads, with a pong from the server after it)
    delta = {"type": "state", "version": 5, "status": "playing", "base": 4, "id": 1,
             "patch": [[["view", "hand"], ["3♣", "4♦"]], [["your_turn"], False], [["legal"]]],
             "events": []}  # fmt: skip
    data = server_frame(orjson.dumps(delta)) + server_frame(b'{"type":"pong","t":1.5}')
    seat.data_received(data[:7])
    assert not stats.rtt
    seat.data_received(data[7:])
    assert len(stats.rtt) == 1 and 0 <= stats.rtt[0] < 5
    assert stats.acked == [("ABC", 4, {"type": "Draw"})]
    assert stats.versions == {"ABC": 5} and stats.deltas == 1 and stats.states == 2
    assert len(stats.ping) == 1
    assert not seat.your_turn and seat.legal is None
    assert transport.take() == []  # not its turn: nothing sent
    # its turn again through a delta: it acts on version 6
    turn = {"type": "state", "version": 6, "status": "playing", "base": 5,
            "patch": [[["your_turn"], True], [["legal"], LEGAL]], "events": []}  # fmt: skip
    seat.data_received(server_frame(orjson.dumps(turn)))
    (sent,) = transport.take()
    assert _json(sent)["version"] == 6 and _json(sent)["id"] == 2


@pytest.mark.asyncio
async def test_a_delta_out_of_step_is_an_error_answered_with_sync() -> None:
    seat, transport, stats = _seat()
    seat.data_received(server_frame(orjson.dumps(
        {"type": "state", "version": 2, "status": "playing", "your_turn": False, "legal": None}
    )))  # fmt: skip
    seat.data_received(server_frame(orjson.dumps(
        {"type": "state", "version": 4, "status": "playing", "base": 3, "patch": []}
    )))  # fmt: skip
    assert stats.errors == 1
    (sent,) = transport.take()
    assert _json(sent) == {"type": "sync"}


@pytest.mark.asyncio
async def test_thinks_before_acting_and_acts_on_the_newest_state() -> None:
    seat, transport, _ = _seat(think=0.05)
    state = {"type": "state", "version": 1, "status": "playing", "your_turn": True,
             "legal": LEGAL}  # fmt: skip
    seat.data_received(server_frame(orjson.dumps(state)))
    assert transport.take() == []  # thinking
    seat.data_received(server_frame(orjson.dumps({**state, "version": 2})))
    await asyncio.sleep(0.2)
    (sent,) = transport.take()  # one action, on the newest state
    assert _json(sent)["version"] == 2


@pytest.mark.asyncio
async def test_answers_pings_puts_fragments_together_and_closes() -> None:
    seat, transport, stats = _seat()
    seat.data_received(server_frame(b"\x01\x02", opcode=9))
    (pong,) = transport.take()
    assert pong.opcode == Opcode.PONG and pong.data == b"\x01\x02"
    body = orjson.dumps({"type": "state", "version": 3, "status": "finished"})
    seat.data_received(
        server_frame(body[:10], opcode=1, fin=False)
        + server_frame(b"\x00", opcode=9)  # a control frame between the fragments
        + server_frame(body[10:], opcode=0)
    )
    assert stats.finished == 1 and seat.done.result() is True
    assert transport.take()[0].opcode == Opcode.PONG
    seat.data_received(server_frame((1000).to_bytes(2, "big"), opcode=8))
    (close,) = transport.take()
    assert close.opcode == Opcode.CLOSE and close.data == (1000).to_bytes(2, "big")
    assert transport.closed


@pytest.mark.asyncio
async def test_a_refused_upgrade_fails_the_connection() -> None:
    stats = bench.Stats()
    seat = bench.LeanSeat(
        "h", "/ws/X", stats, 0.0, time.monotonic() + 60, random.Random(1), "X", 0.0
    )
    transport = FakeTransport()
    seat.connection_made(transport)
    seat.data_received(b"HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n")
    assert isinstance(seat.opened.exception(), bench.WsError)
    assert transport.closed


@pytest.mark.asyncio
async def test_a_lost_connection_ends_the_session_unfinished_and_writes_nothing() -> None:
    """The server died (the failover run): the player reconnects elsewhere."""
    seat, transport, _ = _seat()
    transport.closed = True
    seat.connection_lost(ConnectionResetError())
    assert seat.done.result() is False  # not finished: seat_client reconnects
    seat.close()  # the session's clean-up: nothing written to a closed transport
    seat.send({"type": "ping", "t": 1.0})
    assert transport.written == b""


def test_the_counted_stats_keep_the_failover_times() -> None:
    """``--kill-after`` reports how long each table took to move on; the warm-up cut must not
    drop those (it did: ``tables_resumed`` was 0 after every kill)."""
    stats = bench.Stats()
    stats.killed_at = 10.0
    stats.resumed = {"ABC": 2.5}
    counted = stats.counted()
    assert counted.resumed == {"ABC": 2.5} and counted.killed_at == 10.0
