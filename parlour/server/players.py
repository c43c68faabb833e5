"""Players without accounts (issue 33): a display name and a secret key kept in the browser.

The first visit makes a player (``POST /api/players``): a public id (shown in ``/p/<id>``), a
name (the rules of seat names: 1 to 24 printable characters, spaces collapsed; two players may
share one) and a key of 256 random bits that only the browser holds — the journal keeps the key's
hash, as it does for seat tokens.  Every call that acts for the player carries the key in its
JSON body, never in an address (addresses end up in logs).

A seat is bound to a player by ``POST /api/tables/{code}/sit`` (the seat's token and the key):
the seat then shows the player's name, the table appears under the player's tables, and a
finished match goes into the player's history and ratings (:mod:`parlour.server.ratings`).  The
browser sits after every seat it takes (created, invited, joined, rematch), and again whenever it
opens the table; a rename reaches every seat the player still holds at once (``renamed``).

Moving to another device: ``POST /api/players/move`` makes a one-time link (10 minutes, one use;
shown with a QR code drawn by ``segno``).  Opening it gives the new browser a key of its own for
the same player; the old browser's key keeps working.

Everything here is plain SQL on the journal's own connection (:meth:`Storage._execute`), run on
the journal threads like every other storage call; the tables are made by
:mod:`parlour.server.schema`.
"""

from __future__ import annotations

import contextlib
import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parlour.core.said import N_
from parlour.server.storage import StorageError

if TYPE_CHECKING:
    from parlour.server.lobby import TableServer
    from parlour.server.storage import Storage
    from parlour.server.table import Table

#: a move link works this long (seconds), and once
MOVE_SECONDS = 600.0
#: matches listed on a player page and in the lobby
PAGE_MATCHES = 50
LOBBY_MATCHES = 10


def hash_key(key: str) -> str:
    """Player keys and move links are kept hashed, as seat tokens are."""
    return hashlib.sha256(f"parlour-player:{key}".encode()).hexdigest()


def new_key() -> str:
    return secrets.token_urlsafe(32)  # 256 bits


def new_id() -> str:
    return secrets.token_hex(6)


def valid_key(key: Any) -> bool:
    return isinstance(key, str) and 20 <= len(key) <= 200


def valid_id(pid: Any) -> bool:
    return isinstance(pid, str) and len(pid) == 12 and all(c in "0123456789abcdef" for c in pid)


@dataclass(frozen=True)
class Player:
    id: str
    name: str


class PlayerStore:
    """The players' part of the journal (blocking calls, for the journal threads)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def _q(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        run = self.storage._execute  # type: ignore[attr-defined]
        return run(self.storage._sql(sql), params)  # type: ignore[attr-defined,no-any-return]

    def create(self, name: str) -> tuple[Player, str]:
        pid, key, now = new_id(), new_key(), time.time()
        self._q(
            "INSERT INTO parlour_players (id, name, created, updated) VALUES (?, ?, ?, ?)",
            (pid, name, now, now),
        )
        self._q(
            "INSERT INTO parlour_player_keys (key_hash, player, created) VALUES (?, ?, ?)",
            (hash_key(key), pid, now),
        )
        return Player(pid, name), key

    def by_key(self, key: str) -> Player | None:
        rows = self._q(
            "SELECT p.id, p.name FROM parlour_player_keys k JOIN parlour_players p "
            "ON p.id = k.player WHERE k.key_hash = ?",
            (hash_key(key),),
        )
        return Player(rows[0][0], rows[0][1]) if rows else None

    def by_id(self, pid: str) -> Player | None:
        rows = self._q("SELECT id, name FROM parlour_players WHERE id = ?", (pid,))
        return Player(rows[0][0], rows[0][1]) if rows else None

    def names(self, ids: list[str]) -> dict[str, str]:
        out: dict[str, str] = {}
        for pid in set(ids):
            p = self.by_id(pid)
            if p is not None:
                out[pid] = p.name
        return out

    def rename(self, pid: str, name: str) -> None:
        self._q(
            "UPDATE parlour_players SET name = ?, updated = ? WHERE id = ?",
            (name, time.time(), pid),
        )

    def new_move(self, pid: str) -> tuple[str, float]:
        link, expires = new_key(), time.time() + MOVE_SECONDS
        self._q(
            "INSERT INTO parlour_player_moves (link_hash, player, expires, used) "
            "VALUES (?, ?, ?, NULL)",
            (hash_key(link), pid, expires),
        )
        return link, expires

    def use_move(self, link: str) -> tuple[Player, str] | str:
        """Spend a move link: the player and a new key for the new device, or why not."""
        now = time.time()
        # one statement takes the link: two devices opening it at once cannot both get it
        rows = self._q(
            "UPDATE parlour_player_moves SET used = ? "
            "WHERE link_hash = ? AND used IS NULL AND expires > ? RETURNING player",
            (now, hash_key(link), now),
        )
        if not rows:
            seen = self._q(
                "SELECT used FROM parlour_player_moves WHERE link_hash = ?", (hash_key(link),)
            )
            if not seen:
                return N_("this move link is not valid")
            if seen[0][0] is not None:
                return N_("this move link has been used already; make a new one")
            return N_("this move link has expired (it works for 10 minutes); make a new one")
        pid = str(rows[0][0])
        key = new_key()
        self._q(
            "INSERT INTO parlour_player_keys (key_hash, player, created) VALUES (?, ?, ?)",
            (hash_key(key), pid, now),
        )
        player = self.by_id(pid)
        if player is None:
            return N_("this player is gone")
        return player, key

    def sit(self, code: str, seat: int, pid: str, token_hash: str | None = None) -> None:
        rows = self._q(
            "UPDATE parlour_seat_players SET token_hash = ? "
            "WHERE code = ? AND seat = ? AND player = ? RETURNING 1",
            (token_hash, code, seat, pid),
        )
        if not rows:
            try:
                self._q(
                    "INSERT INTO parlour_seat_players (code, seat, player, ts, token_hash) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (code, seat, pid, time.time(), token_hash),
                )
            except StorageError:
                # the same player sitting twice at once (two tabs): one row is enough
                if not self._q(
                    "SELECT 1 FROM parlour_seat_players WHERE code = ? AND seat = ? AND player = ?",
                    (code, seat, pid),
                ):
                    raise

    def sat_with(self, code: str, pid: str) -> list[tuple[int, str | None]]:
        """The seats the player sat at at this table, with the token hash each was bound with."""
        rows = self._q(
            "SELECT seat, token_hash FROM parlour_seat_players WHERE code = ? AND player = ?",
            (code, pid),
        )
        return [(int(r[0]), r[1]) for r in rows]

    def seat_players(self, code: str) -> dict[int, list[tuple[str, str | None]]]:
        """Each seat's players at a table (in the order they sat), each with the hash of the
        seat token it last sat with."""
        rows = self._q(
            "SELECT seat, player, token_hash FROM parlour_seat_players WHERE code = ? ORDER BY ts",
            (code,),
        )
        out: dict[int, list[tuple[str, str | None]]] = {}
        for seat, pid, token_hash in rows:
            out.setdefault(int(seat), []).append((str(pid), token_hash))
        return out

    def tables_of(self, pid: str) -> list[dict[str, Any]]:
        """The waiting and playing tables where the player sits (newest first)."""
        rows = self._q(
            "SELECT t.code, t.name, t.game, t.preset, t.status, t.created, s.seat "
            "FROM parlour_seat_players s JOIN parlour_tables t ON t.code = s.code "
            "WHERE s.player = ? AND t.status IN (?, ?) ORDER BY t.created DESC",
            (pid, "waiting", "playing"),
        )
        return [
            {
                "code": r[0],
                "name": r[1],
                "game": r[2],
                "preset": r[3],
                "status": r[4],
                "created": float(r[5]),
                "seat": int(r[6]),
                "url": f"/t/{r[0]}",
            }
            for r in rows[:50]
        ]

    def matches_of(self, pid: str, limit: int) -> list[dict[str, Any]]:
        rows = self._q(
            "SELECT m.code, m.game, m.preset, m.finished, m.rated, m.result, mp.seat, mp.won, "
            "mp.rank FROM parlour_match_players mp JOIN parlour_matches m ON m.code = mp.code "
            "WHERE mp.player = ? ORDER BY mp.finished DESC",
            (pid,),
        )
        import json

        out = []
        for r in rows[:limit]:
            result = json.loads(r[5])
            out.append(
                {
                    "code": r[0],
                    "game": r[1],
                    "preset": r[2],
                    "finished": float(r[3]),
                    "rated": bool(r[4]),
                    "seat": int(r[6]),
                    "won": bool(r[7]),
                    "rank": int(r[8]),
                    "players": result.get("players", []),
                    "scores": result.get("scores", []),
                    "sides": result.get("sides", []),
                    "winners": result.get("winners", []),
                    "replay_url": f"/replay/{r[0]}",
                }
            )
        return out

    def game_counts(self, pid: str) -> dict[str, dict[str, int]]:
        rows = self._q(
            "SELECT game, COUNT(*), SUM(won) FROM parlour_match_players WHERE player = ? "
            "GROUP BY game ORDER BY game",
            (pid,),
        )
        return {str(r[0]): {"played": int(r[1]), "won": int(r[2] or 0)} for r in rows}


def store(server: TableServer) -> PlayerStore:
    """The server's player store (made once, kept on the server)."""
    found: PlayerStore | None = getattr(server, "_players", None)
    if found is None:
        found = PlayerStore(server.storage)
        server._players = found  # type: ignore[attr-defined]
    return found


def check_name(value: Any) -> str:
    """A display name by the seat-name rules (:func:`parlour.server.seats.clean_name`), or a
    ``422`` saying what a name may be."""
    from parlour.server.errors import LobbyError
    from parlour.server.seats import clean_name

    if isinstance(value, str) and len(value) > 80:  # as the seats' ``player`` field
        raise LobbyError(422, N_("a name is at most 24 characters (more than 80 is refused)"))
    name = clean_name(value)
    if name is None:
        raise LobbyError(
            422, N_("a name is 1 to 24 printable characters (letters, digits, spaces…)")
        )
    return name


async def _db(server: TableServer, fn: Callable[..., Any], *args: Any) -> Any:
    from parlour.server.errors import LobbyError

    try:
        return await server.db(fn, *args)
    except StorageError as exc:
        raise LobbyError(
            503, N_("the players cannot be read or saved just now: {error}", error=str(exc))
        ) from None


async def player_for(server: TableServer, key: Any) -> Player:
    """The player whose key this is, or ``403``."""
    from parlour.server.errors import LobbyError

    if not valid_key(key):
        raise LobbyError(403, N_("a player key is needed ('key')"))
    player: Player | None = await _db(server, store(server).by_key, key)
    if player is None:
        raise LobbyError(403, N_("that player key is not known here"))
    return player


# --- the operation on a table (in a cluster: run by the process that owns it) -------------------


async def _op_sit(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    """Bind the seat of ``token`` to the player of ``key``: the seat shows the player's name."""
    seat = await server.seat_of(table, args.get("token"))
    player = await player_for(server, args.get("key"))
    token_hash = table.seats[seat].token_hash
    await _db(server, store(server).sit, table.code, seat, player.id, token_hash)
    s = table.seats[seat]
    if s.name != player.name:
        before = s.name
        s.name = player.name
        try:
            await server._save_seats(table)
        except Exception:
            s.name = before
            raise
        table.broadcast_table()
    return {"seat": seat, "player": player.id, "name": player.name}


async def _op_renamed(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    """A player renamed: each seat of this table the player still holds (with the token it
    sat with) shows the new name at once, to everyone at the table."""
    player = await player_for(server, args.get("key"))
    changed = []
    for seat, token_hash in await _db(server, store(server).sat_with, table.code, player.id):
        s = table.seats[seat]
        if token_hash is None or s.token_hash != token_hash or s.left or s.name == player.name:
            continue
        changed.append((s, s.name))
        s.name = player.name
    if changed:
        try:
            await server._save_seats(table)
        except Exception:
            for s, before in changed:
                s.name = before
            raise
        table.broadcast_table()
    return {"seats": sorted(s.seat for s, _ in changed)}


async def _op_reseat(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    """A player back on another device (no token there): a fresh token for the seat the player
    sat at — only while the token the player sat with still holds it (a seat that moved to
    someone else, or was left, is not taken back).  Every other tab of the seat gets the new
    token (``token`` message), as with ``rotate``."""
    from parlour.server.errors import LobbyError
    from parlour.server.seats import hash_token, new_token

    player = await player_for(server, args.get("key"))
    if table.status in ("finished", "expired"):
        raise LobbyError(409, N_("table {code} is over", code=table.code))
    for seat, token_hash in await _db(server, store(server).sat_with, table.code, player.id):
        s = table.seats[seat]
        if token_hash is None or s.token_hash != token_hash or s.left:
            continue
        fresh = new_token()
        s.token_hash = hash_token(fresh)
        try:
            await server._save_seats(table)
        except LobbyError:
            s.token_hash = token_hash
            raise
        # the binding follows the new token (if this write fails, the token still works; only
        # another reseat would be refused)
        with contextlib.suppress(LobbyError):
            await _db(server, store(server).sit, table.code, seat, player.id, s.token_hash)
        for conn in s.connections:
            conn.send({"type": "token", "token": fresh})
        return {"seat": seat, "token": fresh, "url": f"/t/{table.code}"}
    raise LobbyError(403, N_("you hold no seat at table {code}", code=table.code))


OPS = {"sit": _op_sit, "reseat": _op_reseat, "renamed": _op_renamed}
