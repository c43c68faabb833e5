"""``parlour replay FILE``: replay a saved match and print the hand-by-hand score sheet."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from parlour import games
from parlour.cli.base import app
from parlour.cli.common import console, fail
from parlour.core.errors import ParlourError
from parlour.core.replay import MatchRecord
from parlour.core.said import N_
from parlour.core.text import Names, hand_note, sentence


@app.command(short_help=N_("Replay a saved match and print its score sheet."))
def replay(
    file: Annotated[Path, typer.Argument(help="a match file written by --save")],
    events: Annotated[
        bool, typer.Option("--events", help="print the game log (what everyone saw)")
    ] = False,
    seat: Annotated[
        int | None, typer.Option("--seat", help="with --events: the log as this seat saw it")
    ] = None,
) -> None:
    """Replay a saved match and print the hand-by-hand score sheet."""
    try:
        record = MatchRecord.load(file)
        state, log = record.replay(games)
    except (OSError, ParlourError, KeyError, ValueError) as exc:
        raise fail(str(exc)) from None
    game = games.entry(record.game).game
    if events:
        n = game.num_seats(state)
        if seat is not None and not 0 <= seat < n:
            raise fail(f"--seat must be 0…{n - 1}")
        seat_names = Names.numbered(n, game.sides_of(state))
        for event in log:
            if event.visible_to(seat):
                console.print(sentence(game.describe(event, seat, seat_names)), markup=False)
    outcome = game.outcome(state)
    names = [" & ".join(f"seat {s}" for s in side) for side in outcome.sides]
    # the notes told to --seat ("you went out"), the other seats as the columns name them
    note_names = Names.numbered(game.num_seats(state), game.sides_of(state))
    table = Table(
        "hand", *names, "note", title=f"{record.game} ({record.preset}) seed {record.seed}"
    )
    running = [0.0] * len(names)
    for hand in outcome.hands:
        cells = []
        for i, sc in enumerate(hand.scores):
            running[i] += sc
            cells.append(f"{sc:+,.0f} → {running[i]:,.0f}")
        note = sentence(hand_note(hand, seat, note_names, game.describe))
        table.add_row(str(hand.number), *cells, note)
    console.print(table)
    console.print(f"{len(record.actions)} actions replayed; final scores {list(outcome.scores)}")
    if outcome.finished:
        won = ", ".join(names[w] for w in outcome.winners) or "a draw"
        console.print(f"match over ({outcome.termination}): {won}")
    else:
        console.print("match not finished")
