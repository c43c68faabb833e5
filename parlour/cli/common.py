"""Helpers shared by the CLI commands: choosing a game variant from flags, clean errors."""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.console import Console

from parlour import games
from parlour.core.errors import ParlourError
from parlour.core.registry import Variant

console = Console()
err_console = Console(stderr=True)


def fail(message: str, code: int = 2) -> typer.Exit:
    # soft wrap: a long path in the message stays whole (copyable), the terminal wraps the line
    err_console.print(f"[bold red]error:[/] {message}", soft_wrap=True)
    return typer.Exit(code)


def terminal_language(lang: str | None) -> str:
    """The player's language: ``--lang`` when given (an unknown language is English), else the
    terminal's ``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG``; text that is no language tag
    is refused."""
    import os

    from parlour import i18n

    if lang is not None:
        try:
            return i18n.choose(lang)
        except i18n.LanguageError as exc:
            raise fail(str(exc)) from None
    return i18n.from_environment(os.environ)


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """``--option name=value`` pairs; values are JSON (``true``, ``160``, ``"restart"``) or text."""
    out: dict[str, Any] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise fail(f"--option needs name=value, got {pair!r}")
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
        raise fail(str(exc)) from None


def split_names(text: str | None) -> list[str]:
    return [t.strip() for t in (text or "").split(",") if t.strip()]
