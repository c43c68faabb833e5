"""The journal's interface, below its two backends: the errors, what a table is
(:class:`TableMeta`), its actions (:class:`JournalEntry`) and records (:class:`Record`), the
:class:`Storage` every backend implements and the SQL both backends share (``_SqlStorage``).

The backends are ``storage_sqlite`` and ``storage_pg``; ``storage`` opens one from a URL.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from parlour.core.said import N_

if TYPE_CHECKING:
    from collections.abc import Callable


class StorageError(Exception):
    """The journal could not be read or written."""


class JournalTimeout(StorageError):
    """The database did not answer within the deadline: the call may or may not have been
    written (the caller must read the journal again before it relies on it)."""


class JournalClosed(StorageError):
    """The server is stopping: the journal takes no more calls (its threads are shut down)."""


class CorruptJournal(StorageError):
    """A table's journal is damaged for good (a move missing): not a database that is away for
    a moment, so the table is answered 410, not 503."""


class _Duplicate(StorageError):
    """A row with that key is already there (an action index, a record number)."""


#: a write whose key is taken (an action index already journaled: the memory is behind)
Duplicate = _Duplicate


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
    chain: str | None = None


@dataclass(frozen=True)
class Record:
    """One entry of a table's append-only record list."""

    seq: int
    kind: str
    data: dict[str, Any]
    ts: float


DURABILITY = ("normal", "full")


class Storage(ABC):
    """The storage interface both backends implement."""

    url: str
    #: how many calls can usefully run at the same time (size a worker thread pool with it)
    concurrency: int

    @abstractmethod
    def create_table(self, meta: TableMeta) -> None: ...

    @abstractmethod
    def update_table(
        self, code: str, seats: list[dict[str, Any]], status: str, updated: float
    ) -> None: ...

    @abstractmethod
    def append_action(
        self,
        code: str,
        index: int,
        action: dict[str, Any],
        seat: int | None,
        ts: float,
        chain: str | None = None,
    ) -> None:
        """Journal the ``index``-th action of a table (fails if that index is already taken);
        ``chain`` is an optional text kept with it (e.g. a hash chaining the journal)."""

    @abstractmethod
    def load_table(self, code: str) -> tuple[TableMeta, list[JournalEntry]] | None: ...

    @abstractmethod
    def codes(self, *, active: bool) -> list[str]:
        """Codes of the tables still waiting or playing (``active``) or of every table."""

    @abstractmethod
    def add_record(self, code: str, kind: str, data: dict[str, Any], ts: float) -> int:
        """Append a record to the table's list and return its number (0, 1, 2, … per table).
        Safe with several writers at once: each record gets its own number."""

    @abstractmethod
    def records(self, code: str) -> list[Record]:
        """The table's records in order of their numbers."""

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
        ts DOUBLE PRECISION NOT NULL, chain TEXT, PRIMARY KEY (code, idx))""",
    """CREATE TABLE IF NOT EXISTS parlour_records (
        code TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL,
        ts DOUBLE PRECISION NOT NULL, PRIMARY KEY (code, seq))""",
)

_META_COLUMNS = (
    "code, game, preset, rules, engine_version, seed, seats, status, name, created, updated, extra"
)

# how often add_record retries when a concurrent writer took the number it computed
_RECORD_RETRIES = 50


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

    @abstractmethod
    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        """Run one statement in its own transaction; its rows (or [])."""

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
        self,
        code: str,
        index: int,
        action: dict[str, Any],
        seat: int | None,
        ts: float,
        chain: str | None = None,
    ) -> None:
        self._execute(
            self._sql(
                "INSERT INTO parlour_actions (code, idx, action, seat, ts, chain) "
                "VALUES (?, ?, ?, ?, ?, ?)"
            ),
            (code, index, json.dumps(action, ensure_ascii=False), seat, ts, chain),
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
                "SELECT idx, action, seat, ts, chain FROM parlour_actions WHERE code = ? "
                "ORDER BY idx"
            ),
            (code,),
        )
        entries = [JournalEntry(int(r[0]), json.loads(r[1]), r[2], float(r[3]), r[4]) for r in acts]
        for i, e in enumerate(entries):
            if e.index != i:
                raise CorruptJournal(
                    N_(
                        "table {code}: the journal has a gap at action {index} (move {move} is "
                        "missing): the table cannot be played back",
                        code=code,
                        index=i,
                        move=i + 1,
                    )
                )
        return meta, entries

    def codes(self, *, active: bool) -> list[str]:
        if active:
            rows = self._execute(
                self._sql(
                    "SELECT code FROM parlour_tables WHERE status NOT IN (?, ?) ORDER BY created"
                ),
                ("finished", "expired"),
            )
        else:
            rows = self._execute("SELECT code FROM parlour_tables ORDER BY created")
        return [r[0] for r in rows]

    def add_record(self, code: str, kind: str, data: dict[str, Any], ts: float) -> int:
        # the number is computed and taken in one statement; two writers computing the same
        # number at once make one of them hit the primary key, and that one tries again
        sql = self._sql(
            "INSERT INTO parlour_records (code, seq, kind, data, ts) "
            "SELECT ?, COALESCE(MAX(seq) + 1, 0), ?, ?, ? FROM parlour_records WHERE code = ? "
            "RETURNING seq"
        )
        params = (code, kind, json.dumps(data, ensure_ascii=False), ts, code)
        for _ in range(_RECORD_RETRIES):
            try:
                rows = self._execute(sql, params)
            except _Duplicate:
                continue
            return int(rows[0][0])
        raise StorageError(
            f"table {code}: could not number a record after {_RECORD_RETRIES} tries "
            "(too many concurrent writers)"
        )

    def records(self, code: str) -> list[Record]:
        rows = self._execute(
            self._sql(
                "SELECT seq, kind, data, ts FROM parlour_records WHERE code = ? ORDER BY seq"
            ),
            (code,),
        )
        return [Record(int(r[0]), r[1], json.loads(r[2]), float(r[3])) for r in rows]


def _check_durability(durability: str) -> str:
    value = durability.lower()
    if value not in DURABILITY:
        raise StorageError(
            f"unknown durability {durability!r}: use 'normal' (the default) or 'full'"
        )
    return value


def _safe_url(url: str) -> str:
    parsed = urlparse(url)
    if parsed.password:
        return url.replace(f":{parsed.password}@", ":***@")
    return url


def _call(fn: Callable[[], Any]) -> tuple[bool, Any]:
    """One call of a journal batch: ``(True, result)`` or ``(False, the exception)``."""
    try:
        return True, fn()
    except Exception as exc:
        return False, exc
