"""A table's lobby record read from its journal row, for the tables another process plays (the
cluster's table list): the fields of ``Table.record``; who is connected is not known here."""

from __future__ import annotations

from typing import Any

from parlour.server.seats import SeatState
from parlour.server.storage_base import TableMeta


def summary_record(meta: TableMeta, version: int) -> dict[str, Any] | None:
    """A table's lobby record from its journal row (for tables another process plays): the
    same fields as :meth:`Table.record`; who is connected is not known here."""
    from parlour import games
    from parlour.core.errors import ParlourError

    try:
        entry = games.entry(meta.game)
    except ParlourError:
        return None
    seats = [SeatState.from_stored(s) for s in meta.seats]
    rows = []
    for s in seats:
        row: dict[str, Any] = {
            "seat": s.seat,
            "kind": s.kind,
            "claimed": s.claimed if s.kind == "human" else True,
            "connected": False,
            "controller": "bot"
            if s.kind == "bot" or s.left
            else ("waiting" if meta.status == "waiting" else "absent"),
        }
        if s.kind == "bot":
            row["bot"] = s.bot
        else:
            row["open"] = s.open
        rows.append(row)
    free = [s.seat for s in seats if s.kind == "human" and s.open and not s.claimed]
    return {
        "code": meta.code,
        "name": meta.name,
        "game": entry.name,
        "preset": meta.preset,
        "rules": meta.rules,
        "players": len(seats),
        "status": meta.status,
        "version": version,
        "created": meta.created,
        "seats": rows,
        "free_seats": free,
        "fairness": {"seeded": meta.status != "waiting"},
    }
