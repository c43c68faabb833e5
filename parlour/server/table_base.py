"""What every part of a table shares: the server it lives in (:class:`TableHost`), the state it
holds (:class:`TableBase`: the game, the seats, the moves so far, the status), and the seat
questions every part asks (who controls a seat, what the seat list shows).

A :class:`parlour.server.table.Table` is this base plus one part per job, each in its own module
and each a class over this base:

- ``table_messages``: the ``state`` and ``table`` messages, fanned out to the connections;
- ``table_journal``: reading the journal back (replay) and writing the seats;
- ``table_fair``: the fair-deal records (the server's secret, the players' contributions);
- ``table_advice``: hints and post-hand reviews;
- ``table_bots``: the bot driver;
- ``table`` itself: joining, leaving, starting, and :meth:`~parlour.server.table.Table.submit`.

A part calls another part only through the methods declared at the end of :class:`TableBase`
(``broadcast``, ``kick``, ``submit`` …), which the part that owns them implements.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from parlour.core.bot import Bot
from parlour.core.game import Event, Game
from parlour.core.registry import GameEntry, Variant
from parlour.server.connection import Connection
from parlour.server.deals import DealTracker
from parlour.server.flow import Flow
from parlour.server.seats import SeatState, hash_token
from parlour.server.storage import Storage, TableMeta

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

    from parlour.server.config import ServerConfig

T = TypeVar("T")


class TableHost(Protocol):
    """What a table uses of the server that holds it (``parlour.server.lobby.TableServer``, which
    builds the tables: the table never imports the lobby)."""

    config: ServerConfig
    storage: Storage
    #: the tables in memory, by code (a table's clock checks it is still the one served)
    tables: dict[str, Any]
    bot_procs: ProcessPoolExecutor | None
    work_pool: ThreadPoolExecutor
    #: counters the table adds to (``loop_counters``)
    actions_applied: int
    bot_moves_inline: int
    broadcasts: int

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """A journal call, off the event loop, within the journal's deadline."""
        ...

    def append_action(
        self,
        code: str,
        index: int,
        action: dict[str, Any],
        seat: int | None,
        ts: float,
        chain: str | None = None,
    ) -> Awaitable[None]:
        """Journal an action; answered once it is committed."""
        ...

    async def search(self, code: str, fn: Callable[..., T], *args: Any, urgent: bool = False) -> T:
        """A search on the bot worker, in turn with the other tables'."""
        ...

    def forget(self, table: Any, reason: str) -> None:
        """Drop the table from memory: it is read again from the journal."""

    def plays_inline(self, game: str, bot: Bot) -> bool: ...

    def inline_took(self, game: str, bot: Bot, seconds: float) -> None: ...

    def standin_bot(self, variant: Variant) -> str: ...

    def bot_level(self, variant: Variant, name: str | None) -> str: ...


class TableBase:
    """A table's state, shared by its parts (each part sets its own in its ``_init_*``)."""

    server: TableHost
    meta: TableMeta
    code: str
    entry: GameEntry
    game: Game[Any, Any, Any, Any]
    variant: Variant
    rules: Any
    seats: list[SeatState]
    #: every open connection, seated or watching
    connections: list[Connection]
    #: held while an action (or the start) is checked, journaled and applied
    lock: asyncio.Lock
    #: "waiting", "playing", "finished" or "expired"
    status: str
    #: the cards are dealt (the match seed is fixed); before that ``state`` is a placeholder
    dealt: bool
    seed: int
    state: Any
    #: the moves applied (as journaled) and when
    actions: list[dict[str, Any]]
    timestamps: list[float]
    #: the match's events, each with its index (``_log``)
    events: list[tuple[int, Event]]
    #: the hash chain's head after each move (the first: before any)
    heads: list[str]
    #: the heads journaled with each move (``None`` for moves journaled without one)
    journal_chain: list[str | None]
    #: the fair deal (``table_fair``): the deals' commitments, published before each deal is
    #: seen; the server's secret (made up from the code for a table from before: ``legacy``)
    #: and its published commitment; the players' contributions
    deals: DealTracker
    legacy: bool
    secret: str
    server_commitment: str
    contributions: dict[int, str]
    secret_revealed: bool
    #: problems found reading the journal back (for operators)
    notes: list[str]
    finished_at: float | None
    #: the flow of play (parlour.server.flow): speed, rematch, score-sheet pauses
    flow: Flow
    #: thinking time left to this table's bots (and hints), in seconds
    bot_budget: float

    # --- bookkeeping and seats ---------------------------------------------------------------------------

    @property
    def version(self) -> int:
        return len(self.actions)

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def head(self) -> str:
        return self.heads[-1]

    def _log(self, events: list[Event]) -> None:
        base = len(self.events)
        self.events.extend((base + i, ev) for i, ev in enumerate(events))

    def controller(self, seat: int) -> str:
        """Who plays the seat now: human, absent (within the grace period), bot or waiting."""
        s = self.seats[seat]
        if s.kind == "bot":
            return "bot"
        if s.connections:
            return "human"
        if s.left:
            return "bot"
        if self.status == "waiting":
            return "waiting"
        if not s.claimed or s.absent_since is None:
            return "bot"
        if time.monotonic() - s.absent_since >= self.server.config.grace:
            return "bot"
        return "absent"

    def player_names(self) -> list[str | None]:
        """Each seat's player name where a player gave one (bots and unnamed seats: ``None``)."""
        return [s.name or None if s.kind == "human" else None for s in self.seats]

    def seats_json(self) -> list[dict[str, Any]]:
        out = []
        for s in self.seats:
            row: dict[str, Any] = {
                "seat": s.seat,
                "kind": s.kind,
                "claimed": s.claimed if s.kind == "human" else True,
                "connected": bool(s.connections),
                "controller": self.controller(s.seat),
            }
            if s.kind == "bot":
                row["bot"] = s.bot
            else:
                row["open"] = s.open
                if s.name:
                    row["name"] = s.name
            out.append(row)
        return out

    def free_seats(self) -> list[int]:
        """Seats anyone may take from the lobby: open (not invite-only) and not held."""
        if self.status in ("finished", "expired"):
            return []
        return [s.seat for s in self.seats if s.kind == "human" and s.open and not s.claimed]

    def seat_for_token(self, token: str) -> int | None:
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        digest = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                return s.seat
        return None

    def _job_variant(self) -> dict[str, Any]:
        """What a bot worker process needs to know the table's game: its name, preset, rules and
        the module that defines it (a plug-in game is registered from it in the worker)."""
        return {
            "game": self.meta.game,
            "preset": self.meta.preset,
            "rules": self.meta.rules,
            "module": type(self.game).__module__,
        }

    # --- implemented by the other parts --------------------------------------------------------

    def record(self) -> dict[str, Any]:  # table
        raise NotImplementedError

    async def submit(  # table
        self,
        seat: int | None,
        version: object,
        action_json: object = None,
        *,
        action: Any = None,
        checked: bool = False,
        by_bot: bool = False,
        reply_to: Connection | None = None,
        request_id: Any = None,
    ) -> None:
        raise NotImplementedError

    def broadcast(self, reply_to: Connection | None = None, request_id: Any = None) -> None:
        raise NotImplementedError  # table_messages

    def broadcast_table(self) -> None:  # table_messages
        raise NotImplementedError

    def _reveal_secret(self) -> None:  # table_fair
        raise NotImplementedError

    def kick(self) -> None:  # table_bots
        raise NotImplementedError

    def _spend_budget(self, seconds: float) -> None:  # table_bots
        raise NotImplementedError
