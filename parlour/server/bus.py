"""The message bus between server processes: Redis pub/sub (``redis.asyncio``).

Each process subscribes to one channel of its own, ``parlour:node:<node>``.  A frame is text:
``<kind> <id> <body>``; what the kinds mean is the business of :mod:`parlour.server.cluster`.

Why Redis pub/sub rather than PostgreSQL ``LISTEN/NOTIFY``: a move at a table whose players sit on
three processes is one frame per remote connection, at up to thousands of frames a second; NOTIFY
goes through the database's WAL-ordered commit queue (a global lock per notifying commit), caps a
payload at 8,000 bytes (a full Samba state is larger), and would add that load to the database
that already journals every move.  Redis delivers a frame to a subscriber in well under a
millisecond with no size cap, and ``PUBLISH`` answers how many subscribers got it, which tells at
once that a process is gone.  Nothing that must survive a crash goes over the bus: the journal
and the leases stay in PostgreSQL, so losing Redis loses no move; it only cuts the remote
connections until it is back (their browsers reconnect by themselves).

Frames to one channel arrive in the order they were sent: one task publishes them all, in
batches of one pipeline on one connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("parlour.server")

PREFIX = "parlour:node:"


def channel(node: str) -> str:
    return PREFIX + node


Handler = Callable[[str, str, str], Awaitable[None] | None]


class Bus:
    """Publish frames to other processes; hand each frame of ours to ``handler(kind, id, body)``.

    ``on_down()`` is called when the connection to Redis breaks (frames may have been lost: the
    cluster closes what went through the bus); ``on_undelivered(node, kind, id)`` when a frame
    reached no subscriber (that process is gone or cut off).  ``healthy`` says whether both the
    subscription and the last publish worked."""

    BATCH = 512
    #: seconds between checks that the subscription's connection still answers
    PING_EVERY = 2.0

    def __init__(
        self,
        url: str,
        node: str,
        handler: Handler,
        *,
        on_down: Callable[[], None] | None = None,
        on_undelivered: Callable[[str, str, str], None] | None = None,
        timeout: float = 2.0,
    ) -> None:
        self.url = url
        self.node = node
        self.handler = handler
        self.on_down = on_down
        self.on_undelivered = on_undelivered
        self.timeout = timeout
        self.healthy = False
        self.frames_in = 0
        self.frames_out = 0
        self._queue: asyncio.Queue[tuple[str, str, str, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._client: Any = None
        self._subscribed = asyncio.Event()
        self._stopping = False

    def _new_client(self) -> Any:
        import redis.asyncio as aioredis

        return aioredis.Redis.from_url(
            self.url,
            socket_timeout=self.timeout,
            socket_connect_timeout=self.timeout,
            health_check_interval=5,
            decode_responses=True,
        )

    async def start(self, wait: float = 5.0) -> None:
        """Connect (raises if Redis cannot be reached within ``wait`` seconds) and serve."""
        import redis.asyncio as aioredis

        self._client = self._new_client()
        try:
            await asyncio.wait_for(self._client.ping(), wait)
        except (aioredis.RedisError, OSError, TimeoutError) as exc:
            await self._client.aclose()
            raise ConnectionError(f"cannot reach Redis at {self.url}: {exc}") from exc
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._publish())]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._subscribed.wait(), wait)

    async def stop(self) -> None:
        """Stop listening and publishing, within a bounded time: ``asyncio.wait`` (not
        ``wait_for``, which would wait for a cancellation the Redis client may swallow)."""
        self._stopping = True
        for t in self._tasks:
            t.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=2.0)
        if self._client is not None:
            closing = asyncio.ensure_future(self._client.aclose())
            await asyncio.wait({closing}, timeout=1.0)

    def send(self, node: str, kind: str, ident: str, body: str = "") -> None:
        """Queue a frame for ``node`` (sent in order, in the background)."""
        self._queue.put_nowait((node, kind, ident, body))

    async def alive(self, node: str) -> bool:
        """Whether ``node`` is subscribed (its process runs and reaches Redis)."""
        if self._client is None:
            return False
        try:
            counts = await self._client.pubsub_numsub(channel(node))
        except Exception:
            return False
        return bool(counts and int(counts[0][1]) > 0)

    def _down(self) -> None:
        was = self.healthy
        self.healthy = False
        if was and self.on_down is not None:
            self.on_down()

    async def _listen(self) -> None:
        delay = 0.2
        while not self._stopping:
            pubsub = self._client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(channel(self.node))
                self.healthy = True
                self._subscribed.set()
                delay = 0.2
                checked = time.monotonic()
                while not self._stopping:
                    msg = await pubsub.get_message(timeout=1.0)
                    now = time.monotonic()
                    if now - checked >= self.PING_EVERY:
                        # make sure the connection still answers (a quiet channel would not
                        # tell); its reply comes back as a message of its own, ignored below
                        checked = now
                        await asyncio.wait_for(pubsub.ping(), self.timeout)
                    if msg is None or msg.get("type") != "message":
                        continue
                    data = msg["data"]
                    kind, _, rest = data.partition(" ")
                    ident, _, body = rest.partition(" ")
                    self.frames_in += 1
                    try:
                        result = self.handler(kind, ident, body)
                        if result is not None:
                            await result
                    except Exception:
                        log.exception("bus: a %s frame failed", kind)
            except asyncio.CancelledError:
                closing = asyncio.ensure_future(pubsub.aclose())
                await asyncio.wait({closing}, timeout=1.0)
                raise
            except Exception as exc:
                log.warning("bus: lost Redis (%s); reconnecting", exc)
                self._subscribed.clear()
                self._down()
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(pubsub.aclose(), 1.0)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)

    async def _publish(self) -> None:
        while not self._stopping:
            first = await self._queue.get()
            batch = [first]
            while len(batch) < self.BATCH and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            if not self._subscribed.is_set():
                # cut off from Redis: what was queued cannot arrive; say so, drop it
                self._drop(batch)
                continue
            try:
                pipe = self._client.pipeline(transaction=False)
                for node, kind, ident, body in batch:
                    pipe.publish(channel(node), f"{kind} {ident} {body}")
                counts = await asyncio.wait_for(pipe.execute(), self.timeout)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("bus: cannot publish (%s)", exc)
                self._down()
                self._drop(batch)
                continue
            self.frames_out += len(batch)
            if self.on_undelivered is not None:
                for (node, kind, ident, _), n in zip(batch, counts, strict=False):
                    if not n:
                        self.on_undelivered(node, kind, ident)

    def _drop(self, batch: list[tuple[str, str, str, str]]) -> None:
        if self.on_undelivered is not None:
            for node, kind, ident, _ in batch:
                self.on_undelivered(node, kind, ident)
