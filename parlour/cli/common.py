"""Helpers shared by the CLI commands: choosing a game variant from flags, clean errors."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.markup import escape

from parlour import games
from parlour.core.errors import ParlourError
from parlour.core.registry import Variant

if TYPE_CHECKING:
    from parlour.i18n import Messages

console = Console()
err_console = Console(stderr=True)
#: the language the command speaks (``--lang``, chosen by :func:`terminal_language`); ``None``:
#: the terminal's (``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG``)
_language: str | None = None


def words() -> Messages:
    """The messages of the command's language (issue 34)."""
    import os

    from parlour import i18n

    return i18n.messages(_language or i18n.from_environment(os.environ))


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print ``error: message`` (in the command's language; a catalog message is told in it)
    and return the exit to raise."""
    from parlour.core.said import Said
    from parlour.core.text import tell

    t = words()
    # soft wrap: a long path in the message stays whole (copyable), the terminal wraps the line
    shown = escape(tell(message, t)) if isinstance(message, Said) else message
    err_console.print(f"[bold red]{escape(t.gettext('error:'))}[/] {shown}", soft_wrap=True)
    return typer.Exit(code)


def terminal_language(lang: str | None) -> str:
    """The player's language: ``--lang`` when given (an unknown language is English), else the
    terminal's ``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG``; text that is no language tag
    is refused."""
    import os

    from parlour import i18n

    global _language
    if lang is not None:
        try:
            _language = i18n.choose(lang)
        except i18n.LanguageError as exc:
            raise fail(escape(str(exc))) from None
    else:
        _language = i18n.from_environment(os.environ)
    return _language


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """``--option name=value`` pairs; values are JSON (``true``, ``160``, ``"restart"``) or text."""
    out: dict[str, Any] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise fail(
                escape(
                    words().gettext("--option needs name=value, got {pair}").format(pair=repr(pair))
                )
            )
        key, raw = pair.split("=", 1)
        try:
            out[key.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            out[key.strip()] = raw
    return out


def choose_variant(
    game: str,
    preset: str | None = None,
    players: int | None = None,
    options: dict[str, Any] | None = None,
) -> Variant:
    try:
        return games.get(game, preset, players, **(options or {}))
    except (ParlourError, ValueError, KeyError) as exc:
        raise fail(said(exc)) from None


def said(exc: BaseException) -> str:
    """An error's message: the catalog message it was raised with (told by :func:`fail` in the
    command's language), else its text."""
    from parlour.core.said import Said

    first = exc.args[0] if exc.args else None
    return first if isinstance(first, Said) else str(exc)


def split_names(text: str | None) -> list[str]:
    return [t.strip() for t in (text or "").split(",") if t.strip()]
