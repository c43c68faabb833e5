"""Searches of many tables on one bot worker, shared fairly (issue 31, hole 3).

The bot worker (a process pool, or the bot threads) ran its jobs first come, first served: twelve
tables of ``strong:3`` bots from one address kept a queue of 3-second searches in front of every
other table, whose hint then took 23–28 s (2 s on an idle server) and whose ``strong:0.3`` bots
played a move a minute.

:class:`FairShare` keeps a queue per table in front of the executor and never hands the executor
more jobs than it has workers.  When a worker is free:

- a job someone is waiting for (a hint: ``urgent``) goes before the bots' moves: a hint waits for
  the searches already running, not for any queue (hints are few: one per seat every
  ``hint_interval`` seconds);
- among the rest, the table that has used the least search time goes next (*start-time fair
  queuing*: a table's virtual time grows by the seconds its searches ran; a table that was idle
  comes back level with the least-served table waiting — its idleness is no credit to spend, and
  it does not queue behind the others' backlog).  A table of ``strong:0.3`` bots beside tables
  of ``strong:3`` bots is served nearly every time a worker frees.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any


@dataclass
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    fut: asyncio.Future[Any]
    #: jobs started since this one was queued (for tests and the curious)
    queued_at: int = 0


@dataclass
class _Key:
    jobs: collections.deque[_Job] = field(default_factory=collections.deque)
    #: search seconds charged so far (virtual time)
    used: float = 0.0
    #: when this key last had a job started (``0``: never)
    last_start: float = 0.0
    #: what its last job took: charged when a job starts (a key with a job running is not
    #: picked again as if it had used nothing), corrected when it ends
    estimate: float = 0.0


class FairShare:
    """Run ``fn(*args)`` on ``executor`` for a key (a table's code), ``width`` at a time: urgent
    jobs first, then the least-served key's."""

    def __init__(
        self, executor: Executor, width: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.executor = executor
        self.width = max(1, width)
        #: what a search's time is measured with (a test passes one that counts calls)
        self.clock = clock
        #: the urgent lane, then the others: each key's queue and usage
        self._lanes: tuple[dict[str, _Key], dict[str, _Key]] = ({}, {})
        self._running = 0
        self._started = 0
        #: for each job started: how many other jobs were started while it waited
        self.waited_behind: collections.deque[int] = collections.deque(maxlen=1000)

    async def run(self, key: str, fn: Callable[..., Any], *args: Any, urgent: bool = False) -> Any:
        loop = asyncio.get_running_loop()
        lane = self._lanes[0 if urgent else 1]
        entry = lane.get(key)
        if entry is None:
            entry = lane[key] = _Key()
        if not entry.jobs:
            # back from idle: level with the least-served waiting key, never below it
            waiting = [k.used for k in lane.values() if k.jobs]
            if waiting:
                entry.used = max(entry.used, min(waiting))
        job = _Job(fn, args, loop.create_future(), self._started)
        entry.jobs.append(job)
        self._pump(loop)
        try:
            return await job.fut
        finally:
            if not job.fut.done():  # the caller gave up while it waited: it is not run
                job.fut.cancel()
                with contextlib.suppress(ValueError):
                    entry.jobs.remove(job)
            if not entry.jobs and len(lane) > 10_000:
                lane.pop(key, None)

    def _next(self) -> _Key | None:
        """The urgent lane's least-served waiting key, else the other lane's."""
        for lane in self._lanes:
            best: tuple[float, float, str] | None = None
            for key, entry in lane.items():
                if entry.jobs and (best is None or (entry.used, entry.last_start, key) < best):
                    best = (entry.used, entry.last_start, key)
            if best is not None:
                return lane[best[2]]
        return None

    def _pump(self, loop: asyncio.AbstractEventLoop) -> None:
        while self._running < self.width:
            entry = self._next()
            if entry is None:
                return
            job = entry.jobs.popleft()
            if job.fut.done():
                continue
            entry.last_start = self.clock()
            entry.used += entry.estimate
            self.waited_behind.append(self._started - job.queued_at)
            self._started += 1
            self._running += 1
            try:
                done = loop.run_in_executor(self.executor, job.fn, *job.args)
            except RuntimeError as exc:  # the executor is shut down: the server is stopping
                self._running -= 1
                job.fut.set_exception(exc)
                continue
            done.add_done_callback(
                functools.partial(self._finish, loop, job, entry, entry.last_start)
            )

    def _finish(
        self,
        loop: asyncio.AbstractEventLoop,
        job: _Job,
        entry: _Key,
        started: float,
        done: asyncio.Future[Any],
    ) -> None:
        self._running -= 1
        took = self.clock() - started
        entry.used += took - entry.estimate
        entry.estimate = took
        if not job.fut.done():
            if done.cancelled():
                job.fut.cancel()
            elif (exc := done.exception()) is not None:
                job.fut.set_exception(exc)
            else:
                job.fut.set_result(done.result())
        self._pump(loop)
