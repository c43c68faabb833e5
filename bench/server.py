"""Load run of the table server (not a test): N concurrent tables on loopback.

Starts ``parlour serve`` as its own process (pinned to one CPU core with ``taskset`` when it is
available), opens N tables (default 4-player Samba, one hand per match, a new table replaces each
finished one), and plays them with WebSocket clients for people and server-side bots for the other
seats.  Each client acts as soon as it is its turn after ``--think`` seconds and measures the round
trip: from sending the action to receiving the state that carries it.  Reports actions/s (all
seats, from the table versions), and p50/p90/p99/max round-trip latency.

A message is timed when it arrives, not when the player has finished thinking; each client also
sends a transport-only ``ping`` every ``--ping-every`` seconds (on average) and times its
``pong``.  The players are played by a lean client (``LeanSeat``: WebSocket on an
``asyncio.Protocol``, only what a player needs read from each ``state``, on uvloop) that costs
a half to a third of the websockets client's CPU per action; ``--ws-client websockets --loop
asyncio`` plays them as before (``_seat_session``).  The report gives the CPU per action of the
server, of the clients, and (with ``--db``/``--redis``) of the PostgreSQL backends and Redis.

The server listens on ``--port`` (default 0: it picks a free port and the bench reads which from
its output) and keeps its journal and its log in a temporary folder the bench creates and removes
(the server's user data directory points there too); the log's tail is shown if the server fails.

    uv run python bench/server.py --tables 100 --duration 30
    # 1,000 tables: the first 20 s (creating them) not counted, clients in two processes
    uv run python bench/server.py --tables 1000 --duration 60 --warmup 20 --clients 2
    # before/after: the same clients against another checkout's server (its .venv)
    uv run python bench/server.py --tables 150 --duration 40 --warmup 10 --server-from ../main
    uv run python bench/server.py --tables 20 --humans 4 --think 0 --bot-delay 0   # flat out
    # two processes on PostgreSQL + Redis, pinned to CPUs 0 and 1; people on the other process
    uv run python bench/server.py --processes 2 --db postgresql://postgres@127.0.0.1/test \
        --redis redis://127.0.0.1:6379/0 --cross 1
    # failover: process 0 is SIGKILLed after 20 s; its tables' people reconnect elsewhere
    # 100 tables while 10 more tables' bots search 1 s a move: bots in threads, then in a pool
    uv run python bench/server.py --tables 100 --strong-tables 10 --cpu -1
    uv run python bench/server.py --tables 100 --strong-tables 10 --cpu -1 --bot-processes 1
    uv run python bench/server.py --processes 2 --db … --redis … --kill-after 20

Numbers depend on the machine and its load; say which when you quote them.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import concurrent.futures
import contextlib
import hashlib
import json
import multiprocessing
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine, Iterable, Iterator
from pathlib import Path
from typing import IO, Any, TypeVar, cast
from urllib.parse import urlsplit

import httpx
import orjson
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

ROOT = Path(__file__).resolve().parents[1]
T = TypeVar("T")
#: mean seconds between two chat messages of one seat (``--chat-every``; 0: no chat; the lean
#: client only): chat is in the mix of what the server does, and its round trip is measured
CHAT_EVERY = 0.0


class Stats:
    def __init__(self) -> None:
        self.rtt: list[float] = []
        self.ping: list[float] = []
        #: a seat's own chat message coming back to it (seconds), and chat messages received
        self.chat: list[float] = []
        self.chat_messages = 0
        self.warm_chat = 0
        self.errors = 0
        self.finished = 0
        self.versions: dict[str, int] = {}
        self.reconnects = 0
        #: table creations answered 503 (retried)
        self.refused: list[str] = []
        #: (table, version, action) of every action a client saw acknowledged
        self.acked: list[tuple[str, int, Any]] = []
        #: when the owner was killed (--kill-after), and per table how long until it moved on
        self.killed_at: float | None = None
        self.resumed: dict[str, float] = {}

        #: what had happened when the warm-up ended (not counted)
        self.warm_actions = 0
        self.warm_rtt = 0
        self.warm_ping = 0
        #: the client process's CPU seconds when the warm-up ended
        self.own0 = (0.0, 0.0)
        #: ``state`` messages received, their bytes, how many were deltas
        self.states = 0
        self.state_bytes = 0
        self.deltas = 0

    def warmed(self) -> None:
        """The warm-up is over: what happened so far is not counted."""
        self.warm_actions = sum(self.versions.values())
        self.warm_rtt = len(self.rtt)
        self.warm_ping = len(self.ping)
        self.warm_chat = len(self.chat)

    def counted(self) -> Stats:
        """Only what happened after the warm-up (a new Stats)."""
        out = Stats()
        out.merge(self)
        out.rtt = self.rtt[self.warm_rtt :]
        out.ping = self.ping[self.warm_ping :]
        out.chat = self.chat[self.warm_chat :]
        out.warm_actions = self.warm_actions
        return out

    def merge(self, other: Stats) -> None:
        """Add another client process's stats (tables are never shared between them)."""
        self.rtt += other.rtt
        self.ping += other.ping
        self.chat += other.chat
        self.chat_messages += other.chat_messages
        self.warm_actions += other.warm_actions
        self.errors += other.errors
        self.finished += other.finished
        self.states += other.states
        self.state_bytes += other.state_bytes
        self.deltas += other.deltas
        self.versions.update(other.versions)
        self.reconnects += other.reconnects
        self.refused += other.refused
        self.acked += other.acked
        self.resumed.update(other.resumed)
        if other.killed_at is not None:
            self.killed_at = other.killed_at


PARTS = ("seat", "to_act", "your_turn", "view", "legal", "outcome", "seats")


class Whole:
    """A ``state`` made whole again from the deltas (docs/protocol.md), as the browser does."""

    def __init__(self) -> None:
        self.last: dict[str, Any] | None = None

    def __call__(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        if "patch" not in msg:
            self.last = {k: msg.get(k) for k in PARTS}
            self.last["version"] = msg["version"]
            return msg
        last = self.last
        if last is None or last["version"] != msg["base"]:
            return None
        for op in msg["patch"]:
            path = op[0]
            obj = last
            for key in path[:-1]:
                obj = obj[key]
            if len(op) > 1:
                obj[path[-1]] = op[1]
            else:
                del obj[path[-1]]
        last["version"] = msg["version"]
        return {**msg, **last}


async def seat_client(
    urls: list[str],
    stats: Stats,
    think: float,
    stop: float,
    rng: random.Random,
    code: str,
    ping_every: float,
    lean: bool = True,
) -> None:
    """One seat's browser: plays on ``urls[0]``; when the socket closes before the match ends
    (its server died), reconnects to the next URL, as a browser behind a balancer would.
    ``lean``: the :class:`LeanSeat` client, else the websockets one (``_seat_session``)."""
    session = _lean_session if lean else _seat_session
    attempt = 0
    while time.monotonic() < stop:
        url = urls[attempt % len(urls)]
        try:
            done = await session(url, stats, think, stop, rng, code, ping_every)
        except (OSError, WebSocketException):
            done = False
        if done:
            return
        attempt += 1
        stats.reconnects += 1
        await asyncio.sleep(0.2)


async def _seat_session(
    url: str,
    stats: Stats,
    think: float,
    stop: float,
    rng: random.Random,
    code: str,
    ping_every: float,
) -> bool:
    """One connection; True when the match is over (or the run is)."""
    async with connect(url, max_size=1 << 23, open_timeout=30) as ws:
        pending: dict[int, tuple[float, int, Any]] = {}
        states: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        finished = False
        whole = Whole()

        async def reader() -> None:
            nonlocal finished
            # every message is timed as it arrives, whatever the player is doing meanwhile
            try:
                async for raw in ws:
                    now = time.perf_counter()
                    msg = json.loads(raw)
                    if msg["type"] == "pong":
                        if isinstance(msg.get("t"), float):
                            stats.ping.append(now - msg["t"])
                    elif msg["type"] == "error":
                        stats.errors += 1
                    elif msg["type"] == "state":
                        stats.states += 1
                        stats.state_bytes += len(raw)
                        stats.deltas += "patch" in msg
                        msg = whole(msg)
                        if msg is None:  # a delta out of step (never expected)
                            stats.errors += 1
                            await ws.send('{"type": "sync"}')
                            continue
                        sent = pending.pop(msg.get("id", -1), None)
                        if sent is not None:
                            stats.rtt.append(now - sent[0])
                            stats.acked.append((code, sent[1], sent[2]))
                        before = stats.versions.get(code, 0)
                        if msg["version"] > before and stats.killed_at is not None:
                            stats.resumed.setdefault(code, time.monotonic() - stats.killed_at)
                        stats.versions[code] = max(before, msg["version"])
                        if msg["status"] == "finished" and not finished:
                            finished = True
                            stats.finished += 1
                        states.put_nowait(msg)
            except (OSError, WebSocketException):
                pass
            finally:
                states.put_nowait(None)  # the connection closed

        async def pinger() -> None:
            while True:
                await asyncio.sleep(ping_every * (0.5 + rng.random()))
                await ws.send(json.dumps({"type": "ping", "t": time.perf_counter()}))

        tasks = [asyncio.create_task(reader())]
        if ping_every > 0:
            tasks.append(asyncio.create_task(pinger()))
        next_id = 0
        try:
            while True:
                msg = await states.get()
                # act on the newest state only: older ones are already out of date
                while msg is not None and not states.empty():
                    msg = states.get_nowait()
                if msg is None:
                    return finished
                if msg["status"] == "finished" or time.monotonic() > stop:
                    return True
                if not msg["your_turn"]:
                    continue
                if think:
                    await asyncio.sleep(think * (0.5 + rng.random()))
                    # act on what the table looks like now, not on what it looked like before
                    while msg is not None and not states.empty():
                        msg = states.get_nowait()
                    if msg is None:
                        return finished
                    if msg["status"] == "finished":
                        return True
                    if not msg["your_turn"]:
                        continue
                choice = rng.choice(msg["legal"])["action"]
                next_id += 1
                pending[next_id] = (time.perf_counter(), msg["version"], choice)
                await ws.send(
                    json.dumps(
                        {
                            "type": "action",
                            "version": msg["version"],
                            "action": choice,
                            "id": next_id,
                        }
                    )
                )
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


# --- the lean client (--ws-client lean, the default) ----------------------------------------------
#
# The same player as ``_seat_session`` above, but a half to a third of its CPU per action
# (measured: docs/server.md, "Several processes"), so that the clients of 1,800 tables fit next
# to two server processes on two cores.  What it does per message is exactly what a player needs:
#
# - RFC 6455 by hand on an ``asyncio.Protocol`` (no task, queue or future per message): the
#   upgrade request, its ``Sec-WebSocket-Accept`` checked; every frame it sends masked with a new
#   random key, as a browser does; pings from the server answered, a close answered and the
#   socket closed, fragmented messages put together.
# - A message is timed when its bytes reach the process (``data_received``), before it is
#   parsed: the round trip is the server's and the wire's, not the bench's parsing.
# - Each message is parsed whole with orjson (a dependency of the server), but a delta is not
#   made whole again: of a seat's state a player needs only ``your_turn`` and ``legal`` (the
#   actions it may send, docs/protocol.md), so only those two are taken from a whole ``state``
#   or from a delta's top-level operations; a delta whose ``base`` is not the version it has is
#   an error, answered with ``sync``, as before.
# - Thinking and pings are timers on the loop (``call_later``), not tasks.


def _mask_py(data: bytes, mask: bytes) -> bytes:
    n = len(data)
    key = int.from_bytes((mask * (n // 4 + 1))[:n], "little")
    return (int.from_bytes(data, "little") ^ key).to_bytes(n, "little")


try:  # the C masking of the websockets package (a dev dependency; this file imports it anyway)
    from websockets.speedups import apply_mask as _apply_mask
except ImportError:  # pure-Python websockets
    _apply_mask = _mask_py  # type: ignore[assignment]


_WS_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def ws_frame(opcode: int, payload: bytes, mask: bytes | None = None) -> bytes:
    """One final client frame (RFC 6455 section 5.2), masked with ``mask`` (default: random)."""
    if mask is None:
        mask = os.urandom(4)
    n = len(payload)
    if n < 126:
        head = bytes((0x80 | opcode, 0x80 | n))
    elif n < 1 << 16:
        head = bytes((0x80 | opcode, 0x80 | 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((0x80 | opcode, 0x80 | 127)) + n.to_bytes(8, "big")
    return head + mask + _apply_mask(payload, mask)


def _retrieved(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


class WsError(ConnectionError):
    """The server broke the WebSocket protocol or refused the upgrade."""


class LeanSeat(asyncio.Protocol):
    """One seat's player on one connection (see the notes above)."""

    def __init__(
        self,
        host: str,
        target: str,
        stats: Stats,
        think: float,
        stop: float,
        rng: random.Random,
        code: str,
        ping_every: float,
    ) -> None:
        loop = asyncio.get_running_loop()
        self.loop = loop
        self.host, self.target = host, target
        self.stats, self.think, self.stop, self.rng = stats, think, stop, rng
        self.code, self.ping_every = code, ping_every
        self.key = base64.b64encode(os.urandom(16))
        self.transport: asyncio.Transport | None = None
        self.buf = bytearray()
        self.upgraded = False
        self.fragments: list[bytes] = []
        #: the handshake is done (or failed)
        self.opened: asyncio.Future[None] = loop.create_future()
        self.opened.add_done_callback(_retrieved)  # a failed upgrade is an OSError, raised below
        #: True when the match (or the run) is over, False when the socket closed before
        self.done: asyncio.Future[bool] = loop.create_future()
        self.closed: asyncio.Future[None] = loop.create_future()
        self.version = -1
        self.status = ""
        self.your_turn = False
        self.legal: list[Any] | None = None
        self.finished = False
        self.closing = False
        self.pending: dict[int, tuple[float, int, Any]] = {}
        self.next_id = 0
        self.thinking: asyncio.TimerHandle | None = None
        self.pinging: asyncio.TimerHandle | None = None
        self.chatting: asyncio.TimerHandle | None = None
        #: this seat's chat messages not back yet: text → when sent
        self.said: dict[str, float] = {}
        self.stopping: asyncio.TimerHandle | None = None

    # -- the transport ----------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # (uvloop's transports are not asyncio.Transport subclasses, so no isinstance here)
        self.transport = cast(asyncio.Transport, transport)
        self.transport.write(
            b"GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
            % (self.target.encode(), self.host.encode(), self.key)
        )

    def connection_lost(self, exc: Exception | None) -> None:
        for timer in (self.thinking, self.pinging, self.chatting, self.stopping):
            if timer is not None:
                timer.cancel()
        if not self.opened.done():
            self.opened.set_exception(WsError(f"closed during the upgrade: {exc}"))
        if not self.done.done():
            self.done.set_result(self.finished)
        if not self.closed.done():
            self.closed.set_result(None)

    def fail(self, why: str) -> None:
        if not self.opened.done():
            self.opened.set_exception(WsError(why))
        self.stats.errors += 1
        if self.transport is not None:
            self.transport.abort()

    def _writable(self) -> bool:
        return self.transport is not None and not self.closing and not self.transport.is_closing()

    def send(self, obj: dict[str, Any]) -> None:
        if self._writable():
            assert self.transport is not None
            self.transport.write(ws_frame(1, orjson.dumps(obj)))

    def close(self) -> None:
        """Start the closing handshake (1000, normal closure), if the socket is still open."""
        if self._writable():
            assert self.transport is not None
            self.closing = True
            self.transport.write(ws_frame(8, (1000).to_bytes(2, "big")))

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        transport = self.transport
        assert transport is not None
        buf = self.buf
        buf += data
        if not self.upgraded:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                if len(buf) > 16384:
                    self.fail("no end to the upgrade response")
                return
            head = bytes(buf[:end]).decode("latin-1").split("\r\n")
            del buf[: end + 4]
            accept = base64.b64encode(hashlib.sha1(self.key + _WS_GUID).digest()).decode()
            fields = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in head)}
            if head[0].split(" ")[1:2] != ["101"] or fields.get("sec-websocket-accept") != accept:
                self.fail(f"upgrade refused: {head[0]}")
                return
            self.upgraded = True
            self.opened.set_result(None)
            if self.ping_every > 0:
                self._schedule_ping()
            if CHAT_EVERY > 0:
                self._schedule_chat()
            self.stopping = self.loop.call_at(self.stop, self._end, True)
        pos = 0
        size = len(buf)
        while size - pos >= 2:
            b0 = buf[pos]
            b1 = buf[pos + 1]
            if b1 & 0x80:
                self.fail("a masked frame from the server")
                return
            length = b1 & 0x7F
            start = pos + 2
            if length == 126:
                if size - pos < 4:
                    break
                length = int.from_bytes(buf[pos + 2 : pos + 4], "big")
                start = pos + 4
            elif length == 127:
                if size - pos < 10:
                    break
                length = int.from_bytes(buf[pos + 2 : pos + 10], "big")
                start = pos + 10
            end = start + length
            if end > size:
                break
            payload = bytes(buf[start:end])
            pos = end
            opcode = b0 & 0x0F
            if opcode >= 8:  # control frames
                if opcode == 9:  # ping: pong with the same payload
                    if self._writable():
                        transport.write(ws_frame(10, payload))
                elif opcode == 8:  # close: answer (once) and close the socket
                    if self._writable():
                        self.closing = True
                        transport.write(ws_frame(8, payload[:2]))
                    transport.close()
                    return
                continue
            if not b0 & 0x80:  # a fragment: the message is complete with the final one
                self.fragments.append(payload)
                continue
            if self.fragments:
                self.fragments.append(payload)
                payload = b"".join(self.fragments)
                self.fragments = []
            self.message(payload, now)
            if transport.is_closing():
                return
        del buf[:pos]

    # -- the player -------------------------------------------------------------------------------

    def message(self, raw: bytes, now: float) -> None:
        msg = orjson.loads(raw)
        kind = msg["type"]
        stats = self.stats
        if kind == "pong":
            if isinstance(msg.get("t"), float):
                stats.ping.append(now - msg["t"])
            return
        if kind == "error":
            stats.errors += 1
            return
        if kind == "chat":
            stats.chat_messages += 1
            sent_at = self.said.pop(msg.get("text"), None)
            if sent_at is not None:
                stats.chat.append(now - sent_at)
            return
        if kind != "state":
            return
        stats.states += 1
        stats.state_bytes += len(raw)
        patch = msg.get("patch")
        if patch is None:
            self.your_turn = msg.get("your_turn") or False
            self.legal = msg.get("legal")
        else:
            stats.deltas += 1
            if msg.get("base") != self.version:  # a delta out of step (never expected)
                stats.errors += 1
                self.send({"type": "sync"})
                return
            for op in patch:
                path = op[0]
                if len(path) == 1:
                    if path[0] == "your_turn":
                        self.your_turn = (op[1] if len(op) > 1 else None) or False
                    elif path[0] == "legal":
                        self.legal = op[1] if len(op) > 1 else None
        version = msg["version"]
        self.version = version
        self.status = msg["status"]
        sent = self.pending.pop(msg.get("id", -1), None)
        if sent is not None:
            stats.rtt.append(now - sent[0])
            stats.acked.append((self.code, sent[1], sent[2]))
        code = self.code
        before = stats.versions.get(code, 0)
        if version > before:
            if stats.killed_at is not None:
                stats.resumed.setdefault(code, time.monotonic() - stats.killed_at)
            stats.versions[code] = version
        if self.status == "finished":
            if not self.finished:
                self.finished = True
                stats.finished += 1
            self._end(True)
            return
        if time.monotonic() > self.stop:
            self._end(True)
            return
        if self.your_turn and self.thinking is None:
            if self.think:
                delay = self.think * (0.5 + self.rng.random())
                self.thinking = self.loop.call_later(delay, self._act)
            else:
                self._act()

    def _act(self) -> None:
        """After thinking: act on what the table looks like now (the newest state)."""
        self.thinking = None
        if self.done.done() or not self.your_turn or not self.legal:
            return
        choice = self.rng.choice(self.legal)["action"]
        self.next_id += 1
        self.pending[self.next_id] = (time.perf_counter(), self.version, choice)
        self.send({"type": "action", "version": self.version, "action": choice, "id": self.next_id})

    def _schedule_ping(self) -> None:
        delay = self.ping_every * (0.5 + self.rng.random())
        self.pinging = self.loop.call_later(delay, self._ping)

    def _ping(self) -> None:
        self.send({"type": "ping", "t": time.perf_counter()})
        self._schedule_ping()

    def _schedule_chat(self) -> None:
        delay = CHAT_EVERY * (0.5 + self.rng.random())
        self.chatting = self.loop.call_later(delay, self._chat)

    def _chat(self) -> None:
        text = f"gg {self.rng.random():.9f}"  # unique: its echo is found by its text
        self.said[text] = time.perf_counter()
        self.send({"type": "chat", "text": text})
        self._schedule_chat()

    def _end(self, result: bool) -> None:
        if not self.done.done():
            self.done.set_result(result)


async def _lean_session(
    url: str,
    stats: Stats,
    think: float,
    stop: float,
    rng: random.Random,
    code: str,
    ping_every: float,
) -> bool:
    """One connection played by a :class:`LeanSeat`; True when the match (or the run) is over."""
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    target = f"{parts.path}?{parts.query}" if parts.query else parts.path
    seat = LeanSeat(parts.netloc, target, stats, think, stop, rng, code, ping_every)
    loop = asyncio.get_running_loop()
    transport, _ = await asyncio.wait_for(loop.create_connection(lambda: seat, host, port), 30)
    try:
        await asyncio.wait_for(asyncio.shield(seat.opened), 30)
        return await seat.done
    finally:
        seat.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(seat.closed), 5)
        transport.abort()


async def table_loop(
    https: list[httpx.AsyncClient],
    ws_bases: list[str],
    args: argparse.Namespace,
    stats: Stats,
    k: int,
    creating: asyncio.Semaphore | None = None,
) -> None:
    """Table after table, created on process ``k % N``; its people connect to process
    ``(k + cross) % N`` (then to the others if that one dies).  ``creating`` bounds the
    creations under way at once (a queue of a thousand requests in httpx's pool costs the
    client time quadratic in its length)."""
    creating = creating or asyncio.Semaphore(1)
    rng = random.Random(k)
    stop = getattr(args, "stop_at", None) or time.monotonic() + args.duration
    n = len(https)
    http = https[k % n]
    order = [ws_bases[(k + args.cross + i) % n] for i in range(n)]
    while time.monotonic() < stop:
        bot = args.strong_bot if k >= args.tables else args.bot
        seats = [{"kind": "human"}] * args.humans + [{"kind": "bot", "bot": bot}] * (
            args.players - args.humans
        )
        body = {
            "game": args.game,
            "players": args.players,
            "seats": seats,
            "options": json.loads(args.options),
        }
        async with creating:
            try:
                r = await http.post("/api/tables", json=body)
            except httpx.TransportError as exc:  # a kept-alive connection the server had closed
                stats.refused.append(repr(exc))
                continue
            if r.status_code != 503:
                r.raise_for_status()
                t = r.json()
                tokens = await seat_tokens(http, t)
        if r.status_code == 503:  # the journal was busy: a person would try again
            stats.refused.append(r.text[:300])
            await asyncio.sleep(1 + rng.random())
            continue
        code = t["code"]
        deltas = "&deltas=1" if args.deltas else ""
        tasks = [
            seat_client(
                [f"{b}/ws/{code}?seat={token}{deltas}" for b in order],
                stats,
                args.think,
                stop,
                rng,
                code,
                args.ping_every,
                args.ws_client == "lean",
            )
            for token in tokens
        ]
        if not tasks:  # all bots: watch
            tasks = [
                seat_client(
                    [f"{b}/ws/{code}?{deltas[1:]}" for b in order],
                    stats,
                    0,
                    stop,
                    rng,
                    code,
                    args.ping_every,
                    args.ws_client == "lean",
                )
            ]
        await asyncio.gather(*tasks)


async def seat_tokens(http: httpx.AsyncClient, table: dict[str, Any]) -> list[str]:
    """The tokens of the table's human seats: given with each seat, or (when the lobby hands out
    one-time invites instead) claimed with each invite."""
    tokens: list[str] = []
    you = table.get("you")
    if isinstance(you, dict) and you.get("token"):
        tokens.append(you["token"])
    for seat in table["seats"]:
        if seat.get("kind") != "human":
            continue
        if seat.get("token"):
            tokens.append(seat["token"])
        elif seat.get("invite"):
            r = await http.post(
                f"/api/tables/{table['code']}/claim", json={"invite": seat["invite"]}
            )
            r.raise_for_status()
            tokens.append(r.json()["token"])
    return list(dict.fromkeys(tokens))


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(p / 100 * len(s)))]


SERVING = re.compile(r"serving at http://[^\s/]+:(\d+)/")


def start_server(
    args: argparse.Namespace, folder: Path, log: IO[bytes], i: int, db: str
) -> subprocess.Popen[bytes]:
    """The ``i``-th ``parlour serve`` with its journal ``db`` and its output in ``log``."""
    root = Path(args.server_from).resolve() if args.server_from else ROOT
    python = str(root / ".venv" / "bin" / "python") if args.server_from else sys.executable
    cmd = [
        python,
        "-c",
        "from parlour.cli import main; main()",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(args.port + i if args.port else 0),
        "--db",
        db,
        "--bot-delay",
        str(args.bot_delay),
        "--no-rate-limit",  # a hundred tables from one address is the bench, not an attack
    ]
    if args.redis:
        cmd += ["--redis", args.redis, "--lease-ttl", str(args.lease_ttl)]
    if args.bot_processes:
        cmd += ["--bot-processes", str(args.bot_processes)]
    if args.cpu is not None and args.cpu >= 0 and shutil.which("taskset"):
        cpu = (args.cpu + i) % (os.cpu_count() or 1)
        cmd = ["taskset", "-c", str(cpu), *cmd]
    # anything the server would keep in the user's folders stays in the bench's own
    env = {
        **os.environ,
        "XDG_DATA_HOME": str(folder / "data"),
        "XDG_STATE_HOME": str(folder / "state"),
        "XDG_CACHE_HOME": str(folder / "cache"),
        # the URL line is read below (SERVING) in English, whatever the machine's LANG
        "LANGUAGE": "en",
    }
    return subprocess.Popen(cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)


async def wait_serving(proc: subprocess.Popen[bytes], log_path: Path, timeout: float) -> int:
    """The port the server says it is serving on, once it says so."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = SERVING.search(log_path.read_text(errors="replace"))
        if found:
            return int(found.group(1))
        if proc.poll() is not None:
            break
        await asyncio.sleep(0.05)
    tail = "\n".join(log_path.read_text(errors="replace").splitlines()[-20:])
    state = f"exited with {proc.returncode}" if proc.poll() is not None else "did not start"
    raise SystemExit(f"bench: the server {state}; its log ends with:\n{tail}")


@contextlib.contextmanager
def journal_url(args: argparse.Namespace, folder: Path) -> Iterator[str]:
    """SQLite in the bench's folder, or a schema of its own in the given PostgreSQL database
    (dropped afterwards)."""
    if not args.db:
        yield f"sqlite:///{folder / 'bench.db'}"
        return
    import psycopg

    schema = f"parlour_bench_{os.getpid()}_{random.randrange(1 << 30)}"
    with psycopg.connect(args.db, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in args.db else "?"
    # the bench's own backends are found by their application_name (their CPU is reported)
    args.db_app = schema
    try:
        yield f"{args.db}{sep}options=-csearch_path%3D{schema}&application_name={schema}"
    finally:
        with psycopg.connect(args.db, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


async def run(args: argparse.Namespace) -> dict[str, Any]:
    global CHAT_EVERY
    CHAT_EVERY = args.chat_every
    if args.processes > 1 and not (args.db and args.redis):
        raise SystemExit("bench: --processes above 1 needs --db postgresql://… and --redis")
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as tmp:
        folder = Path(tmp)
        with journal_url(args, folder) as db:
            logs = [folder / f"server{i}.log" for i in range(args.processes)]
            files = [path.open("wb") for path in logs]
            procs = [start_server(args, folder, f, i, db) for i, f in enumerate(files)]
            try:
                ports = [
                    await wait_serving(proc, path, timeout=120)
                    for proc, path in zip(procs, logs, strict=True)
                ]
                if args.port and ports[0] != args.port:
                    raise SystemExit(f"bench: asked for port {args.port}, server is on {ports[0]}")
                stats, wall, cpu, client_cpu, side = await drive(args, ports, procs)
                lost = lost_actions(db, stats) if args.db else None
            finally:
                for proc in procs:
                    if proc.poll() is None:
                        proc.send_signal(signal.SIGTERM)
                for proc in procs:
                    try:
                        proc.wait(timeout=20)
                    except subprocess.TimeoutExpired:
                        proc.kill()
                        proc.wait()
                for f in files:
                    f.close()
    return report(args, ports, stats, wall, cpu, client_cpu, lost, side)


def lost_actions(db: str, stats: Stats) -> int:
    """Actions a client saw acknowledged that the journal does not have."""
    import psycopg

    with psycopg.connect(db, autocommit=True) as conn:
        rows = conn.execute("SELECT code, idx, action FROM parlour_actions").fetchall()
    journaled = {(r[0], int(r[1])): json.loads(r[2]) for r in rows}
    return sum(journaled.get((code, v)) != action for code, v, action in stats.acked)


async def drive(
    args: argparse.Namespace, ports: list[int], procs: list[subprocess.Popen[bytes]]
) -> tuple[Stats, float, float, tuple[float, float], dict[str, float]]:
    """Play the tables (in this process, or spread over ``--clients`` processes); the stats,
    the wall time, the servers' CPU seconds, the clients' (all, and in the kernel) and the
    database's and Redis's (:func:`side_cpu`)."""
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    async with httpx.AsyncClient(timeout=60) as http:
        for b in bases:
            (await http.get(f"{b}/api/info")).raise_for_status()  # our servers, answering
    if args.clients <= 1:
        stats = Stats()
        killer = None
        if args.kill_after is not None:
            killer = asyncio.create_task(_kill(procs[0], args.kill_after, stats))
        playing = asyncio.create_task(play_tables(args, bases, stats, range(args.tables), Stats()))
        await asyncio.sleep(args.warmup)  # then count from here
        stats.warmed()
        side0 = side_cpu(args)
        t0 = time.perf_counter()
        cpu0 = sum(_cpu(p.pid) for p in procs)
        own0 = _own_cpu()
        await playing
        if killer is not None:
            killer.cancel()
        client_cpu = _since(own0)
        stats = stats.counted()
    else:
        # each client process plays every N-th table; the stats come back when it is done.
        # They all start at one moment (the same clock: CLOCK_MONOTONIC is system-wide), once
        # they had time to start, and stop together
        loop = asyncio.get_running_loop()
        start_at = time.monotonic() + args.client_start
        args.start_at, args.stop_at = start_at, start_at + args.duration
        with concurrent.futures.ProcessPoolExecutor(
            args.clients, mp_context=multiprocessing.get_context("spawn")
        ) as pool:
            running = [
                loop.run_in_executor(pool, _client_process, args, bases, i)
                for i in range(args.clients)
            ]
            await asyncio.sleep(max(0.0, start_at + args.warmup - time.monotonic()))
            side0 = side_cpu(args)
            t0 = time.perf_counter()
            cpu0 = sum(_cpu(p.pid) for p in procs)
            parts = await asyncio.gather(*running)
        stats = Stats()
        client_cpu = (0.0, 0.0)
        for part, part_cpu in parts:
            stats.merge(part)
            client_cpu = (client_cpu[0] + part_cpu[0], client_cpu[1] + part_cpu[1])
    wall = time.perf_counter() - t0
    cpu = sum(_cpu(p.pid) for p in procs) - cpu0
    side = side_cpu(args)
    for key, pids in side0.items():
        side[key] = {pid: t - pids.get(pid, 0.0) for pid, t in side.get(key, {}).items()}
    return stats, wall, cpu, client_cpu, {k: sum(v.values()) for k, v in side.items()}


def side_cpu(args: argparse.Namespace) -> dict[str, dict[int, float]]:
    """CPU seconds so far of what else serves the run on this machine, by process:
    ``db_backends`` (the PostgreSQL backends of the bench's own connections, found by their
    application_name), ``postgres_all`` (every process named postgres: also its WAL writer and
    checkpointer, and anyone else's backends) and ``redis`` (the server of ``--redis``, which
    others may use too).  Empty for SQLite and without Redis."""
    out: dict[str, dict[int, float]] = {}
    app = getattr(args, "db_app", None)
    if args.db and app:
        import psycopg

        with contextlib.suppress(psycopg.Error), psycopg.connect(args.db, autocommit=True) as c:
            rows = c.execute(
                "SELECT pid FROM pg_stat_activity WHERE application_name = %s", (app,)
            ).fetchall()
            out["db_backends"] = {int(r[0]): _cpu(int(r[0])) for r in rows}
        out["postgres_all"] = {
            pid: _cpu(pid)
            for pid in _pids_named("postgres")
            if pid not in out.get("db_backends", {})
        }
        out["postgres_all"].update(out.get("db_backends", {}))
    if args.redis:
        out["redis"] = {pid: _cpu(pid) for pid in _pids_named("redis-server")}
    return out


def _pids_named(name: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if (entry / "comm").read_text().strip() == name:
                    found.append(int(entry.name))
    return found


async def play_tables(
    args: argparse.Namespace,
    bases: list[str],
    stats: Stats,
    tables: Iterable[int],
    busy: Stats | None = None,
) -> None:
    """Play ``tables``; with ``busy``, also the ``--strong-tables`` (numbered after the
    ``--tables``), whose round trips go to ``busy``, not ``stats``."""
    https = [httpx.AsyncClient(base_url=b, timeout=60) for b in bases]
    try:
        ws_bases = [b.replace("http", "ws") for b in bases]
        extra = range(args.tables, args.tables + args.strong_tables) if busy is not None else ()
        creating = asyncio.Semaphore(16)
        await asyncio.gather(
            *(table_loop(https, ws_bases, args, stats, k, creating) for k in tables),
            *(
                table_loop(https, ws_bases, args, busy, k, creating)
                for k in extra
                if busy is not None
            ),
        )
    finally:
        for http in https:
            await http.aclose()


def _client_process(
    args: argparse.Namespace, bases: list[str], i: int
) -> tuple[Stats, tuple[float, float]]:
    """One of ``--clients`` processes: tables i, i + N, i + 2N, …; its stats and CPU seconds."""
    global CHAT_EVERY
    CHAT_EVERY = args.chat_every
    stats = Stats()
    time.sleep(max(0.0, args.start_at - time.monotonic()))
    if time.monotonic() > args.start_at + 1:
        late = time.monotonic() - args.start_at
        print(f"bench: client {i} started {late:.1f} s late; raise --client-start", file=sys.stderr)
    run_loop(args, _client_run(args, bases, stats, i))
    return stats.counted(), _since(stats.own0)


async def _client_run(args: argparse.Namespace, bases: list[str], stats: Stats, i: int) -> None:
    # the --strong-tables are played by client process 0
    playing = asyncio.create_task(
        play_tables(
            args, bases, stats, range(i, args.tables, args.clients), Stats() if i == 0 else None
        )
    )
    await asyncio.sleep(max(0.0, args.start_at + args.warmup - time.monotonic()))
    stats.warmed()
    stats.own0 = _own_cpu()
    await playing


def run_loop(args: argparse.Namespace, main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` on the event loop ``--loop`` names (uvloop: what ``parlour serve`` runs on)."""
    if args.loop == "uvloop":
        import uvloop

        return uvloop.run(main)
    return asyncio.run(main)


def _own_cpu() -> tuple[float, float]:
    """This process's CPU seconds: all, and in the kernel (system calls: the sockets)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime, usage.ru_stime


def _since(then: tuple[float, float]) -> tuple[float, float]:
    now = _own_cpu()
    return now[0] - then[0], now[1] - then[1]


async def _kill(proc: subprocess.Popen[bytes], after: float, stats: Stats) -> None:
    await asyncio.sleep(after)
    stats.killed_at = time.monotonic()
    stats.versions.clear()  # from now on, a table's first new state says it moved on
    stats.warm_actions = 0  # (so the actions counted are those after the kill)
    proc.send_signal(signal.SIGKILL)


def report(
    args: argparse.Namespace,
    ports: list[int],
    stats: Stats,
    wall: float,
    cpu: float,
    client_times: tuple[float, float],
    lost: int | None,
    side: dict[str, float] | None = None,
) -> dict[str, Any]:
    client_cpu, client_sys = client_times
    actions = sum(stats.versions.values()) - stats.warm_actions
    ms = [x * 1000 for x in stats.rtt]
    out = {
        "tables": args.tables,
        "processes": args.processes,
        "cross": args.cross,
        "players": args.players,
        "humans_per_table": args.humans,
        "game": args.game,
        "bot": args.bot,
        "strong_tables": args.strong_tables,
        "strong_bot": args.strong_bot if args.strong_tables else None,
        "bot_processes": args.bot_processes,
        "server_pinned_cpu": args.cpu if args.cpu is not None and args.cpu >= 0 else None,
        "bot_delay_s": args.bot_delay,
        "think_s": args.think,
        "ports": ports,
        "warmup_s": args.warmup,
        "wall_s": round(wall, 1),
        "server_cpu_s": round(cpu, 1),
        "server_cpu_share": round(cpu / wall, 2) if wall else None,
        "actions": actions,
        "actions_per_s": round(actions / wall, 1),
        # machine-load-independent cost: server CPU time per accepted action (all its work:
        # HTTP, WebSocket frames, engine, bots, journal, JSON for every connection)
        "server_cpu_ms_per_action": round(1000 * cpu / actions, 2) if actions else None,
        # the bench's own clients (all --clients processes): near 1.0 per process, they and
        # not the server are what limits the run
        "clients": args.clients,
        "ws_client": args.ws_client,
        "client_loop": args.loop,
        "client_cpu_s": round(client_cpu, 1),
        "client_cpu_sys_s": round(client_sys, 1),
        "client_cpu_share": round(client_cpu / wall, 2) if wall else None,
        # the bench's own cost per accepted action (each one is a state to every player, plus
        # the pings): what decides how many tables the clients can drive beside the servers
        "client_cpu_ms_per_action": round(1000 * client_cpu / actions, 3) if actions else None,
        # PostgreSQL and Redis run on this machine too: their CPU per action (see side_cpu)
        **{
            f"{key}_cpu_ms_per_action": round(1000 * t / actions, 3) if actions else None
            for key, t in (side or {}).items()
        },
        "matches_finished": stats.finished,
        "deltas": args.deltas,
        "state_messages": stats.states,
        "state_bytes_mean": round(stats.state_bytes / stats.states) if stats.states else None,
        "state_deltas": stats.deltas,
        "round_trips": len(ms),
        "errors": stats.errors,
        "reconnects": stats.reconnects,
        "creations_refused": len(stats.refused),
        "refusal_example": stats.refused[0] if stats.refused else None,
        "rtt_ms": _summary(ms),
        "ping_ms": _summary([x * 1000 for x in stats.ping]),
        "chat_ms": _summary([x * 1000 for x in stats.chat]),
        "chat_messages": stats.chat_messages,
        "load_average": os.getloadavg(),
        "cpus": os.cpu_count(),
    }
    if lost is not None:
        out["acknowledged_actions_lost"] = lost
    if args.kill_after is not None:
        gaps = sorted(stats.resumed.values())
        out["failover_s"] = {
            "tables_resumed": len(gaps),
            "p50": round(pct(gaps, 50), 2),
            "max": round(max(gaps), 2) if gaps else None,
        }
    return out


def _summary(ms: list[float]) -> dict[str, Any]:
    return {
        "n": len(ms),
        "p50": round(pct(ms, 50), 1),
        "p90": round(pct(ms, 90), 1),
        "p99": round(pct(ms, 99), 1),
        "max": round(max(ms), 1) if ms else None,
    }


def _cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        # the server may run under taskset: count its children too
        total = int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
        return total / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--humans", type=int, default=1, help="WebSocket clients per table")
    p.add_argument("--game", default="samba")
    p.add_argument("--options", default='{"max_hands": 1}', help="rules options as JSON")
    p.add_argument("--bot", default="random", help="bot level of the other seats")
    p.add_argument("--bot-delay", type=float, default=0.6)
    p.add_argument("--think", type=float, default=0.6, help="mean seconds a client thinks")
    p.add_argument("--duration", type=float, default=30.0, help="seconds the tables play")
    p.add_argument(
        "--warmup",
        type=float,
        default=0.0,
        help="seconds at the start not counted (the first tables being created); within --duration",
    )
    p.add_argument(
        "--cpu",
        type=int,
        default=0,
        help="pin the server to this CPU (taskset; -1: not pinned, its bot processes free to use "
        "every core)",
    )
    p.add_argument("--port", type=int, default=0, help="port the server listens on (0: a free one)")
    p.add_argument(
        "--ping-every", type=float, default=1.0, help="mean seconds between pings (0: none)"
    )
    p.add_argument(
        "--chat-every",
        type=float,
        default=0.0,
        help="mean seconds between two chat messages of one seat (0: none; the server takes 5 in "
        "10 s a seat, so 4 or more stays clear of its limit; the lean client only)",
    )
    p.add_argument(
        "--deltas",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="clients ask for state deltas, as the browser does (a server without them ignores it)",
    )
    p.add_argument(
        "--ws-client",
        choices=("lean", "websockets"),
        default="lean",
        help="the players' WebSocket client: lean (RFC 6455 on an asyncio.Protocol, what a "
        "player needs parsed, 1/2 to 1/3 of the CPU per action) or websockets (its asyncio "
        "client, each state made whole, as the bench did before)",
    )
    p.add_argument(
        "--loop",
        choices=("uvloop", "asyncio"),
        default="uvloop",
        help="the clients' event loop (uvloop, as the server's; asyncio: the standard one)",
    )
    p.add_argument("--processes", type=int, default=1, help="server processes (--redis, --db)")
    p.add_argument("--db", default=None, help="postgresql://… (default: SQLite in a temp folder)")
    p.add_argument("--redis", default=None, help="redis://… (several processes)")
    p.add_argument("--lease-ttl", type=float, default=3.0)
    p.add_argument("--bot-processes", type=int, default=0, help="bot worker processes per server")
    p.add_argument(
        "--strong-tables",
        type=int,
        default=0,
        help="extra tables whose bots are --strong-bot; the round trips reported are the other "
        "tables' (does a long search at one table delay another table's round trip?)",
    )
    p.add_argument("--strong-bot", default="strong:1", help="bot level of the --strong-tables")
    p.add_argument(
        "--cross", type=int, default=0, help="people connect to process (table + cross) %% N"
    )
    p.add_argument(
        "--kill-after", type=float, default=None, help="SIGKILL process 0 after this many seconds"
    )
    p.add_argument(
        "--clients",
        type=int,
        default=1,
        help="client processes playing the tables (several for 1,000+ tables, so the bench's "
        "own clients are not what limits it)",
    )
    p.add_argument(
        "--client-start",
        type=float,
        default=15.0,
        help="seconds the client processes get to start before they all begin",
    )
    p.add_argument(
        "--server-from",
        default=None,
        help="run the server of another checkout (its .venv): before/after runs with the same "
        "clients",
    )
    args = p.parse_args()
    if not 0 <= args.warmup < args.duration:
        p.error("--warmup must be at least 0 and less than --duration")
    if args.clients > 1 and args.kill_after is not None:
        p.error("--kill-after runs with one client process (--clients 1)")
    print(json.dumps(run_loop(args, run(args)), indent=1))


if __name__ == "__main__":
    main()
