"""The ``parlour`` Typer app the command modules of :mod:`parlour.cli` register on (kept apart
from the package so that ``parlour COMMAND`` imports only that command's module)."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="parlour",
    help="Parlour card room: Samba, Hand and Foot, Cheat, Scat/31 and a Chicago bridge score pad.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Keep ``parlour COMMAND`` a command group even when only that command's module is loaded
    (Typer runs a lone command directly otherwise)."""
