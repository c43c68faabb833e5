"""The ``parlour`` command: simulate, rules, replay, play, serve, tournament, score, verify.

Each subcommand lives in its own module here and registers itself on :data:`app`."""

from __future__ import annotations

import importlib
import importlib.util

import typer

app = typer.Typer(
    name="parlour",
    help="Parlour card room: Samba, Hand and Foot, Cheat, Scat/31 and a Chicago bridge score pad.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

_COMMAND_MODULES = (
    "simulate",
    "rules_cmd",
    "replay_cmd",
    "play",
    "serve",
    "tournament",
    "ladder",
    "score",
    "verify",
    "playthrough",
)

for _mod in _COMMAND_MODULES:
    _name = f"parlour.cli.{_mod}"
    if importlib.util.find_spec(_name) is not None:
        importlib.import_module(_name)


def main() -> None:
    app()
