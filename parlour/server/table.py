"""Tables: seats and tokens, the journaled state, connections, and the bots that fill seats.

A :class:`Table` holds the state as a replay of its journal.  :meth:`Table.submit` is the one way
an action gets in: checked with the engine, written to the journal, then broadcast to every
connection as its own view.  Bots play bot seats (and stand in for absent players) from a worker
thread so the event loop keeps serving.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from parlour import bots as bot_registry
from parlour.core.bot import Bot
from parlour.core.errors import ParlourError
from parlour.core.game import Event, Game
from parlour.core.registry import GameEntry, Variant
from parlour.core.rng import derive_seed
from parlour.server import redact
from parlour.server.deals import DealTracker
from parlour.server.storage import JournalEntry, TableMeta

if TYPE_CHECKING:
    from parlour.server.lobby import TableServer

log = logging.getLogger("parlour.server")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))


def new_token() -> str:
    return secrets.token_urlsafe(32)


class Connection:
    """One WebSocket: its seat (``None`` = watching) and the messages waiting to go out."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.sent_event = -1

    def send(self, message: dict[str, Any]) -> None:
        self.queue.put_nowait(json.dumps(message, ensure_ascii=False))

    def send_text(self, text: str) -> None:
        self.queue.put_nowait(text)


@dataclass
class SeatState:
    seat: int
    kind: str  # "human" or "bot"
    bot: str | None = None
    token: str | None = None
    claimed: bool = False
    ever_connected: bool = False
    connections: list[Connection] = field(default_factory=list)
    absent_since: float | None = None
    #: the player left: a bot plays the seat until the token connects again
    left: bool = False

    def stored(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "bot": self.bot,
            "token": self.token,
            "claimed": self.claimed,
            "ever_connected": self.ever_connected,
            "left": self.left,
        }

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> SeatState:
        return cls(
            seat=int(data["seat"]),
            kind=data["kind"],
            bot=data.get("bot"),
            token=data.get("token"),
            claimed=bool(data.get("claimed")),
            ever_connected=bool(data.get("ever_connected")),
            left=bool(data.get("left")),
        )


class Rejected(Exception):
    """A client message refused; ``code`` is one of the protocol's error codes."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Table:
    def __init__(
        self,
        server: TableServer,
        meta: TableMeta,
        entry: GameEntry,
        rules: Any,
        journal: list[JournalEntry],
    ) -> None:
        self.server = server
        self.meta = meta
        self.code = meta.code
        self.entry = entry
        self.game: Game[Any, Any, Any, Any] = entry.game
        self.variant = Variant(entry, meta.preset, rules)
        self.rules = rules
        self.seats = [SeatState.from_stored(s) for s in meta.seats]
        self.connections: list[Connection] = []
        self.lock = asyncio.Lock()
        self.events: list[tuple[int, Event]] = []
        self.deals = DealTracker(self.game, f"/api/tables/{self.code}/verify")
        self._bots: dict[int, Bot] = {}
        self._driver: asyncio.Task[None] | None = None
        self._timers: list[asyncio.TimerHandle] = []
        self.actions: list[dict[str, Any]] = []
        self.timestamps: list[float] = []
        # state = replay of the journal (the actions were checked when they were accepted)
        self.state = self.game.new_game(rules, meta.seed)
        self._log(self.deals.after(self.state, 0))
        for e in journal:
            action = self.game.action_from_json(e.action)
            self.state, evs = self.game.apply_unchecked(self.state, action)
            self.actions.append(e.action)
            self.timestamps.append(e.ts)
            self._log(evs)
            self._log(self.deals.after(self.state, len(self.actions)))
        self.status = meta.status
        if self.game.to_act(self.state) is None:
            self.status = "finished"

    # --- bookkeeping ---------------------------------------------------------------------------

    @property
    def version(self) -> int:
        return len(self.actions)

    @property
    def players(self) -> int:
        return len(self.seats)

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
            out.append(row)
        return out

    def free_seats(self) -> list[int]:
        if self.status == "finished":
            return []
        return [s.seat for s in self.seats if s.kind == "human" and not s.claimed]

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
        }

    def seat_for_token(self, token: str) -> int | None:
        for s in self.seats:
            if s.token is not None and secrets.compare_digest(s.token, token):
                return s.seat
        return None

    async def persist(self) -> None:
        await self.server.db(
            self.server.storage.update_table,
            self.code,
            [s.stored() for s in self.seats],
            self.status,
            time.time(),
        )

    # --- messages ------------------------------------------------------------------------------

    def state_message(
        self, conn: Connection, *, full: bool = False, payload: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        seat = conn.seat
        if payload is None:
            payload = redact.seat_payload(
                self.game, self.state, seat, playing=self.status == "playing"
            )
        after = -1 if full else conn.sent_event
        events = redact.visible_events(self.events, seat, after)
        conn.sent_event = len(self.events) - 1
        return {
            "type": "state",
            "version": self.version,
            "status": self.status,
            **payload,
            "events": events,
            "full_log": full,
            "seats": self.seats_json(),
        }

    def broadcast(self, reply_to: Connection | None = None, request_id: Any = None) -> None:
        cache: dict[int | None, dict[str, Any]] = {}
        playing = self.status == "playing"
        for conn in self.connections:
            if conn.seat not in cache:
                cache[conn.seat] = redact.seat_payload(
                    self.game, self.state, conn.seat, playing=playing
                )
            msg = self.state_message(conn, payload=cache[conn.seat])
            if conn is reply_to and request_id is not None:
                msg["id"] = request_id
            conn.send(msg)

    def broadcast_table(self) -> None:
        msg = json.dumps({"type": "table", "table": self.record()}, ensure_ascii=False)
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
            await self.start()
            return
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

    async def start(self) -> None:
        if self.status != "waiting":
            self.broadcast_table()
            return
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

    async def leave(self, seat: int) -> None:
        """The player leaves: a bot takes the seat at once; the seat's token takes it back."""
        s = self.seats[seat]
        s.left = True
        s.absent_since = time.monotonic()
        for conn in list(s.connections):
            conn.seat = None
            conn.send(
                {
                    "type": "error",
                    "code": "left",
                    "message": f"you left seat {seat}; a bot plays it and you are watching. "
                    "Open your seat link again to take the seat back.",
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

    # --- actions ---------------------------------------------------------------------------------

    async def submit(
        self,
        seat: int | None,
        version: Any,
        action_json: Any,
        *,
        by_bot: bool = False,
        reply_to: Connection | None = None,
        request_id: Any = None,
    ) -> None:
        """Check, journal and apply an action, then tell everyone.  Raises :class:`Rejected`."""
        async with self.lock:
            if seat is None:
                raise Rejected(
                    "spectator", "spectators cannot act; open the table with your seat link"
                )
            if self.status == "waiting":
                raise Rejected(
                    "not_started", "the table is waiting for players; send 'start' to begin"
                )
            if self.status == "finished":
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
            to_act = self.game.to_act(self.state)
            if to_act != seat:
                raise Rejected("not_your_turn", f"it is seat {to_act}'s turn, not seat {seat}'s")
            if by_bot and self.controller(seat) != "bot":
                raise Rejected("not_your_turn", "the player took the seat back")
            if not isinstance(action_json, dict):
                raise Rejected("bad_action", "'action' must be a JSON object with a 'type'")
            try:
                action = self.game.action_from_json(action_json)
            except (ValueError, TypeError, KeyError, ParlourError) as exc:
                raise Rejected("bad_action", f"cannot read the action: {exc}") from None
            try:
                reason = self.game.explain(self.state, action)
            except Exception as exc:  # an engine must not crash on odd input; tell, don't die
                log.exception("explain failed on %r", action)
                raise Rejected("bad_action", f"cannot check the action {action}: {exc}") from None
            if reason is not None:
                raise Rejected("illegal_action", reason)
            new_state, evs = self.game.apply_unchecked(self.state, action)
            stored = self.game.action_to_json(action)
            ts = time.time()
            # journal first: nobody hears of an action that a crash could lose
            await self.server.db(
                self.server.storage.append_action, self.code, self.version, stored, seat, ts
            )
            self.state = new_state
            self.actions.append(stored)
            self.timestamps.append(ts)
            self._log(evs)
            self._log(self.deals.after(self.state, self.version))
            if self.game.to_act(self.state) is None:
                self.status = "finished"
                await self.persist()
            self.server.actions_applied += 1
            self.broadcast(reply_to, request_id)
        self.kick()

    # --- bots ----------------------------------------------------------------------------------

    def _bot(self, seat: int) -> Bot:
        if seat not in self._bots:
            s = self.seats[seat]
            name = s.bot if s.kind == "bot" and s.bot else self.server.standin_bot(self.variant)
            self._bots[seat] = bot_registry.make(
                name, self.variant, seat, derive_seed(self.meta.seed, "seat", seat)
            )
        return self._bots[seat]

    def kick(self) -> None:
        """Let the bots play if a bot (or a stand-in) is to act."""
        if self._driver is None or self._driver.done():
            # outside the event loop (replaying at load time) there is nothing to drive yet
            with contextlib.suppress(RuntimeError):
                self._driver = asyncio.get_running_loop().create_task(self._drive())

    def _bot_to_act(self) -> int | None:
        if self.status != "playing":
            return None
        seat = self.game.to_act(self.state)
        if seat is None or self.controller(seat) != "bot":
            return None
        return seat

    async def _drive(self) -> None:
        loop = asyncio.get_running_loop()
        failures = 0
        while (seat := self._bot_to_act()) is not None:
            delay = self.server.config.bot_delay
            if delay > 0:
                await asyncio.sleep(delay)
                if self._bot_to_act() != seat:
                    continue
            version, state, game = self.version, self.state, self.game
            choose = functools.partial(_choose, self._bot(seat), game, state, seat)
            try:
                action = await loop.run_in_executor(self.server.bot_pool, choose)
                await self.submit(seat, version, game.action_to_json(action), by_bot=True)
                failures = 0
            except Rejected as exc:
                if exc.code in ("stale_version", "not_your_turn"):
                    continue
                failures += 1
                log.error("table %s: bot for seat %d was refused: %s", self.code, seat, exc)
            except Exception:
                failures += 1
                log.exception("table %s: bot for seat %d failed", self.code, seat)
            if failures:
                # a broken bot must not stop the table: fall back to the random bot
                self._bots[seat] = bot_registry.make(
                    "random",
                    self.variant,
                    seat,
                    derive_seed(self.meta.seed, "seat", seat, failures),
                )
                if failures > 3:
                    return


def _choose(bot: Bot, game: Game[Any, Any, Any, Any], state: Any, seat: int) -> Any:
    """A bot's move, computed on a worker thread from what its seat may see."""
    return bot.act(game.observe(state, seat), game.legal_actions(state))
