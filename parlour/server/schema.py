"""Versioned migrations of the journal database (SQLite and PostgreSQL).

The journal's first tables (``parlour_tables``, ``parlour_actions``, ``parlour_records``) are
made by :mod:`parlour.server.storage` as they always were; everything added since is a numbered
migration here, applied once, in order, and remembered in ``parlour_schema`` (one row per
migration applied, with the time).  A journal written by an older server opens and gains the new
tables; one written by a newer server (a migration number this server does not know) is used as
it is: migrations only ever add tables and indexes, so an older server still reads what it knows.

Two servers starting on one PostgreSQL database at once: the first takes a transaction-scoped
advisory lock and migrates, the second waits for it and then finds nothing left to do.  On SQLite
``BEGIN IMMEDIATE`` does the same.

>>> import sqlite3
>>> conn = sqlite3.connect(":memory:", isolation_level=None)
>>> migrate_sqlite(conn)
[2]
>>> migrate_sqlite(conn)
[]
>>> applied_sqlite(conn)
[2]
"""

from __future__ import annotations

import sqlite3
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import psycopg

#: ``(number, statements)``: what each migration adds.  Number 1 is the journal as
#: :mod:`parlour.server.storage` makes it (tables, actions, records), never listed here.
MIGRATIONS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (
        2,
        (
            # players without accounts (issue 33): a name, and the hashes of the keys that
            # act for the player (one per device; a move link adds one)
            """CREATE TABLE IF NOT EXISTS parlour_players (
                id TEXT PRIMARY KEY, name TEXT NOT NULL,
                created DOUBLE PRECISION NOT NULL, updated DOUBLE PRECISION NOT NULL)""",
            """CREATE TABLE IF NOT EXISTS parlour_player_keys (
                key_hash TEXT PRIMARY KEY, player TEXT NOT NULL,
                created DOUBLE PRECISION NOT NULL)""",
            "CREATE INDEX IF NOT EXISTS parlour_player_keys_player ON parlour_player_keys (player)",
            # one-time links that give a new device a key of the player (hash, expiry, use)
            """CREATE TABLE IF NOT EXISTS parlour_player_moves (
                link_hash TEXT PRIMARY KEY, player TEXT NOT NULL,
                expires DOUBLE PRECISION NOT NULL, used DOUBLE PRECISION)""",
            # which player sat at which seat of which table (a row per player a seat had)
            # (``token_hash``: the hash of the seat token the player sat with, so the player can
            # take the seat back from another device only while that token still holds it)
            """CREATE TABLE IF NOT EXISTS parlour_seat_players (
                code TEXT NOT NULL, seat INTEGER NOT NULL, player TEXT NOT NULL,
                ts DOUBLE PRECISION NOT NULL, token_hash TEXT,
                PRIMARY KEY (code, seat, player))""",
            "CREATE INDEX IF NOT EXISTS parlour_seat_players_player ON parlour_seat_players (player)",
            # finished matches and each player's part in them
            """CREATE TABLE IF NOT EXISTS parlour_matches (
                code TEXT PRIMARY KEY, game TEXT NOT NULL, preset TEXT NOT NULL,
                finished DOUBLE PRECISION NOT NULL, rated INTEGER NOT NULL,
                result TEXT NOT NULL)""",
            """CREATE TABLE IF NOT EXISTS parlour_match_players (
                code TEXT NOT NULL, player TEXT NOT NULL, seat INTEGER NOT NULL,
                game TEXT NOT NULL, finished DOUBLE PRECISION NOT NULL, won INTEGER NOT NULL,
                rank INTEGER NOT NULL, PRIMARY KEY (code, player, seat))""",
            "CREATE INDEX IF NOT EXISTS parlour_match_players_player "
            "ON parlour_match_players (player, finished)",
            # ratings (OpenSkill mu/sigma) per player and game, and every change of them
            """CREATE TABLE IF NOT EXISTS parlour_ratings (
                player TEXT NOT NULL, game TEXT NOT NULL, mu DOUBLE PRECISION NOT NULL,
                sigma DOUBLE PRECISION NOT NULL, matches INTEGER NOT NULL,
                updated DOUBLE PRECISION NOT NULL, PRIMARY KEY (player, game))""",
            """CREATE TABLE IF NOT EXISTS parlour_rating_history (
                player TEXT NOT NULL, game TEXT NOT NULL, code TEXT NOT NULL,
                ts DOUBLE PRECISION NOT NULL, mu DOUBLE PRECISION NOT NULL,
                sigma DOUBLE PRECISION NOT NULL, PRIMARY KEY (player, game, code))""",
        ),
    ),
)

_VERSIONS = """CREATE TABLE IF NOT EXISTS parlour_schema (
    version INTEGER PRIMARY KEY, applied DOUBLE PRECISION NOT NULL)"""

#: the advisory lock two PostgreSQL servers migrating at once share (any fixed number)
PG_LOCK = 0x70A2_1033


def latest() -> int:
    """The newest migration this server knows."""
    return max(n for n, _ in MIGRATIONS)


def applied_sqlite(conn: sqlite3.Connection) -> list[int]:
    conn.execute(_VERSIONS)
    return [int(r[0]) for r in conn.execute("SELECT version FROM parlour_schema ORDER BY version")]


def migrate_sqlite(conn: sqlite3.Connection) -> list[int]:
    """Apply the migrations this SQLite journal lacks, each in its own transaction; the numbers
    applied now."""
    done: list[int] = []
    conn.execute(_VERSIONS)
    for number, statements in MIGRATIONS:
        conn.execute("BEGIN IMMEDIATE")  # a second process waits here (busy_timeout)
        try:
            seen = conn.execute(
                "SELECT 1 FROM parlour_schema WHERE version = ?", (number,)
            ).fetchone()
            if seen is None:
                for stmt in statements:
                    conn.execute(stmt)
                conn.execute(
                    "INSERT INTO parlour_schema (version, applied) VALUES (?, ?)",
                    (number, time.time()),
                )
                done.append(number)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return done


def migrate_pg(conn: psycopg.Connection[Any]) -> list[int]:
    """Apply the migrations this PostgreSQL journal lacks, in one transaction under an advisory
    lock (a second server waits, then finds them applied); the numbers applied now."""
    done: list[int] = []
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (PG_LOCK,))
        conn.execute(_VERSIONS)
        have = {int(r[0]) for r in conn.execute("SELECT version FROM parlour_schema").fetchall()}
        for number, statements in MIGRATIONS:
            if number in have:
                continue
            for stmt in statements:
                conn.execute(stmt)
            conn.execute(
                "INSERT INTO parlour_schema (version, applied) VALUES (%s, %s)",
                (number, time.time()),
            )
            done.append(number)
    return done
