"""``parlour replay FILE``: replay a saved match and print the hand-by-hand score sheet."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from parlour import games
from parlour.cli import app
from parlour.cli.common import console, fail
from parlour.core.errors import ParlourError
from parlour.core.replay import MatchRecord


@app.command()
def replay(file: Annotated[Path, typer.Argument(help="a match file written by --save")]) -> None:
    """Replay a saved match and print the hand-by-hand score sheet."""
    try:
        record = MatchRecord.load(file)
        state, _ = record.replay(games)
    except (OSError, ParlourError, KeyError, ValueError) as exc:
        raise fail(str(exc)) from None
    game = games.entry(record.game).game
    outcome = game.outcome(state)
    names = [" & ".join(f"seat {s}" for s in side) for side in outcome.sides]
    table = Table(
        "hand", *names, "note", title=f"{record.game} ({record.preset}) seed {record.seed}"
    )
    running = [0.0] * len(names)
    for hand in outcome.hands:
        cells = []
        for i, sc in enumerate(hand.scores):
            running[i] += sc
            cells.append(f"{sc:+,.0f} → {running[i]:,.0f}")
        table.add_row(str(hand.number), *cells, hand.note)
    console.print(table)
    console.print(f"{len(record.actions)} actions replayed; final scores {list(outcome.scores)}")
    if outcome.finished:
        won = ", ".join(names[w] for w in outcome.winners) or "a draw"
        console.print(f"match over ({outcome.termination}): {won}")
    else:
        console.print("match not finished")
