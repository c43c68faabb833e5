"""Issue 34: the commands a player meets (``play``, ``rules``, ``score chicago``) print no
English written in place: what they print (``console.print``) and refuse with (``fail``) is a
catalog message (``t.gettext(…)``), a value, or markup around those."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import parlour.cli

CLI = Path(parlour.cli.__file__).parent
PLAYER_COMMANDS = ("play.py", "rules_cmd.py", "score.py", "common.py")
#: rich markup and placeholders are not words
_NOT_WORDS = re.compile(r"\[/?[a-z ]*\]|\{[^}]*\}")
_WORD = re.compile(r"[A-Za-z]{2,}")


def _english(node: ast.expr) -> str | None:
    """The English written in place in a printed message, if any."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = "".join(
            v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)
        )
    else:
        return None
    found = _WORD.findall(_NOT_WORDS.sub("", text))
    return " ".join(found) if found else None


def unmarked(source: str) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name not in ("print", "fail"):
            continue
        words = _english(node.args[0])
        if words:
            out.append((node.lineno, words))
    return out


def test_the_player_commands_print_no_english_written_in_place() -> None:
    found = {
        f"{name}:{line}": words
        for name in PLAYER_COMMANDS
        for line, words in unmarked((CLI / name).read_text(encoding="utf-8"))
    }
    assert not found, found


def test_the_check_finds_english_but_not_markup_or_values() -> None:
    src = (
        'console.print(f"undone: {entry}")\n'
        'raise fail("the pad is not installed")\n'
        'console.print(f"[bold red]{error}[/] {text}")\n'
        'console.print(t.gettext("undone: {entry}").format(entry=e))\n'
    )
    assert sorted(line for line, _ in unmarked(src)) == [1, 2]
