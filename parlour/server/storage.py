"""The journal: every table as (game, rules JSON, engine version, seed, seats, actions in order).

The table state is never stored, only replayed from the journal, so a restarted server serves each
table exactly as it was.  An action is committed here before any connection hears of it.

Two backends behind one interface: SQLite (a file, the default) and PostgreSQL (psycopg 3, a
small connection pool).  Methods are blocking and thread-safe; the server calls them from worker
threads (at most ``storage.concurrency`` at a time do useful work) so the event loop never waits
on the disk.  Besides the actions, a table has an append-only list of records (``add_record``):
numbered events of any kind, kept in order.

>>> store = open_storage("sqlite:///:memory:")
>>> store.create_table(TableMeta("ABC123", "toy", "toy", {"players": 2}, 1, 7, [], "waiting",
...                              "", 1.0))
>>> store.append_action("ABC123", 0, {"type": "Draw"}, 1, 2.0)
>>> store.append_action("ABC123", 1, {"type": "Pass"}, 0, 3.0, chain="9f86d0")
>>> meta, actions = store.load_table("ABC123")
>>> meta.seed, actions[0].action, actions[0].chain, actions[1].chain
(7, {'type': 'Draw'}, None, '9f86d0')
>>> store.add_record("ABC123", "deal_reveal", {"hand": 1}, 4.0)
0
>>> store.add_record("ABC123", "chat", {"text": "gg"}, 5.0)
1
>>> [(r.seq, r.kind, r.data) for r in store.records("ABC123")]
[(0, 'deal_reveal', {'hand': 1}), (1, 'chat', {'text': 'gg'})]
>>> store.concurrency
1
>>> store.close()

The parts: ``storage_base`` (the interface, the errors, the shared SQL), ``storage_sqlite``,
``storage_pg``; this module opens one from a URL (:func:`open_storage`) and keeps every name
importable from here.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs

from parlour.server.storage_base import (
    _META_COLUMNS,
    _SCHEMA,
    DURABILITY,
    CorruptJournal,
    Duplicate,
    JournalClosed,
    JournalEntry,
    JournalTimeout,
    Record,
    Storage,
    StorageError,
    TableMeta,
    _check_durability,
    _Duplicate,
    _meta_from_row,
    _meta_row,
    _safe_url,
)
from parlour.server.storage_pg import APPEND_MANY_SQL, PostgresStorage, numbered
from parlour.server.storage_sqlite import SQLiteStorage

__all__ = [
    "APPEND_MANY_SQL",
    "DURABILITY",
    "_META_COLUMNS",
    "_SCHEMA",
    "CorruptJournal",
    "Duplicate",
    "JournalClosed",
    "JournalEntry",
    "JournalTimeout",
    "PostgresStorage",
    "Record",
    "SQLiteStorage",
    "Storage",
    "StorageError",
    "TableMeta",
    "_Duplicate",
    "_check_durability",
    "_meta_from_row",
    "_meta_row",
    "_safe_url",
    "default_db_path",
    "numbered",
    "open_storage",
]


def default_db_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("parlour")) / "parlour.db"


def _sqlite_from_url(rest: str, durability: str | None) -> SQLiteStorage:
    path, _, query = rest.partition("?")
    from_url: str | None = None
    if query:
        options = parse_qs(query, keep_blank_values=True)
        unknown = set(options) - {"synchronous"}
        if unknown:
            raise StorageError(
                f"unknown SQLite URL option(s) {', '.join(sorted(unknown))}: "
                "the one option is ?synchronous=normal|full"
            )
        from_url = _check_durability(options["synchronous"][-1])
    if durability is not None:
        durability = _check_durability(durability)
        if from_url is not None and from_url != durability:
            raise StorageError(
                f"the URL says synchronous={from_url} but durability={durability!r} was asked for"
            )
    return SQLiteStorage(path, durability or from_url or "normal")


def open_storage(url: str | None = None, *, durability: str | None = None) -> Storage:
    """``sqlite:///path``, ``sqlite:///:memory:``, ``postgresql://…`` or ``None`` (the default
    SQLite file in the user data directory).

    ``durability`` (SQLite): ``"normal"`` (default) or ``"full"``, also given as
    ``sqlite:///path.db?synchronous=full``.  PostgreSQL accepts either and keeps its server's
    own setting (``synchronous_commit``, on by default: a commit survives power loss).
    """
    if url is None or url == "":
        return SQLiteStorage(str(default_db_path()), _check_durability(durability or "normal"))
    if url.startswith("sqlite:///"):
        return _sqlite_from_url(url[len("sqlite:///") :], durability)
    if url.startswith(("postgresql://", "postgres://")):
        if durability is not None:
            _check_durability(durability)
        return PostgresStorage(url)
    raise StorageError(
        f"unsupported database URL {_safe_url(url)!r}: use sqlite:///path/file.db or "
        "postgresql://user@host:port/dbname"
    )
