"""``POST /api/chicago/sheet`` under attack (issue 31, hole 1): a 64 KB body of 5,800 deals cost
710 ms of CPU on the event loop and stalled every table.  The entries are bounded, the route is
rate-limited like the lobby, and the sheet is scored on a worker thread: ``/api/info`` keeps
answering while such requests run."""

from __future__ import annotations

import statistics
import threading
import time
from typing import Any

import httpx
import pytest

from parlour.server.guard import Limit
from parlour.server.replays import MAX_ENTRY_CHARS, MAX_SHEET_ENTRIES
from tests.server.conftest import live_server

pytest.importorskip("parlour.scoring.chicago", reason="the Chicago scorer (parlour.scoring)")


def test_a_sheet_of_thousands_of_deals_is_refused() -> None:
    with live_server() as server:
        r = server.http.post("/api/chicago/sheet", json={"entries": ["3NT S ="] * 5800})
        assert r.status_code == 422, r.text[:200]
        r = server.http.post(
            "/api/chicago/sheet", json={"entries": ["3NT S ="] * (MAX_SHEET_ENTRIES + 1)}
        )
        assert r.status_code == 422
        r = server.http.post(
            "/api/chicago/sheet", json={"entries": ["3NT S ="] * MAX_SHEET_ENTRIES}
        )
        assert r.status_code == 200 and len(r.json()["rounds"]) >= MAX_SHEET_ENTRIES // 4
        r = server.http.post(
            "/api/chicago/sheet", json={"entries": ["3NT S =" + " " * MAX_ENTRY_CHARS]}
        )
        assert r.status_code == 422
        r = server.http.post("/api/chicago/sheet", json={"entries": [], "evil": 1})
        assert r.status_code == 422


def test_sheets_are_rate_limited_per_address() -> None:
    with live_server(rate_limits={"sheet": Limit(3, 1)}) as server:
        codes = [
            server.http.post("/api/chicago/sheet", json={"entries": ["pass"]}).status_code
            for _ in range(5)
        ]
        assert codes[:3] == [200, 200, 200] and codes[3:] == [429, 429]
        r = server.http.post("/api/chicago/sheet", json={"entries": ["pass"]})
        assert int(r.headers["Retry-After"]) >= 1


def _info_times(base: str, stop: threading.Event, out: list[float]) -> None:
    with httpx.Client(base_url=base, timeout=30) as http:
        while not stop.is_set():
            t0 = time.perf_counter()
            assert http.get("/api/info").status_code == 200
            out.append(time.perf_counter() - t0)
            time.sleep(0.02)


def _hammer(base: str, body: dict[str, Any], n: int, codes: list[int]) -> None:
    with httpx.Client(base_url=base, timeout=60) as http:
        for _ in range(n):
            codes.append(http.post("/api/chicago/sheet", json=body).status_code)


def _info_while(
    base: str, body: dict[str, Any], clients: int, each: int
) -> tuple[list[float], list[int]]:
    stop, times, codes = threading.Event(), [], []  # type: ignore[var-annotated]
    timer = threading.Thread(target=_info_times, args=(base, stop, times))
    timer.start()
    workers = [
        threading.Thread(target=_hammer, args=(base, body, each, codes)) for _ in range(clients)
    ]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=120)
    stop.set()
    timer.join(timeout=30)
    return times, codes


def test_a_slow_sheet_does_not_stall_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sheet that takes 0.4 s to score (a stand-in that sleeps, so the measure does not hang
    on the machine's load): four of them at once leave ``/api/info`` answering within 0.25 s.
    On the event loop each would hold every other request for its 0.4 s."""
    import parlour.scoring.chicago as chicago

    real = chicago.sheet_from_entries

    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.4)
        return real(*args, **kwargs)

    monkeypatch.setattr(chicago, "sheet_from_entries", slow)
    with live_server() as server:
        times, codes = _info_while(server.base, {"entries": ["3NT S ="]}, clients=4, each=3)
    assert codes == [200] * 12
    assert len(times) >= 5
    # on the loop, a look waits for the sheet being scored (0.4 s) and the ones queued behind
    # it: a median of 0.4 s or more; off the loop only the machine's load delays it (the worst
    # look once took 0.39 s in a fresh-clone run at load 5, so the bound for one look is wider)
    assert statistics.median(times) < 0.25 and max(times) < 0.8, sorted(times)[-5:]


def test_info_answers_while_full_sheets_are_scored() -> None:
    """The probe's attack at the largest sheet allowed (4 clients x 8 sheets of 400 deals):
    ``/api/info``'s median stays within a small multiple of its idle median (the probe measured
    2.6 ms idle and 674 ms under 5,800-deal sheets scored on the event loop)."""
    with live_server() as server:
        idle: list[float] = []
        stop = threading.Event()
        t = threading.Thread(target=_info_times, args=(server.base, stop, idle))
        t.start()
        time.sleep(1.0)
        stop.set()
        t.join()
        body = {"entries": ["3NT S ="] * MAX_SHEET_ENTRIES}
        busy, codes = _info_while(server.base, body, clients=4, each=8)
    assert codes == [200] * 32
    idle_p50, busy_p50 = statistics.median(idle), statistics.median(busy)
    assert busy_p50 < max(20 * idle_p50, 0.1), (idle_p50, busy_p50, max(busy))
