"""The flow's HTTP calls (issue 17): a rematch with the same seats and a new seed, a pause while a
player reads a hand's score sheet, a table's own speed.  Above the lobby and the table (it drives
both); what a table reads of its flow is ``parlour.server.flow``."""

from __future__ import annotations

import contextlib
import time
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from pydantic import BaseModel, Field

from parlour.core.said import N_
from parlour.server import flow
from parlour.server.errors import LobbyError
from parlour.server.flow import DELAY_MAX, bot_delay, held_for
from parlour.server.guard import STRICT_BODY
from parlour.server.seats import hash_token, new_token
from parlour.server.storage import StorageError

if TYPE_CHECKING:
    from parlour.server.lobby import TableServer
    from parlour.server.table import Table


class HoldRequest(BaseModel):
    model_config = STRICT_BODY

    token: str = Field(..., max_length=200, description="your seat token")
    on: bool = Field(True, description="true: the score sheet is open; false: it was closed")


class SpeedRequest(BaseModel):
    model_config = STRICT_BODY

    token: str = Field(..., max_length=200, description="your seat token")
    delay: float | None = Field(
        ...,
        ge=0,
        le=DELAY_MAX,
        description="seconds a bot waits before it plays; null: the server's default",
    )


class RematchRequest(BaseModel):
    model_config = STRICT_BODY

    token: str = Field(..., max_length=200, description="your seat token at the finished table")


# --- what players ask ---------------------------------------------------------------------------


async def hold(server: TableServer, table: Table, token: str, on: bool) -> dict[str, Any]:
    """A player opened (or closed) a hand's score sheet. A seat holds the bots once per table
    version, for at most ``HOLD_MAX`` seconds."""
    seat = await server.seat_of(table, token)
    holds = table.flow.holds
    used = table.flow.held_at
    if on and table.status == "playing" and (seat, table.version) not in used:
        used.add((seat, table.version))
        holds[seat] = time.monotonic() + flow.HOLD_MAX
    elif not on:
        holds.pop(seat, None)
    table.broadcast_table()
    table.kick()
    return {"seat": seat, "held": held_for(table) > 0, "for": round(held_for(table), 1)}


async def set_speed(
    server: TableServer, table: Table, token: str, delay: float | None
) -> dict[str, Any]:
    """A seated player sets how long this table's bots wait before they play."""
    await server.seat_of(table, token)
    try:
        await server.db(
            server.storage.add_record, table.code, "bot_delay", {"delay": delay}, time.time()
        )
    except StorageError as exc:
        raise LobbyError(
            503, N_("the speed cannot be saved just now: {error}", error=str(exc))
        ) from None
    table.flow.bot_delay = delay
    table.broadcast_table()
    return {"bot_delay": bot_delay(table), "speed_set": delay is not None}


async def rematch(server: TableServer, table: Table, token: str) -> dict[str, Any]:
    """A new match at a finished table: the same game, rules, seats and bots, a new seed. The
    first player to ask makes the table and sits down at once; the others who held a seat take
    theirs at the new table with the same call."""
    # one caller at a time: two players asking at once used to make two tables with two hosts
    async with table.flow.rematch_lock:
        return await _rematch(server, table, token)


async def _rematch(server: TableServer, table: Table, token: str) -> dict[str, Any]:

    seat = await server.seat_of(table, token)
    if table.status != "finished":
        raise LobbyError(409, N_("the match is not over yet: a rematch starts when it ends"))
    code = table.flow.rematch
    if code is None:
        rules = dict(table.meta.rules)
        players = rules.pop("players", None)
        seats = [
            {"kind": "bot", "bot": s.bot} if s.kind == "bot" else {"kind": "human", "open": s.open}
            for s in table.seats
        ]
        new, response = await server.create(
            table.entry.name,
            table.meta.preset,
            rules,
            players,
            seats,
            seat,
            table.meta.name,
            table.seats[seat].name,  # the rematch keeps the player's name (issue 33)
        )
        new.meta.extra["rematch_of"] = table.code
        # the new table stands even if this is not saved: only a restart would forget the link
        with contextlib.suppress(StorageError):
            await server.db(
                server.storage.add_record, table.code, "rematch", {"code": new.code}, time.time()
            )
        table.flow.rematch = new.code
        table.broadcast_table()
        you = response["you"]
        return {
            "code": new.code,
            "seat": you["seat"],
            "token": you["token"],
            "url": f"/t/{new.code}",
            "host": True,
        }
    new = await server.get(str(code))
    s = new.seats[seat]
    if s.kind != "human":
        raise LobbyError(409, N_("a bot plays this seat at table {code}", code=new.code))
    if s.claimed:
        raise LobbyError(
            409,
            N_(
                "this seat at table {code} is taken already (maybe in another browser)",
                code=new.code,
            ),
        )
    fresh = new_token()
    before = (s.token_hash, s.invite_hash, s.invite_used, s.claimed, s.name)
    s.token_hash, s.claimed = hash_token(fresh), True
    s.name = table.seats[seat].name  # the rematch keeps the player's name (issue 33)
    if s.invite_hash is not None:
        s.invite_hash, s.invite_used = None, s.invite_hash
    try:
        await server._save_seats(new)
    except LobbyError:
        s.token_hash, s.invite_hash, s.invite_used, s.claimed, s.name = before
        raise
    new.broadcast_table()
    return {"code": new.code, "seat": seat, "token": fresh, "url": f"/t/{new.code}", "host": False}


async def _op_rematch(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    return await rematch(server, table, args["token"])


async def _op_hold(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    return await hold(server, table, args["token"], args["on"])


async def _op_speed(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    return await set_speed(server, table, args["token"], args["delay"])


#: the flow's operations on one table (in a cluster, run by the process that owns it)
OPS = {"rematch": _op_rematch, "hold": _op_hold, "speed": _op_speed}


async def _on_table(
    server: TableServer, code: str, op: str, args: dict[str, Any]
) -> dict[str, Any]:
    if server.cluster is not None:
        return await server.cluster.call(code, op, args)
    return await OPS[op](server, await server.get(code), args)


def add_flow(app: FastAPI, server: TableServer, client: Any) -> None:
    """The routes: ``/api/tables/{code}/rematch``, ``/hold`` and ``/speed``."""

    @app.post("/api/tables/{code}/rematch", summary="A new match with the same seats")
    async def rematch_route(code: str, req: RematchRequest, request: Request) -> dict[str, Any]:
        await server.limit("create", client(request))
        return await _on_table(server, code, "rematch", {"token": req.token})

    @app.post("/api/tables/{code}/hold", summary="Bots wait while a score sheet is read")
    async def hold_route(code: str, req: HoldRequest, request: Request) -> dict[str, Any]:
        await server.limit("join", client(request))
        return await _on_table(server, code, "hold", {"token": req.token, "on": req.on})

    @app.post("/api/tables/{code}/speed", summary="How long this table's bots wait")
    async def speed_route(code: str, req: SpeedRequest, request: Request) -> dict[str, Any]:
        await server.limit("join", client(request))
        return await _on_table(server, code, "speed", {"token": req.token, "delay": req.delay})
