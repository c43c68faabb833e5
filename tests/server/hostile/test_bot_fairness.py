"""One address's tables of searching bots must not hold the bot worker (issue 31, hole 3): a
hint at another table took 23–28 s (2 s idle) behind twelve tables of ``strong:3`` bots.  With
the searches shared per table (``parlour.server.fairshare``) a hint waits for the search that
is running, not for the others' queue: it stays within twice its idle time.  The hint's search
is a fixed number of play-outs and the bots' a fixed time, so the ratio does not depend on how
busy the machine is (a busier machine makes the hint slower and the wait no longer).  The hint is
a real one's length (4,000 play-outs, ~0.5 s here): a hint shorter than the bots' 0.3 s search
could wait longer than itself for the search in flight, which no queue can avoid."""

from __future__ import annotations

import statistics
import time

import pytest

from tests.server.conftest import Client, LiveServer, live_server
from tests.server.test_hints import _hint, _my_turn

BUSY_TABLES = 8


def _hint_times(c: Client, n: int) -> list[float]:
    out = []
    for _ in range(n):
        _my_turn(c)
        started = time.monotonic()
        msg = _hint(c)
        out.append(time.monotonic() - started)
        assert msg["type"] == "hint", msg
    return out


def _busy_tables(server: LiveServer) -> list[str]:
    codes = []
    for _ in range(BUSY_TABLES):
        r = server.http.post(
            "/api/tables",
            json={
                "game": "scat",
                "players": 3,
                "seats": [{"kind": "bot", "bot": "strong:0.3"}] * 3,
                "claim": None,
            },
        )
        assert r.status_code == 201, r.text
        codes.append(r.json()["code"])
    return codes


@pytest.mark.slow  # a timing: run alone in the second tier, not beside another worker
def test_a_hint_stays_within_twice_its_idle_time_beside_tables_of_strong_bots() -> None:
    with live_server(
        bot_threads=1, hint_iterations=4000, hint_interval=0.0, bot_budget=100_000.0
    ) as server:
        t = server.create(game="scat", players=2)
        c = server.ws(t["code"], t["you"]["token"])
        idle = _hint_times(c, 3)
        codes = _busy_tables(server)
        time.sleep(1.5)  # their bots are searching, one after the other

        def moves() -> int:
            return sum(server.http.get(f"/api/tables/{c}").json()["version"] for c in codes)

        before = moves()
        busy = _hint_times(c, 3)
        # the strong bots searched between the hints (a hint goes first, it does not stop them)
        assert before > 0 and moves() > before, "the busy tables' bots were not searching"
        c.close()
    idle_p50, busy_p50 = statistics.median(idle), statistics.median(busy)
    assert busy_p50 <= 2 * idle_p50, (idle, busy)
