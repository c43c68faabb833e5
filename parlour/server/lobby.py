"""The lobby: creating, finding and loading tables; the server-wide settings and worker threads."""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from parlour import bots as bot_registry
from parlour import games
from parlour.core.errors import ParlourError
from parlour.core.registry import GameEntry, Variant
from parlour.server.storage import Storage, TableMeta
from parlour.server.table import SeatState, Table, new_code, new_token

log = logging.getLogger("parlour.server")
T = TypeVar("T")


@dataclass
class ServerConfig:
    #: seconds a bot waits before it plays, so people can follow
    bot_delay: float = 0.6
    #: seconds a disconnected player keeps the seat before a bot takes over
    grace: float = 30.0
    #: largest client message accepted, in bytes
    max_message: int = 64 * 1024
    #: threads that run bots
    bot_threads: int = 2


class LobbyError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def default_bot(entry: GameEntry, variant: Variant) -> str:
    names = bot_registry.available(variant)
    for preferred in ("basic", "random"):
        if preferred in names:
            return preferred
    return names[0]


class TableServer:
    def __init__(self, storage: Storage, config: ServerConfig | None = None) -> None:
        self.storage = storage
        self.config = config or ServerConfig()
        self.tables: dict[str, Table] = {}
        self.db_pool = ThreadPoolExecutor(1, thread_name_prefix="parlour-db")
        self.bot_pool = ThreadPoolExecutor(
            self.config.bot_threads, thread_name_prefix="parlour-bot"
        )
        self.actions_applied = 0
        self.broken: dict[str, str] = {}

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a storage call on the journal thread (in order, off the event loop)."""
        call = functools.partial(fn, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self.db_pool, call)

    def standin_bot(self, variant: Variant) -> str:
        return default_bot(variant.entry, variant)

    # --- loading -------------------------------------------------------------------------------

    def _build(self, code: str) -> Table | None:
        loaded = self.storage.load_table(code)
        if loaded is None:
            return None
        meta, journal = loaded
        try:
            entry = games.entry(meta.game)
        except ParlourError as exc:
            self.broken[code] = f"table {code} needs the game {meta.game!r}, not installed: {exc}"
            return None
        if entry.game.version != meta.engine_version:
            self.broken[code] = (
                f"table {code} was played with {meta.game} engine v{meta.engine_version}; "
                f"this server has v{entry.game.version}"
            )
            return None
        rules = entry.rules_type.from_json(meta.rules)
        return Table(self, meta, entry, rules, journal)

    async def startup(self) -> None:
        """Replay every unfinished table from the journal."""
        codes = await self.db(self.storage.codes, active=True)
        for code in codes:
            try:
                table = await self.db(self._build, code)
            except Exception as exc:
                log.exception("cannot restore table %s", code)
                self.broken[code] = f"table {code} could not be restored: {exc}"
                continue
            if table is None:
                continue
            self.tables[code] = table
            if table.status == "playing":
                now = time.monotonic()
                for s in table.seats:
                    if s.kind == "human" and s.claimed:
                        s.absent_since = now
                table._after_grace()
                table.kick()
        log.info("restored %d tables", len(self.tables))

    async def shutdown(self) -> None:
        for t in self.tables.values():
            t.close()
        self.bot_pool.shutdown(wait=False, cancel_futures=True)
        self.db_pool.shutdown(wait=True)
        self.storage.close()

    async def get(self, code: str) -> Table:
        code = code.strip().upper()
        if code in self.tables:
            return self.tables[code]
        if code in self.broken:
            raise LobbyError(410, self.broken[code])
        table = await self.db(self._build, code)
        if table is None:
            if code in self.broken:
                raise LobbyError(410, self.broken[code])
            raise LobbyError(404, f"no table {code!r}")
        self.tables[code] = table
        return table

    # --- creating ------------------------------------------------------------------------------

    async def create(
        self,
        game: str,
        preset: str | None,
        options: dict[str, Any] | None,
        players: int | None,
        seats: list[dict[str, Any]] | None,
        claim: int | str | None,
        name: str,
    ) -> tuple[Table, dict[str, Any]]:
        try:
            variant = games.get(game, preset, players, **(options or {}))
        except (ParlourError, ValueError, TypeError) as exc:
            raise LobbyError(422, str(exc)) from None
        n = int(variant.rules.players)  # type: ignore[attr-defined]
        level = default_bot(variant.entry, variant)
        if seats is None:
            seats = [{"kind": "human"}] + [{"kind": "bot", "bot": level}] * (n - 1)
        if len(seats) != n:
            raise LobbyError(422, f"{n} players need {n} seats; got {len(seats)} seat entries")
        available = bot_registry.available(variant)
        states: list[SeatState] = []
        for i, spec in enumerate(seats):
            kind = spec.get("kind", "human")
            if kind == "human":
                states.append(SeatState(i, "human", token=new_token()))
            elif kind == "bot":
                bot = spec.get("bot") or level
                if bot.partition(":")[0] not in available:
                    raise LobbyError(
                        422,
                        f"seat {i}: no bot {bot!r} for {variant.name}; bots: {', '.join(available)}",
                    )
                states.append(SeatState(i, "bot", bot=bot))
            else:
                raise LobbyError(422, f"seat {i}: kind must be 'human' or 'bot', not {kind!r}")
        humans = [s.seat for s in states if s.kind == "human"]
        if claim == "default":
            claim = humans[0] if humans else None
        if claim is not None:
            if not isinstance(claim, int) or claim not in humans:
                raise LobbyError(
                    422, f"claim: seat {claim!r} is not a human seat; human seats: {humans}"
                )
            states[claim].claimed = True
        code = new_code()
        while code in self.tables or await self.db(self.storage.load_table, code) is not None:
            code = new_code()
        now = time.time()
        meta = TableMeta(
            code=code,
            game=variant.name,
            preset=variant.preset,
            rules=variant.rules.to_json(),
            engine_version=variant.game.version,
            seed=secrets.randbits(63),
            seats=[s.stored() for s in states],
            status="waiting" if humans else "playing",
            name=name or f"{variant.entry.game.title} table",
            created=now,
        )
        await self.db(self.storage.create_table, meta)
        table = Table(self, meta, variant.entry, variant.rules, [])
        self.tables[code] = table
        if table.status == "playing":
            table.kick()
        seat_rows: list[dict[str, Any]] = []
        for s in table.seats:
            row: dict[str, Any] = {"seat": s.seat, "kind": s.kind}
            if s.kind == "bot":
                row["bot"] = s.bot
            else:
                row.update(token=s.token, url=seat_url(code, s.token), claimed=s.claimed)
            seat_rows.append(row)
        you = None
        if claim is not None:
            tok = table.seats[claim].token
            you = {"seat": claim, "token": tok, "url": seat_url(code, tok)}
        response = {
            **table.record(),
            "you": you,
            "seats": seat_rows,
            "watch_url": f"/t/{code}",
        }
        return table, response

    async def join(self, code: str, seat: int | None) -> dict[str, Any]:
        table = await self.get(code)
        free = table.free_seats()
        if seat is None:
            if not free:
                raise LobbyError(409, f"table {table.code} has no free seat")
            seat = free[0]
        if not isinstance(seat, int) or not 0 <= seat < table.players:
            raise LobbyError(422, f"seat must be 0..{table.players - 1}")
        if seat not in free:
            raise LobbyError(
                409, f"seat {seat} of table {table.code} is not free; free seats: {free}"
            )
        s = table.seats[seat]
        s.claimed = True
        await table.persist()
        table.broadcast_table()
        assert s.token is not None
        return {"seat": seat, "token": s.token, "url": seat_url(table.code, s.token)}

    async def seat_of(self, table: Table, token: Any) -> int:
        if not isinstance(token, str) or not token:
            raise LobbyError(403, "a seat token is needed ('token')")
        seat = table.seat_for_token(token)
        if seat is None:
            raise LobbyError(403, f"that token holds no seat at table {table.code}")
        return seat

    def list(self, status: str) -> list[dict[str, Any]]:
        out = []
        for t in sorted(self.tables.values(), key=lambda t: t.meta.created):
            if t.status == "finished":
                continue
            if status == "open" and not t.free_seats():
                continue
            out.append(t.record())
        return out


def seat_url(code: str, token: str | None) -> str:
    return f"/t/{code}?seat={token}"
