"""Journal appends on PostgreSQL: the hand-written event-loop appender against psycopg's async
pool (not a test; issue 31).

``M`` tables each append ``N`` actions one after another (a table waits for each commit before
its next move, as ``Table.submit`` does), all tables at once, three ways:

- ``loop``: ``parlour.server.pgloop.LoopAppender`` (libpq non-blocking on the event loop by
  hand, two connections, every append of a loop turn in one multi-row ``INSERT … unnest``);
- ``pool``: ``psycopg_pool.AsyncConnectionPool`` (two connections, autocommit), the same
  batching per loop turn and the same multi-row statement, sent by psycopg's async driver;
- ``pipeline``: the same pool, each batch sent as one row per ``INSERT`` in psycopg's pipeline
  mode inside one transaction.

Each way runs in a schema of its own (made, then dropped) and prints events/s and the append
latency's p50/p99.  Run it on a quiet machine, bounded (``--tables``, ``--events``):

    nice -n 15 uv run python bench/journal.py --db postgresql://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

from parlour.server.pgloop import LoopAppender
from parlour.server.storage import APPEND_MANY_SQL, PostgresStorage, TableMeta

_ONE_SQL = (
    "INSERT INTO parlour_actions (code, idx, action, seat, ts, chain) "
    "VALUES (%s, %s, %s, %s, %s, %s)"
)


class PoolAppender:
    """``LoopAppender.append``'s interface on ``AsyncConnectionPool``: the appends of one loop
    turn go out together on a free connection of the pool, each caller answered once its row is
    committed."""

    def __init__(self, url: str, *, connections: int = 2, most: int = 500, pipeline: bool) -> None:
        self.pool = AsyncConnectionPool(
            url,
            min_size=connections,
            max_size=connections,
            kwargs={"autocommit": True},
            open=False,
        )
        self.width = connections
        self.most = most
        self.pipeline = pipeline
        self._pending: list[tuple[tuple[Any, ...], asyncio.Future[None]]] = []
        self._busy = 0
        self._scheduled = False

    async def start(self) -> None:
        await self.pool.open(wait=True)

    async def close(self) -> None:
        await self.pool.close()

    def append(
        self,
        code: str,
        index: int,
        action: dict[str, Any],
        seat: int | None,
        ts: float,
        chain: str | None = None,
    ) -> asyncio.Future[None]:
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        row = (code, index, json.dumps(action, ensure_ascii=False), seat, ts, chain)
        self._pending.append((row, fut))
        if not self._scheduled and self._busy < self.width:
            self._scheduled = True
            loop.call_soon(self._pump)
        return fut

    def _pump(self) -> None:
        self._scheduled = False
        while self._pending and self._busy < self.width:
            batch, self._pending = self._pending[: self.most], self._pending[self.most :]
            self._busy += 1
            asyncio.get_running_loop().create_task(self._send(batch))

    async def _send(self, batch: list[tuple[tuple[Any, ...], asyncio.Future[None]]]) -> None:
        rows = [r for r, _ in batch]
        try:
            async with self.pool.connection() as conn:
                if self.pipeline:
                    async with conn.transaction(), conn.pipeline():
                        cur = conn.cursor()
                        await cur.executemany(_ONE_SQL, rows)
                else:
                    cols = [list(c) for c in zip(*rows, strict=True)]
                    await conn.execute(APPEND_MANY_SQL, cols, prepare=True)
        except Exception as exc:
            for _, fut in batch:
                if not fut.done():
                    fut.set_exception(exc)
        else:
            for _, fut in batch:
                if not fut.done():
                    fut.set_result(None)
        finally:
            self._busy -= 1
            self._pump()


async def _run(
    append: Callable[..., Awaitable[None]], codes: list[str], events: int
) -> tuple[float, list[float]]:
    waits: list[float] = []

    async def one(code: str) -> None:
        for i in range(events):
            t0 = time.perf_counter()
            await append(code, i, {"type": "Draw", "n": i}, i % 4, time.time(), f"{i:064x}")
            waits.append(time.perf_counter() - t0)

    start = time.perf_counter()
    await asyncio.gather(*(one(c) for c in codes))
    return time.perf_counter() - start, waits


def _schema_url(db: str, schema: str) -> str:
    sep = "&" if "?" in db else "?"
    return f"{db}{sep}options=-csearch_path%3D{schema}"


async def _way(name: str, db: str, tables: int, events: int) -> dict[str, float]:
    schema = f"parlour_bench_{secrets.token_hex(4)}"
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    url = _schema_url(db, schema)
    storage = PostgresStorage(url, pool_size=2)
    try:
        codes = [f"B{i:05d}" for i in range(tables)]
        for code in codes:
            storage.create_table(
                TableMeta(code, "toy", "toy", {}, 1, 1, [], "playing", "", time.time())
            )
        appender: Any
        if name == "loop":
            appender = LoopAppender(storage)
        else:
            appender = PoolAppender(url, pipeline=name == "pipeline")
        await appender.start()
        try:
            wall, waits = await _run(appender.append, codes, events)
        finally:
            await appender.close()
        stored = storage._execute("SELECT count(*) FROM parlour_actions")[0][0]
        assert stored == tables * events, (name, stored)
    finally:
        storage.close()
        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
    waits.sort()
    return {
        "events_s": len(waits) / wall,
        "p50_ms": statistics.median(waits) * 1000,
        "p99_ms": waits[int(len(waits) * 0.99) - 1] * 1000,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--db", default="postgresql://postgres@127.0.0.1:5432/test")
    ap.add_argument("--tables", type=int, default=300, help="tables appending at once")
    ap.add_argument("--events", type=int, default=20, help="appends per table")
    ap.add_argument("--rounds", type=int, default=3, help="runs of each way (the best is kept)")
    ap.add_argument("--ways", default="loop,pool,pipeline")
    args = ap.parse_args()
    ways = args.ways.split(",")
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in ways}
    for _ in range(args.rounds):  # the ways in turn, so a busy moment is shared among them
        for name in ways:
            runs[name].append(asyncio.run(_way(name, args.db, args.tables, args.events)))
    for name in ways:
        best = max(runs[name], key=lambda r: r["events_s"])
        print(
            f"{name:9s} {args.tables} tables x {args.events}: {best['events_s']:8.0f} events/s  "
            f"p50 {best['p50_ms']:6.2f} ms  p99 {best['p99_ms']:6.2f} ms  "
            f"(runs: {', '.join(str(round(r['events_s'])) for r in runs[name])})"
        )


if __name__ == "__main__":
    main()
