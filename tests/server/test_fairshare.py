"""parlour.server.fairshare: a table's search waits for the searches already running, not for
every other table's queue (issue 31, hole 3).  Counted in jobs, not seconds: the same on a busy
machine."""

from __future__ import annotations

import asyncio
import itertools
import time
from concurrent.futures import ThreadPoolExecutor

from parlour.server.fairshare import FairShare


def test_a_table_with_one_search_goes_before_the_backlog_of_busy_tables() -> None:
    starts: list[str] = []

    def job(key: str) -> str:
        starts.append(key)
        time.sleep(0.01)
        return key

    async def main() -> tuple[int, list[int]]:
        with ThreadPoolExecutor(1) as pool:
            share = FairShare(pool, 1)

            async def busy(key: str) -> None:
                for _ in range(4):
                    assert await share.run(key, job, key) == key

            # twelve busy tables, each with a queue of its own (two searches waiting each)
            tasks = [asyncio.create_task(busy(f"T{i}")) for i in range(12)]
            tasks += [asyncio.create_task(busy(f"T{i}")) for i in range(12)]
            # every busy table has had its turn (a table never served would rightly go first)
            while len(set(starts)) < 12:
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.03)
            before = len(starts)
            assert await share.run("X", job, "X") == "X"
            position = starts.index("X") - before
            await asyncio.gather(*tasks)
            return position, list(share.waited_behind)

    position, waited = asyncio.run(main())
    # first come, first served would start it after the 20-odd searches queued before it
    assert position <= 1, position
    assert len(starts) == 12 * 8 + 1
    assert max(waited) < 12 * 8


def test_each_table_gets_its_turn() -> None:
    """Two tables with a long queue and one with a short one: the searches alternate."""
    starts: list[str] = []

    def job(key: str) -> None:
        starts.append(key)
        time.sleep(0.005)

    async def main() -> None:
        with ThreadPoolExecutor(1) as pool:
            # a clock that counts its readings: every search "takes" one tick, so the order does
            # not depend on how long a thread waited for a CPU (a busy machine once gave ABBBAAA)
            ticks = itertools.count()
            share = FairShare(pool, 1, clock=lambda: float(next(ticks)))
            runs = [share.run(k, job, k) for k in ["A"] * 10 + ["B"] * 10]
            await asyncio.gather(*runs)

    asyncio.run(main())
    # never three of one table in a row while the other waits
    assert "AAA" not in "".join(starts) and "BBB" not in "".join(starts), starts


def test_a_caller_that_gives_up_is_not_run() -> None:
    ran: list[int] = []

    async def main() -> None:
        with ThreadPoolExecutor(1) as pool:
            share = FairShare(pool, 1)
            first = asyncio.create_task(share.run("A", time.sleep, 0.2))
            await asyncio.sleep(0.01)
            second = asyncio.create_task(share.run("B", ran.append, 1))
            await asyncio.sleep(0.01)
            second.cancel()
            await first
            await share.run("C", ran.append, 2)

    asyncio.run(main())
    assert ran == [2]


def test_a_hint_goes_before_the_bots_moves() -> None:
    starts: list[str] = []

    def job(key: str) -> None:
        starts.append(key)
        time.sleep(0.005)

    async def main() -> None:
        with ThreadPoolExecutor(1) as pool:
            share = FairShare(pool, 1)
            moves = [asyncio.create_task(share.run(k, job, k)) for k in ["A", "B", "C"] * 3]
            await asyncio.sleep(0)
            await share.run("A", job, "hint", urgent=True)
            await asyncio.gather(*moves)

    asyncio.run(main())
    assert starts.index("hint") <= 1, starts
