"""The server's errors, at the bottom of the package: every part may raise them, none of them
imports anything of the server (``tests/server/test_server_imports.py`` keeps it so).

The journal's own errors (``StorageError`` and its kinds) stay with the journal in ``storage``.
"""

from __future__ import annotations

from parlour.core.said import N_, Said


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


def said_of(exc: BaseException) -> str:
    """An exception's message: the catalog message it was raised with (a ``Said``, told in the
    reader's language where it is shown), else its text."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, Said) else str(exc)


def said_to_json(text: str) -> object:
    """A message as JSON, for another process to tell it (a lobby call answered over the bus):
    a catalog message keeps its message and values (a value that is not a number or a message
    goes as its English text); any other text as it is."""
    if not isinstance(text, Said):
        return str(text)
    values: dict[str, object] = {}
    for key, value in text.values.items():
        if isinstance(value, Said):
            values[key] = said_to_json(value)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            values[key] = value
        else:
            values[key] = str(value)
    return {"msgid": text.msgid, "plural": text.plural, "n": text.n, "values": values}


def said_from_json(data: object) -> str:
    """The message :func:`said_to_json` wrote (any other JSON: its text)."""
    if not isinstance(data, dict) or not isinstance(data.get("msgid"), str):
        return str(data)
    raw = data.get("values")
    values = {
        str(k): said_from_json(v) if isinstance(v, dict) else v
        for k, v in (raw.items() if isinstance(raw, dict) else ())
    }
    plural = data.get("plural")
    n = data.get("n")
    try:
        return Said(
            data["msgid"],
            plural if isinstance(plural, str) else None,
            n if isinstance(n, int) else 1,
            values,
        )
    except (KeyError, IndexError, ValueError):  # values that do not fit the message
        return str(data["msgid"])
