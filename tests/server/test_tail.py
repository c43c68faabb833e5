"""The round trips' tail at 1,000 tables (issue 21, docs/server.md "Tail at 1,000 tables"): the
loop-lag monitor, the collector's schedule, and SQLite batches committed as one transaction."""

from __future__ import annotations

import asyncio
import functools
import gc
import json
import sqlite3
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from parlour.server.app import GC_FULL_EVERY, GC_YOUNG, Collector
from parlour.server.batch import Batcher
from parlour.server.loopstats import BOUNDS, LoopMonitor
from parlour.server.storage import SQLiteStorage, StorageError, TableMeta, open_storage


def _meta(code: str) -> TableMeta:
    return TableMeta(
        code=code,
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


def _rows(path: Path, code: str) -> list[int]:
    """The action indexes another connection sees (what is committed, not what is pending)."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(
            "SELECT idx FROM parlour_actions WHERE code = ? ORDER BY idx", (code,)
        ).fetchall()
    finally:
        conn.close()
    return [r[0] for r in rows]


def _batch_of(storage: SQLiteStorage, calls: list[Any]) -> list[Any]:
    """The calls handed over in one turn of the loop: one batch; each caller's outcome."""
    pool = ThreadPoolExecutor(1)
    batcher = Batcher(pool, width=1, group=storage.run_batch)

    async def main() -> list[Any]:
        futures = [batcher.call(fn) for fn in calls]
        return await asyncio.gather(*futures, return_exceptions=True)

    try:
        out = asyncio.run(main())
    finally:
        pool.shutdown()
    assert batcher.batches == 1
    return out


def test_a_batch_is_one_commit_a_failing_call_keeps_nothing_and_the_rest_is_committed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "j.db"
    storage = open_storage(f"sqlite:///{path}")
    assert isinstance(storage, SQLiteStorage)
    storage.create_table(_meta("T1"))
    append = functools.partial(storage.append_action, "T1")
    calls = [functools.partial(append, i, {"n": i}, 0, 1.0) for i in (0, 1)]
    calls.append(functools.partial(append, 1, {"n": "again"}, 0, 1.0))  # the same index twice
    calls += [functools.partial(append, i, {"n": i}, 0, 1.0) for i in (2, 3)]
    out = _batch_of(storage, calls)
    assert [isinstance(x, StorageError) for x in out] == [False, False, True, False, False]
    assert storage.group_commits == 1
    # answered after the commit: a second connection sees every kept append, once
    assert _rows(path, "T1") == [0, 1, 2, 3]
    loaded = storage.load_table("T1")
    assert loaded is not None and loaded[1][1].action == {"n": 1}
    storage.close()


def test_when_the_transaction_is_lost_every_call_of_the_batch_fails_and_none_is_kept(
    tmp_path: Path,
) -> None:
    """Nobody may be told of an action a failed commit did not keep."""
    path = tmp_path / "j.db"
    storage = open_storage(f"sqlite:///{path}")
    assert isinstance(storage, SQLiteStorage)
    storage.create_table(_meta("T1"))
    append = functools.partial(storage.append_action, "T1")

    def abort() -> None:  # the transaction ends under the batch (as a disk error would end it)
        storage._conn.execute("ROLLBACK")

    calls = [functools.partial(append, 0, {"n": 0}, 0, 1.0), abort]
    calls.append(functools.partial(append, 1, {"n": 1}, 0, 1.0))
    out = _batch_of(storage, calls)
    assert all(isinstance(x, StorageError) for x in out)
    assert _rows(path, "T1") == []
    assert storage.group_commits == 0
    # the journal still works afterwards, a batch of one on its own
    storage.append_action("T1", 0, {"n": 0}, 0, 1.0)
    assert _rows(path, "T1") == [0]
    storage.close()


def test_the_collector_leaves_old_objects_to_a_timed_full_collection_and_stop_restores() -> None:
    before = gc.get_threshold()
    collector = Collector(young=1234, full_every=0.05)

    async def main() -> None:
        collector.start()
        assert gc.get_threshold()[0] == 1234
        assert min(gc.get_threshold()[1:]) >= 1 << 20  # the older generations: never by count
        assert gc.get_freeze_count() > 0
        # a garbage cycle that outlived a young collection waits for the timed full one
        cycle: list[Any] = []
        cycle.append(cycle)
        gc.collect(0)
        del cycle
        await asyncio.sleep(0.2)
        collector.stop()

    try:
        asyncio.run(main())
    finally:
        gc.unfreeze()
    assert collector.full_runs >= 2
    assert collector.full_freed >= 1
    assert gc.get_threshold() == before


def test_the_loop_monitor_sees_a_long_turn_and_what_ran_in_it(tmp_path: Path) -> None:
    out = tmp_path / "loop.jsonl"

    class Source:
        n = 0

        def loop_counters(self) -> dict[str, int]:
            return {"actions": self.n}

    source = Source()

    async def main() -> None:
        monitor = LoopMonitor(out, source, tick=0.005, every=10.0, slow=0.02)
        monitor.start()
        await asyncio.sleep(0.05)
        source.n += 7
        end = time.thread_time() + 0.06
        while time.thread_time() < end:  # one turn of the loop busy for 60 ms of CPU
            pass
        gc.collect()
        await asyncio.sleep(0.05)
        monitor.stop()

    asyncio.run(main())
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 1
    snap = lines[0]
    assert snap["bounds_ms"] == list(BOUNDS)
    slow = sum(snap["lag"][BOUNDS.index(50) :])  # the turn was at least 60 ms late
    assert slow >= 1 and snap["lag_max_ms"] >= 55
    assert snap["gc"]["count"][2] >= 1
    late = [x for x in snap["late"] if x["lag_ms"] >= 55]
    assert late and late[0]["actions"] == 7 and late[0]["cpu_ms"] >= 50
    assert late[0]["gcs"][2] >= 1
    assert snap["counters"]["actions"] == 7


def test_a_batch_of_one_is_its_own_commit(tmp_path: Path) -> None:
    storage = open_storage(f"sqlite:///{tmp_path / 'j.db'}")
    assert isinstance(storage, SQLiteStorage)
    storage.create_table(_meta("T1"))
    out = storage.run_batch([functools.partial(storage.append_action, "T1", 0, {}, 0, 1.0)])
    assert out == [(True, None)] and storage.group_commits == 0
    storage.close()


def test_the_app_sets_the_switch_interval_while_it_runs_and_restores_it(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from parlour.server.app import create_app
    from parlour.server.lobby import ServerConfig

    before = sys.getswitchinterval()
    app = create_app(f"sqlite:///{tmp_path / 'j.db'}", ServerConfig(switch_interval=0.00123))
    with TestClient(app):  # the app's lifespan: started on entry, stopped on exit
        assert sys.getswitchinterval() == pytest.approx(0.00123)
    assert sys.getswitchinterval() == pytest.approx(before)


def test_parlour_serve_passes_its_collector_schedule_to_every_worker(tmp_path: Any) -> None:
    from parlour.cli import serve

    settings: dict[str, Any] = {
        "db": f"sqlite:///{tmp_path / 'j.db'}",
        "durability": "normal",
        "host": "127.0.0.1",
        "bot_delay": 0.0,
        "grace": 30.0,
        "waiting_expiry": 24.0,
        "rate_limit": False,
        "any_host": False,
        "allow_origin": [],
        "game_module": [],
        "redis": None,
        "lease_ttl": 3.0,
        "bot_processes": 0,
        "hint_seconds": 1.0,
        "review_seconds": 0.25,
    }
    app, storage = serve.build_app(settings)  # settings of before these options: the defaults
    cfg = app.state.server.config
    assert cfg.tune_gc and cfg.gc_young == GC_YOUNG
    assert cfg.gc_full_every == GC_FULL_EVERY
    storage.close()
    app, storage = serve.build_app({**settings, "gc_young": 7000, "gc_full_every": 60.0})
    cfg = app.state.server.config
    assert cfg.tune_gc and (cfg.gc_young, cfg.gc_full_every) == (7000, 60.0)
    storage.close()
    app, storage = serve.build_app({**settings, "gc_young": 0})  # Python's own schedule
    assert not app.state.server.config.tune_gc
    storage.close()


def test_the_app_runs_the_collector_schedule_it_was_given() -> None:
    from fastapi.testclient import TestClient

    from parlour.server.app import create_app
    from parlour.server.lobby import ServerConfig

    before = gc.get_threshold()
    app = create_app("sqlite:///:memory:", ServerConfig(tune_gc=True, gc_young=4321))
    try:
        with TestClient(app):
            assert gc.get_threshold()[0] == 4321
            assert min(gc.get_threshold()[1:]) >= 1 << 20
    finally:
        gc.unfreeze()
    assert gc.get_threshold() == before
