"""A table's fair-deal records (issue 20, docs/fairness.md): the server's secret and its
published commitment, the players' contributions to the shuffle, and the secret revealed when
the match ends, so anyone can check every deal (``parlour verify``).

The hashes themselves are ``parlour.server.deals``; this part keeps a table's side of them and
reads their records back from the journal.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from parlour.core.game import Event
from parlour.core.said import N_
from parlour.server import flow, house
from parlour.server.deals import DealTracker, secret_commitment, valid_contribution
from parlour.server.errors import UNAVAILABLE, LobbyUnavailable, Rejected
from parlour.server.storage import Record, StorageError
from parlour.server.table_base import TableBase


class TableFair(TableBase):
    """The server's secret, the players' contributions, the deals' commitments."""

    def _read_records(self, records: list[Record]) -> bool:
        """The secret, the contributions and the deal commitments from the journal's records
        (the flow's records go to ``parlour.server.flow``); whether the match was started."""
        self.legacy = "secret" not in self.meta.extra
        self.secret = (
            str(self.meta.extra["secret"])
            if not self.legacy
            else hashlib.sha256(
                f"parlour-legacy:{self.meta.code}:{self.meta.seed}".encode()
            ).hexdigest()
        )
        self.server_commitment = secret_commitment(self.secret)
        stored_commitments: dict[int, dict[str, Any]] = {}
        self.contributions = {}
        started: dict[str, Any] | None = None
        self.secret_revealed = False
        for r in records:
            if r.kind == "secret_commitment":
                published = str(r.data.get("commitment"))
                if published != self.server_commitment:
                    self.notes.append("the stored secret does not match its published commitment")
                self.server_commitment = published
            elif r.kind == "contribution" and started is None:
                self.contributions.setdefault(int(r.data["seat"]), str(r.data["value"]))
            elif r.kind == "contribution_withdrawn" and started is None:
                self.contributions.pop(int(r.data["seat"]), None)
            elif r.kind == "start" and started is None:
                started = dict(r.data)
                self.contributions = {
                    int(k): str(v) for k, v in dict(started.get("contributions") or {}).items()
                }
            elif r.kind == "deal_commitment":
                stored_commitments.setdefault(int(r.data["hand"]), dict(r.data))
            else:  # the flow's records, and issue 33's (house settings, chat)
                flow.read_record(self.flow, r.kind, r.data)
                house.read_record(self.flow, r.kind, r.data)
        self.deals = DealTracker(self.game, self.secret, stored_commitments)
        return started is not None

    def _reveal_secret(self) -> None:
        if self.secret_revealed or self.legacy:
            return
        self.secret_revealed = True
        self._log(
            [
                Event(
                    "secret_reveal",
                    {
                        "secret": self.secret,
                        "server_commitment": self.server_commitment,
                        "contributions": {str(k): v for k, v in self.contributions.items()},
                        "match_seed": self.seed,
                    },
                )
            ]
        )

    def fairness(self) -> dict[str, Any]:
        return {
            "server_commitment": self.server_commitment,
            "contributions": {str(k): v for k, v in sorted(self.contributions.items())},
            "seeded": self.dealt,
        }

    async def contribute(self, seat: int, value: Any) -> None:
        """A player's randomness for the shuffle (before the table starts; the first one counts,
        so nobody — the server included — can swap it once others have seen it)."""
        if not valid_contribution(value):
            raise Rejected(
                "bad_contribution",
                N_("a contribution is 32 to 64 lowercase hexadecimal characters"),
            )
        if self.dealt:
            raise Rejected("started", N_("the cards are already dealt; contributions came before"))
        if seat in self.contributions:
            if self.contributions[seat] == value:
                return
            raise Rejected(
                "bad_contribution",
                N_("this seat's randomness is already in; it cannot be changed"),
            )
        try:
            await self.server.db(
                self.server.storage.add_record,
                self.code,
                "contribution",
                {"seat": seat, "value": value},
                time.time(),
            )
        except StorageError:
            raise Rejected("unavailable", UNAVAILABLE) from None
        self.contributions[seat] = value
        self.broadcast_table()

    async def withdraw_contribution(self, seat: int) -> None:
        """Before the start, a seat handed to a new person loses the old holder's randomness
        (journaled, so the published list stays explainable)."""
        try:
            await self.server.db(
                self.server.storage.add_record,
                self.code,
                "contribution_withdrawn",
                {"seat": seat},
                time.time(),
            )
        except StorageError:
            raise LobbyUnavailable(UNAVAILABLE) from None
        self.contributions.pop(seat, None)
        self.broadcast_table()
