"""Two servers on one journal without ``--redis`` (issue 31, hole 4): the second used to serve a
frozen copy of each table and refuse moves as "the database is not answering".  It is refused
at start with exit code 2 and a message saying what to do (``parlour.server.sole``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import httpx
import pytest

from parlour.server import sole
from tests.server.conftest import free_port, serve_subprocess
from tests.server.test_recovery import Proc, pg_schema
from tests.support import needs


def _refused(db: str, *extra: str) -> str:
    proc = serve_subprocess(db, free_port(), *extra)
    try:
        out, _ = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError("the second server started on a journal another one serves") from None
    assert proc.returncode == 2, out
    return out


def test_a_second_server_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'j.db'}"
    first = Proc(db)
    try:
        out = _refused(db)
        assert "already serving the journal" in out and "--redis" in out
        # the first one still plays: it is not disturbed by the attempt
        assert (
            httpx.post(f"{first.base}/api/tables", json={"game": "toy", "players": 2}).status_code
            == 201
        )
    finally:
        first.kill()
    # once it is gone (even killed), a server starts on the file again
    again = Proc(db)
    again.kill()


def test_a_second_server_on_one_postgresql_schema_is_refused() -> None:
    needs.module("redis", needs.SCALE)  # a --redis process joins the lone server's journal below
    with pg_schema() as db:
        first = Proc(db)
        try:
            out = _refused(db)
            assert "already serving this journal" in out and "--redis" in out
            # nor may a cluster process join a lone server's journal
            out = _refused(db, "--redis", "redis://127.0.0.1:1/0")
            assert "without --redis is serving this journal" in out
        finally:
            first.kill()
        again = Proc(db)
        again.kill()


def test_cluster_processes_share_the_lock_a_lone_server_cannot_take() -> None:
    """The lock itself: shared for the processes of a cluster, exclusive for a lone server;
    released with its connection."""
    with pg_schema() as db:
        a = sole.hold(db, shared=True)
        b = sole.hold(db, shared=True)
        with pytest.raises(sole.JournalBusy, match="already serving"):
            sole.hold(db)
        assert a is not None and b is not None
        a.release()
        b.release()
        alone = sole.hold(db)
        with pytest.raises(sole.JournalBusy, match="without --redis"):
            sole.hold(db, shared=True)
        assert alone is not None
        alone.release()


def test_a_memory_journal_needs_no_lock(tmp_path: Path) -> None:
    assert sole.hold("sqlite:///:memory:") is None
    held = sole.hold(f"sqlite:///{tmp_path / 'x.db'}")
    with pytest.raises(sole.JournalBusy):
        sole.hold(f"sqlite:///{tmp_path / 'x.db'}")
    assert held is not None
    held.release()
    sole.hold(f"sqlite:///{tmp_path / 'x.db'}").release()  # type: ignore[union-attr]
