"""A table's house settings beyond the rules (issue 33): rated or not, and the turn timer.

The host (the seat that created the table) chooses them before the start with
``POST /api/tables/{code}/house`` (``{"token", "rated", "turn_timer"}``); the lobby's create form
sends them right after creating the table.  Each is journaled as a record (``rated``,
``turn_timer``), so a restarted server keeps them, and shown in the table record (``rated``,
``turn_timer``).

- ``rated``: ``true``/``false``; by default a table is rated when every human seat is held by a
  player with a key (see :mod:`parlour.server.ratings` for when a finished match counts).
- ``turn_timer``: ``null`` (off, the default), 30, 60 or 120 seconds a decision
  (:mod:`parlour.server.timers`).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from pydantic import BaseModel, Field

from parlour.core.said import N_
from parlour.server.storage import StorageError

if TYPE_CHECKING:
    from collections.abc import Callable

    from parlour.server.flow import Flow
    from parlour.server.lobby import TableServer
    from parlour.server.table import Table

#: the turn timers a table may have (seconds a decision); ``None`` is off
TIMERS = (30, 60, 120)


def read_record(flow: Flow, kind: str, data: dict[str, Any]) -> None:
    """A journaled record of this module, read back when a table is loaded."""
    if kind == "rated":
        flow.rated = bool(data.get("on"))
    elif kind == "turn_timer":
        seconds = data.get("seconds")
        flow.turn_timer = int(seconds) if seconds in TIMERS else None
    else:
        from parlour.server import chat

        chat.read_record(flow, kind, data)


def rated_choice(table: Table) -> bool | None:
    """What the host chose (``None``: nothing, the default applies)."""
    value = table.flow.rated
    return None if value is None else bool(value)


def turn_timer(table: Table) -> int | None:
    value = table.flow.turn_timer
    return int(value) if value else None


def public(table: Table) -> dict[str, Any]:
    """What the table record says: ``rated`` (the host's choice, ``null``: the default, on for
    players with keys) and ``turn_timer`` (seconds a decision, ``null``: off)."""
    if turn_timer(table):
        from parlour.server import timers

        timers.ensure(table)  # a table read back from the journal starts its clock when seen
    return {"rated": rated_choice(table), "turn_timer": turn_timer(table)}


def record(table: Table) -> dict[str, Any]:
    """What issue 33 adds to the table record: the house settings and the chat's."""
    from parlour.server import chat

    return {**public(table), **chat.public(table)}


class HouseRequest(BaseModel):
    token: str = Field(..., max_length=200, description="the host's seat token")
    rated: bool | None = Field(None, description="a rated match (default: on for players)")
    turn_timer: int | None = Field(
        None, description="seconds a decision: 30, 60 or 120; 0 turns the timer off"
    )


async def _op_house(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    from parlour.server.errors import LobbyError

    seat = await server.seat_of(table, args.get("token"))
    if seat != table.meta.extra.get("host_seat"):
        raise LobbyError(403, N_("only the table's host chooses the house settings"))
    if table.status != "waiting":
        raise LobbyError(409, N_("the house settings are chosen before the table starts"))
    rated, timer = args.get("rated"), args.get("turn_timer")
    if timer is not None and timer != 0 and timer not in TIMERS:
        raise LobbyError(422, N_("turn_timer must be 30, 60 or 120 seconds (0: off)"))
    now = time.time()
    try:
        if rated is not None:
            await server.db(
                server.storage.add_record, table.code, "rated", {"on": bool(rated)}, now
            )
            read_record(table.flow, "rated", {"on": bool(rated)})
        if timer is not None:
            data = {"seconds": timer or None}
            await server.db(server.storage.add_record, table.code, "turn_timer", data, now)
            read_record(table.flow, "turn_timer", data)
    except StorageError as exc:
        raise LobbyError(
            503, N_("the settings cannot be saved just now: {error}", error=str(exc))
        ) from None
    table.broadcast_table()
    return public(table)


OPS = {"house": _op_house}


def add_routes(app: FastAPI, server: TableServer, client: Callable[[Request], str]) -> None:
    """``POST /api/tables/{code}/house``."""

    @app.post("/api/tables/{code}/house", summary="Rated or not, and the turn timer (host)")
    async def house_route(code: str, req: HouseRequest, request: Request) -> dict[str, Any]:
        await server.limit("join", client(request))
        args = {"token": req.token, "rated": req.rated, "turn_timer": req.turn_timer}
        if server.cluster is not None:
            return await server.cluster.call(code, "house", args)
        return await _op_house(server, await server.get(code), args)
