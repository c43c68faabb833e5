"""The lobby: creating, finding and loading tables; the server-wide settings and worker threads.

:class:`TableServer` holds the tables in memory and is what a table knows as its host
(``table_base.TableHost``): the journal calls (batched on worker threads, or from the event loop
on PostgreSQL), the bot worker shared fairly between tables, rate limits, bot levels.  A new
table's request is read by ``lobby_create``; seats change hands in ``lobby_seats``.
"""

from __future__ import annotations

import asyncio
import bisect
import functools
import logging
import re
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from parlour import bots as bot_registry
from parlour import games
from parlour.core.errors import ParlourError
from parlour.core.registry import GameEntry, Variant
from parlour.core.said import N_
from parlour.server import botpool, lobby_create, lobby_seats, loopstats, pgloop
from parlour.server.batch import Batcher
from parlour.server.config import BOT_ALIASES, ServerConfig
from parlour.server.deals import new_secret, secret_commitment
from parlour.server.errors import JournalError, LobbyError, Rejected, said_of
from parlour.server.fairshare import FairShare
from parlour.server.guard import DEFAULT_LIMITS, OriginPolicy, RateLimiter, SharedRateLimiter
from parlour.server.pgloop import LoopAppender
from parlour.server.seats import new_code
from parlour.server.storage import (
    CorruptJournal,
    JournalTimeout,
    PostgresStorage,
    Storage,
    StorageError,
)
from parlour.server.table import Table

if TYPE_CHECKING:
    from parlour.core.bot import Bot

log = logging.getLogger("parlour.server")
#: the ``loop_counters`` keys of ``action_times`` (the bucket's index follows)
ACTION_MS = "action_ms_"
TABLE_CODE = re.compile(r"[A-Z0-9]{1,16}")
T = TypeVar("T")


class Peers(Protocol):
    """The other processes serving the same journal, as this process's lobby and routes use
    them: ``parlour.server.cluster.Cluster`` (which is built above the lobby and handed to it,
    so the lobby never imports the cluster)."""

    limiter: SharedRateLimiter

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def call(
        self, code: str, op: str, args: dict[str, Any], *, forwarded: bool = False
    ) -> dict[str, Any]:
        """A lobby operation on a table, run by the process that plays it."""
        ...

    async def list(self, status: str, offset: int, limit: int) -> dict[str, Any]:
        """The lobby's table list across every process."""
        ...

    async def serve_socket(
        self,
        transport: Any,
        code: str,
        seat: str | None,
        contrib: str | None,
        *,
        deltas: bool = False,
        lang: str = "en",
    ) -> None:
        """A player's WebSocket, served here or by the process that plays the table (told in
        ``lang``, issue 34)."""
        ...


def default_bot(entry: GameEntry, variant: Variant) -> str:
    names = bot_registry.available(variant)
    for preferred in ("basic", "random"):
        if preferred in names:
            return preferred
    return names[0]


def _seconds(level: str) -> float:
    """The seconds a level thinks a move: its budget, or ``expert``'s own 3 s when it has none."""
    name, _, arg = level.partition(":")
    if not arg and name == "expert":
        from parlour.bots.expert import EXPERT_SECONDS

        return EXPERT_SECONDS
    try:
        return float(arg.rstrip("s")) if arg else 0.0
    except ValueError:
        return float("inf")


class TableServer:
    def __init__(self, storage: Storage, config: ServerConfig | None = None) -> None:
        self.storage = storage
        self.config = config or ServerConfig()
        #: seconds a journal call may take before it is answered as unavailable (``None``: no
        #: limit, a local file)
        self.deadline: float | None = getattr(storage, "deadline", None)
        self.tables: dict[str, Table] = {}
        self.db_pool = ThreadPoolExecutor(
            max(1, int(getattr(storage, "concurrency", 1))), thread_name_prefix="parlour-db"
        )
        #: journal calls go to ``db_pool`` in batches (``parlour.server.batch``)
        self.journal = Batcher(
            self.db_pool,
            max(1, int(getattr(storage, "concurrency", 1))),
            # a batch is one transaction, one commit (``run_batch`` of SQLite and PostgreSQL)
            group=getattr(storage, "run_batch", None),
        )
        #: action appends on the event loop (PostgreSQL; ``parlour.server.pgloop``), or ``None``
        self.appender: LoopAppender | None = None
        self._append_call: Any = None
        if pgloop.enabled(storage, self.config.pg_loop):
            self.appender = LoopAppender(cast(PostgresStorage, storage))
            self._append_call = storage.append_action
        self.bot_pool = ThreadPoolExecutor(
            self.config.bot_threads, thread_name_prefix="parlour-bot"
        )
        self.bot_procs: ProcessPoolExecutor | None = (
            botpool.new_pool(self.config.bot_processes) if self.config.bot_processes > 0 else None
        )
        #: the searches (bot moves, hints) of every table on the bot worker, shared fairly
        #: between tables (``parlour.server.fairshare``)
        self.bot_share = FairShare(
            self.bot_procs if self.bot_procs is not None else self.bot_pool,
            self.config.bot_processes if self.bot_procs is not None else self.config.bot_threads,
        )
        #: replays and verifications: one thread of their own, so they never hold up a bot
        self.work_pool = ThreadPoolExecutor(1, thread_name_prefix="parlour-work")
        #: (game, bot) pairs whose move was once too slow to play on the event loop
        self._slow_inline: set[tuple[str, str]] = set()
        #: each inline level's running mean CPU seconds per move
        self._inline_mean: dict[tuple[str, str], float] = {}
        self.actions_applied = 0
        #: bot moves played on the event loop, and state broadcasts (``loop_counters``)
        self.bot_moves_inline = 0
        self.broadcasts = 0
        #: a player's accepted actions by how long the server took (read → state queued), in
        #: the buckets of ``parlour.server.loopstats.BOUNDS`` (ms)
        self.action_times = [0] * (len(loopstats.BOUNDS) + 1)
        self.broken: dict[str, str] = {}
        limits = DEFAULT_LIMITS if self.config.rate_limits is None else self.config.rate_limits
        self.limiter = RateLimiter(limits)
        self.origins = OriginPolicy(self.config.allowed_hosts, self.config.allow_origins)
        self._sweeper: asyncio.Task[None] | None = None
        #: several processes on one journal (``parlour.server.cluster.Cluster``), or ``None``
        self.cluster: Peers | None = None

    def loop_counters(self) -> dict[str, int]:
        """What the server has done so far (``parlour.server.loopstats``)."""
        return {
            "actions": self.actions_applied,
            "bot_moves": self.bot_moves_inline,
            "broadcasts": self.broadcasts,
            "journal_batches": self.journal.batches,
            "journal_calls": self.journal.calls,
            **(self.appender.counters() if self.appender is not None else {}),
            **{f"{ACTION_MS}{i}": n for i, n in enumerate(self.action_times)},
        }

    def action_took(self, seconds: float) -> None:
        self.action_times[bisect.bisect_left(loopstats.BOUNDS, seconds * 1000)] += 1

    def plays_inline(self, game: str, bot: Bot) -> bool:
        """Whether this bot's move is cheap enough to play on the event loop."""
        return bot.name in self.config.bot_inline and (game, bot.name) not in self._slow_inline

    def inline_took(self, game: str, bot: Bot, seconds: float) -> None:
        """A move played on the event loop took ``seconds`` (CPU): a level whose moves take
        longer than ``bot_inline_cap`` on average (a running mean), or one move ten times that,
        goes to the bot threads for this game from now on.  One slow move alone does not: a
        garbage collection of the whole heap can land in any move (measured: it once sent
        ``random`` Samba to the threads at 300 tables, a thread hand-off on every bot move)."""
        key = (game, bot.name)
        if key in self._slow_inline:
            return
        cap = self.config.bot_inline_cap
        mean = self._inline_mean.get(key, 0.0) * 0.8 + seconds * 0.2
        self._inline_mean[key] = mean
        if mean > cap or seconds > 10 * cap:
            self._slow_inline.add(key)
            log.warning(
                "%s bot %s took %.1f ms for a move on the event loop (%.1f ms on average); it "
                "plays on a bot thread from now on",
                game,
                bot.name,
                seconds * 1000,
                mean * 1000,
            )

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a storage call on a journal thread (off the event loop), handed over in a batch
        with the other calls due (``parlour.server.batch``); answered once it has returned.  A
        table's writes stay in order because a table awaits each write before the next under
        its lock."""
        return await self._in_time(self.journal.call(functools.partial(fn, *args, **kwargs)))

    async def _in_time(self, fut: asyncio.Future[T]) -> T:
        """The journal's answer, or :class:`JournalTimeout` after the storage's ``deadline``
        (PostgreSQL: its connection wait plus its statement timeout).  The statement timeout is
        enforced by the database, which a silent network never lets answer; this one is ours."""
        if self.deadline is None:
            return await fut
        try:
            return await asyncio.wait_for(fut, self.deadline)
        except TimeoutError:
            raise JournalTimeout(
                f"the database did not answer within {self.deadline:g} s"
            ) from None

    def forget(self, table: Table, reason: str) -> None:
        """Drop a table from memory (its journal is read again on the next look): after a write
        whose outcome is not known.  Its players are disconnected and reconnect."""
        if self.tables.get(table.code) is table:
            del self.tables[table.code]
            log.warning("table %s is read again from the journal: %s", table.code, reason)
            for conn in list(table.connections):
                conn.close(reason)
            table.close()

    def append_action(
        self,
        code: str,
        index: int,
        action: dict[str, Any],
        seat: int | None,
        ts: float,
        chain: str | None = None,
    ) -> Awaitable[None]:
        """Journal a table's action (the storage's ``append_action``), answered once it is
        committed: on PostgreSQL from the event loop, in one statement with the other appends
        due (``parlour.server.pgloop``), unless ``PARLOUR_PG_LOOP=0``; else as :meth:`db`.  A
        storage whose ``append_action`` was replaced after the server was made (tests that
        inject faults) is called as itself, on the journal threads.

        The call is handed over at once and what comes back is awaited by the table: the
        journal's future itself when there is no deadline (SQLite), else the deadline's wait
        (no coroutine of this method's own, nor :meth:`db`'s: one action, one append)."""
        fn = self.storage.append_action
        if self.appender is not None and fn == self._append_call:
            fut = self.appender.append(code, index, action, seat, ts, chain)
        else:
            fut = self.journal.call(functools.partial(fn, code, index, action, seat, ts, chain))
        return fut if self.deadline is None else self._in_time(fut)

    async def search(self, code: str, fn: Callable[..., T], *args: Any, urgent: bool = False) -> T:
        """Run a search of table ``code`` (a bot move, a hint) on the bot worker, in turn with
        the other tables' searches (``urgent``, a hint someone waits for: before the bots'
        moves; else the least-served table first)."""
        result: T = await self.bot_share.run(code, fn, *args, urgent=urgent)
        return result

    async def rate_wait(self, kind: str, client: str) -> float:
        """Spend one request of ``kind`` for this client address: 0 when allowed, else the
        seconds to wait.  Several processes (a cluster) count an address together in Redis."""
        shared = self.cluster.limiter if self.cluster is not None else None
        if shared is not None:
            return await shared.take(kind, client)
        return self.limiter.take(kind, client)

    async def limit(self, kind: str, client: str) -> None:
        """Spend one request of ``kind`` for this client address, or refuse with 429."""
        wait = await self.rate_wait(kind, client)
        if wait > 0:
            retry = max(1, int(wait + 0.999))
            raise LobbyError(
                429,
                N_(
                    "too many requests of this kind from your address; try again in {seconds} s",
                    seconds=retry,
                ),
                {"Retry-After": str(retry)},
            )

    def standin_bot(self, variant: Variant) -> str:
        return default_bot(variant.entry, variant)

    def bot_levels(self, variant: Variant) -> list[str]:
        """The levels offered for this game: the server's fixed list, where the game has them."""
        available = set(bot_registry.available(variant))
        return [
            level
            for level in self.config.bot_levels
            if level.partition(":")[0] in available and _seconds(level) <= self.config.bot_move_cap
        ]

    def check_bot(self, variant: Variant, name: Any) -> str:
        """A requested level as one of the offered ones, or :class:`LobbyError` 422."""
        offered = self.bot_levels(variant)
        if isinstance(name, str):
            level = BOT_ALIASES.get(name, name)
            if level in offered:
                return level
        raise LobbyError(
            422,
            N_(
                "no bot level {level} for {variant}; levels: {levels}",
                level=repr(name),
                variant=variant.name,
                levels=", ".join(offered),
            ),
        )

    def bot_level(self, variant: Variant, name: str | None) -> str:
        """A journaled level as an offered one (older tables may name any thinking time)."""
        offered = self.bot_levels(variant)
        if name is not None:
            name = BOT_ALIASES.get(name, name)
            if name in offered:
                return name
            base = name.partition(":")[0]
            same = [lvl for lvl in offered if lvl.partition(":")[0] == base]
            if same:  # the nearest offered thinking time
                return min(same, key=lambda lvl: abs(_seconds(lvl) - _seconds(name or "")))
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
            self.broken[code] = N_(
                "table {code} needs the game {game}, not installed: {error}",
                code=code,
                game=repr(meta.game),
                error=said_of(exc),
            )
            return None
        if entry.game.version != meta.engine_version:
            self.broken[code] = N_(
                "table {code} was played with {game} engine v{version}; this server has v{ours}",
                code=code,
                game=meta.game,
                version=str(meta.engine_version),
                ours=str(entry.game.version),
            )
            return None
        try:
            rules = entry.rules_type.from_json(meta.rules)
        except ParlourError as exc:
            self.broken[code] = N_(
                "table {code} has rules this server refuses: {error}", code=code, error=said_of(exc)
            )
            return None
        records = self.storage.records(code)
        try:
            return Table(self, meta, entry, rules, journal, records)
        except JournalError as exc:
            self.broken[code] = said_of(exc)
            return None

    async def _load(self, code: str) -> Table | None:
        """Load a table; one that cannot be loaded is reported once and remembered as broken."""
        try:
            return await self.db(self._build, code)
        except CorruptJournal as exc:
            log.error("cannot restore table %s: %s", code, exc)
            self.broken[code] = said_of(exc)
            return None
        except StorageError:
            raise
        except Exception as exc:
            log.exception("cannot restore table %s", code)
            self.broken[code] = N_(
                "table {code} could not be restored: {error}", code=code, error=said_of(exc)
            )
            return None

    async def startup(self) -> None:
        """Replay every unfinished table from the journal; a broken one is reported and skipped.
        In a cluster, tables are taken one by one as their leases allow (the cluster starts)."""
        if self.appender is not None:
            await self.appender.start()
        if self.cluster is not None:
            await self.cluster.start()
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())
            return
        codes = await self.db(self.storage.codes, active=True)
        for code in codes:
            try:
                table = await self._load(code)
            except StorageError as exc:
                log.error("cannot read table %s from the journal: %s", code, exc)
                continue
            if table is None:
                if code in self.broken:
                    log.error("table %s is skipped: %s", code, self.broken[code])
                continue
            if table.status in ("expired", "finished"):
                continue
            self.tables[code] = table
            if table.status == "playing":
                now = time.monotonic()
                for s in table.seats:
                    if s.kind == "human" and s.claimed:
                        s.absent_since = now
                table._after_grace()
                table.kick()
        log.info("restored %d tables (%d skipped)", len(self.tables), len(self.broken))
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())

    async def shutdown(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self.cluster is not None:
            await self.cluster.stop()
        for t in self.tables.values():
            t.close()
        self.bot_pool.shutdown(wait=False, cancel_futures=True)
        if self.bot_procs is not None:
            self.bot_procs.shutdown(wait=False, cancel_futures=True)
        self.work_pool.shutdown(wait=False, cancel_futures=True)
        self.db_pool.shutdown(wait=True)
        if self.appender is not None:
            await self.appender.close()
        self.storage.close()

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.sweep_interval)
            try:
                await self.sweep()
            except Exception:
                log.exception("sweeping tables failed")

    async def sweep(self, now: float | None = None) -> None:
        """Expire waiting tables nobody started; unload finished tables nobody watches."""
        mono = time.monotonic() if now is None else now
        wall = time.time()
        for code, t in list(self.tables.items()):
            if t.connections:
                continue
            if t.status == "finished":
                if t.finished_at is None or mono - t.finished_at >= self.config.finished_linger:
                    t.close()
                    del self.tables[code]
            elif t.status == "waiting" and wall - t.meta.created >= self.config.waiting_expiry:
                t.status = "expired"
                await t.persist()
                t.close()
                del self.tables[code]

    async def get(self, code: str) -> Table:
        if not isinstance(code, str):
            raise LobbyError(404, N_("no such table"))
        code = code.strip().upper()
        if not TABLE_CODE.fullmatch(code):  # never ask the journal about a made-up code
            raise LobbyError(404, N_("no table {code}", code=repr(code[:40])))
        if code in self.tables:
            return self.tables[code]
        if code in self.broken:
            raise LobbyError(410, self.broken[code])
        try:
            table = await self._load(code)
        except StorageError as exc:
            raise LobbyError(
                503, N_("the tables cannot be read just now: {error}", error=str(exc))
            ) from None
        if table is None:
            if code in self.broken:
                raise LobbyError(410, self.broken[code])
            raise LobbyError(404, N_("no table {code}", code=repr(code)))
        if table.status == "expired":
            raise LobbyError(410, N_("table {code} expired before it started", code=code))
        self.tables[code] = table
        if table.status == "finished":
            table.finished_at = time.monotonic()
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
        player: str | None = None,
        hints: bool | None = None,
    ) -> tuple[Table, dict[str, Any]]:
        variant = lobby_create.read_variant(game, preset, options, players)
        level = default_bot(variant.entry, variant)
        states = lobby_create.seat_states(variant, seats, level, self.check_bot)
        claim, you, invites = lobby_create.hand_out(states, claim, player)
        try:
            code = new_code()
            while code in self.tables or await self.db(self.storage.load_table, code) is not None:
                code = new_code()
            secret = new_secret()
            now = time.time()
            extra = {"secret": secret, "host_seat": claim, "hints": hints}
            meta = lobby_create.new_meta(code, variant, states, name, extra, now)
            await self.db(self.storage.create_table, meta)
            await self.db(
                self.storage.add_record,
                code,
                "secret_commitment",
                {"commitment": secret_commitment(secret)},
                now,
            )
        except StorageError as exc:
            raise LobbyError(
                503, N_("the table cannot be saved just now: {error}", error=str(exc))
            ) from None
        table = Table(self, meta, variant.entry, variant.rules, [], [])
        self.tables[code] = table
        if all(s.kind == "bot" for s in states):
            try:
                await table.start()
            except Rejected as exc:
                raise LobbyError(503, exc.message) from None
        return table, lobby_create.created(table, you, invites)

    async def _save_seats(self, table: Table) -> None:
        try:
            await self.db(
                self.storage.update_table,
                table.code,
                [s.stored() for s in table.seats],
                table.status,
                time.time(),
            )
        except StorageError as exc:
            raise LobbyError(
                503, N_("the seat cannot be saved just now: {error}", error=str(exc))
            ) from None

    async def claim(self, code: str, invite: Any, player: Any = None) -> dict[str, Any]:
        """Open an invite (``lobby_seats.claim``)."""
        return await lobby_seats.claim(await self.get(code), invite, player, self._save_seats)

    async def join(self, code: str, seat: Any, player: Any = None) -> dict[str, Any]:
        """Take an open seat (``lobby_seats.join``)."""
        return await lobby_seats.join(await self.get(code), seat, player, self._save_seats)

    async def reinvite(self, table: Table, token: Any, seat: Any) -> dict[str, Any]:
        """A new one-time invite (``lobby_seats.reinvite``)."""
        return await lobby_seats.reinvite(table, token, seat, self._save_seats)

    async def rotate(self, table: Table, token: Any) -> dict[str, Any]:
        """A fresh token for the seat (``lobby_seats.rotate``)."""
        return await lobby_seats.rotate(table, token, self._save_seats)

    async def seat_of(self, table: Table, token: Any) -> int:
        return lobby_seats.seat_of(table, token)

    def list(self, status: str, offset: int = 0, limit: int = 50) -> dict[str, Any]:
        rows = []
        for t in sorted(self.tables.values(), key=lambda t: t.meta.created):
            if t.status in ("finished", "expired"):
                continue
            if status == "open" and not t.free_seats():
                continue
            rows.append(t)
        page = rows[offset : offset + limit]
        return {
            "tables": [t.record() for t in page],
            "total": len(rows),
            "offset": offset,
            "limit": limit,
        }
