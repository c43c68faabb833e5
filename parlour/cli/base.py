"""The ``parlour`` Typer app the command modules of :mod:`parlour.cli` register on (kept apart
from the package so that ``parlour COMMAND`` imports only that command's module)."""

from __future__ import annotations

import sys

import typer

from parlour.core.said import N_

app = typer.Typer(
    name="parlour",
    help=N_(
        "Parlour card room: Samba, Hand and Foot, Cheat, Scat/31 and a Chicago bridge score pad."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from parlour.cli.info import version_line

        typer.echo(version_line())
        raise typer.Exit()


# the callback also keeps ``parlour COMMAND`` a command group when only that command's module is
# loaded (Typer runs a lone command directly otherwise)
@app.callback()
def _options(
    version: bool = typer.Option(
        False,
        "--version",
        callback=_version,
        is_eager=True,
        help=N_("Print the version and the active build (compiled or interpreted), then exit."),
    ),
) -> None:
    """Parlour card room: Samba, Hand and Foot, Cheat, Scat/31 and a Chicago bridge score pad."""
    # each command chooses its language afresh (``--lang``, else the terminal's): one chosen by an
    # earlier command run in this process (a test's CliRunner) is forgotten
    common = sys.modules.get("parlour.cli.common")
    if common is not None:
        common._language = None  # type: ignore[attr-defined]
