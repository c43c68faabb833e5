"""A table: the seats, the journaled state, the connections and the bots that fill seats.

:class:`Table` is put together from parts with one job each, every part a class over
:class:`parlour.server.table_base.TableBase` (the state they share) in its own module:

==================  ==============================================================================
``seats``           a seat and its (hashed) token; table codes
``connection``      one WebSocket's bounded queue, the wire encoding, state deltas
``table_base``      the shared state, the server the table lives in, the seat questions
``table_messages``  each seat's ``state`` and the fan-out to every connection
``table_journal``   reading the journal back at load time; writing the seats
``table_fair``      the fair deal: the server's secret, the players' contributions
``table_advice``    hints and post-hand reviews
``table_bots``      the bot driver and the thinking budget
``flow``            the flow of play: speed, rematch, score-sheet pauses
==================  ==============================================================================

This module keeps what ties them together: loading (``__init__``), joining and leaving
(``attach``, ``disconnect``, ``leave``), the start, and :meth:`Table.submit`, the one way an
action gets in: checked with the engine, written to the journal, then broadcast to every
connection as its own view.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from parlour.core.errors import ParlourError
from parlour.core.registry import GameEntry, Variant
from parlour.core.said import N_
from parlour.core.text import tell
from parlour.i18n import messages
from parlour.server import flow, house
from parlour.server.connection import Connection
from parlour.server.deals import chain_next, match_seed
from parlour.server.errors import UNAVAILABLE, Rejected, said_of
from parlour.server.seats import SeatState
from parlour.server.storage import (
    Duplicate,
    JournalClosed,
    JournalEntry,
    JournalTimeout,
    Record,
    StorageError,
    TableMeta,
)
from parlour.server.table_advice import TableAdvice
from parlour.server.table_base import TableHost
from parlour.server.table_bots import TableBots
from parlour.server.table_fair import TableFair
from parlour.server.table_journal import TableJournal
from parlour.server.table_messages import TableMessages

log = logging.getLogger("parlour.server")


class Table(TableMessages, TableJournal, TableFair, TableAdvice, TableBots):
    """One table in memory: its journal replayed, its connections, its bots."""

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
        self.game = entry.game
        self.variant = Variant(entry, meta.preset, rules)
        self.rules = rules
        self.seats = [SeatState.from_stored(s) for s in meta.seats]
        for s in self.seats:
            if s.kind == "bot":
                s.bot = server.bot_level(self.variant, s.bot)
        self.lock = asyncio.Lock()
        self._timers: list[asyncio.TimerHandle] = []
        self.events = []
        self.actions = []
        self.timestamps = []
        self.notes = []
        self.finished_at = None
        self.flow = flow.Flow()
        self._init_messages()
        self._init_journal()
        self._init_advice()
        self._init_bots()
        started = self._read_records(records or [])
        self._replay(journal, started)

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
                {
                    "type": "error",
                    "code": "seat_moved",
                    "message": tell(reason, messages(conn.lang)),
                    "version": self.version,
                }
            )
            conn.send(self.state_message(conn, full=True))
        s.connections.clear()
        if s.absent_since is None:
            s.absent_since = time.monotonic()
        self._after_grace()

    async def leave(self, seat: int) -> None:
        """The player leaves for good: the token is revoked and a bot plays the seat (an open
        seat can be taken again from the lobby)."""
        if self.status in ("finished", "expired"):
            raise Rejected("finished", N_("the match is over; there is no seat to leave"))
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
                    "message": tell(
                        N_("you left seat {seat}; a bot plays it and you are watching", seat=seat),
                        messages(conn.lang),
                    ),
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
        """Stop the table's timers and bots and disconnect its players (the server is stopping,
        or the table is unloaded).  A move in flight may still finish; no bot starts after."""
        self.closed = True
        for t in self._timers:
            t.cancel()
        if self._driver is not None:
            self._driver.cancel()
        if self._retry is not None:
            self._retry.cancel()
        for conn in list(self.connections):
            conn.close(N_("the server is shutting down"))

    # --- actions ---------------------------------------------------------------------------------

    # --- actions ---------------------------------------------------------------------------------

    async def submit(
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
        """Check, journal and apply an action, then tell everyone.  Raises :class:`Rejected`.

        The action comes as JSON (``action_json``: a client's) or, from a bot on this server,
        as the engine's own object (``action``), which is not turned into JSON and read back.
        ``checked`` (a bot's move only) says the object is one of ``legal_actions`` of the
        state at ``version``, so the engine's check is not run again; anything else is checked
        as a client's action is."""
        async with self.lock:
            if seat is None:
                raise Rejected(
                    "spectator", N_("spectators cannot act; open the table with your seat link")
                )
            self._check_turn(seat, version, by_bot)
            if action is None:
                action, checked = self._read_action(action_json), False
            if not (checked and by_bot):
                # the version matched above: a bot's ``checked`` move was chosen from this
                # very state's legal actions; everything else is checked by the engine
                self._check_legal(action)
            hand = self.game.hand_number(self.state)
            if not by_bot and self.seats[seat].kind == "human":
                self._note_decision(seat, hand, action)
            new_state, evs = self.game.apply_unchecked(self.state, action)
            stored = self.game.action_to_json(action)
            ts = time.time()
            head = chain_next(self.head, stored)
            await self._journal_move(seat, stored, ts, head)
            deal_events = self.deals.after(new_state, self.version + 1)
            if self.deals.pending:
                try:
                    await self._flush_commitments()
                except JournalClosed:
                    pass  # the server is stopping: the move is journaled, the deal is redone
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
                await self._finished()
            self.server.actions_applied += 1
            self.broadcast(reply_to, request_id)
            if self.status == "finished" or self.game.hand_number(self.state) != hand:
                self._start_reviews()
        self.kick()

    def _check_turn(self, seat: int, version: object, by_bot: bool) -> None:
        """Refuse an action out of turn, on a state that is not the table's, or while the table
        is not playing."""
        if self.status == "waiting":
            raise Rejected(
                "not_started", N_("the table is waiting for players; send 'start' to begin")
            )
        if self.status in ("finished", "expired"):
            raise Rejected("finished", N_("the match is over"))
        if not isinstance(version, int) or isinstance(version, bool):
            raise Rejected(
                "stale_version",
                N_(
                    "the action must carry the state 'version' it was chosen on "
                    "(current version {version})",
                    version=self.version,
                ),
            )
        if version != self.version:
            raise Rejected(
                "stale_version",
                N_(
                    "the table has moved on: you sent version {sent}, it is now "
                    "{version}; look again and choose",
                    sent=version,
                    version=self.version,
                ),
            )
        if self.deals.pending:
            raise Rejected("unavailable", UNAVAILABLE)
        to_act = self.game.to_act(self.state)
        if to_act != seat:
            raise Rejected(
                "not_your_turn",
                N_("it is seat {to_act}'s turn, not seat {seat}'s", to_act=to_act, seat=seat),
            )
        if by_bot and self.controller(seat) != "bot":
            raise Rejected("not_your_turn", N_("the player took the seat back"))

    def _read_action(self, action_json: object) -> Any:
        """A client's action, read by the engine from its JSON."""
        if not isinstance(action_json, dict):
            raise Rejected("bad_action", N_("'action' must be a JSON object with a 'type'"))
        try:
            return self.game.action_from_json(action_json)
        except (ValueError, TypeError, KeyError, ParlourError) as exc:
            raise Rejected(
                "bad_action", N_("cannot read the action: {error}", error=said_of(exc))
            ) from None

    def _check_legal(self, action: Any) -> None:
        try:
            reason = self.game.explain(self.state, action)
        except Exception as exc:  # an engine must not crash on odd input; tell, don't die
            log.exception("explain failed on %r", action)
            raise Rejected(
                "bad_action",
                N_("cannot check the action {action}: {error}", action=str(action), error=str(exc)),
            ) from None
        if reason is not None:
            raise Rejected("illegal_action", reason)

    async def _journal_move(self, seat: int, stored: dict[str, Any], ts: float, head: str) -> None:
        """Journal a move before anyone hears of it: nobody hears of an action a crash could
        lose."""
        try:
            await self.server.append_action(self.code, self.version, stored, seat, ts, head)
        except (JournalTimeout, Duplicate):
            # written or not, nobody could say (or the journal has a move this memory has
            # not: one whose answer came too late): read the journal again before the next
            asyncio.get_running_loop().call_soon(
                self.server.forget, self, "the journal did not answer in time; reconnecting"
            )
            raise Rejected("unavailable", UNAVAILABLE) from None
        except StorageError:
            raise Rejected("unavailable", UNAVAILABLE) from None

    async def _finished(self) -> None:
        """The last move was played: the secret is revealed and the result recorded."""
        self.status = "finished"
        self.finished_at = time.monotonic()
        self._reveal_secret()
        await self.persist()
        # --- issue 33 hook: the players' history and ratings ---
        from parlour.server import ratings

        ratings.finished(self)
