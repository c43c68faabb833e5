"""The journal: every table as (game, rules JSON, engine version, seed, seats, actions in order).

The table state is never stored, only replayed from the journal, so a restarted server serves each
table exactly as it was.  An action is committed here before any connection hears of it.

Two backends behind one interface: SQLite (a file, the default) and PostgreSQL (psycopg 3).
Methods are blocking; the server calls them from one worker thread so the event loop never waits
on the disk and writes of one table stay in order.

>>> store = open_storage("sqlite:///:memory:")
>>> store.create_table(TableMeta("ABC123", "toy", "toy", {"players": 2}, 1, 7, [], "waiting",
...                              "", 1.0))
>>> store.append_action("ABC123", 0, {"type": "Draw"}, 1, 2.0)
>>> meta, actions = store.load_table("ABC123")
>>> meta.seed, actions[0].action
(7, {'type': 'Draw'})
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse


class StorageError(Exception):
    """The journal could not be read or written."""


@dataclass
class TableMeta:
    """What a table is, apart from its actions."""

    code: str
    game: str
    preset: str
    rules: dict[str, Any]
    engine_version: int
    seed: int
    seats: list[dict[str, Any]]
    status: str
    name: str
    created: float
    updated: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class JournalEntry:
    index: int
    action: dict[str, Any]
    seat: int | None
    ts: float


class Storage(ABC):
    """The storage interface both backends implement."""

    url: str

    @abstractmethod
    def create_table(self, meta: TableMeta) -> None: ...

    @abstractmethod
    def update_table(
        self, code: str, seats: list[dict[str, Any]], status: str, updated: float
    ) -> None: ...

    @abstractmethod
    def append_action(
        self, code: str, index: int, action: dict[str, Any], seat: int | None, ts: float
    ) -> None:
        """Journal the ``index``-th action of a table (fails if that index is already taken)."""

    @abstractmethod
    def load_table(self, code: str) -> tuple[TableMeta, list[JournalEntry]] | None: ...

    @abstractmethod
    def codes(self, *, active: bool) -> list[str]:
        """Codes of the tables not finished (``active``) or of every table."""

    @abstractmethod
    def close(self) -> None: ...


_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS parlour_tables (
        code TEXT PRIMARY KEY, game TEXT NOT NULL, preset TEXT NOT NULL, rules TEXT NOT NULL,
        engine_version INTEGER NOT NULL, seed BIGINT NOT NULL, seats TEXT NOT NULL,
        status TEXT NOT NULL, name TEXT NOT NULL, created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL, extra TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS parlour_actions (
        code TEXT NOT NULL, idx INTEGER NOT NULL, action TEXT NOT NULL, seat INTEGER,
        ts DOUBLE PRECISION NOT NULL, PRIMARY KEY (code, idx))""",
)

_META_COLUMNS = (
    "code, game, preset, rules, engine_version, seed, seats, status, name, created, updated, extra"
)


def _meta_row(meta: TableMeta) -> tuple[Any, ...]:
    return (
        meta.code,
        meta.game,
        meta.preset,
        json.dumps(meta.rules),
        meta.engine_version,
        meta.seed,
        json.dumps(meta.seats),
        meta.status,
        meta.name,
        meta.created,
        meta.updated or meta.created,
        json.dumps(meta.extra),
    )


def _meta_from_row(row: Any) -> TableMeta:
    return TableMeta(
        code=row[0],
        game=row[1],
        preset=row[2],
        rules=json.loads(row[3]),
        engine_version=int(row[4]),
        seed=int(row[5]),
        seats=json.loads(row[6]),
        status=row[7],
        name=row[8],
        created=float(row[9]),
        updated=float(row[10]),
        extra=json.loads(row[11]),
    )


class _SqlStorage(Storage):
    """Shared SQL of both backends; ``_p`` is the driver's parameter marker."""

    _p = "?"

    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        raise NotImplementedError

    def _sql(self, sql: str) -> str:
        return sql.replace("?", self._p)

    def create_table(self, meta: TableMeta) -> None:
        marks = ", ".join("?" * 12)
        self._execute(
            self._sql(f"INSERT INTO parlour_tables ({_META_COLUMNS}) VALUES ({marks})"),
            _meta_row(meta),
        )

    def update_table(
        self, code: str, seats: list[dict[str, Any]], status: str, updated: float
    ) -> None:
        self._execute(
            self._sql(
                "UPDATE parlour_tables SET seats = ?, status = ?, updated = ? WHERE code = ?"
            ),
            (json.dumps(seats), status, updated, code),
        )

    def append_action(
        self, code: str, index: int, action: dict[str, Any], seat: int | None, ts: float
    ) -> None:
        self._execute(
            self._sql(
                "INSERT INTO parlour_actions (code, idx, action, seat, ts) VALUES (?, ?, ?, ?, ?)"
            ),
            (code, index, json.dumps(action, ensure_ascii=False), seat, ts),
        )

    def load_table(self, code: str) -> tuple[TableMeta, list[JournalEntry]] | None:
        rows = self._execute(
            self._sql(f"SELECT {_META_COLUMNS} FROM parlour_tables WHERE code = ?"), (code,)
        )
        if not rows:
            return None
        meta = _meta_from_row(rows[0])
        acts = self._execute(
            self._sql(
                "SELECT idx, action, seat, ts FROM parlour_actions WHERE code = ? ORDER BY idx"
            ),
            (code,),
        )
        entries = [JournalEntry(int(r[0]), json.loads(r[1]), r[2], float(r[3])) for r in acts]
        for i, e in enumerate(entries):
            if e.index != i:
                raise StorageError(f"table {code}: journal has a gap at action {i}")
        return meta, entries

    def codes(self, *, active: bool) -> list[str]:
        if active:
            rows = self._execute(
                self._sql("SELECT code FROM parlour_tables WHERE status <> ? ORDER BY created"),
                ("finished",),
            )
        else:
            rows = self._execute("SELECT code FROM parlour_tables ORDER BY created")
        return [r[0] for r in rows]


class SQLiteStorage(_SqlStorage):
    """A SQLite file (WAL mode: a committed action survives the process being killed)."""

    def __init__(self, path: str) -> None:
        self.url = f"sqlite:///{path}"
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute("PRAGMA busy_timeout=5000")
        for stmt in _SCHEMA:
            self._conn.execute(stmt)

    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with self._lock:
            try:
                cur = self._conn.execute(sql, params)
                return cur.fetchall()
            except sqlite3.Error as exc:
                raise StorageError(f"SQLite: {exc}") from exc

    def close(self) -> None:
        with self._lock:
            self._conn.close()


class PostgresStorage(_SqlStorage):
    """PostgreSQL through psycopg 3 (one connection, each statement its own transaction)."""

    _p = "%s"

    def __init__(self, url: str) -> None:
        import psycopg

        self.url = url
        self._lock = threading.Lock()
        try:
            self._conn = psycopg.connect(url, autocommit=True, connect_timeout=5)
        except psycopg.Error as exc:
            raise StorageError(f"cannot connect to PostgreSQL at {_safe_url(url)}: {exc}") from exc
        for stmt in _SCHEMA:
            # two servers creating the schema at the same moment: the other one won
            with contextlib.suppress(psycopg.errors.UniqueViolation):
                self._conn.execute(stmt)

    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        import psycopg

        with self._lock:
            try:
                cur = self._conn.execute(sql, params)
                return cur.fetchall() if cur.description else []
            except psycopg.Error as exc:
                raise StorageError(f"PostgreSQL: {exc}") from exc

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def _safe_url(url: str) -> str:
    parsed = urlparse(url)
    if parsed.password:
        return url.replace(f":{parsed.password}@", ":***@")
    return url


def default_db_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("parlour")) / "parlour.db"


def open_storage(url: str | None = None) -> Storage:
    """``sqlite:///path``, ``sqlite:///:memory:``, ``postgresql://…`` or ``None`` (the default
    SQLite file in the user data directory)."""
    if url is None or url == "":
        return SQLiteStorage(str(default_db_path()))
    if url.startswith("sqlite:///"):
        return SQLiteStorage(url[len("sqlite:///") :])
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStorage(url)
    raise StorageError(
        f"unsupported database URL {_safe_url(url)!r}: use sqlite:///path/file.db or "
        "postgresql://user@host:port/dbname"
    )
