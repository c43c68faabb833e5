"""Issue 21 with issue 14's rate limits: several processes count a client address together, in
Redis, so spreading requests over N processes gives no N-fold budget; when Redis is away each
process falls back to its own buckets and the lobby keeps answering."""

from __future__ import annotations

import asyncio
import secrets

import httpx

from parlour.server.guard import Limit, RateLimiter, SharedRateLimiter
from tests.server.cluster.conftest import REDIS_URL, nodes, require_redis
from tests.server.test_recovery import pg_schema


def _takes(limiter: SharedRateLimiter, kind: str, client: str, n: int) -> list[float]:
    async def run() -> list[float]:
        try:
            return [await limiter.take(kind, client) for _ in range(n)]
        finally:
            await limiter.close()

    return asyncio.run(run())


def test_a_bucket_in_redis_refuses_after_the_burst_and_says_how_long() -> None:
    require_redis()
    client = f"198.51.100.{secrets.randbelow(250)}-{secrets.token_hex(4)}"
    local = RateLimiter({"create": Limit(3, 6)})  # 3 at once, then one per 10 s
    waits = _takes(SharedRateLimiter(REDIS_URL, local), "create", client, 5)
    assert waits[:3] == [0.0, 0.0, 0.0]
    assert 9.0 < waits[3] <= 10.0 and 9.0 < waits[4] <= 10.0
    # the same address seen by a second process (another client object) is still refused
    again = _takes(
        SharedRateLimiter(REDIS_URL, RateLimiter({"create": Limit(3, 6)})), "create", client, 1
    )
    assert again[0] > 9.0
    # the process's own buckets were never used
    assert local.take("create", client) == 0.0


def test_without_redis_each_process_limits_with_its_own_buckets() -> None:
    local = RateLimiter({"join": Limit(2, 60)})
    waits = _takes(SharedRateLimiter("redis://127.0.0.1:9/0", local, timeout=0.3), "join", "x", 3)
    assert waits[:2] == [0.0, 0.0] and waits[2] > 0.0


def test_two_processes_share_one_budget_per_address() -> None:
    """The default budget for creating tables is a burst of 10: asked alternately of two
    processes, the 11th is refused (429 with Retry-After) although each saw at most six."""
    require_redis()
    import redis

    redis.Redis.from_url(REDIS_URL).delete("parlour:rate:create:127.0.0.1")
    body = {"game": "toy", "options": {"max_hands": 1, "hand_size": 5}, "players": 2}
    with pg_schema() as url, nodes(url, REDIS_URL, REDIS_URL, rate_limit=True) as (a, b):
        codes = []
        for i in range(10):
            r = httpx.post(f"{(a, b)[i % 2].base}/api/tables", json=body, timeout=30)
            assert r.status_code == 201, r.text
            codes.append(r.json()["code"])
        refused = httpx.post(f"{a.base}/api/tables", json=body, timeout=30)
        assert refused.status_code == 429, refused.text
        assert int(refused.headers["Retry-After"]) >= 1
        assert httpx.post(f"{b.base}/api/tables", json=body, timeout=30).status_code == 429
        # looking at tables has its own, larger budget
        assert httpx.get(f"{b.base}/api/tables/{codes[0]}", timeout=30).status_code == 200
