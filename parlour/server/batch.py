"""Journal calls handed to the journal threads in batches.

Handing one call to a thread costs the event loop more than a SQLite append itself (a queue
put that wakes a thread, a thread that waits for the interpreter lock, a wake-up of the loop
when it is done; a profile at 200 busy tables put a quarter of the server's time there).  A
:class:`Batcher` collects the calls made while the journal threads are busy (and those of the
same turn of the event loop) and hands them over as one batch: the thread runs them one after
the other, each its own call with its own result or error, and wakes the loop once for the whole
batch.  A call's caller is answered only once the call has
returned, exactly as before: a table still tells nobody of an action before it is committed.

At most ``width`` batches run at once (the storage's ``concurrency``: 1 for SQLite, the pool
size for PostgreSQL); under load the batches grow by themselves, so the hand-off is paid once per
batch instead of once per action.

With ``group`` (the storage's ``run_batch``: SQLite's, and PostgreSQL's, which runs the batch on
one pooled connection), the calls of a batch run in one transaction with one commit (each call
in a savepoint of its own, so one failing call leaves nothing and the others stand); the callers are answered after that commit, so the guarantee is the same: an action is
acknowledged only once it is committed.  At 1,000 bench tables the batches hold ~5–60 appends,
and one commit a batch instead of one an append took the journal's share of the core down.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
from collections.abc import Callable
from concurrent.futures import Future as ThreadFuture
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from parlour.server.storage_base import JournalClosed

T = TypeVar("T")

Call = tuple[Callable[[], Any], "asyncio.Future[Any]"]


class Batcher:
    def __init__(
        self,
        pool: ThreadPoolExecutor,
        width: int,
        most: int = 64,
        group: Callable[[list[Callable[[], Any]]], list[tuple[bool, Any]]] | None = None,
    ) -> None:
        self.pool = pool
        #: runs a batch's calls together (one transaction), each with its own outcome
        self.group = group
        self.width = max(1, width)
        self.most = max(1, most)
        self._pending: collections.deque[Call] = collections.deque()
        self._running = 0
        self._scheduled = False
        #: batches handed over and calls run (for tests and the curious)
        self.batches = 0
        self.calls = 0

    def call(self, fn: Callable[[], T]) -> asyncio.Future[T]:
        """Run ``fn()`` on a journal thread; the future has its result (or its exception)."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[T] = loop.create_future()
        self._pending.append((fn, fut))
        if not self._scheduled and self._running < self.width:
            # after the other callbacks of this turn of the loop: their calls join the batch
            self._scheduled = True
            loop.call_soon(self._pump, loop)
        return fut

    def _pump(self, loop: asyncio.AbstractEventLoop) -> None:
        self._scheduled = False
        while self._pending and self._running < self.width:
            free = self.width - self._running
            size = min(self.most, -(-len(self._pending) // free))
            batch = [self._pending.popleft() for _ in range(size)]
            try:
                done = self.pool.submit(_run, batch, self.group)
            except RuntimeError:  # the pool is shut down: the server is stopping
                for _, fut in batch:
                    if not fut.done():
                        fut.set_exception(JournalClosed("the server is stopping"))
                continue
            self._running += 1
            self.batches += 1
            self.calls += len(batch)
            done.add_done_callback(functools.partial(_wake, loop, self, batch))

    def _finish(
        self,
        loop: asyncio.AbstractEventLoop,
        batch: list[Call],
        done: ThreadFuture[list[tuple[bool, Any]]],
    ) -> None:
        self._running -= 1
        if done.cancelled():
            for _, fut in batch:
                fut.cancel()
        else:
            exc = done.exception()
            outcomes = done.result() if exc is None else [(False, exc)] * len(batch)
            for (_, fut), (ok, value) in zip(batch, outcomes, strict=True):
                if fut.done():  # its caller gave up waiting
                    continue
                if ok:
                    fut.set_result(value)
                else:
                    fut.set_exception(value)
        if self._pending and not self._scheduled:
            self._scheduled = True
            loop.call_soon(self._pump, loop)


def _wake(
    loop: asyncio.AbstractEventLoop,
    batcher: Batcher,
    batch: list[Call],
    done: ThreadFuture[list[tuple[bool, Any]]],
) -> None:
    """On the journal thread (or wherever the batch ended): one wake-up of the event loop."""
    with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is waiting any more
        loop.call_soon_threadsafe(batcher._finish, loop, batch, done)


def _run(
    batch: list[Call],
    group: Callable[[list[Callable[[], Any]]], list[tuple[bool, Any]]] | None = None,
) -> list[tuple[bool, Any]]:
    """On a journal thread: each call in turn (or all of them through ``group``), its result or
    its exception."""
    # a call whose caller is gone (cancelled before the batch began) is not run
    live = [i for i, (_, fut) in enumerate(batch) if not fut.cancelled()]
    out: list[tuple[bool, Any]] = [(False, asyncio.CancelledError())] * len(batch)
    if group is not None and len(live) > 1:
        for i, outcome in zip(live, group([batch[i][0] for i in live]), strict=True):
            out[i] = outcome
        return out
    for i in live:
        try:
            out[i] = (True, batch[i][0]())
        except Exception as exc:
            out[i] = (False, exc)
    return out
