"""``parlour rules GAME``: the options of a game and a preset, with defaults and meaning."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from parlour import games
from parlour.cli import app
from parlour.cli.common import choose_variant, console


@app.command()
def rules(
    game: Annotated[str | None, typer.Argument(help="game or preset name")] = None,
    preset: Annotated[str | None, typer.Option(help="preset to show")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the rules as JSON")] = False,
) -> None:
    """Print a game's options with their defaults, the preset's values and their meaning."""
    if game is None:
        for name in games.names():
            entry = games.entry(name)
            console.print(f"[bold]{name}[/] — {entry.description}")
            console.print(f"   presets: {', '.join(entry.presets)}")
        return
    variant = choose_variant(game, preset)
    values = variant.rules.to_json()
    if as_json:
        typer.echo(json.dumps(values, ensure_ascii=False))
        return
    entry = variant.entry
    console.print(f"[bold]{entry.name}[/] — {entry.description}")
    doc = entry.preset_docs.get(variant.preset, "")
    console.print(f"preset [bold]{variant.preset}[/]{': ' + doc if doc else ''}")
    others = [p for p in entry.presets if p != variant.preset]
    if others:
        console.print(f"other presets: {', '.join(others)}")
    table = Table("option", "value", "default", "allowed", "meaning", show_lines=False)
    for row in entry.rules_type.describe():
        value = values[row["name"]]
        mark = "" if value == row["default"] else "[yellow]"
        table.add_row(
            row["name"], f"{mark}{value!r}", repr(row["default"]), row["allowed"], row["doc"]
        )
    console.print(table)
