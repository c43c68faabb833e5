"""Tables: seats and tokens, the journaled state, connections, and the bots that fill seats.

A :class:`Table` holds the state as a replay of its journal.  :meth:`Table.submit` is the one way
an action gets in: checked with the engine, written to the journal, then broadcast to every
connection as its own view.  Bots play bot seats (and stand in for absent players) from a worker
thread so the event loop keeps serving.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import orjson

from parlour import bots as bot_registry
from parlour.bots import advice
from parlour.core.bot import Bot
from parlour.core.errors import ParlourError
from parlour.core.game import Event, Game
from parlour.core.registry import GameEntry, Variant
from parlour.core.rng import derive_seed
from parlour.server import botpool, flow, house, redact
from parlour.server.deals import (
    DealTracker,
    chain_next,
    chain_start,
    deal_commitment,
    match_seed,
    secret_commitment,
    valid_contribution,
)
from parlour.server.errors import UNAVAILABLE, JournalError, LobbyUnavailable, Rejected
from parlour.server.storage import (
    Duplicate,
    JournalEntry,
    JournalTimeout,
    Record,
    Storage,
    StorageError,
    TableMeta,
)

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

    from parlour.server.config import ServerConfig

T = TypeVar("T")


class TableHost(Protocol):
    """What a table uses of the server that holds it (``parlour.server.lobby.TableServer``, which
    builds the tables: the table never imports the lobby)."""

    config: ServerConfig
    storage: Storage
    #: the tables in memory, by code (a table checks it is still the one served)
    tables: dict[str, Table]
    bot_procs: ProcessPoolExecutor | None
    work_pool: ThreadPoolExecutor
    #: counters the table adds to (``loop_counters``)
    actions_applied: int
    bot_moves_inline: int
    broadcasts: int

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """A journal call, off the event loop, within the journal's deadline."""
        ...

    async def append_action(
        self,
        code: str,
        index: int,
        action: dict[str, Any],
        seat: int | None,
        ts: float,
        chain: str | None = None,
    ) -> None:
        """Journal an action; answered once it is committed."""
        ...

    async def search(self, code: str, fn: Callable[..., T], *args: Any, urgent: bool = False) -> T:
        """A search on the bot worker, in turn with the other tables'."""
        ...

    def forget(self, table: Table, reason: str) -> None:
        """Drop the table from memory: it is read again from the journal."""

    def plays_inline(self, game: str, bot: Bot) -> bool: ...

    def inline_took(self, game: str, bot: Bot, seconds: float) -> None: ...

    def standin_bot(self, variant: Variant) -> str: ...

    def bot_level(self, variant: Variant, name: str | None) -> str: ...


log = logging.getLogger("parlour.server")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))


def new_token() -> str:
    return secrets.token_urlsafe(32)


#: one quick bot move in this many is timed with the CPU clock (``Table._drive``)
CLOCK_EVERY = 8


def encode(message: dict[str, Any]) -> str:
    """JSON text for the wire (orjson: ~10x faster than ``json`` on a state message); what
    orjson refuses — a lone surrogate anywhere (never sendable as UTF-8), an integer beyond 64
    bits — goes through ``json``, with surrogates escaped."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        pass
    text = json.dumps(message, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(message, ensure_ascii=True)
    return text


class Connection:
    """One WebSocket: its seat (``None`` = watching) and the messages waiting to go out.

    The queue is bounded in messages and bytes.  A connection that falls behind (its client
    reads slower than the table plays, or not at all) loses its backlog and gets one full
    ``state`` of the table as it is when the socket can take it (``resync``); nothing queues
    without bound.  ``behind`` counts how often that happened."""

    MAX_MESSAGES = 64
    MAX_BYTES = 1 << 21

    def __init__(
        self,
        seat: int | None,
        resync: Callable[[Connection], str] | None = None,
        *,
        max_messages: int = MAX_MESSAGES,
        max_bytes: int = MAX_BYTES,
        deltas: bool = False,
    ) -> None:
        self.seat = seat
        #: the client asked for deltas (``?deltas=1``): a ``state`` after the first carries only
        #: what changed since the previous ``state`` sent on this connection (docs/protocol.md)
        self.deltas = deltas
        #: what the previous ``state`` on this connection carried (seat, version, payload, seats):
        #: the base of the next delta (the socket delivers in order, so the client has it)
        self.base: tuple[int | None, int, dict[str, Any], list[dict[str, Any]]] | None = None
        #: when the message being sent started waiting for the socket (``None``: not sending)
        self.sending_since: float | None = None
        self.queue: collections.deque[str] = collections.deque()
        self.bytes = 0
        self.sent_event = -1
        self.resync = resync
        self.max_messages = max_messages
        self.max_bytes = max_bytes
        self.lagging = False
        self.behind = 0
        self.closed = False
        self.close_reason = ""
        #: the client asked for reviews: it is sent each new one when it is ready
        self.wants_review = False
        #: writes a text to the socket at once, without the sender task, and says whether it
        #: did (``False``: the socket cannot take it now; it is queued as any other).  Set by
        #: ``app.run_session`` for a WebSocket whose writes are synchronous (``WsTransport.
        #: send_now``); used only while nothing is queued or being sent, so order is kept.
        self.direct: Callable[[str], bool] | None = None
        self._ready = asyncio.Event()

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        if self.closed or self.lagging:
            return  # the resync that is due will carry the latest state
        if (
            self.direct is not None
            and not self.queue
            and self.sending_since is None
            and self.direct(text)
        ):
            return  # written: the sender task is neither woken nor needed
        if len(self.queue) >= self.max_messages or self.bytes + len(text) > self.max_bytes:
            self.queue.clear()
            self.bytes = 0
            self.behind += 1
            self.lagging = self.resync is not None
            if not self.lagging:
                self.close("too slow: the connection did not read its messages")
        else:
            self.queue.append(text)
            self.bytes += len(text)
        self._ready.set()

    def close(self, reason: str = "") -> None:
        """No more messages: the sender ends after what is queued."""
        if not self.closed:
            self.closed = True
            self.close_reason = reason
        self._ready.set()

    async def next(self) -> str | None:
        """The next text to send (``None``: close the socket)."""
        while True:
            if self.queue:
                text = self.queue.popleft()
                self.bytes -= len(text)
                return text
            if self.lagging and self.resync is not None and not self.closed:
                self.lagging = False
                return self.resync(self)
            if self.closed:
                return None
            self._ready.clear()
            await self._ready.wait()


def hash_token(token: str) -> str:
    """Seat tokens and invites are kept hashed: the journal never holds a usable one."""
    return hashlib.sha256(f"parlour-token:{token}".encode()).hexdigest()


@dataclass
class SeatState:
    seat: int
    kind: str  # "human" or "bot"
    bot: str | None = None
    #: sha256 of the seat token (``None``: nobody holds the seat)
    token_hash: str | None = None
    #: sha256 of the one-time invite (``None``: no invite open)
    invite_hash: str | None = None
    #: sha256 of the invite once it was used (to say "already used" rather than "wrong")
    invite_used: str | None = None
    #: anyone may take the seat from the open-tables list (else invite only)
    open: bool = False
    claimed: bool = False
    ever_connected: bool = False
    connections: list[Connection] = field(default_factory=list)
    absent_since: float | None = None
    #: the player left: a bot plays the seat
    left: bool = False
    #: the name the player gave (shown at the table); ``None``: the seat's name
    name: str | None = None

    def stored(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "bot": self.bot,
            "token_hash": self.token_hash,
            "invite_hash": self.invite_hash,
            "invite_used": self.invite_used,
            "open": self.open,
            "claimed": self.claimed,
            "ever_connected": self.ever_connected,
            "left": self.left,
            "name": self.name,
        }

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> SeatState:
        token_hash = data.get("token_hash")
        if token_hash is None and data.get("token"):  # a table journaled before tokens were hashed
            token_hash = hash_token(str(data["token"]))
        return cls(
            seat=int(data["seat"]),
            kind=data["kind"],
            bot=data.get("bot"),
            token_hash=token_hash,
            invite_hash=data.get("invite_hash"),
            invite_used=data.get("invite_used"),
            open=bool(data.get("open")),
            claimed=bool(data.get("claimed")),
            ever_connected=bool(data.get("ever_connected")),
            left=bool(data.get("left")),
            name=clean_name(data.get("name")),
        )


#: longest player name kept (characters)
NAME_MAX = 24


def clean_name(value: Any) -> str | None:
    """A player's name as shown: printable, one line, at most ``NAME_MAX`` characters; ``None``
    for no name (or anything that is not text)."""
    if not isinstance(value, str):
        return None
    text = "".join(ch if ch.isprintable() else " " for ch in value)
    text = " ".join(text.split())[:NAME_MAX].strip()
    return text or None


class Table:
    def __init__(
        self,
        server: TableHost,
        meta: TableMeta,
        entry: GameEntry,
        rules: Any,
        journal: list[JournalEntry],
        records: list[Record] | None = None,
    ) -> None:
        self.server = server
        self.meta = meta
        self.code = meta.code
        self.entry = entry
        self.game: Game[Any, Any, Any, Any] = entry.game
        self.variant = Variant(entry, meta.preset, rules)
        self.rules = rules
        self.seats = [SeatState.from_stored(s) for s in meta.seats]
        for s in self.seats:
            if s.kind == "bot":
                s.bot = server.bot_level(self.variant, s.bot)
        self.connections: list[Connection] = []
        self.lock = asyncio.Lock()
        self.events: list[tuple[int, Event]] = []
        self._bots: dict[int, Bot] = {}
        self._driver: asyncio.Task[None] | None = None
        self._timers: list[asyncio.TimerHandle] = []
        self._retry: asyncio.Task[None] | None = None
        self.actions: list[dict[str, Any]] = []
        self.timestamps: list[float] = []
        self.notes: list[str] = []  # problems found reading the journal back (for operators)
        self.finished_at: float | None = None
        self.bot_budget = server.config.bot_budget
        #: hints and reviews (issue 19): each human seat's decisions in the hand being played,
        #: the reviews of its finished hands (newest last), when it last asked for a hint
        self.decisions: dict[int, list[advice.Decision]] = {}
        self.reviews: dict[int, list[dict[str, Any]]] = {}
        self.reviews_due: set[int] = set()
        #: the last finished hand's decisions of seats nobody asked reviews for yet
        self._unreviewed: dict[int, list[advice.Decision]] = {}
        self._hint_at: dict[int, float] = {}
        self._hinting: set[int] = set()
        #: each seat's holder, counted up when the seat changes hands (a review searched for
        #: the one before is not kept for the next: reviews belong to the person who played)
        self._holder: dict[int, int] = {}
        self._budget_at = time.monotonic()
        #: quick bot moves played on the event loop (one in ``CLOCK_EVERY`` is timed)
        self._inline_moves = 0
        self.persist_due = False
        self._payloads: dict[int | None, tuple[tuple[Any, ...], dict[str, Any]]] = {}
        self._told: dict[int | None, tuple[tuple[Any, ...], dict[str, Any]]] = {}
        #: the flow of play (parlour.server.flow): speed, rematch, score-sheet pauses
        self.flow: dict[str, Any] = {}
        records = records or []
        # fairness: the server's secret, what was published, the players' contributions
        self.legacy = "secret" not in meta.extra
        self.secret: str = (
            str(meta.extra["secret"])
            if not self.legacy
            else hashlib.sha256(f"parlour-legacy:{meta.code}:{meta.seed}".encode()).hexdigest()
        )
        self.server_commitment = secret_commitment(self.secret)
        stored_commitments: dict[int, dict[str, Any]] = {}
        self.contributions: dict[int, str] = {}
        started: dict[str, Any] | None = None
        for r in records:
            if r.kind == "secret_commitment":
                published = str(r.data.get("commitment"))
                if published != self.server_commitment:
                    self.notes.append("the stored secret does not match its published commitment")
                self.server_commitment = published
            elif r.kind == "contribution" and started is None:
                self.contributions.setdefault(int(r.data["seat"]), str(r.data["value"]))
            elif r.kind == "contribution_withdrawn" and started is None:
                self.contributions.pop(int(r.data["seat"]), None)
            elif r.kind == "start" and started is None:
                started = dict(r.data)
                self.contributions = {
                    int(k): str(v) for k, v in dict(started.get("contributions") or {}).items()
                }
            elif r.kind == "deal_commitment":
                stored_commitments.setdefault(int(r.data["hand"]), dict(r.data))
            else:
                flow.read_record(self.flow, r.kind, r.data)
        self.deals = DealTracker(self.game, self.secret, stored_commitments)
        self.heads = [chain_start(self.code, self.server_commitment)]
        #: the heads journaled with each move (``None`` for moves journaled without one)
        self.journal_chain: list[str | None] = [self.heads[0]]
        self.secret_revealed = False
        self.status = meta.status
        self.dealt = (self.legacy and meta.status != "waiting") or started is not None
        self.seed = meta.seed if self.legacy else 0
        if started is not None:
            self.seed = match_seed(self.secret, self.contributions)
        # before the deal the state is a placeholder nobody is shown
        self.state = self.game.new_game(rules, self.seed)
        if self.dealt:
            self._log(self.deals.after(self.state, 0, replaying=True))
        elif journal:
            raise JournalError(f"table {self.code}: moves are journaled but the deal never was")
        for e in journal:
            try:
                action = self.game.action_from_json(e.action)
                reason = self.game.explain(self.state, action)
            except (ParlourError, ValueError, TypeError, KeyError) as exc:
                raise JournalError(
                    f"table {self.code}: move {e.index + 1} in the journal cannot be read: {exc}"
                ) from None
            if reason is not None:
                raise JournalError(
                    f"table {self.code}: move {e.index + 1} in the journal is not legal: {reason}"
                )
            self.state, evs = self.game.apply_unchecked(self.state, action)
            self.actions.append(e.action)
            self.timestamps.append(e.ts)
            self.heads.append(chain_next(self.heads[-1], e.action))
            self.journal_chain.append(e.chain)
            if e.chain is not None and e.chain != self.heads[-1]:
                self.notes.append(f"move {e.index + 1} does not match the chain journaled with it")
            self._log(evs)
            self._log(self.deals.after(self.state, len(self.actions), replaying=True))
        if self.dealt:
            self._log(self.deals.finish_replay(len(self.actions)))
            for deal in self.deals.deals:
                if deal.commitment is not None and deal.commitment != deal_commitment(
                    deal.seed, deal.salt
                ):
                    raise JournalError(
                        f"table {self.code}: the deal of hand {deal.hand + 1} does not match the "
                        "commitment published for it (the journal was changed)"
                    )
        if self.dealt and self.game.to_act(self.state) is None:
            self.status = "finished"
        if self.status == "finished":
            self.finished_at = time.monotonic()
            self._reveal_secret()
        for note in self.notes:
            log.warning("table %s: %s", self.code, note)

    # --- bookkeeping ---------------------------------------------------------------------------

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

    def _reveal_secret(self) -> None:
        if self.secret_revealed or self.legacy:
            return
        self.secret_revealed = True
        self._log(
            [
                Event(
                    "secret_reveal",
                    {
                        "secret": self.secret,
                        "server_commitment": self.server_commitment,
                        "contributions": {str(k): v for k, v in self.contributions.items()},
                        "match_seed": self.seed,
                    },
                )
            ]
        )

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

    def fairness(self) -> dict[str, Any]:
        return {
            "server_commitment": self.server_commitment,
            "contributions": {str(k): v for k, v in sorted(self.contributions.items())},
            "seeded": self.dealt,
        }

    def record(self) -> dict[str, Any]:
        """The public description of the table (lobby list, ``table`` messages)."""
        return {
            "code": self.code,
            "name": self.meta.name,
            "game": self.entry.name,
            "preset": self.meta.preset,
            "rules": self.meta.rules,
            "players": self.players,
            "status": self.status,
            "version": self.version,
            "created": self.meta.created,
            "seats": self.seats_json(),
            "free_seats": self.free_seats(),
            "fairness": self.fairness(),
            "hints": self.hints_on,
            **flow.public(self),
            **house.record(self),  # issue 33 hook: rated, turn timer, chat settings
        }

    def seat_for_token(self, token: str) -> int | None:
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        digest = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                return s.seat
        return None

    async def _write_seats(self) -> None:
        await self.server.db(
            self.server.storage.update_table,
            self.code,
            [s.stored() for s in self.seats],
            self.status,
            time.time(),
        )
        self.persist_due = False

    async def persist(self) -> None:
        """Write the seats and status; a journal that is away is retried until it answers."""
        try:
            await self._write_seats()
        except StorageError as exc:
            log.error("table %s: cannot save the seats (%s); retrying", self.code, exc)
            self.persist_due = True
            self._schedule_retry()

    def _schedule_retry(self) -> None:
        if self._retry is None or self._retry.done():
            with contextlib.suppress(RuntimeError):
                self._retry = asyncio.get_running_loop().create_task(self._retry_loop())

    async def _retry_loop(self) -> None:
        delay = 0.5
        while self.persist_due or self.deals.pending:
            await asyncio.sleep(delay)
            delay = min(delay * 2, 10.0)
            try:
                if self.deals.pending:
                    async with self.lock:
                        await self._flush_commitments()
                        self.broadcast()
                if self.persist_due:
                    await self._write_seats()
            except StorageError as exc:
                log.warning("table %s: the journal is still away: %s", self.code, exc)
        self.kick()

    async def _flush_commitments(self) -> None:
        """Journal the deal commitments due, before anyone is told of them."""
        while self.deals.pending:
            rec = self.deals.pending[0]
            await self.server.db(
                self.server.storage.add_record, self.code, "deal_commitment", rec, time.time()
            )
            self.deals.pending.pop(0)

    # --- messages ------------------------------------------------------------------------------

    def payload(self, seat: int | None) -> dict[str, Any]:
        """The seat's part of a ``state`` message, built once per version (and status) of the
        table (and its players' names, which the hands' notes use): every connection of the seat,
        a resync, a ``sync`` or a reconnect reuses it."""
        key = (
            self.version,
            self.status,
            self.dealt,
            len(self.deals.pending),
            tuple(self.player_names()),
        )
        cached = self._payloads.get(seat)
        if cached is not None and cached[0] == key:
            return cached[1]
        payload = self._build_payload(seat)
        self._payloads[seat] = (key, payload)
        return payload

    def _build_payload(self, seat: int | None) -> dict[str, Any]:
        if not self.dealt or self.deals.pending:
            # nothing is shown before the table starts, nor a deal whose commitment is not
            # journaled yet
            return {
                "seat": seat,
                "to_act": None,
                "your_turn": False,
                "view": None,
                "legal": None,
                "outcome": None,
            }
        names = self.player_names()
        # the outcome part changes only when a hand ends: told once per seat and hand
        key = (*redact.outcome_key(self.game, self.state), tuple(names))
        told = self._told.get(seat)
        if told is None or told[0] != key:
            told = self._told[seat] = (
                key,
                redact.told_outcome(self.game, self.state, seat, names),
            )
        return redact.seat_payload(
            self.game,
            self.state,
            seat,
            playing=self.status == "playing",
            player_names=names,
            outcome=told[1],
        )

    def state_message(
        self,
        conn: Connection,
        *,
        full: bool = False,
        payload: dict[str, Any] | None = None,
        seats: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """The ``state`` for ``conn``: the whole seat's part, or (a connection that asked for
        deltas, after its first ``state``) only what changed since the previous one it was sent.
        A delta is made from two payloads of the same seat, so it holds nothing the seat may not
        see."""
        seat = conn.seat
        if payload is None:
            payload = self.payload(seat)
        if seats is None:
            seats = self.seats_json()
        visible = self.events if not self.deals.pending else self.events[: self._published]
        after = -1 if full else conn.sent_event
        tell = redact.teller(self.game, self.state, self.players, seat, self.player_names())
        # an event's index is its place in ``self.events`` (``_log``): only those after ``after``
        # are looked at, not the whole match's log on every message
        events = redact.visible_events(visible[after + 1 :], seat, after, tell)
        conn.sent_event = len(visible) - 1
        base = conn.base
        if conn.deltas:
            conn.base = (seat, self.version, payload, seats)
        if base is not None and not full and conn.deltas and base[0] == seat:
            return {
                "type": "state",
                "version": self.version,
                "status": self.status,
                "chain": self.head,
                "base": base[1],
                "patch": patch(base[2], payload, base[3], seats),
                "events": events,
                "full_log": False,
            }
        return {
            "type": "state",
            "version": self.version,
            "status": self.status,
            "chain": self.head,
            **payload,
            "events": events,
            "full_log": full,
            "seats": seats,
        }

    @property
    def _published(self) -> int:
        """Events up to the first commitment not yet journaled (those after wait for it)."""
        pending = {int(p["hand"]) for p in self.deals.pending}
        for i, ev in self.events:
            if ev.kind == "deal_commitment" and int(ev.data["hand"]) in pending:
                return i
        return len(self.events)

    def resync_text(self, conn: Connection) -> str:
        """A full state for a connection that fell behind (its backlog was dropped)."""
        return encode(self.state_message(conn, full=True))

    def broadcast(self, reply_to: Connection | None = None, request_id: Any = None) -> None:
        """The new state to every connection: one message built and encoded per seat (and per
        point each connection's event log and delta base have reached), sent as the same text to
        all alike."""
        if not self.connections:
            return
        self.server.broadcasts += 1
        seats = self.seats_json()
        texts: dict[tuple[Any, ...], tuple[str, int, Any]] = {}
        for conn in self.connections:
            if conn.lagging or conn.closed:
                continue  # a resync with the latest state is due anyway: build nothing
            payload = self.payload(conn.seat)
            if conn is reply_to and request_id is not None:
                msg = self.state_message(conn, payload=payload, seats=seats)
                msg["id"] = request_id
                conn.send(msg)
                continue
            base = conn.base
            key = (
                conn.seat,
                conn.sent_event,
                conn.deltas,
                None if base is None else (base[0], base[1], id(base[2]), id(base[3])),
            )
            done = texts.get(key)
            if done is None:
                msg = self.state_message(conn, payload=payload, seats=seats)
                done = texts[key] = (encode(msg), conn.sent_event, conn.base)
            else:
                conn.sent_event = done[1]
                conn.base = done[2]
            conn.send_text(done[0])

    def broadcast_table(self) -> None:
        if not self.connections:
            return
        msg = encode({"type": "table", "table": self.record()})
        for conn in self.connections:
            conn.send_text(msg)

    # --- connections -----------------------------------------------------------------------------

    def attach(self, conn: Connection) -> bool:
        """Register a connection (its seat is held at once); True if the seat was newly taken."""
        self.connections.append(conn)
        if conn.seat is None:
            return False
        s = self.seats[conn.seat]
        s.connections.append(conn)
        s.absent_since = None
        changed = not (s.claimed and s.ever_connected) or s.left
        s.claimed = s.ever_connected = True
        s.left = False
        return changed

    async def connected(self, conn: Connection, changed: bool) -> None:
        """After the first ``state`` went out: start the table when everyone is here, persist."""
        if conn.seat is None:
            return
        if self.status == "waiting" and all(
            x.ever_connected for x in self.seats if x.kind == "human"
        ):
            try:
                await self.start()
                return
            except Rejected as exc:  # the journal is away: the next connection or 'start' retries
                log.error("table %s: cannot start: %s", self.code, exc.message)
        if changed:
            await self.persist()
        self.broadcast_table()
        self.kick()

    async def disconnect(self, conn: Connection) -> None:
        if conn in self.connections:
            self.connections.remove(conn)
        if conn.seat is not None:
            s = self.seats[conn.seat]
            if conn in s.connections:
                s.connections.remove(conn)
            if not s.connections:
                s.absent_since = time.monotonic()
                self._after_grace()
            self.broadcast_table()

    def _after_grace(self) -> None:
        loop = asyncio.get_running_loop()
        self._timers = [t for t in self._timers if not t.cancelled()]
        self._timers.append(loop.call_later(self.server.config.grace + 0.01, self.kick))

    async def contribute(self, seat: int, value: Any) -> None:
        """A player's randomness for the shuffle (before the table starts; the first one counts,
        so nobody — the server included — can swap it once others have seen it)."""
        if not valid_contribution(value):
            raise Rejected(
                "bad_contribution", "a contribution is 32 to 64 lowercase hexadecimal characters"
            )
        if self.dealt:
            raise Rejected("started", "the cards are already dealt; contributions came before")
        if seat in self.contributions:
            if self.contributions[seat] == value:
                return
            raise Rejected(
                "bad_contribution", "this seat's randomness is already in; it cannot be changed"
            )
        try:
            await self.server.db(
                self.server.storage.add_record,
                self.code,
                "contribution",
                {"seat": seat, "value": value},
                time.time(),
            )
        except StorageError:
            raise Rejected("unavailable", UNAVAILABLE) from None
        self.contributions[seat] = value
        self.broadcast_table()

    async def start(self) -> None:
        if self.status != "waiting":
            self.broadcast_table()
            return
        async with self.lock:
            if self.status != "waiting":
                return
            if not self.dealt:
                seed = match_seed(self.secret, self.contributions)
                contributions = {str(k): v for k, v in sorted(self.contributions.items())}
                try:
                    await self.server.db(
                        self.server.storage.add_record,
                        self.code,
                        "start",
                        {"contributions": contributions},
                        time.time(),
                    )
                except StorageError:
                    raise Rejected("unavailable", UNAVAILABLE) from None
                state = self.game.new_game(self.rules, seed)
                events = self.deals.after(state, 0)
                with contextlib.suppress(StorageError):
                    await self._flush_commitments()
                self.seed, self.state, self.dealt = seed, state, True
                self._log(events)
                if self.deals.pending:
                    self._schedule_retry()
            self.status = "playing" if self.game.to_act(self.state) is not None else "finished"
            now = time.monotonic()
            for s in self.seats:
                if s.kind == "human" and not s.connections:
                    s.absent_since = now
        self._after_grace()
        await self.persist()
        self.broadcast_table()
        self.broadcast()
        self.kick()

    def demote(self, seat: int, reason: str) -> None:
        """The seat's open connections no longer act for it: they watch from now on."""
        s = self.seats[seat]
        for conn in list(s.connections):
            conn.seat = None
            conn.send(
                {"type": "error", "code": "seat_moved", "message": reason, "version": self.version}
            )
            conn.send(self.state_message(conn, full=True))
        s.connections.clear()
        if s.absent_since is None:
            s.absent_since = time.monotonic()
        self._after_grace()

    async def withdraw_contribution(self, seat: int) -> None:
        """Before the start, a seat handed to a new person loses the old holder's randomness
        (journaled, so the published list stays explainable)."""
        try:
            await self.server.db(
                self.server.storage.add_record,
                self.code,
                "contribution_withdrawn",
                {"seat": seat},
                time.time(),
            )
        except StorageError:
            raise LobbyUnavailable(UNAVAILABLE) from None
        self.contributions.pop(seat, None)
        self.broadcast_table()

    async def leave(self, seat: int) -> None:
        """The player leaves for good: the token is revoked and a bot plays the seat (an open
        seat can be taken again from the lobby)."""
        if self.status in ("finished", "expired"):
            raise Rejected("finished", "the match is over; there is no seat to leave")
        s = self.seats[seat]
        s.left = True
        s.token_hash = None
        self.new_holder(seat)
        s.claimed = not s.open
        s.absent_since = time.monotonic()
        for conn in list(s.connections):
            conn.seat = None
            conn.send(
                {
                    "type": "error",
                    "code": "left",
                    "message": f"you left seat {seat}; a bot plays it and you are watching",
                    "version": self.version,
                }
            )
            conn.send(self.state_message(conn, full=True))
        s.connections.clear()
        await self.persist()
        self.broadcast_table()
        self.broadcast()
        self.kick()

    def close(self) -> None:
        for t in self._timers:
            t.cancel()
        if self._driver is not None:
            self._driver.cancel()
        if self._retry is not None:
            self._retry.cancel()
        for conn in list(self.connections):
            conn.close("the server is shutting down")

    # --- actions ---------------------------------------------------------------------------------

    async def submit(
        self,
        seat: int | None,
        version: Any,
        action_json: Any = None,
        *,
        action: Any = None,
        checked: bool = False,
        by_bot: bool = False,
        reply_to: Connection | None = None,
        request_id: Any = None,
    ) -> None:
        """Check, journal and apply an action, then tell everyone.  Raises :class:`Rejected`.

        The action comes as JSON (``action_json``: a client's) or, from a bot on this server,
        as the engine's own object (``action``), which is not turned into JSON and read back.
        ``checked`` (a bot's move only) says the object is one of ``legal_actions`` of the
        state at ``version``, so the engine's check is not run again; anything else is checked
        as a client's action is."""
        async with self.lock:
            if seat is None:
                raise Rejected(
                    "spectator", "spectators cannot act; open the table with your seat link"
                )
            if self.status == "waiting":
                raise Rejected(
                    "not_started", "the table is waiting for players; send 'start' to begin"
                )
            if self.status in ("finished", "expired"):
                raise Rejected("finished", "the match is over")
            if not isinstance(version, int) or isinstance(version, bool):
                raise Rejected(
                    "stale_version",
                    f"the action must carry the state 'version' it was chosen on "
                    f"(current version {self.version})",
                )
            if version != self.version:
                raise Rejected(
                    "stale_version",
                    f"the table has moved on: you sent version {version}, it is now "
                    f"{self.version}; look again and choose",
                )
            if self.deals.pending:
                raise Rejected("unavailable", UNAVAILABLE)
            to_act = self.game.to_act(self.state)
            if to_act != seat:
                raise Rejected("not_your_turn", f"it is seat {to_act}'s turn, not seat {seat}'s")
            if by_bot and self.controller(seat) != "bot":
                raise Rejected("not_your_turn", "the player took the seat back")
            if action is None:
                if not isinstance(action_json, dict):
                    raise Rejected("bad_action", "'action' must be a JSON object with a 'type'")
                try:
                    action = self.game.action_from_json(action_json)
                except (ValueError, TypeError, KeyError, ParlourError) as exc:
                    raise Rejected("bad_action", f"cannot read the action: {exc}") from None
                checked = False
            if not (checked and by_bot):
                # the version matched above: a bot's ``checked`` move was chosen from this
                # very state's legal actions; everything else is checked by the engine
                try:
                    reason = self.game.explain(self.state, action)
                except Exception as exc:  # an engine must not crash on odd input; tell, don't die
                    log.exception("explain failed on %r", action)
                    raise Rejected(
                        "bad_action", f"cannot check the action {action}: {exc}"
                    ) from None
                if reason is not None:
                    raise Rejected("illegal_action", reason)
            hand = self.game.hand_number(self.state)
            if not by_bot and self.seats[seat].kind == "human":
                self.decisions.setdefault(seat, []).append(
                    advice.Decision(
                        hand,
                        self.version,
                        self.game.observe(self.state, seat),
                        self.game.legal_actions(self.state),
                        action,
                    )
                )
            new_state, evs = self.game.apply_unchecked(self.state, action)
            stored = self.game.action_to_json(action)
            ts = time.time()
            head = chain_next(self.head, stored)
            # journal first: nobody hears of an action that a crash could lose
            try:
                await self.server.append_action(
                    self.code,
                    self.version,
                    stored,
                    seat,
                    ts,
                    head,
                )
            except (JournalTimeout, Duplicate):
                # written or not, nobody could say (or the journal has a move this memory has
                # not: one whose answer came too late): read the journal again before the next
                asyncio.get_running_loop().call_soon(
                    self.server.forget, self, "the journal did not answer in time; reconnecting"
                )
                raise Rejected("unavailable", UNAVAILABLE) from None
            except StorageError:
                raise Rejected("unavailable", UNAVAILABLE) from None
            deal_events = self.deals.after(new_state, self.version + 1)
            if self.deals.pending:
                try:
                    await self._flush_commitments()
                except StorageError as exc:
                    log.error("table %s: cannot journal a deal commitment: %s", self.code, exc)
                    self._schedule_retry()
            self.state = new_state
            self.actions.append(stored)
            self.timestamps.append(ts)
            self.heads.append(head)
            self.journal_chain.append(head)
            self._log(evs)
            self._log(deal_events)
            if self.game.to_act(self.state) is None:
                self.status = "finished"
                self.finished_at = time.monotonic()
                self._reveal_secret()
                await self.persist()
                # --- issue 33 hook: the players' history and ratings ---
                from parlour.server import ratings

                ratings.finished(self)
            self.server.actions_applied += 1
            self.broadcast(reply_to, request_id)
            if self.status == "finished" or self.game.hand_number(self.state) != hand:
                self._start_reviews()
        self.kick()

    # --- hints and reviews (issue 19) -------------------------------------------------------------

    @property
    def hints_on(self) -> bool:
        """Hints were switched on at creation, or (by default) at most one seat is human."""
        chosen = self.meta.extra.get("hints")
        if chosen is not None:
            return bool(chosen)
        return sum(1 for s in self.seats if s.kind == "human") <= 1

    def _texts(self, view: Any, actions: list[Any]) -> list[str]:
        """Moves in words, written on a determinization of the view (never the real state)."""
        import random

        world = self.game.determinize(view, random.Random(0))
        return [self.game.action_text(world, a) for a in actions]

    def _options_json(self, view: Any, options: list[advice.Option]) -> list[dict[str, Any]]:
        texts = self._texts(view, [o.action for o in options])
        return [
            {
                "action": self.game.action_to_json(o.action),
                # the hint's own words when they say more (a staged card as the meld it starts)
                "text": o.text or text,
                "value": round(o.value, 3),
                "points": None if o.points is None else round(o.points),
                "reason": o.reason,
                # moves of one rank are within the search's noise of each other (advice.tiers)
                "rank": o.rank,
            }
            for o, text in zip(options, texts, strict=True)
        ]

    async def hint(self, conn: Connection) -> None:
        """Answer ``{"type": "hint"}``: the search's suggestion from the seat's view only, run
        in a bot worker process (a bot thread when the server has none) within the table's bot
        budget; one at a time per seat, at most one per
        ``hint_interval`` seconds."""
        cfg = self.server.config
        seat = conn.seat
        if seat is None:
            raise Rejected("spectator", "spectators cannot ask for hints")
        if not self.hints_on:
            raise Rejected(
                "hints_off", "hints are off at this table (they are chosen when it is created)"
            )
        if self.status != "playing" or self.game.to_act(self.state) != seat:
            raise Rejected("not_your_turn", "a hint is for your own turn")
        now = time.monotonic()
        wait = self._hint_at.get(seat, -1e9) + cfg.hint_interval - now
        if seat in self._hinting or wait > 0:
            raise Rejected(
                "too_many", f"one hint at a time: try again in {max(1, int(wait + 0.999))} s"
            )
        self._spend_budget(0.0)
        if self.bot_budget <= 0:
            raise Rejected(
                "busy", "this table's thinking time is used up for now; try again in a while"
            )
        version = self.version
        view = self.game.observe(self.state, seat)
        legal = self.game.legal_actions(self.state)
        budget: Any = (
            f"{cfg.hint_iterations}it"
            if cfg.hint_iterations
            else min(cfg.hint_seconds, cfg.bot_move_cap)
        )
        seed = derive_seed(0, "hint", self.code, version, seat)
        call = functools.partial(
            advice.advise, self.variant, view, legal, seat, seed=seed, budget=budget
        )
        self._hinting.add(seat)
        self._hint_at[seat] = now
        started = time.monotonic()
        spent: float | None = None
        try:
            if self.server.bot_procs is not None:
                # a worker process searches (the search never holds the event loop's
                # interpreter); the table's budget is charged the CPU time it used
                job = self._think_job(
                    "advise", (view, legal, seat), {"seed": seed, "budget": budget}
                )
                result, spent = await self.server.search(self.code, botpool.think, job, urgent=True)
            else:
                result = await self.server.search(self.code, call, urgent=True)
        finally:
            self._hinting.discard(seat)
            self._hint_at[seat] = time.monotonic()
            self._spend_budget(time.monotonic() - started if spent is None else spent)
        options = self._options_json(view, result.options)
        conn.send(
            {
                "type": "hint",
                "version": version,
                "seat": seat,
                "move": options[0]["action"],
                "text": options[0]["text"],
                "reason": options[0]["reason"],
                "value": options[0]["value"],
                "options": options,
                "rounds": result.rounds,
                "seconds": round(result.seconds, 3),
            }
        )

    def _start_reviews(self) -> None:
        """A hand ended: review each human seat's decisions of it in the background (one work
        thread, a bounded number of decisions)."""
        done = {s: d for s, d in self.decisions.items() if d}
        self.decisions = {}
        # only seats someone asked reviews for are searched now (the search shares the
        # process); the others keep their last hand, reviewed when they ask
        wanted = {}
        for seat, decisions in done.items():
            if any(c.wants_review for c in self.seats[seat].connections):
                wanted[seat] = decisions
            else:
                self._unreviewed[seat] = decisions
        self._schedule_reviews(wanted)

    def _schedule_reviews(self, done: dict[int, list[advice.Decision]]) -> None:
        if not done:
            return
        self.reviews_due.update(done)
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().create_task(self._review(done))

    def new_holder(self, seat: int) -> None:
        """The seat changed hands (its player left, or someone else took it): what was kept
        of the previous holder's decisions and reviews is not the new one's to read."""
        self._holder[seat] = self._holder.get(seat, 0) + 1
        self.decisions.pop(seat, None)
        self.reviews.pop(seat, None)
        self._unreviewed.pop(seat, None)
        self.reviews_due.discard(seat)

    async def _review(self, done: dict[int, list[advice.Decision]]) -> None:
        cfg = self.server.config
        budget: Any = f"{cfg.review_iterations}it" if cfg.review_iterations else cfg.review_seconds
        loop = asyncio.get_running_loop()
        holders = {seat: self._holder.get(seat, 0) for seat in done}
        for seat, decisions in done.items():
            kwargs = {
                "seed": derive_seed(0, "review", self.code, seat),
                "budget": budget,
                "most": cfg.review_decisions,
                "threshold": cfg.review_threshold,
            }
            try:
                if self.server.bot_procs is not None:
                    # in a bot worker process, like hints; a review is not charged to the
                    # table's bot budget (it runs after the hand, once per hand and seat)
                    job = self._think_job("review", (decisions, seat), kwargs)
                    result, _ = await self.server.search(self.code, botpool.think, job)
                else:
                    call = functools.partial(advice.review, self.variant, decisions, seat, **kwargs)
                    result = await loop.run_in_executor(self.server.work_pool, call)
                entry = self._review_json(result)
            except Exception:
                log.exception("table %s: the review of seat %d failed", self.code, seat)
                entry = None
            finally:
                self.reviews_due.discard(seat)
            if self._holder.get(seat, 0) != holders[seat]:
                continue  # the seat changed hands while its review was searched
            if entry is not None:
                kept = self.reviews.setdefault(seat, [])
                kept.append(entry)
                del kept[:-10]
            for conn in self.seats[seat].connections:
                if conn.wants_review:
                    self.send_review(conn)

    def _review_json(self, result: advice.HandReview) -> dict[str, Any]:
        remarks = []
        for r in result.remarks:
            chosen, better = self._options_json(r.decision.view, [r.chosen, r.better])
            remarks.append(
                {
                    "version": r.decision.version,
                    "played": chosen,
                    "better": better,
                    "difference": round(r.difference, advice.DIFFERENCE_DIGITS),
                }
            )
        return {
            "hand": result.hand + 1,
            "decisions": result.decisions,
            "checked": result.checked,
            "remarks": remarks,
        }

    def send_review(self, conn: Connection) -> None:
        """``{"type": "review"}``: the reviews of the seat's finished hands (newest last)."""
        seat = conn.seat
        if seat is None:
            raise Rejected("spectator", "a review is of your own decisions: take a seat")
        conn.wants_review = True
        waiting = self._unreviewed.pop(seat, None)
        if waiting:
            self._schedule_reviews({seat: waiting})
        conn.send(
            {
                "type": "review",
                "seat": seat,
                "pending": seat in self.reviews_due,
                "threshold": self.server.config.review_threshold,
                "hands": self.reviews.get(seat, []),
            }
        )

    # --- bots ----------------------------------------------------------------------------------

    def _bot(self, seat: int) -> Bot:
        if seat not in self._bots:
            s = self.seats[seat]
            name = s.bot if s.kind == "bot" and s.bot else self.server.standin_bot(self.variant)
            self._bots[seat] = bot_registry.make(
                name, self.variant, seat, derive_seed(self.seed, "seat", seat)
            )
        return self._bots[seat]

    def _job_variant(self) -> dict[str, Any]:
        """What a bot worker process needs to know the table's game: its name, preset, rules and
        the module that defines it (a plug-in game is registered from it in the worker)."""
        return {
            "game": self.meta.game,
            "preset": self.meta.preset,
            "rules": self.meta.rules,
            "module": type(self.game).__module__,
        }

    def _bot_job(self, seat: int, version: int, state: Any, failures: int) -> botpool.BotJob:
        """What a bot worker process needs to play the seat's move."""
        s = self.seats[seat]
        if failures:
            name = "random"  # a bot that just failed plays one move at random
        elif self.bot_budget <= 0:
            name = self.server.standin_bot(self.variant)
        else:
            name = s.bot if s.kind == "bot" and s.bot else self.server.standin_bot(self.variant)
        return botpool.BotJob(
            **self._job_variant(),
            bot=name,
            seat=seat,
            seed=derive_seed(self.seed, "seat", seat, version),
            state=state,
        )

    def _think_job(
        self, kind: str, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> botpool.ThinkJob:
        """A hint's or a review's search for a bot worker process."""
        return botpool.ThinkJob(
            **self._job_variant(),
            kind=kind,
            args=args,
            kwargs=kwargs,
        )

    def _spend_budget(self, seconds: float) -> None:
        now = time.monotonic()
        cfg = self.server.config
        self.bot_budget = min(
            cfg.bot_budget, self.bot_budget + (now - self._budget_at) * cfg.bot_budget_rate
        )
        self._budget_at = now
        self.bot_budget -= seconds

    def kick(self) -> None:
        """Let the bots play if a bot (or a stand-in) is to act."""
        if self._driver is None or self._driver.done():
            # outside the event loop (replaying at load time) there is nothing to drive yet
            with contextlib.suppress(RuntimeError):
                self._driver = asyncio.get_running_loop().create_task(self._drive())

    def _bot_to_act(self) -> int | None:
        if self.status != "playing" or self.deals.pending:
            return None
        seat = self.game.to_act(self.state)
        if seat is None or self.controller(seat) != "bot":
            return None
        return seat

    async def _drive(self) -> None:
        failures = 0
        while (seat := self._bot_to_act()) is not None:
            delay = flow.bot_delay(self)
            if delay > 0:
                await asyncio.sleep(delay)
            await flow.wait_holds(self)  # a player reads a hand's score sheet
            if self._bot_to_act() != seat:
                continue
            version, state, game = self.version, self.state, self.game
            self._spend_budget(0.0)
            procs = self.server.bot_procs
            try:
                if failures:
                    # a bot that just failed plays one move at random, then gets another chance
                    bot = bot_registry.make(
                        "random", self.variant, seat, derive_seed(self.seed, "seat", seat, version)
                    )
                elif self.bot_budget <= 0:
                    # this table's bots used their thinking time: the quick stand-in plays
                    bot = bot_registry.make(
                        self.server.standin_bot(self.variant),
                        self.variant,
                        seat,
                        derive_seed(self.seed, "seat", seat, version),
                    )
                else:
                    bot = self._bot(seat)
                if self.server.plays_inline(self.meta.game, bot):
                    # a quick bot (random, basic: ~0.1 ms a move) plays on the event loop, with
                    # or without a pool of bot processes: handing it to a thread or a worker
                    # would cost more than the move, and in a worker it would wait behind other
                    # tables' long searches (its CPU time, not wall time, so a busy machine does
                    # not make it look slow)
                    #
                    # The CPU clock is a system call (~1.5 us, two a move): it is read for one
                    # move in ``CLOCK_EVERY`` of the table, which is charged that many times
                    # what it took (the budget sees the same mean; a level too slow for the
                    # loop is still found, by its timed moves)
                    self._inline_moves += 1
                    timed = self._inline_moves % CLOCK_EVERY == 1
                    started = time.thread_time() if timed else 0.0
                    action, checked = _choose(bot, game, state, seat)
                    if timed:
                        spent = time.thread_time() - started
                        self.server.inline_took(self.meta.game, bot, spent)
                        self._spend_budget(spent * CLOCK_EVERY)
                    self.server.bot_moves_inline += 1
                    action_json = None
                elif procs is not None:
                    # a worker process plays; what it used is charged to this table's budget
                    job = self._bot_job(seat, version, state, failures)
                    action_json, cpu = await asyncio.wait_for(
                        self.server.search(self.code, botpool.play, job),
                        self.server.config.bot_move_cap * 4 + 10,
                    )
                    self._spend_budget(cpu)
                    action, checked = None, False
                else:
                    started = time.monotonic()
                    choose = functools.partial(_choose, bot, game, state, seat)
                    action, checked = await self.server.search(self.code, choose)
                    self._spend_budget(time.monotonic() - started)
                    action_json = None
                await self.submit(
                    seat, version, action_json, action=action, checked=checked, by_bot=True
                )
                failures = 0
            except Rejected as exc:
                if exc.code in ("stale_version", "not_your_turn"):
                    continue
                if exc.code == "unavailable":  # the journal is away: wait, then try again
                    await asyncio.sleep(min(0.5 * 2 ** min(failures, 5), 10.0))
                    failures = 0
                    continue
                failures += 1
                log.error("table %s: bot for seat %d was refused: %s", self.code, seat, exc)
            except asyncio.CancelledError:
                raise
            except Exception:
                failures += 1
                log.exception("table %s: bot for seat %d failed", self.code, seat)
            if failures > 3:
                await asyncio.sleep(min(0.5 * 2 ** min(failures, 6), 30.0))


def patch(
    old: dict[str, Any],
    new: dict[str, Any],
    old_seats: list[dict[str, Any]],
    seats: list[dict[str, Any]],
) -> list[list[Any]]:
    """What turns one ``state`` payload (and seat list) into the next, as operations
    ``[path, value]`` (set) and ``[path]`` (remove), a path being the keys from the message's top
    (``["view", "hand"]``).  Objects are compared key by key and descended into; anything else
    (lists included) that changed is sent whole.  Every value comes from ``new``."""
    ops: list[list[Any]] = []
    _diff(old, new, [], ops)
    if old_seats is not seats and old_seats != seats:
        ops.append([["seats"], seats])
    return ops


def _diff(old: dict[str, Any], new: dict[str, Any], path: list[str], ops: list[list[Any]]) -> None:
    for key, value in new.items():
        if key in old:
            before = old[key]
            if before is value:
                continue
            if type(before) is type(value):
                if type(value) is dict:
                    _diff(before, value, [*path, key], ops)
                    continue
                if before == value:
                    continue
        ops.append([[*path, key], value])
    for key in old:
        if key not in new:
            ops.append([[*path, key]])


def _choose(bot: Bot, game: Game[Any, Any, Any, Any], state: Any, seat: int) -> tuple[Any, bool]:
    """A bot's move, computed from what its seat may see (a bot that reads no view, such as
    ``random``, is not given one: it cannot see more than the legal actions), and whether it is
    one of the legal actions it was offered (the very object: then the table need not check it
    again; a bot that made up its own is checked by the engine as a client's move is)."""
    view = game.observe(state, seat) if bot.needs_view else None
    legal = game.legal_actions(state)
    action = bot.act(view, legal)
    return action, any(a is action for a in legal)
