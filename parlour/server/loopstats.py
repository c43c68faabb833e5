"""How late the event loop runs, and what ran when it was late (a diagnostic, off by default).

``PARLOUR_LOOP_STATS=/path/file.jsonl parlour serve …`` (or ``ServerConfig.loop_stats``) starts a
:class:`LoopMonitor`: a timer that asks to run every ``tick`` seconds and notes how late it ran
(the loop's *lag*: how long everything that ran before it in that turn of the loop took, plus
any pause of the whole interpreter), and a ``gc.callbacks`` probe that times each garbage
collection.  Every ``every`` seconds it appends one JSON line to the file with that interval's

- ``lag``: a histogram of the timer's lateness (bucket upper bounds in ms, ``BOUNDS``),
- ``gc``: collections per generation, their total and longest pause, and a histogram of pauses
  (wall time, and the loop thread's CPU time: on a busy machine a pause also waits for a CPU),
- ``counters``: what the server did in the interval (actions applied, bot moves on the loop,
  state broadcasts, journal batches and calls, and ``action_ms_<i>``: players' actions by how
  long the server took from reading one to queuing its state, in the buckets of ``BOUNDS``),
- ``late``: for each tick later than ``slow`` seconds, the lag and what the counters and the
  collector did since the tick before it (up to 50 an interval): what a long turn was made of.

The timer itself costs ~2 µs a tick (200 ticks a second: ~0.05 % of a core).  ``bench/server.py``
passes the environment on to the server, so a load run can be watched without changing it.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import gc
import json
import time
from pathlib import Path
from typing import Any, Protocol

#: upper bounds of the lag and pause buckets, in ms (the last bucket is everything above)
BOUNDS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)


class Counted(Protocol):
    def loop_counters(self) -> dict[str, int]: ...


def _hist() -> list[int]:
    return [0] * (len(BOUNDS) + 1)


class LoopMonitor:
    def __init__(
        self,
        path: str | Path,
        source: Counted | None = None,
        *,
        tick: float = 0.005,
        every: float = 5.0,
        slow: float = 0.02,
    ) -> None:
        self.path = Path(path)
        self.source = source
        self.tick = tick
        self.every = every
        self.slow = slow
        self._timer: asyncio.TimerHandle | None = None
        self._flusher: asyncio.TimerHandle | None = None
        self._due = 0.0
        self._gc_started = 0.0
        self._gc_cpu_started = 0.0
        self._last_tick = (0.0, 0.0)
        self._reset()

    def _reset(self) -> None:
        self.lag = _hist()
        self.ticks = 0
        self.lag_total = 0.0
        self.lag_max = 0.0
        self.gc_count = [0, 0, 0]
        self.gc_total = [0.0, 0.0, 0.0]
        self.gc_max = [0.0, 0.0, 0.0]
        self.gc_pause = _hist()
        #: the collections' CPU time (their wall time above also counts waiting for a CPU)
        self.gc_cpu = 0.0
        self.gc_pause_cpu = _hist()
        self.gc_cpu_max = [0.0, 0.0, 0.0]
        self.gc_collected = 0
        self.late: list[dict[str, Any]] = []
        self.started = time.time()
        self._base = self._counters()
        self._tick_base = dict(self._base)
        self._tick_gc = 0.0
        self._tick_gcs = [0, 0, 0]
        self._cpu = time.process_time()

    def _counters(self) -> dict[str, int]:
        return self.source.loop_counters() if self.source is not None else {}

    # --- the collector ---------------------------------------------------------------------------

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
            self._gc_cpu_started = time.thread_time()
            return
        took = time.perf_counter() - self._gc_started
        cpu = time.thread_time() - self._gc_cpu_started
        gen = int(info.get("generation", 2))
        self.gc_cpu += cpu
        self.gc_pause_cpu[bisect.bisect_left(BOUNDS, cpu * 1000)] += 1
        self.gc_cpu_max[gen] = max(self.gc_cpu_max[gen], cpu)
        self.gc_collected += int(info.get("collected", 0))
        self.gc_count[gen] += 1
        self.gc_total[gen] += took
        self.gc_max[gen] = max(self.gc_max[gen], took)
        self.gc_pause[bisect.bisect_left(BOUNDS, took * 1000)] += 1
        self._tick_gc += took
        self._tick_gcs[gen] += 1

    # --- the timer -------------------------------------------------------------------------------

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        gc.callbacks.append(self._on_gc)
        self._reset()
        self._due = loop.time() + self.tick
        self._last_tick = (loop.time(), time.thread_time())
        self._timer = loop.call_at(self._due, self._on_tick)
        self._flusher = loop.call_later(self.every, self._on_flush)

    def stop(self) -> None:
        for handle in (self._timer, self._flusher):
            if handle is not None:
                handle.cancel()
        self._timer = self._flusher = None
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._on_gc)
        with contextlib.suppress(OSError):
            self.flush()

    def _on_tick(self) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        cpu = time.thread_time()
        late = max(0.0, now - self._due)
        wall_since, cpu_since = now - self._last_tick[0], cpu - self._last_tick[1]
        self._last_tick = (now, cpu)
        self.ticks += 1
        self.lag_total += late
        self.lag_max = max(self.lag_max, late)
        self.lag[bisect.bisect_left(BOUNDS, late * 1000)] += 1
        if late > self.slow and len(self.late) < 50:
            counters = self._counters() if self.source is not None else {}
            self.late.append(
                {
                    "at": round(time.time() - self.started, 3),
                    "lag_ms": round(late * 1000, 1),
                    # the loop thread's CPU time since the tick before, and the wall time: a
                    # turn that waited for a CPU (or for the interpreter lock) has cpu << wall
                    "wall_ms": round(wall_since * 1000, 1),
                    "cpu_ms": round(cpu_since * 1000, 1),
                    "gc_ms": round(self._tick_gc * 1000, 1),
                    "gcs": list(self._tick_gcs),
                    **{
                        k: v - self._tick_base.get(k, 0)
                        for k, v in counters.items()
                        if not k.startswith("action_ms_")
                    },
                }
            )
        if self.source is not None:
            self._tick_base = self._counters()
        self._tick_gc = 0.0
        self._tick_gcs = [0, 0, 0]
        # the next tick is due ``tick`` after this one ran (a late turn is counted once)
        self._due = now + self.tick
        self._timer = loop.call_at(self._due, self._on_tick)

    def _on_flush(self) -> None:
        with contextlib.suppress(OSError):
            self.flush()
        self._flusher = asyncio.get_running_loop().call_later(self.every, self._on_flush)

    def snapshot(self) -> dict[str, Any]:
        counters = self._counters()
        return {
            "t": round(time.time(), 3),
            "seconds": round(time.time() - self.started, 3),
            "cpu": round(time.process_time() - self._cpu, 3),
            "bounds_ms": list(BOUNDS),
            "lag": self.lag,
            "ticks": self.ticks,
            "lag_mean_ms": round(self.lag_total / max(1, self.ticks) * 1000, 3),
            "lag_max_ms": round(self.lag_max * 1000, 1),
            "gc": {
                "count": self.gc_count,
                "total_ms": [round(x * 1000, 1) for x in self.gc_total],
                "max_ms": [round(x * 1000, 1) for x in self.gc_max],
                "pauses": self.gc_pause,
                "cpu_ms": round(self.gc_cpu * 1000, 1),
                "pauses_cpu": self.gc_pause_cpu,
                "cpu_max_ms": [round(x * 1000, 1) for x in self.gc_cpu_max],
                "collected": self.gc_collected,
            },
            "counters": {k: v - self._base.get(k, 0) for k, v in counters.items()},
            "late": self.late,
        }

    def flush(self) -> None:
        """Append this interval's line and start the next interval."""
        line = json.dumps(self.snapshot())
        with self.path.open("a", encoding="utf-8") as f:
            f.write(line + "\n")
        self._reset()
