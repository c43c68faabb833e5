"""``parlour info``: the version, the active build (compiled or interpreted, and why) and the
games installed.  ``parlour --version`` prints the first two."""

from __future__ import annotations

import platform

import typer

import parlour
from parlour import _build
from parlour.cli.base import app
from parlour.core.said import N_


def version_line() -> str:
    """``parlour 0.1.0, compiled (43 modules, mypyc 2.4.1)``"""
    return f"parlour {parlour.__version__}, {_build.status().describe()}"


@app.command(short_help=N_("The version, the build that runs and the games installed."))
def info() -> None:
    """The version, which build runs (mypyc-compiled or interpreted) and the games installed."""
    from parlour import games

    status = _build.status()
    typer.echo(f"parlour {parlour.__version__}")
    typer.echo(f"build: {status.describe()}")
    typer.echo(f"python: {platform.python_implementation()} {platform.python_version()}")
    typer.echo(f"location: {parlour.__file__.rsplit('/', 1)[0]}")
    typer.echo(f"games: {', '.join(games.names())}")
    if not status.compiled and status.reason != "PARLOUR_PURE=1":
        typer.echo(
            "the compiled build needs a C compiler and the Python headers at install time "
            "(docs/speed.md)"
        )
