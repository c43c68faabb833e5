"""Turn timers (issue 33): 30 s, 60 s or 2 min a decision, when the host turned them on.

A table with a timer has one small task (:func:`ensure`) that watches whose turn it is.  When a
new decision falls to a player (a human seat, connected or away within the grace period) every
connection gets ``{"type": "timer", "seat", "version", "seconds", "left"}`` and the browser counts
down on the seat and in the tab title.  If the same decision is still open when the time is up,
the seat's stand-in bot — the one that plays for absent players — makes that one move (checked
by the engine like any move), and the table's chat log says so as a line from the table
(``system: true``).  The player keeps the seat and plays the next decision.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from parlour.server.table import Table

log = logging.getLogger("parlour.server")

#: how often a table's clock looks at the table (seconds)
TICK = 0.25


def ensure(table: Table) -> None:
    """Start the table's clock if it has a timer and no clock runs (idempotent)."""
    task = table.flow.timer_task
    if task is not None and not task.done():
        return
    with contextlib.suppress(RuntimeError):  # no event loop: replaying at load time
        table.flow.timer_task = asyncio.get_running_loop().create_task(_clock(table))


def _player_to_act(table: Table) -> int | None:
    """The seat to act when it is a player's decision (not a bot seat's, not a stand-in's)."""
    if table.status != "playing" or table.deals.pending:
        return None
    seat = table.game.to_act(table.state)
    if seat is None or table.seats[seat].kind != "human":
        return None
    return seat if table.controller(seat) in ("human", "absent") else None


async def _clock(table: Table) -> None:
    from parlour.server import house

    seen: tuple[int, int | None] | None = None
    since = time.monotonic()
    while table.status not in ("finished", "expired"):
        if table.server.tables.get(table.code) is not table:
            return  # unloaded, or another process owns it now
        seconds = house.turn_timer(table)
        if not seconds:
            return
        seat = _player_to_act(table)
        key = (table.version, seat)
        if key != seen:
            seen, since = key, time.monotonic()
            if seat is not None:
                table_send(
                    table,
                    {"seat": seat, "seconds": seconds, "left": float(seconds), "ts": time.time()},
                )
        elif seat is not None and time.monotonic() - since >= seconds:
            await _stand_in(table, seat, table.version)
            seen = None
        await asyncio.sleep(TICK)


def table_send(table: Table, fields: dict[str, Any]) -> None:
    from parlour.server.connection import encode

    text = encode({"type": "timer", "version": table.version, **fields})
    for conn in table.connections:
        conn.send_text(text)


async def _stand_in(table: Table, seat: int, version: int) -> None:
    """Time is up: the seat's stand-in bot plays this one decision."""
    from parlour.server import chat
    from parlour.server.botpool import choose
    from parlour.server.errors import Rejected

    bot = table._bot(seat)
    try:
        action, _ = choose(bot, table.game, table.state, seat)
        await table.submit(seat, version, None, action=action, checked=False)
    except Rejected as exc:
        # the player moved in the same moment (stale), or the journal is away: nothing to do
        log.info("table %s: the timer's move for seat %d was refused: %s", table.code, seat, exc)
        return
    name = chat._name(table, seat)
    with contextlib.suppress(Exception):
        await chat.post(
            cast(Any, table.server),  # the TableServer (the table types it as its TableHost)
            table,
            None,
            "Table",
            f"Time ran out for {name}: the stand-in bot played that move.",
            system=True,
        )
