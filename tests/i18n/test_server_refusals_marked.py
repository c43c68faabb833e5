"""Issue 34: a refusal the server raises is a catalog message, never a bare English string.

Every ``LobbyError(status, message)`` (HTTP ``detail``), ``Rejected(code, message)`` (the
WebSocket's ``error``) and ``HTTPException(status, message)`` in ``parlour/server`` whose message
is written in place must be ``N_(…)``/``ngettext(…)``, so extraction puts it in the catalogs and
the edge tells it in the reader's language.  A message passed on in a variable (a kept reason,
an engine's refusal) is not checked here: those are ``Said`` where they are made."""

from __future__ import annotations

import ast
from pathlib import Path

import parlour.server

SERVER = Path(parlour.server.__file__).parent
REFUSALS = {"LobbyError", "Rejected", "HTTPException"}


def unmarked(source: str) -> list[tuple[int, str]]:
    """The refusals of ``source`` whose message is a string literal or an f-string."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        if node.func.id not in REFUSALS or len(node.args) < 2:
            continue
        message = node.args[1]
        if isinstance(message, ast.Constant | ast.JoinedStr):
            out.append((node.lineno, ast.unparse(message)))
    return out


def test_every_refusal_the_server_writes_is_marked_for_translation() -> None:
    found = {
        f"{path.name}:{line}": text
        for path in sorted(SERVER.glob("*.py"))
        for line, text in unmarked(path.read_text(encoding="utf-8"))
    }
    assert not found, found


def test_the_check_finds_a_bare_string_and_an_f_string() -> None:
    src = (
        "raise LobbyError(404, 'no such thing')\n"
        "raise Rejected('bad', f'cannot read {x}')\n"
        "raise LobbyError(404, N_('no such table'))\n"
        "raise Rejected('gone', reason)\n"
    )
    assert [line for line, _ in unmarked(src)] == [1, 2]
