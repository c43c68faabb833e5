"""Table chat (issue 33): short plain-text messages on the table's WebSocket.

A seat sends ``{"type": "chat", "text": "…"}``; once the message is journaled (a ``chat``
record of the table, so it survives a restart and a failover and appears in the replay) every
connection of the table gets ``{"type": "chat", "seq", "seat", "name", "text", "ts", "version",
"quick"}`` carrying the text exactly as written — the browser shows it as text, never as HTML.
In a cluster the table's owner does all of this, and the connections other processes carry get
the message through the bus like any other.

Refusals are the usual ``error`` message: ``bad_chat`` (not text, empty, a control character or
a direction override), ``too_long`` (over 200 characters), ``too_fast`` (more than 5 messages in
10 s from one seat), ``chat_off`` (the host turned chat off), ``muted`` (the host silenced this
seat), ``spectator`` (spectators read; they write only when the host allows it).

Each player can mute another seat for themselves (``chat_mute``): that seat's messages are not
sent to them any more (the muted player is not told).  The host (the seat that created the table)
turns chat on and off, lets spectators write, and silences a seat (``chat_settings``).
"""

from __future__ import annotations

import collections
import time
import unicodedata
from typing import TYPE_CHECKING, Any

from parlour.core.said import N_
from parlour.server.storage import StorageError

if TYPE_CHECKING:
    from parlour.server.connection import Connection
    from parlour.server.flow import Flow
    from parlour.server.lobby import TableServer
    from parlour.server.table import Table

#: the client messages of this module
TYPES = ("chat", "chat_log", "chat_mute", "chat_settings")
#: longest message, in characters
MAX_CHARS = 200
#: at most ``RATE`` messages per ``WINDOW`` seconds from one seat (or one spectator's connection)
RATE = 5
WINDOW = 10.0
#: messages kept in memory for a connection that asks for the log (all are in the journal)
KEEP = 200
#: the one-tap phrases the browser offers (``quick: true`` must carry one of them)
QUICK = ("Good luck", "Well played", "Your turn", "Thanks", "Oops")
#: characters that turn the direction of the text around them (they could make a message look
#: like another player's words): refused, as control characters are
BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


class ChatRefused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def check_text(text: Any) -> str:
    """The message's text as it will be shown, or :class:`ChatRefused` saying why not.

    >>> check_text("Well played <b>!</b>")
    'Well played <b>!</b>'
    >>> check_text("a\\nb")
    Traceback (most recent call last):
    ...
    parlour.server.chat.ChatRefused: a chat message is one line of text: it may not hold control characters (U+000A)
    """
    if not isinstance(text, str):
        raise ChatRefused("bad_chat", "'text' must be a string")
    if not text.strip():
        raise ChatRefused("bad_chat", N_("an empty message is not sent"))
    if len(text) > MAX_CHARS:
        raise ChatRefused(
            "too_long",
            N_(
                "a chat message is at most {most} characters; this one has {count}",
                most=MAX_CHARS,
                count=len(text),
            ),
        )
    for ch in text:
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cs") or ch in BIDI:
            raise ChatRefused(
                "bad_chat",
                N_(
                    "a chat message is one line of text: it may not hold control characters "
                    "({code})",
                    code=f"U+{ord(ch):04X}",
                ),
            )
    return text


# --- the table's chat state (in ``table.flow``; the journal's records rebuild it) ---------------


def _state(flow: Flow) -> dict[str, Any]:
    chat = flow.chat
    if chat is None:
        chat = flow.chat = {
            "log": collections.deque(maxlen=KEEP),
            "on": True,
            "spectators": False,
            "silenced": set(),
            "mutes": {},
            "sent": {},
        }
    return chat


def read_record(flow: Flow, kind: str, data: dict[str, Any]) -> None:
    """A journaled record of this module, read back when a table is loaded."""
    if kind == "chat":
        _state(flow)["log"].append(dict(data))
    elif kind == "chat_settings":
        chat = _state(flow)
        for key in ("on", "spectators"):
            if isinstance(data.get(key), bool):
                chat[key] = data[key]
        if isinstance(data.get("silenced"), list):
            chat["silenced"] = {int(s) for s in data["silenced"]}
    elif kind == "chat_mute":
        mutes = _state(flow)["mutes"].setdefault(int(data["seat"]), set())
        if data.get("mute"):
            mutes.add(int(data["target"]))
        else:
            mutes.discard(int(data["target"]))


def public(table: Table) -> dict[str, Any]:
    """What the table record says about the chat."""
    chat = _state(table.flow)
    return {
        "chat": {
            "on": chat["on"],
            "spectators": chat["spectators"],
            "silenced": sorted(chat["silenced"]),
        }
    }


def history(records: list[Any]) -> list[dict[str, Any]]:
    """Every chat message of a table's records, in order (for the replay)."""
    return [dict(r.data, seq=r.seq) for r in records if r.kind == "chat"]


# --- sending -------------------------------------------------------------------------------------


def _name(table: Table, seat: int) -> str:
    s = table.seats[seat]
    if s.name:
        return s.name
    if table.players == 4:
        return ("South", "West", "North", "East")[seat]
    return f"Player {seat + 1}"


def _rate(chat: dict[str, Any], who: Any) -> float:
    """Seconds to wait before ``who`` may write again (0: now)."""
    now = time.monotonic()
    if len(chat["sent"]) > 64:  # spectators come and go: forget who has not written lately
        for key in [k for k, q in chat["sent"].items() if not q or now - q[-1] >= WINDOW]:
            del chat["sent"][key]
    sent: collections.deque[float] = chat["sent"].setdefault(who, collections.deque())
    while sent and now - sent[0] >= WINDOW:
        sent.popleft()
    if len(sent) >= RATE:
        return WINDOW - (now - sent[0])
    return 0.0


async def post(
    server: TableServer,
    table: Table,
    seat: int | None,
    name: str,
    text: str,
    *,
    quick: bool = False,
    system: bool = False,
) -> dict[str, Any]:
    """Journal a message and send it to every reader (but those who muted its seat)."""
    from parlour.server.connection import encode

    ts = time.time()
    data: dict[str, Any] = {
        "seat": seat,
        "name": name,
        "text": text,
        "ts": ts,
        "version": table.version,
        "quick": quick,
    }
    if system:
        data["system"] = True
    seq = await server.db(server.storage.add_record, table.code, "chat", data, ts)
    data["seq"] = seq
    chat = _state(table.flow)
    chat["log"].append(data)
    out = encode({"type": "chat", **data})
    mutes: dict[int, set[int]] = chat["mutes"]
    for conn in table.connections:
        if seat is not None and conn.seat is not None and seat in mutes.get(conn.seat, ()):
            continue
        conn.send_text(out)
    return data


async def handle(
    server: TableServer, table: Table, conn: Connection, kind: str, msg: dict[str, Any]
) -> None:
    """A client message of this module; refusals raise :class:`ChatRefused`."""
    chat = _state(table.flow)
    if kind == "chat_log":
        mutes = chat["mutes"].get(conn.seat, set()) if conn.seat is not None else set()
        conn.send(
            {
                "type": "chat_log",
                "messages": [m for m in chat["log"] if m.get("seat") not in mutes],
                "muted": sorted(mutes),
                "quick": list(QUICK),
                **public(table),
            }
        )
        return
    if kind == "chat_mute":
        await _mute(server, table, conn, msg)
        return
    if kind == "chat_settings":
        await _settings(server, table, conn, msg)
        return
    text = check_text(msg.get("text"))
    quick = msg.get("quick", False)
    if not isinstance(quick, bool) or (quick and text not in QUICK):
        raise ChatRefused("bad_chat", f"'quick' is true only with one of: {', '.join(QUICK)}")
    if not chat["on"]:
        raise ChatRefused("chat_off", N_("the host turned the chat off at this table"))
    if conn.seat is None and not chat["spectators"]:
        raise ChatRefused(
            "spectator", N_("spectators read the chat; the host has not let them write")
        )
    if conn.seat is not None and conn.seat in chat["silenced"]:
        raise ChatRefused("muted", N_("the host has muted your seat in this table's chat"))
    who: Any = conn.seat if conn.seat is not None else ("conn", id(conn))
    wait = _rate(chat, who)
    if wait > 0:
        raise ChatRefused(
            "too_fast",
            N_(
                "at most {count} messages in {window} s; try again in {seconds} s",
                count=RATE,
                window=f"{WINDOW:g}",
                seconds=max(1, int(wait + 0.999)),
            ),
        )
    chat["sent"][who].append(time.monotonic())
    seat = conn.seat
    name = _name(table, seat) if seat is not None else "Spectator"
    try:
        await post(server, table, seat, name, text, quick=quick)
    except StorageError:
        chat["sent"][who].pop()
        raise ChatRefused(
            "unavailable", N_("the message could not be saved just now; try again")
        ) from None


async def _mute(server: TableServer, table: Table, conn: Connection, msg: dict[str, Any]) -> None:
    if conn.seat is None:
        raise ChatRefused("spectator", N_("take a seat to mute a player"))
    target, on = msg.get("seat"), msg.get("mute", True)
    if (
        not isinstance(target, int)
        or isinstance(target, bool)
        or not 0 <= target < table.players
        or target == conn.seat
        or not isinstance(on, bool)
    ):
        raise ChatRefused(
            "bad_chat", "chat_mute needs 'seat': another seat's number, and 'mute': true or false"
        )
    data = {"seat": conn.seat, "target": target, "mute": on}
    try:
        await server.db(server.storage.add_record, table.code, "chat_mute", data, time.time())
    except StorageError:
        raise ChatRefused("unavailable", N_("the mute could not be saved just now")) from None
    read_record(table.flow, "chat_mute", data)
    mutes = _state(table.flow)["mutes"].get(conn.seat, set())
    for c in table.seats[conn.seat].connections:
        c.send({"type": "chat_muted", "muted": sorted(mutes)})


async def _settings(
    server: TableServer, table: Table, conn: Connection, msg: dict[str, Any]
) -> None:
    host = table.meta.extra.get("host_seat")
    if conn.seat is None or conn.seat != host:
        raise ChatRefused("not_host", N_("only the table's host changes the chat's settings"))
    data: dict[str, Any] = {}
    for key in ("on", "spectators"):
        if key in msg:
            if not isinstance(msg[key], bool):
                raise ChatRefused("bad_chat", f"'{key}' must be true or false")
            data[key] = msg[key]
    if "silenced" in msg:
        seats = msg["silenced"]
        if (
            not isinstance(seats, list)
            or len(seats) > table.players
            or not all(
                isinstance(s, int) and not isinstance(s, bool) and 0 <= s < table.players
                for s in seats
            )
        ):
            raise ChatRefused("bad_chat", "'silenced' must be a list of seat numbers")
        data["silenced"] = sorted(set(seats))
    if not data:
        raise ChatRefused("bad_chat", "chat_settings needs 'on', 'spectators' or 'silenced'")
    try:
        await server.db(server.storage.add_record, table.code, "chat_settings", data, time.time())
    except StorageError:
        raise ChatRefused("unavailable", N_("the settings could not be saved just now")) from None
    read_record(table.flow, "chat_settings", data)
    table.broadcast_table()
