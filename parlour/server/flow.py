"""The flow of play around a table (issue 17): a rematch with the same seats and a new seed, the
bots pausing while a player reads a hand's score sheet, and a table's own speed (how long its
bots wait before they play).

Each is an HTTP call by a seated player (``token``; ``parlour.server.flowroutes``); what changed
goes out to the table's pages in the ``table`` message (``record()``: ``rematch``, ``bot_delay``,
``held``). The speed and the rematch's code are journaled as records, so a restarted server
keeps them; a pause is not (it lasts seconds).  This module is what the table reads of its flow
(below the table); the calls that change it are in ``flowroutes`` (above the lobby).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Protocol


class _Config(Protocol):
    @property
    def bot_delay(self) -> float: ...


class _Server(Protocol):
    @property
    def config(self) -> _Config: ...


class Table(Protocol):
    """What the flow reads of a table (``parlour.server.table.Table``, which calls these
    functions: the flow never imports the table)."""

    @property
    def flow(self) -> dict[str, Any]: ...

    @property
    def server(self) -> _Server: ...


#: longest the bots wait for one player reading a hand's score sheet, in seconds: a player who
#: walked away does not stop the table for longer
HOLD_MAX = 30.0
#: slowest table speed a player may choose (seconds a bot waits before it plays)
DELAY_MAX = 5.0


# --- what the table reads ---------------------------------------------------------------------


def bot_delay(table: Table) -> float:
    """Seconds this table's bots wait before they play: its own speed, else the server's."""
    own = table.flow.get("bot_delay")
    return float(own) if own is not None else float(table.server.config.bot_delay)


def held_for(table: Table) -> float:
    """Seconds the bots still wait for a player reading a score sheet (0: none)."""
    now = time.monotonic()
    holds: dict[int, float] = table.flow.setdefault("holds", {})
    for seat in [s for s, until in holds.items() if until <= now]:
        del holds[seat]
    return max((until - now for until in holds.values()), default=0.0)


async def wait_holds(table: Table) -> None:
    """Before a bot plays: wait while a player reads a score sheet (at most ``HOLD_MAX``)."""
    while (left := held_for(table)) > 0:
        await asyncio.sleep(min(left, 0.1))


def read_record(flow: dict[str, Any], kind: str, data: dict[str, Any]) -> None:
    """A journaled record of this module, read back when a table is loaded."""
    if kind == "bot_delay":
        flow["bot_delay"] = data.get("delay")
    elif kind == "rematch":
        flow["rematch"] = data.get("code")
    else:  # --- issue 33 hook: chat and house settings ---
        from parlour.server import chat, house

        chat.read_record(flow, kind, data)
        house.read_record(flow, kind, data)


def public(table: Table) -> dict[str, Any]:
    """What the ``table`` message says about the flow."""
    return {
        "bot_delay": bot_delay(table),
        "speed_set": table.flow.get("bot_delay") is not None,
        "rematch": table.flow.get("rematch"),
        "held": held_for(table) > 0,
    }
