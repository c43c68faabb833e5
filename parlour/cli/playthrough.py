"""``parlour playthrough GAME``: print the readable golden playthrough of a game and preset.

The same text as the stored file ``tests/golden/playthroughs/GAME-PRESET.txt`` (written by
``uv run python scripts/playthroughs.py``); ``--seed`` records another match the same way."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from parlour.cli.base import app
from parlour.cli.common import console, fail
from parlour.core.errors import ParlourError
from parlour.core.said import N_
from parlour.sim import playthrough as recording


@app.command(short_help=N_("Print one seeded random match step by step."))
def playthrough(
    game: Annotated[str, typer.Argument(help="game (or preset) name")],
    preset: Annotated[str | None, typer.Option(help="preset (default: the game's)")] = None,
    out: Annotated[Path | None, typer.Option(help="write to this file instead of printing")] = None,
    seed: Annotated[int, typer.Option(help="match seed")] = recording.SEED,
    steps: Annotated[
        int, typer.Option(min=1, help="stop after this many decisions")
    ] = recording.MAX_STEPS,
) -> None:
    """Print one seeded random match step by step: legal actions, choice, events, every view."""
    try:
        spec = recording.spec_for(game, preset, seed)
        text = recording.render(spec, steps)
    except (ParlourError, ValueError, KeyError) as exc:
        raise fail(str(exc)) from None
    if out is None:
        sys.stdout.write(text)
        return
    out.write_text(text, encoding="utf-8")
    console.print(f"wrote {out}: {text.count(chr(10))} lines ({spec.game}, preset {spec.preset})")
