"""The server's errors, at the bottom of the package: every part may raise them, none of them
imports anything of the server (``tests/server/test_server_imports.py`` keeps it so).

The journal's own errors (``StorageError`` and its kinds) stay with the journal in ``storage``.
"""

from __future__ import annotations

from parlour.core.said import N_


class LobbyError(Exception):
    """An HTTP call refused: ``status`` is the HTTP status, ``message`` says why."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers


class Rejected(Exception):
    """A client message refused; ``code`` is one of the protocol's error codes."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class LobbyUnavailable(Exception):
    """The journal is away (the lobby answers 503)."""


class JournalError(Exception):
    """A table's journal cannot be played back (the reason in words)."""


#: what a player is told when the journal did not take a write
UNAVAILABLE = N_(
    "the table's record could not be saved just now (the database is not answering); "
    "nothing changed — try again in a moment"
)
