"""A server in this process, no sockets: tests that drive a :class:`TableServer` and its tables
directly (``table.submit``, ``table.close``) build them here."""

from __future__ import annotations

from parlour.server.connection import Connection
from parlour.server.lobby import ServerConfig, TableServer
from parlour.server.storage import open_storage
from parlour.server.table import Table


def memory_server() -> TableServer:
    """A server on an in-memory SQLite journal; bots move at once, no rate limits."""
    return TableServer(
        open_storage("sqlite:///:memory:"), ServerConfig(bot_delay=0.0, rate_limits={})
    )


async def held_samba_table(server: TableServer) -> Table:
    """A started 4-player, one-hand Samba table whose four seats are people, each claimed and
    connected: nobody plays until the test submits a move."""
    table, _ = await server.create(
        "samba", None, {"max_hands": 1}, 4, [{"kind": "human"}] * 4, "default", "t"
    )
    for s in table.seats:
        s.claimed = s.ever_connected = True
        table.attach(Connection(s.seat))
    await table.start()
    return table
