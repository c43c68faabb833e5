"""A table's seats and their tokens: who may sit where, kept hashed.

:class:`SeatState` is one seat as the journal stores it (``stored``/``from_stored``) plus what
only lives in memory (its open connections, since when its player is away).  A seat token and an
invite are random (:func:`new_token`), handed to the player once and kept only as
:func:`hash_token`; a table's code is :func:`new_code`.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any

from parlour.server.connection import Connection

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """Seat tokens and invites are kept hashed: the journal never holds a usable one."""
    return hashlib.sha256(f"parlour-token:{token}".encode()).hexdigest()


@dataclass
class SeatState:
    seat: int
    kind: str  # "human" or "bot"
    bot: str | None = None
    #: sha256 of the seat token (``None``: nobody holds the seat)
    token_hash: str | None = None
    #: sha256 of the one-time invite (``None``: no invite open)
    invite_hash: str | None = None
    #: sha256 of the invite once it was used (to say "already used" rather than "wrong")
    invite_used: str | None = None
    #: anyone may take the seat from the open-tables list (else invite only)
    open: bool = False
    claimed: bool = False
    ever_connected: bool = False
    connections: list[Connection] = field(default_factory=list)
    absent_since: float | None = None
    #: the player left: a bot plays the seat
    left: bool = False
    #: the name the player gave (shown at the table); ``None``: the seat's name
    name: str | None = None

    def stored(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "bot": self.bot,
            "token_hash": self.token_hash,
            "invite_hash": self.invite_hash,
            "invite_used": self.invite_used,
            "open": self.open,
            "claimed": self.claimed,
            "ever_connected": self.ever_connected,
            "left": self.left,
            "name": self.name,
        }

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> SeatState:
        token_hash = data.get("token_hash")
        if token_hash is None and data.get("token"):  # a table journaled before tokens were hashed
            token_hash = hash_token(str(data["token"]))
        return cls(
            seat=int(data["seat"]),
            kind=data["kind"],
            bot=data.get("bot"),
            token_hash=token_hash,
            invite_hash=data.get("invite_hash"),
            invite_used=data.get("invite_used"),
            open=bool(data.get("open")),
            claimed=bool(data.get("claimed")),
            ever_connected=bool(data.get("ever_connected")),
            left=bool(data.get("left")),
            name=clean_name(data.get("name")),
        )


#: longest player name kept (characters)
NAME_MAX = 24


def clean_name(value: Any) -> str | None:
    """A player's name as shown: printable, one line, at most ``NAME_MAX`` characters; ``None``
    for no name (or anything that is not text)."""
    if not isinstance(value, str):
        return None
    text = "".join(ch if ch.isprintable() else " " for ch in value)
    text = " ".join(text.split())[:NAME_MAX].strip()
    return text or None
