"""Several server processes (on one machine or many) serving the same tables.

Every process runs the whole app; they share the PostgreSQL journal and a Redis server.

- **Ownership.**  A table is played by one process, its owner, which holds the table's lease
  (:mod:`parlour.server.leases`): only the owner replays the table, runs its bots and writes its
  journal, and the journal refuses the writes of a process whose lease is gone.
- **Any door.**  A player may reach any process (a load balancer picks one).  A process that does
  not own the table serves the connection *through* the owner: the player's messages go to the
  owner over the bus (:mod:`parlour.server.bus`, Redis pub/sub) and the owner's messages for that
  player come back the same way, each one the very text the owner would have sent on its own
  socket.  The player sees no difference.  Lobby calls about one table (claim, join, start, …)
  are run by the owner the same way; the table list is read from the journal.
- **Failover.**  The owner renews its leases every ``ttl / 3`` seconds.  When it dies, the
  processes that carried its players see it gone from the bus (``PUBSUB NUMSUB``) within half a
  second and close those sockets; the browsers reconnect by themselves, and the process they
  reach takes the lease once it expired (``ttl`` seconds after the last renewal), replays the
  table from the journal and serves it.  Tables in play nobody asks for are adopted the same way
  by a background loop, so their bots play on.  Every move the dead owner had acknowledged was
  journaled first, so none is lost.
- **Partitions.**  A process cut off from Redis closes the connections it carried for other
  processes (they reconnect, and are served again once Redis is back); its own tables go on for
  the players connected to it.  A process cut off from PostgreSQL cannot renew its leases: after
  ``ttl`` it drops its tables, and whoever reaches the database takes them over.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import json
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from parlour.core.said import N_
from parlour.server.bus import Bus
from parlour.server.cluster_tunnel import MOVED, RemoteTransport, Tunnel
from parlour.server.errors import LobbyError, said_from_json, said_to_json
from parlour.server.guard import SharedRateLimiter
from parlour.server.leases import LeasedStorage
from parlour.server.session import close_reason, refuse
from parlour.server.storage import StorageError
from parlour.server.summary import summary_record
from parlour.server.table import Table

if TYPE_CHECKING:
    from parlour.server.lobby import TableServer

log = logging.getLogger("parlour.server")
T = TypeVar("T")


@dataclass
class ClusterConfig:
    """How this process joins the others."""

    #: Redis URL (``redis://host:6379/0``)
    redis: str
    #: seconds a lease lasts without renewal (a dead owner's tables wait this long)
    lease_ttl: float = 3.0
    #: this process's name among the others (default: random)
    node: str = ""
    #: tables in play without an owner adopted per look, and how often to look (seconds)
    adopt_batch: int = 16
    adopt_interval: float = 1.0
    #: how often a process checks that the owners it forwards to are still there (seconds)
    watch_interval: float = 0.5
    #: seconds a forwarded lobby call waits for the owner's answer
    call_timeout: float = 10.0
    #: messages waiting for one forwarded socket before it is closed as too slow
    tunnel_queue: int = 256


def open_leased_storage(url: str | None, config: ClusterConfig) -> LeasedStorage:
    if not url or not url.startswith(("postgresql://", "postgres://")):
        raise StorageError(
            "several server processes need a PostgreSQL journal (--db postgresql://…); "
            "SQLite serves one process"
        )
    if not config.node:
        config.node = secrets.token_hex(6)
    return LeasedStorage(url, config.node, ttl=config.lease_ttl)


SessionRunner = Callable[..., Awaitable[None]]
TableOp = Callable[["TableServer", Table, dict[str, Any]], Awaitable[dict[str, Any]]]


class Cluster:
    def __init__(
        self,
        server: TableServer,
        config: ClusterConfig,
        run_session: SessionRunner,
        ops: dict[str, TableOp],
    ) -> None:
        storage = server.storage
        if not isinstance(storage, LeasedStorage):
            raise TypeError("a cluster needs its journal as a LeasedStorage")
        self.server = server
        self.storage: LeasedStorage = storage
        self.config = config
        self.node = storage.node
        self.run_session = run_session
        self.ops = ops
        self.bus = Bus(
            config.redis,
            self.node,
            self._frame,
            on_down=self._bus_down,
            on_undelivered=self._undelivered,
        )
        #: rate limits counted across the processes (``server.limiter`` when Redis is down)
        self.limiter = SharedRateLimiter(config.redis, server.limiter)
        self.tunnels: dict[str, Tunnel] = {}
        self.remotes: dict[str, RemoteTransport] = {}
        self.calls: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._call_owner: dict[str, str] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._ids = itertools.count()
        self._tasks: list[asyncio.Task[None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._renewed = time.monotonic()
        self._lease_pool = ThreadPoolExecutor(1, thread_name_prefix="parlour-lease")
        self.stats = {"acquired": 0, "lost": 0, "forwarded": 0, "calls": 0}

    # --- life ----------------------------------------------------------------------------------

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self.storage.on_lost = self._lost_threadsafe
        await self.bus.start()
        loop = self._loop
        self._tasks = [
            loop.create_task(self._renew_loop()),
            loop.create_task(self._adopt_loop()),
            loop.create_task(self._watch_loop()),
        ]
        log.info("cluster node %s joined (lease ttl %g s)", self.node, self.config.lease_ttl)

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        for tun in list(self.tunnels.values()):
            tun.end(MOVED, N_("the server is restarting"))
        for remote in list(self.remotes.values()):
            remote.gone()
        await asyncio.sleep(0)
        # hand the tables over at once rather than after the lease expires
        with contextlib.suppress(StorageError):
            await self._lease(self.storage.release, None)
        await self.bus.stop()
        await self.limiter.close()
        self._lease_pool.shutdown(wait=False)

    async def _lease(self, fn: Callable[..., T], *args: Any) -> T:
        """Lease bookkeeping on a thread (and a database connection) of its own, never queued
        behind the tables' journal writes: a renewal late because the machine is busy would
        hand tables over for nothing."""
        call = functools.partial(fn, *args)
        return await asyncio.get_running_loop().run_in_executor(self._lease_pool, call)

    def _lock(self, code: str) -> asyncio.Lock:
        lock = self._locks.get(code)
        if lock is None:
            lock = self._locks[code] = asyncio.Lock()
        return lock

    # --- where a table is played -------------------------------------------------------------

    async def locate(self, code: Any) -> Table | str:
        """The table if this process plays it (taking its lease if it is free), else the node
        that owns it.  Finished tables are read here without a lease (nobody writes them)."""
        from parlour.server.lobby import TABLE_CODE

        if not isinstance(code, str):
            raise LobbyError(404, N_("no such table"))
        code = code.strip().upper()
        if not TABLE_CODE.fullmatch(code):
            raise LobbyError(404, N_("no table {code}", code=repr(code[:40])))
        deadline = time.monotonic() + self.config.lease_ttl + 2.0
        while True:
            table = self.server.tables.get(code)
            if table is not None and self.storage.holds(code):
                return table
            try:
                info = await self._lease(self.storage.lease_info, code)
            except StorageError as exc:
                raise LobbyError(
                    503, N_("the tables cannot be read just now: {error}", error=str(exc))
                ) from None
            over = info is None or info.status in ("finished", "expired")
            if (
                over
                and info is not None
                and info.valid
                and info.owner is not None
                and info.owner != self.node
                and await self.bus.alive(info.owner)
            ):
                # a match just over is still in its owner's memory (rematch, score sheets)
                return str(info.owner)
            if over or info is None:
                if table is not None and table.status not in ("finished", "expired"):
                    self.server.tables.pop(code, None)  # a stale copy from before it ended
                    table.close()
                return await self.server.get(code)
            if info.valid and info.owner != self.node and info.owner is not None:
                if await self.bus.alive(info.owner):
                    return info.owner
                # the owner is gone (or cut off from the bus): its lease runs out soon
                if time.monotonic() > deadline:
                    raise LobbyError(
                        503, N_("the server playing this table does not answer; try again shortly")
                    )
                await asyncio.sleep(0.2)
                continue
            async with self._lock(code):
                if code in self.server.tables and self.storage.holds(code):
                    return self.server.tables[code]
                try:
                    token = await self._lease(self.storage.acquire, code)
                except StorageError as exc:
                    raise LobbyError(
                        503, N_("the tables cannot be read just now: {error}", error=str(exc))
                    ) from None
                if token is None:
                    continue  # another process was quicker
                return await self._take(code, token)

    async def _take(self, code: str, token: int) -> Table:
        """Replay a table whose lease we just took and let it play."""
        stale = self.server.tables.pop(code, None)
        if stale is not None:
            self._close_table(stale, N_("the table moved"))
        self.server.broken.pop(code, None)
        try:
            table = await self.server.get(code)
        except Exception:
            with contextlib.suppress(StorageError):
                await self._lease(self.storage.release, [code])
            raise
        self.stats["acquired"] += 1
        log.info("node %s plays table %s (lease token %d)", self.node, code, token)
        if table.status == "playing":
            now = time.monotonic()
            for s in table.seats:
                if s.kind == "human" and s.claimed and not s.connections:
                    s.absent_since = now
            table._after_grace()
            table.kick()
        return table

    def _close_table(self, table: Table, reason: str) -> None:
        for conn in list(table.connections):
            conn.close(reason)
        table.close()

    def _lost_threadsafe(self, code: str) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._drop, code, "lease lost")

    def _drop(self, code: str, why: str) -> None:
        """This process no longer plays the table: its players reconnect (to the new owner)."""
        if self.storage.holds(code):
            return  # taken again meanwhile
        table = self.server.tables.pop(code, None)
        if table is None:
            return
        self.stats["lost"] += 1
        log.warning("node %s gives up table %s (%s)", self.node, code, why)
        self._close_table(table, N_("the table moves to another server; reconnecting"))

    # --- loops ---------------------------------------------------------------------------------

    async def _renew_loop(self) -> None:
        period = self.config.lease_ttl / 3
        while True:
            await asyncio.sleep(period)
            # leases of tables no longer in memory (finished and unloaded) go back
            stray = [
                c
                for c in self.storage.strays(self.server.tables, self.config.lease_ttl)
                if not self._lock(c).locked()
            ]
            try:
                if stray:
                    await self._lease(self.storage.release, stray)
                lost = await self._lease(self.storage.renew)
                self._renewed = time.monotonic()
            except StorageError as exc:
                log.error("node %s cannot renew its leases: %s", self.node, exc)
                if time.monotonic() - self._renewed > self.config.lease_ttl:
                    lost = list(self.storage.fences)
                    for c in lost:
                        self.storage.fences.pop(c, None)
                else:
                    continue
            for code in lost:
                self._drop(code, "lease expired")
            for code in [c for c in self._locks if not self._locks[c].locked()]:
                if code not in self.server.tables:
                    del self._locks[code]

    async def _adopt_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.adopt_interval * (0.5 + random.random()))
            try:
                codes = await self._lease(self.storage.orphans, self.config.adopt_batch)
            except StorageError:
                continue
            for code in codes:
                try:
                    await self.locate(code)
                except Exception as exc:
                    log.warning("node %s could not adopt table %s: %s", self.node, code, exc)

    async def _watch_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.watch_interval)
            owners = {t.owner for t in self.tunnels.values()}
            for owner in owners:
                if not await self.bus.alive(owner):
                    self._owner_gone(owner)

    def _owner_gone(self, owner: str) -> None:
        for tun in list(self.tunnels.values()):
            if tun.owner == owner:
                tun.end(MOVED, N_("the table's server is gone; reconnecting"))
        for rid, node in list(self._call_owner.items()):
            fut = self.calls.get(rid)
            if node == owner and fut is not None and not fut.done():
                fut.set_exception(ConnectionError("the table's server is gone"))

    def _bus_down(self) -> None:
        for tun in list(self.tunnels.values()):
            tun.end(MOVED, N_("lost the link to the table's server; reconnecting"))
        for remote in list(self.remotes.values()):
            remote.gone()
        for fut in self.calls.values():
            if not fut.done():
                fut.set_exception(ConnectionError("lost the link to the table's server"))

    def _undelivered(self, node: str, kind: str, ident: str) -> None:
        if kind in ("open", "in"):
            tun = self.tunnels.get(ident)
            if tun is not None:
                tun.end(MOVED, N_("the table's server is gone; reconnecting"))
        elif kind in ("out", "end"):
            remote = self.remotes.get(ident)
            if remote is not None:
                remote.gone()
        elif kind == "call":
            fut = self.calls.get(ident)
            if fut is not None and not fut.done():
                fut.set_exception(ConnectionError("the table's server is gone"))

    # --- the bus -------------------------------------------------------------------------------

    def _frame(self, kind: str, ident: str, body: str) -> None:
        if kind == "out":
            tun = self.tunnels.get(ident)
            if tun is not None:
                if tun.outbox.qsize() >= self.config.tunnel_queue:
                    tun.end(4008, N_("too slow: the connection did not read its messages"))
                else:
                    tun.outbox.put_nowait(body)
        elif kind == "in":
            remote = self.remotes.get(ident)
            if remote is not None:
                remote.inbox.put_nowait(body)
        elif kind == "end":
            tun = self.tunnels.get(ident)
            if tun is not None:
                data = json.loads(body)
                tun.end(int(data.get("code", MOVED)), str(data.get("reason", "")))
        elif kind == "close":
            remote = self.remotes.get(ident)
            if remote is not None:
                remote.gone()
        elif kind == "open":
            data = json.loads(body)
            remote = RemoteTransport(self.bus, ident, str(data["edge"]))
            self.remotes[ident] = remote
            asyncio.get_running_loop().create_task(self._serve_remote(remote, data))
        elif kind == "call":
            asyncio.get_running_loop().create_task(self._answer(ident, json.loads(body)))
        elif kind == "ret":
            fut = self.calls.get(ident)
            if fut is not None and not fut.done():
                fut.set_result(json.loads(body))
        else:
            log.warning("bus: unknown frame %r", kind)

    # --- sockets -------------------------------------------------------------------------------

    async def serve_socket(
        self,
        transport: Any,
        code: str,
        seat: str | None,
        contrib: str | None,
        *,
        deltas: bool = False,
        lang: str = "en",
    ) -> None:
        """A player's socket reached this process: serve it here or through the owner."""
        try:
            where = await self.locate(code)
        except LobbyError as exc:
            await refuse(transport, exc, lang)
            return
        if isinstance(where, Table):
            await self.run_session(
                self.server, transport, code, seat, contrib, table=where, deltas=deltas, lang=lang
            )
            return
        await self._forward(transport, where, code, seat, contrib, deltas, lang)

    async def _forward(
        self,
        transport: Any,
        owner: str,
        code: str,
        seat: str | None,
        contrib: str | None,
        deltas: bool = False,
        lang: str = "en",
    ) -> None:
        cid = f"{self.node}.{next(self._ids)}"
        tun = Tunnel(owner, code)
        self.tunnels[cid] = tun
        self.stats["forwarded"] += 1
        opened = {
            "edge": self.node,
            "code": code,
            "seat": seat,
            "contrib": contrib,
            "deltas": deltas,
            "lang": lang,
        }
        self.bus.send(owner, "open", cid, json.dumps(opened))
        try:
            await tun.pump(transport, self.bus, cid, self.server.config.send_timeout)
        finally:
            self.tunnels.pop(cid, None)
            self.bus.send(owner, "close", cid)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(
                    transport.close(tun.close_code, close_reason(tun.reason, lang)), 1.0
                )

    async def _serve_remote(self, remote: RemoteTransport, data: dict[str, Any]) -> None:
        lang = str(data.get("lang") or "en")
        try:
            code = str(data.get("code"))
            try:
                where = await self.locate(code)
            except LobbyError as exc:
                await refuse(remote, exc, lang)
                return
            if not isinstance(where, Table):
                await remote.close(MOVED, close_reason(N_("the table moved; reconnecting"), lang))
                return
            await self.run_session(
                self.server,
                remote,
                code,
                data.get("seat"),
                data.get("contrib"),
                table=where,
                deltas=data.get("deltas") is True,
                lang=lang,
            )
        except Exception:
            log.exception("a forwarded connection failed")
        finally:
            self.remotes.pop(remote.cid, None)
            await remote.close(MOVED, "")

    # --- lobby ---------------------------------------------------------------------------------

    async def call(
        self, code: str, op: str, args: dict[str, Any], *, forwarded: bool = False
    ) -> dict[str, Any]:
        """Run a lobby operation on the table's owner (here, or over the bus)."""
        where = await self.locate(code)
        if isinstance(where, Table):
            return await self.ops[op](self.server, where, args)
        if forwarded:
            raise LobbyError(503, N_("the table is moving between servers; try again"))
        rid = f"{self.node}.c{next(self._ids)}"
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.calls[rid] = fut
        self._call_owner[rid] = where
        self.stats["calls"] += 1
        self.bus.send(
            where,
            "call",
            rid,
            json.dumps({"edge": self.node, "code": code, "op": op, "args": args}),
        )
        try:
            reply = await asyncio.wait_for(fut, self.config.call_timeout)
        except (TimeoutError, ConnectionError):
            raise LobbyError(
                503, N_("the server playing this table did not answer; try again")
            ) from None
        finally:
            self.calls.pop(rid, None)
            self._call_owner.pop(rid, None)
        if reply.get("ok"):
            return dict(reply["result"])
        raise LobbyError(
            int(reply["status"]), said_from_json(reply["message"]), reply.get("headers")
        )

    async def _answer(self, rid: str, data: dict[str, Any]) -> None:
        edge = str(data["edge"])
        try:
            result = await self.call(
                str(data["code"]), str(data["op"]), dict(data["args"]), forwarded=True
            )
            reply: dict[str, Any] = {"ok": True, "result": result}
        except LobbyError as exc:
            reply = {"ok": False, "status": exc.status, "message": said_to_json(exc.message)}
            if exc.headers:
                reply["headers"] = exc.headers
        except Exception as exc:
            log.exception("a forwarded %s failed", data.get("op"))
            reply = {
                "ok": False,
                "status": 500,
                "message": said_to_json(N_("the server failed: {error}", error=str(exc))),
            }
        self.bus.send(edge, "ret", rid, json.dumps(reply))

    async def list(self, status: str, offset: int, limit: int) -> dict[str, Any]:
        """The lobby's table list, across every process (read from the journal; the tables this
        process plays as they are this instant)."""
        try:
            rows = await self.server.db(self.storage.active_summaries)
        except StorageError as exc:
            raise LobbyError(
                503, N_("the tables cannot be read just now: {error}", error=str(exc))
            ) from None
        records = []
        for meta, version in rows:
            table = self.server.tables.get(meta.code)
            if table is not None and self.storage.holds(meta.code):
                record = table.record()
            else:
                summary = summary_record(meta, version)
                if summary is None:
                    continue
                record = summary
            if record["status"] in ("finished", "expired"):
                continue
            if status == "open" and not record["free_seats"]:
                continue
            records.append(record)
        return {
            "tables": records[offset : offset + limit],
            "total": len(records),
            "offset": offset,
            "limit": limit,
        }
