"""``parlour play GAME``: play one seat against bots in the terminal."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from parlour.cli.base import app
from parlour.cli.common import (
    choose_variant,
    console,
    fail,
    parse_options,
    said,
    split_names,
    terminal_language,
)
from parlour.cli.tui.adapters import install_readline
from parlour.cli.tui.session import Session
from parlour.core.errors import ParlourError
from parlour.core.replay import MatchRecord
from parlour.core.said import N_


@app.command(help=N_("Play one seat against bots; type help at the prompt."))
def play(
    game: Annotated[str, typer.Argument(help=N_("game or preset: samba, bolivia, cheat, scat …"))],
    preset: Annotated[str | None, typer.Option(help=N_("preset (house rules)"))] = None,
    players: Annotated[int | None, typer.Option(help=N_("number of players"))] = None,
    seat: Annotated[int, typer.Option(help=N_("your seat (0 = first)"))] = 0,
    bots: Annotated[
        str, typer.Option(help=N_("bots for the other seats, e.g. basic,strong"))
    ] = "basic",
    seed: Annotated[
        int | None, typer.Option(help=N_("seed of the deal (random if omitted)"))
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help=N_("name=value"))
    ] = None,
    save: Annotated[Path | None, typer.Option(help=N_("keep a replayable match file here"))] = None,
    load: Annotated[Path | None, typer.Option(help=N_("continue a saved match"))] = None,
    fast: Annotated[bool, typer.Option("--fast", help=N_("no pause after bots' moves"))] = False,
    hint_budget: Annotated[
        str, typer.Option(help=N_("search per hint: seconds (1) or play-outs (200it)"))
    ] = "1",
    review_budget: Annotated[
        str, typer.Option(help=N_("search per reviewed decision: seconds or play-outs"))
    ] = "0.25",
    lang: Annotated[
        str | None,
        typer.Option(help=N_("your language: en, nl, de, es, pt-BR (default: LANG / LC_ALL)")),
    ] = None,
) -> None:
    """Play one seat against bots; type help at the prompt."""
    language = terminal_language(lang)  # first: the errors below are told in it too
    record = None
    if load is not None:
        try:
            record = MatchRecord.load(load)
        except (OSError, ParlourError, KeyError) as exc:
            raise fail(said(exc)) from None
        variant = choose_variant(record.game, record.preset, None, record.rules)
        match_seed = record.seed
        if save is None:
            save = load
    else:
        variant = choose_variant(game, preset, players, parse_options(option))
        match_seed = (
            seed if seed is not None else int.from_bytes(__import__("os").urandom(4), "big")
        )
    install_readline()
    try:
        session = Session(
            variant,
            seat,
            split_names(bots),
            match_seed,
            console=console,
            delay=0.0 if fast else 0.7,
            save=save,
            record=record,
            hint_budget=hint_budget,
            review_budget=review_budget,
            lang=language,
        )
    except ParlourError as exc:
        raise fail(said(exc)) from None
    console.print(
        session.t.gettext(
            "[bold]{game}[/] ({preset}), seed {seed}; you are seat {seat}. "
            "Type [bold]help[/] for the moves."
        ).format(game=session.title, preset=variant.preset, seed=match_seed, seat=seat)
    )
    raise typer.Exit(session.run())
