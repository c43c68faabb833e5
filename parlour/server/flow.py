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
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass
class Flow:
    """A table's flow of play: what players chose or asked around the moves themselves (the
    records that set it are read back by :func:`read_record` when the table is loaded)."""

    #: seconds this table's bots wait before they play (``None``: the server's ``bot_delay``)
    bot_delay: float | None = None
    #: the code of the rematch table, once one was made
    rematch: str | None = None
    #: one rematch at a time (two players asking at once get the same table)
    rematch_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: the seats reading a score sheet, until when (``time.monotonic``)
    holds: dict[int, float] = field(default_factory=dict)
    #: the (seat, version) pairs that held the bots already: once per seat and version
    held_at: set[tuple[int, int]] = field(default_factory=set)
    # --- issue 33: house settings (``house``), the chat (``chat``), the turn timer's clock
    # (``timers``), the players' history written when the match ends (``ratings``)
    rated: bool | None = None
    turn_timer: int | None = None
    chat: dict[str, Any] | None = None
    timer_task: asyncio.Task[None] | None = None
    history_task: asyncio.Task[None] | None = None


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
    def flow(self) -> Flow: ...

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
    own = table.flow.bot_delay
    return float(own) if own is not None else float(table.server.config.bot_delay)


def held_for(table: Table) -> float:
    """Seconds the bots still wait for a player reading a score sheet (0: none)."""
    now = time.monotonic()
    holds = table.flow.holds
    for seat in [s for s, until in holds.items() if until <= now]:
        del holds[seat]
    return max((until - now for until in holds.values()), default=0.0)


async def wait_holds(table: Table) -> None:
    """Before a bot plays: wait while a player reads a score sheet (at most ``HOLD_MAX``)."""
    while (left := held_for(table)) > 0:
        await asyncio.sleep(min(left, 0.1))


def read_record(flow: Flow, kind: str, data: dict[str, Any]) -> None:
    """A journaled record of this module, read back when a table is loaded."""
    if kind == "bot_delay":
        delay = data.get("delay")
        flow.bot_delay = None if delay is None else float(delay)
    elif kind == "rematch":
        code = data.get("code")
        flow.rematch = None if code is None else str(code)


def public(table: Table) -> dict[str, Any]:
    """What the ``table`` message says about the flow."""
    return {
        "bot_delay": bot_delay(table),
        "speed_set": table.flow.bot_delay is not None,
        "rematch": table.flow.rematch,
        "held": held_for(table) > 0,
    }
