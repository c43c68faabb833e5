"""Rate-limit checks: ``parlour.server.guard``'s token buckets against the ``limits`` library
(not a test; issue 31).  ``limits`` is not a dependency: run with it added for the run only.

The same checks both ways: one request of kind ``lookup`` (120 at once, then 600 a minute) from
one of ``--clients`` addresses, the caller told how long to wait when refused.

- ``guard``: ``RateLimiter.take`` (one bucket per address and kind, in one ``OrderedDict``);
- ``limits-moving`` / ``limits-sliding``: ``limits``' in-memory storage, moving window and
  sliding window counter (``hit``, then ``get_window_stats`` for the wait when refused: it has
  no token bucket; a window of ``burst`` requests per ``burst / rate`` seconds is the nearest);
- ``shared`` and ``limits-redis`` (with ``--redis``): the same across processes, in Redis
  (``SharedRateLimiter``'s Lua bucket against ``limits``' async Redis moving window); keys of
  their own, deleted afterwards.

    nice -n 15 uv run --with 'limits[async-redis]==5.8.0' python bench/ratelimit.py \\
        --redis redis://127.0.0.1:6379/0
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import time
from collections.abc import Callable
from typing import Any

from parlour.server.guard import DEFAULT_LIMITS, RateLimiter, SharedRateLimiter

KIND = "lookup"


def _clients(n: int) -> list[str]:
    rnd = random.Random(1)
    return [f"10.{rnd.randrange(256)}.{rnd.randrange(256)}.{rnd.randrange(256)}" for _ in range(n)]


def _time(check: Callable[[str], float], clients: list[str], seconds: float) -> float:
    """Checks per second over about ``seconds``."""
    done, start, n = 0, time.perf_counter(), len(clients)
    while (elapsed := time.perf_counter() - start) < seconds:
        for i in range(1000):
            check(clients[(done + i) % n])
        done += 1000
    return done / elapsed


def _limits_checks(strategy: str) -> Callable[[str], float]:
    from limits import RateLimitItemPerSecond
    from limits.storage import MemoryStorage
    from limits.strategies import MovingWindowRateLimiter, SlidingWindowCounterRateLimiter

    limit = DEFAULT_LIMITS[KIND]
    window = max(1, round(limit.burst / (limit.per_minute / 60.0)))
    item = RateLimitItemPerSecond(limit.burst, window)
    cls = MovingWindowRateLimiter if strategy == "moving" else SlidingWindowCounterRateLimiter
    limiter = cls(MemoryStorage())

    def check(client: str) -> float:
        if limiter.hit(item, KIND, client):
            return 0.0
        stats = limiter.get_window_stats(item, KIND, client)
        return max(0.0, stats.reset_time - time.time())

    return check


async def _time_async(check: Callable[[str], Any], clients: list[str], seconds: float) -> float:
    done, start, n = 0, time.perf_counter(), len(clients)
    while (elapsed := time.perf_counter() - start) < seconds:
        await asyncio.gather(*(check(clients[(done + i) % n]) for i in range(10)))
        done += 10
    return done / elapsed


async def _shared(url: str, clients: list[str], seconds: float) -> dict[str, float]:
    import redis.asyncio as aioredis

    out: dict[str, float] = {}
    local = RateLimiter(DEFAULT_LIMITS)
    mine = SharedRateLimiter(url, local)
    prefix = f"bench{secrets.token_hex(3)}"
    try:
        await mine.take(KIND, f"{prefix}-warm")  # the first connection, outside the timing
        out["shared"] = await _time_async(
            lambda c: mine.take(KIND, f"{prefix}-{c}"), clients, seconds
        )
    finally:
        await mine.close()
    try:
        from limits import RateLimitItemPerSecond
        from limits.aio.storage import RedisStorage
        from limits.aio.strategies import MovingWindowRateLimiter

        limit = DEFAULT_LIMITS[KIND]
        window = max(1, round(limit.burst / (limit.per_minute / 60.0)))
        item = RateLimitItemPerSecond(limit.burst, window)
        storage = RedisStorage(f"async+{url}", key_prefix=prefix)
        limiter = MovingWindowRateLimiter(storage)

        async def check(client: str) -> float:
            if await limiter.hit(item, KIND, client):
                return 0.0
            stats = await limiter.get_window_stats(item, KIND, client)
            return max(0.0, stats.reset_time - time.time())

        await check(f"{prefix}-warm")
        out["limits-redis"] = await _time_async(check, clients, seconds)
    except ImportError as exc:
        print(f"(limits' async Redis storage not available: {exc})")
    client = aioredis.Redis.from_url(url)
    try:
        keys = [k async for k in client.scan_iter(match=f"*{prefix}*")]
        for i in range(0, len(keys), 500):
            await client.delete(*keys[i : i + 500])
    finally:
        await client.aclose()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--clients", type=int, default=5000, help="client addresses")
    ap.add_argument("--seconds", type=float, default=2.0, help="per way")
    ap.add_argument("--redis", default=None, help="also the shared limiters, in this Redis")
    args = ap.parse_args()
    clients = _clients(args.clients)
    guard = RateLimiter(DEFAULT_LIMITS)
    rows = {"guard": _time(lambda c: guard.take(KIND, c), clients, args.seconds)}
    try:
        rows["limits-moving"] = _time(_limits_checks("moving"), clients, args.seconds)
        rows["limits-sliding"] = _time(_limits_checks("sliding"), clients, args.seconds)
    except ImportError:
        print("(limits is not installed: uv run --with limits python bench/ratelimit.py)")
    if args.redis:
        rows.update(asyncio.run(_shared(args.redis, clients, args.seconds)))
    for name, rate in rows.items():
        print(f"{name:15s} {rate:12,.0f} checks/s  ({1e6 / rate:6.2f} us a check)")


if __name__ == "__main__":
    main()
