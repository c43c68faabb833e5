"""The ``parlour`` command: simulate, rules, replay, play, serve, tournament, score, verify, info.

Each subcommand lives in its own module here and registers itself on the Typer app of
:mod:`parlour.cli.base`.  ``parlour COMMAND`` imports only that command's module (start-up time
counts in every run); ``parlour.cli.app`` is the app with every command loaded."""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys

import typer
import typer.main

#: command name -> the module of parlour.cli that registers it
COMMANDS: dict[str, str] = {
    "simulate": "simulate",
    "rules": "rules_cmd",
    "replay": "replay_cmd",
    "play": "play",
    "serve": "serve",
    "tournament": "tournament",
    "ladder": "ladder",
    "score": "score",
    "verify": "verify",
    "playthrough": "playthrough",
    "info": "info",
}


def load_commands(names: list[str] | None = None) -> typer.Typer:
    """The app with the modules of these commands loaded (``None``: every command)."""
    for command in COMMANDS if names is None else names:
        name = f"parlour.cli.{COMMANDS[command]}"
        if importlib.util.find_spec(name) is not None:
            importlib.import_module(name)
    from parlour.cli.base import app

    return app


def __getattr__(name: str) -> typer.Typer:
    if name == "app":
        return load_commands()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """The ``parlour`` entry point: a known command loads only its module; anything else (help,
    a mistyped command) loads them all, so help and errors list every command."""
    args = sys.argv[1:]
    command = args[0] if args else ""
    app = load_commands([command] if command in COMMANDS else None)
    group = typer.main.get_command(app)
    from parlour.cli import helplang

    if helplang.shows_help(args, group):
        lang = helplang.wanted_language(args, os.environ)
        if lang != "en":  # issue 34: the help page in the reader's language
            helplang.translate(group, lang)
    group(prog_name="parlour")
