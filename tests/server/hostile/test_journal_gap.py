"""A table whose journal lost a move (issue 31, hole 11): it was answered 503 "cannot be read
just now", as if the database were away for a moment, though the gap is for good.  It is a 410
that names the gap; the other tables play on."""

from __future__ import annotations

from tests.server.conftest import live_server
from tests.server.hostile.test_rematch_race import _finished


def _delete_move(db: str, code: str, idx: int) -> None:
    if db.startswith("sqlite:///"):
        import sqlite3

        with sqlite3.connect(db.removeprefix("sqlite:///")) as conn:
            conn.execute("DELETE FROM parlour_actions WHERE code = ? AND idx = ?", (code, idx))
    else:
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute("DELETE FROM parlour_actions WHERE code = %s AND idx = %s", (code, idx))


def test_a_gap_in_a_journal_is_410_with_the_reason(db_url: str) -> None:
    with live_server(db_url) as server:
        broken = _finished(server)["code"]
        fine = _finished(server)["code"]
    _delete_move(db_url, broken, 1)
    with live_server(db_url) as server:
        for _ in range(2):  # the first look and the remembered answer
            r = server.http.get(f"/api/tables/{broken}")
            assert r.status_code == 410, r.text
            assert "gap at action 1" in r.json()["detail"]
        assert server.http.get(f"/api/tables/{broken}/replay").status_code == 410
        assert server.http.get(f"/api/tables/{fine}").json()["status"] == "finished"
