"""The seat desk: a seat changes hands here.  A one-time invite is opened (``claim``), an open
seat taken from the lobby (``join``), a new invite made for one's own seat or, by the host, for
another (``reinvite``), a seat token replaced (``rotate``).

Each works on a table in memory and saves its seats with ``save`` (the lobby's, which answers
503 when the journal is away); a change that cannot be saved is undone, so memory and journal
agree.  Tokens and invites are handed out once and kept only hashed (``parlour.server.seats``).
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from parlour.core.said import N_
from parlour.server.errors import LobbyError, LobbyUnavailable, said_of
from parlour.server.seats import clean_name, hash_token, new_token

if TYPE_CHECKING:
    from parlour.server.table import Table

#: saves a table's seats (``TableServer._save_seats``: :class:`LobbyError` 503 when it cannot)
Save = Callable[["Table"], Awaitable[None]]


def seat_of(table: Table, token: Any) -> int:
    """The seat a token holds, or :class:`LobbyError` 403."""
    if not isinstance(token, str) or not token:
        raise LobbyError(403, N_("a seat token is needed ('token')"))
    seat = table.seat_for_token(token)
    if seat is None:
        raise LobbyError(403, N_("that token holds no seat at table {code}", code=table.code))
    return seat


async def claim(table: Table, invite: Any, player: Any, save: Save) -> dict[str, Any]:
    """Open an invite: the seat gets a fresh token known only to the caller; the invite
    stops working."""
    if not isinstance(invite, str) or not invite or len(invite) > 200:
        raise LobbyError(403, N_("an invite is needed ('invite')"))
    digest = hash_token(invite)
    if table.status in ("finished", "expired"):
        raise LobbyError(409, N_("table {code} is over", code=table.code))
    for s in table.seats:
        if s.invite_hash is not None and secrets.compare_digest(s.invite_hash, digest):
            token = new_token()
            before = (s.token_hash, s.invite_hash, s.invite_used, s.claimed, s.name)
            s.token_hash, s.invite_hash, s.invite_used, s.claimed = (
                hash_token(token),
                None,
                digest,
                True,
            )
            s.name = clean_name(player)
            try:
                await save(table)
            except LobbyError:
                s.token_hash, s.invite_hash, s.invite_used, s.claimed, s.name = before
                raise
            table.demote(s.seat, N_("your seat was taken with a new invite link"))
            table.broadcast_table()
            return {"seat": s.seat, "token": token, "url": f"/t/{table.code}"}
        if s.invite_used is not None and secrets.compare_digest(s.invite_used, digest):
            raise LobbyError(
                410,
                N_(
                    "this invite link has already been used; if that was you in another "
                    "browser, open the table there, otherwise ask for a new link"
                ),
            )
    raise LobbyError(403, N_("that invite is not valid at table {code}", code=table.code))


async def join(table: Table, seat: Any, player: Any, save: Save) -> dict[str, Any]:
    """Take an open seat (one the creator made open to anyone)."""
    free = table.free_seats()
    if seat is None:
        if not free:
            raise LobbyError(409, N_("table {code} has no open seat", code=table.code))
        seat = free[0]
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < table.players:
        raise LobbyError(422, N_("seat must be 0..{last}", last=table.players - 1))
    if seat not in free:
        raise LobbyError(
            409,
            N_(
                "seat {seat} of table {code} is not open; open seats: {free}",
                seat=seat,
                code=table.code,
                free=str(free),
            ),
        )
    s = table.seats[seat]
    token = new_token()
    before = (s.token_hash, s.claimed, s.left, s.invite_hash, s.invite_used, s.name)
    # the seat's invite from the table's creation stops too: it must not take the seat back
    s.token_hash, s.claimed, s.left = hash_token(token), True, False
    s.name = clean_name(player)
    if s.invite_hash is not None:
        s.invite_hash, s.invite_used = None, s.invite_hash
    try:
        await save(table)
    except LobbyError:
        s.token_hash, s.claimed, s.left, s.invite_hash, s.invite_used, s.name = before
        raise
    table.new_holder(seat)
    table.broadcast_table()
    return {"seat": seat, "token": token, "url": f"/t/{table.code}"}


async def reinvite(table: Table, token: Any, seat: Any, save: Save) -> dict[str, Any]:
    """A new one-time invite: for your own seat (to move it to another device: the invite,
    once opened, takes the seat and this token stops working) or, for the table's host, for
    another human seat (a lost or leaked link: that seat's token and old invite stop working
    at once)."""
    holder = seat_of(table, token)
    if table.status in ("finished", "expired"):
        raise LobbyError(409, N_("table {code} is over", code=table.code))
    target = holder if seat is None else seat
    if (
        not isinstance(target, int)
        or isinstance(target, bool)
        or not 0 <= target < table.players
        or table.seats[target].kind != "human"
    ):
        raise LobbyError(422, N_("seat must be a human seat of this table"))
    if target != holder and holder != table.meta.extra.get("host_seat"):
        raise LobbyError(403, N_("only the table's host may make a new invite for another seat"))
    s = table.seats[target]
    invite = new_token()
    before = (
        s.invite_hash,
        s.invite_used,
        s.token_hash,
        s.claimed,
        s.ever_connected,
        s.open,
        s.name,
    )
    s.invite_hash, s.invite_used = hash_token(invite), None
    if target != holder:
        # a new person for the seat: the table waits for them, and the seat is theirs alone
        s.token_hash, s.claimed, s.ever_connected, s.open = None, False, False, False
        s.name = None
    try:
        await save(table)
        if target != holder and not table.dealt and target in table.contributions:
            await table.withdraw_contribution(target)
    except LobbyUnavailable as exc:
        raise LobbyError(503, said_of(exc)) from None
    except LobbyError:
        (
            s.invite_hash,
            s.invite_used,
            s.token_hash,
            s.claimed,
            s.ever_connected,
            s.open,
            s.name,
        ) = before
        raise
    if target != holder:
        table.new_holder(target)
        table.demote(target, N_("the host made a new invite for this seat"))
        table.broadcast_table()
        table.kick()
    return {"seat": target, "invite": invite, "invite_url": invite_url(table.code, invite)}


async def rotate(table: Table, token: Any, save: Save) -> dict[str, Any]:
    """A fresh token for the seat; the old one stops working; the seat's sockets stay."""
    seat = seat_of(table, token)
    s = table.seats[seat]
    fresh = new_token()
    before = s.token_hash
    s.token_hash = hash_token(fresh)
    try:
        await save(table)
    except LobbyError:
        s.token_hash = before
        raise
    for conn in s.connections:
        conn.send({"type": "token", "token": fresh})
    return {"seat": seat, "token": fresh, "url": f"/t/{table.code}"}


def invite_url(code: str, invite: str) -> str:
    return f"/t/{code}?invite={invite}"


def seat_url(code: str, token: str | None) -> str:
    return f"/t/{code}?seat={token}"
