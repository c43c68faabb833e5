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
#: a call of this name (a function, or a method: ``tun.end``) → the position of its message:
#: refusals (HTTP ``detail``, the WebSocket's ``error``), the session's protocol errors
#: (``_error``, ``BadInput``), the guard's refusals before any route (``_plain``), a tunnel's
#: close reason (``end``) — issue 34: all told in the reader's language
MESSAGE_AT = {
    "LobbyError": 1,
    "Rejected": 1,
    "HTTPException": 1,
    "BadInput": 1,
    "JournalError": 0,
    "CorruptJournal": 0,
    "_error": 3,
    "_plain": 2,
    "end": 1,
}


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _written(node: ast.expr) -> bool:
    """A message written in place: a string literal (not empty) or an f-string."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value != ""
    return isinstance(node, ast.JoinedStr)


def unmarked(source: str) -> list[tuple[int, str]]:
    """The refusals of ``source`` whose message is a string literal or an f-string; also a
    connection closed with such a reason (``conn.close("…")``, the reason its socket's close
    frame carries) and a table marked broken with one (``self.broken[code] = "…"``, what its
    players are told)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if (
                    isinstance(target, ast.Subscript)
                    and _name(target.value) == "broken"
                    and _written(node.value)
                ):
                    out.append((node.lineno, ast.unparse(node.value)))
            continue
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        if name == "close" and len(node.args) == 1 and _written(node.args[0]):
            out.append((node.lineno, ast.unparse(node.args[0])))
            continue
        at = MESSAGE_AT.get(name or "")
        if at is None or len(node.args) <= at:
            continue
        message = node.args[at]
        if _written(message):
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
        "_error(conn, table, 'bad_json', f'not JSON: {exc}')\n"
        "conn.close('the server is shutting down')\n"
        "self.broken[code] = f'table {code} is broken'\n"
        "tun.end(4008, 'too slow')\n"
        "_error(conn, table, 'bad_json', N_('not JSON'))\n"
        "ws.close(code=4000)\n"
        "conn.close(N_('the server is shutting down'))\n"
    )
    assert sorted(line for line, _ in unmarked(src)) == [1, 2, 5, 6, 7, 8]
