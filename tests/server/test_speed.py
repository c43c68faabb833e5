"""The server's cheap paths (issue 21, cheaper per action): journal calls handed to the journal
threads in batches, quick bots played on the event loop, the told outcome made once per hand."""

from __future__ import annotations

import asyncio
import functools
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from parlour.core.bot import Bot
from parlour.server.batch import Batcher
from parlour.server.lobby import ServerConfig, TableServer
from parlour.server.storage import JournalClosed, open_storage
from tests.server.conftest import LiveServer, live_server


def _after(gate: threading.Event, value: int, then: Callable[[int], int] = int) -> int:
    """A journal call that waits for ``gate`` (the journal thread is busy meanwhile)."""
    gate.wait(5)
    return then(value)


def test_batcher_hands_calls_of_one_turn_over_together_each_with_its_own_answer() -> None:
    pool = ThreadPoolExecutor(1)
    batcher = Batcher(pool, width=1)
    ran: list[tuple[int, str]] = []

    def job(i: int) -> int:
        ran.append((i, threading.current_thread().name))
        if i == 3:
            raise ValueError("three")
        return i * 10

    async def main() -> list[Any]:
        futures = [batcher.call(functools.partial(job, i)) for i in range(6)]
        return await asyncio.gather(*futures, return_exceptions=True)

    try:
        results = asyncio.run(main())
    finally:
        pool.shutdown()
    # one hand-over for the six calls, run in the order they were made, off the event loop
    assert batcher.batches == 1 and batcher.calls == 6
    assert [i for i, _ in ran] == [0, 1, 2, 3, 4, 5]
    assert all(name != threading.main_thread().name for _, name in ran)
    # each caller gets its own result; one failing call fails only itself
    assert results[:3] == [0, 10, 20] and results[4:] == [40, 50]
    assert isinstance(results[3], ValueError) and str(results[3]) == "three"


def test_batcher_collects_calls_made_while_the_thread_is_busy() -> None:
    pool = ThreadPoolExecutor(1)
    batcher = Batcher(pool, width=1)
    gate = threading.Event()

    async def main() -> list[int]:
        first = batcher.call(functools.partial(_after, gate, 0))
        await asyncio.sleep(0.05)  # the first batch is running: these wait for it
        later = [batcher.call(functools.partial(int, i)) for i in range(1, 9)]
        await asyncio.sleep(0.05)
        assert not any(f.done() for f in later)  # nothing answered before it ran
        gate.set()
        return list(await asyncio.gather(first, *later))

    try:
        assert asyncio.run(main()) == list(range(9))
    finally:
        pool.shutdown()
    assert batcher.batches == 2 and batcher.calls == 9


def test_batcher_skips_a_call_whose_caller_gave_up_and_refuses_after_shutdown() -> None:
    pool = ThreadPoolExecutor(1)
    batcher = Batcher(pool, width=1)
    gate = threading.Event()
    ran: list[int] = []

    def note(i: int) -> int:
        ran.append(i)
        return i

    async def main() -> None:
        first = batcher.call(functools.partial(_after, gate, 0, note))
        await asyncio.sleep(0.05)
        second = batcher.call(functools.partial(note, 1))
        second.cancel()  # its caller was cancelled before the call began
        third = batcher.call(functools.partial(note, 2))
        gate.set()
        await first
        assert await third == 2
        pool.shutdown()
        with pytest.raises(JournalClosed):
            await batcher.call(functools.partial(note, 3))

    asyncio.run(main())
    assert ran == [0, 2]


def test_batcher_answers_with_the_storage_call_committed() -> None:
    """What the table awaits: the append is in the journal when its future is answered."""
    storage = open_storage("sqlite:///:memory:")
    pool = ThreadPoolExecutor(1)
    batcher = Batcher(pool, width=1)

    async def main() -> None:
        from parlour.server.storage import TableMeta

        meta = TableMeta(
            code="ABC123",
            game="samba",
            preset="samba",
            rules={},
            engine_version=1,
            seed=1,
            seats=[],
            status="playing",
            name="",
            created=time.time(),
        )
        await batcher.call(lambda: storage.create_table(meta))
        for i in range(5):
            await batcher.call(
                functools.partial(storage.append_action, "ABC123", i, {"n": i}, 0, 1.0)
            )
            loaded = storage.load_table("ABC123")
            assert loaded is not None and len(loaded[1]) == i + 1

    try:
        asyncio.run(main())
    finally:
        pool.shutdown()


class _Slow(Bot):
    name = "random"  # a level the server plays on the event loop

    def act(self, view: Any, legal: Any) -> Any:
        time.sleep(0.05)
        return legal[0]


def test_quick_bots_play_on_the_event_loop_and_a_slow_one_is_moved_to_the_threads() -> None:
    server = TableServer(open_storage("sqlite:///:memory:"), ServerConfig(bot_inline_cap=0.02))
    try:
        bot = _Slow(game=None, seat=0)  # type: ignore[arg-type]
        assert server.plays_inline("samba", bot)
        server.inline_took("samba", bot, 0.001)
        assert server.plays_inline("samba", bot)
        server.inline_took("samba", bot, 0.05)  # one slow move (a garbage collection?): stays
        assert server.plays_inline("samba", bot)
        server.inline_took("samba", bot, 0.05)
        server.inline_took("samba", bot, 0.05)  # slow on average: threads from now on
        assert not server.plays_inline("samba", bot)
        assert server.plays_inline("cheat", bot)  # for that game only
        server.inline_took("cheat", bot, 0.5)  # one move ten times the cap: at once
        assert not server.plays_inline("cheat", bot)
    finally:
        server.bot_pool.shutdown()
        server.db_pool.shutdown()
        server.work_pool.shutdown()


def test_a_match_of_random_bots_is_played_without_the_bot_threads() -> None:
    """Four ``random`` bots play a whole match: every move on the event loop (the bot threads
    are never used), journaled and told as before."""
    with live_server() as s:
        used: list[Any] = []
        table_server: TableServer = s.app.state.server
        original = table_server.bot_pool.submit

        def spy(*args: Any, **kwargs: Any) -> Any:
            used.append(args)
            return original(*args, **kwargs)

        table_server.bot_pool.submit = spy  # type: ignore[method-assign]
        t = s.create(game="toy", players=2, seats=[{"kind": "bot", "bot": "random"}] * 2)
        _watch_to_the_end(s, t["code"])
        assert used == []
        assert table_server.journal.calls >= 1


def test_with_bot_processes_quick_bots_still_play_on_the_event_loop() -> None:
    """With a pool of bot processes, ``random`` bots are not sent to a worker: a worker busy with
    another table's long search would make them wait (measured with ``bench/server.py
    --strong-tables``); only the searching levels go to the pool."""
    with live_server(bot_processes=1) as s:
        table_server: TableServer = s.app.state.server
        procs = table_server.bot_procs
        assert procs is not None
        used: list[Any] = []
        original = procs.submit

        def spy(*args: Any, **kwargs: Any) -> Any:
            used.append(args)
            return original(*args, **kwargs)

        procs.submit = spy  # type: ignore[method-assign]
        t = s.create(game="toy", players=2, seats=[{"kind": "bot", "bot": "random"}] * 2)
        _watch_to_the_end(s, t["code"])
        assert used == []
        # a searching level still goes to the worker
        t = s.create(
            game="toy",
            players=2,
            seats=[{"kind": "bot", "bot": "strong:0.3"}, {"kind": "bot", "bot": "random"}],
            options={"max_hands": 1},
        )
        _watch_to_the_end(s, t["code"])
        assert used


def _watch_to_the_end(s: LiveServer, code: str) -> None:
    c = s.ws(code)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        msg = c.recv()
        if msg["type"] == "state" and msg["status"] == "finished":
            break
    else:
        raise AssertionError("the match did not finish")
    journal = s.http.get(f"/api/tables/{code}").json()
    assert journal["status"] == "finished"
    assert journal["version"] == msg["version"] > 0
    c.conn.close()
