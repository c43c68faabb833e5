"""A table's messages: each seat's ``state`` (its own view only, built once per version and
shared by every connection of the seat), deltas for connections that asked for them, and the
fan-out to every connection (``broadcast``: one text encoded per seat and point reached).

What a seat may see is decided by ``parlour.server.redact``; this part only builds, caches and
sends.  A connection's queue and the delta format are ``parlour.server.connection``.
"""

from __future__ import annotations

from typing import Any

from parlour.server import redact
from parlour.server.connection import Connection, encode, patch
from parlour.server.table_base import TableBase


class TableMessages(TableBase):
    """The ``state`` and ``table`` messages of a table, and their fan-out."""

    def _init_messages(self) -> None:
        self.connections = []
        #: each seat's payload and told outcome, with the key they were built for
        #: (issue 34: and language — the hands' notes are told in the connection's language)
        self._payloads: dict[tuple[int | None, str], tuple[tuple[Any, ...], dict[str, Any]]] = {}
        self._told: dict[tuple[int | None, str], tuple[tuple[Any, ...], dict[str, Any]]] = {}
        #: the seat list of the ``state`` messages and what it was made from (``state_seats``)
        self._seats_key: tuple[Any, ...] | None = None
        self._seats: list[dict[str, Any]] = []
        #: the view's ``rules`` as first sent: a later view's equal ``rules`` is this object
        self._view_rules: Any = None

    def state_seats(self) -> list[dict[str, Any]]:
        """:meth:`seats_json` for the ``state`` messages: the same list while nothing in it
        changed (who sits, is connected, plays the seat), so a delta compares it by identity
        and a version does not keep a new copy alive.  Read only, as every sent part is."""
        key = tuple(
            (s.kind, s.claimed, bool(s.connections), self.controller(s.seat), s.bot, s.open, s.name)
            for s in self.seats
        )
        if key != self._seats_key:
            self._seats_key = key
            self._seats = self.seats_json()
        return self._seats

    def payload(self, seat: int | None, lang: str = "en") -> dict[str, Any]:
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
        cached = self._payloads.get((seat, lang))
        if cached is not None and cached[0] == key:
            return cached[1]
        payload = self._build_payload(seat, lang)
        self._payloads[(seat, lang)] = (key, payload)
        return payload

    def _build_payload(self, seat: int | None, lang: str = "en") -> dict[str, Any]:
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
        told = self._told.get((seat, lang))
        if told is None or told[0] != key:
            told = self._told[(seat, lang)] = (
                key,
                redact.told_outcome(self.game, self.state, seat, names, lang),
            )
        payload = redact.seat_payload(
            self.game,
            self.state,
            seat,
            playing=self.status == "playing",
            player_names=names,
            outcome=told[1],
            lang=lang,
        )
        view = payload["view"]
        if type(view) is dict and "rules" in view:
            # the table's rules do not change: every view shares the first one's ``rules``
            # (a delta then skips it by identity; the copy each view makes is dropped at once)
            if self._view_rules is not None and view["rules"] == self._view_rules:
                view["rules"] = self._view_rules
            else:
                self._view_rules = view["rules"]
        return payload

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
            payload = self.payload(seat, conn.lang)
        if seats is None:
            seats = self.state_seats()
        visible = self.events if not self.deals.pending else self.events[: self._published]
        after = -1 if full else conn.sent_event
        tell = redact.teller(
            self.game, self.state, self.players, seat, self.player_names(), conn.lang
        )
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
        seats = self.state_seats()
        texts: dict[tuple[Any, ...], tuple[str, int, Any]] = {}
        for conn in self.connections:
            if conn.lagging or conn.closed:
                continue  # a resync with the latest state is due anyway: build nothing
            payload = self.payload(conn.seat, conn.lang)
            if conn is reply_to and request_id is not None:
                msg = self.state_message(conn, payload=payload, seats=seats)
                msg["id"] = request_id
                conn.send(msg)
                continue
            base = conn.base
            key = (
                conn.seat,
                conn.lang,
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
