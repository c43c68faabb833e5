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


#: the terminal adapters whose every player-visible string is a catalog message
TUI = CLI / "tui"
TUI_MARKED = ("handfoot.py", "samba.py", "cheat.py", "scat.py", "commands.py", "session.py")
#: the calls that put text on the screen or refuse a typed command
_SHOWN = ("print", "fail", "Text", "append", "add_row", "Panel", "CommandError")


def unmarked_tui(source: str) -> list[tuple[int, str]]:
    """English written in place in what a terminal adapter shows: the text of a call that
    prints or draws (``Text``, ``append``, ``CommandError`` …) and a move label it returns."""
    out = []
    for node in ast.walk(ast.parse(source)):
        texts: list[ast.expr] = []
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name in _SHOWN:
                texts = [*node.args, *(k.value for k in node.keywords if k.arg == "title")]
        elif isinstance(node, ast.Return) and node.value is not None:
            texts = [node.value]
        for text in texts:
            for part in _written(text):
                words = _english(part)
                if words:
                    out.append((text.lineno, words))
    return out


def _written(node: ast.expr) -> list[ast.expr]:
    """The strings written in place in an expression: itself, and the branches of a choice
    (``"opened" if … else "not down yet"``), a sum or an f-string's values; a call's arguments
    are the call's business (``t.gettext("…")`` is marked)."""
    if isinstance(node, ast.IfExp):
        return [*_written(node.body), *_written(node.orelse)]
    if isinstance(node, ast.BoolOp):
        return [part for value in node.values for part in _written(value)]
    if isinstance(node, ast.BinOp):
        return [*_written(node.left), *_written(node.right)]
    if isinstance(node, ast.JoinedStr):
        inner = [
            part
            for v in node.values
            if isinstance(v, ast.FormattedValue)
            for part in _written(v.value)
        ]
        return [node, *inner]
    return [node]


def test_the_terminal_adapters_show_no_english_written_in_place() -> None:
    found = {
        f"tui/{name}:{line}": words
        for name in TUI_MARKED
        for line, words in unmarked_tui((TUI / name).read_text(encoding="utf-8"))
    }
    assert not found, found


def test_the_terminal_check_finds_english_in_labels_and_refusals() -> None:
    src = (
        'raise CommandError("discard one card, e.g. discard K♣")\n'
        'head = Text(f"Round {n} of {m}")\n'
        'return f"add {card} to meld {meld}"\n'
        'raise CommandError(t.gettext("discard one card, e.g. discard K♣"))\n'
        'row = Text(f"{i + 1:>2}. ")\n'
        'head.append("match over" if over else t.gettext("Your turn"))\n'
        "row = Text(f\"{'opened' if up else t.gettext('not down yet')} · {n}\")\n"
    )
    assert sorted(line for line, _ in unmarked_tui(src)) == [1, 2, 3, 6, 7]
