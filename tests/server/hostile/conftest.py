"""The hostile suite runs against both journals: SQLite (a file) and PostgreSQL (a schema of its
own; fails under CI=true when PostgreSQL is unreachable, skips elsewhere)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.test_recovery import pg_schema


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'journal.db'}"
    else:
        with pg_schema() as url:
            yield url
