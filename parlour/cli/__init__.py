"""The ``parlour`` command: simulate, rules, replay, play, serve, tournament, score, verify, info.

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
    "info",
)

for _mod in _COMMAND_MODULES:
    _name = f"parlour.cli.{_mod}"
    if importlib.util.find_spec(_name) is not None:
        importlib.import_module(_name)


def _version(value: bool) -> None:
    if value:
        from parlour.cli.info import version_line

        typer.echo(version_line())
        raise typer.Exit()


@app.callback()
def _options(
    version: bool = typer.Option(
        False,
        "--version",
        callback=_version,
        is_eager=True,
        help="Print the version and the active build (compiled or interpreted), then exit.",
    ),
) -> None:
    """Parlour card room: Samba, Hand and Foot, Cheat, Scat/31 and a Chicago bridge score pad."""


def main() -> None:
    app()
