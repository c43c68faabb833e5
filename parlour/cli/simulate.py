"""``parlour simulate GAME``: play complete matches between bots and summarise them."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from parlour.cli.base import app
from parlour.cli.common import choose_variant, console, fail, parse_options, split_names
from parlour.core.rng import derive_seed
from parlour.core.said import N_
from parlour.sim.match import MatchStats, play_match
from parlour.sim.tournament import cap_note, endings


@app.command(short_help=N_("Play complete matches between bots and print a summary."))
def simulate(
    game: Annotated[str, typer.Argument(help="game or preset name: samba, bolivia, cheat, scat …")],
    preset: Annotated[str | None, typer.Option(help="preset (house rules) of the game")] = None,
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    games_: Annotated[int, typer.Option("--games", help="matches to play")] = 100,
    seed: Annotated[int, typer.Option(help="base seed; match i uses a seed derived from it")] = 0,
    bots: Annotated[str, typer.Option(help="bots per seat, e.g. random,basic")] = "random",
    hands_only: Annotated[
        bool, typer.Option("--hands-only", help="play single hands instead of whole matches")
    ] = False,
    max_hands: Annotated[
        int | None, typer.Option(help="stop a match after this many hands (safety cap)")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="rules option name=value")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    save: Annotated[Path | None, typer.Option(help="directory for replayable match files")] = None,
) -> None:
    """Play complete matches between bots and print a summary."""
    options = parse_options(option)
    variant = choose_variant(game, preset, players, options)
    names = split_names(bots) or ["random"]
    extra: dict[str, object] = {}
    if all(n == "random" for n in names):
        # random bots rarely reach a target score: cap the hands as the game suggests (other
        # caps in random_play_options are for the conformance suite's speed, not for statistics)
        cap = variant.entry.random_play_options.get("max_hands")
        if cap is not None and "max_hands" not in options:
            extra["max_hands"] = cap
    if hands_only:
        extra["max_hands"] = 1
    elif max_hands is not None:
        extra["max_hands"] = max_hands
    if "max_hands" in extra and "max_hands" not in variant.rules.to_json():
        raise fail(f"{variant.name} has no max_hands option (it is not played in hands)")
    if extra:
        variant = choose_variant(game, preset, players, {**options, **extra})
    if save is not None:
        save.mkdir(parents=True, exist_ok=True)
    totals = MatchStats()
    sides = variant.game.outcome(variant.new_game(0)).sides
    wins = [0] * len(sides)
    draws = 0
    score_sums = [0.0] * len(sides)
    hand_score_sums = [0.0] * len(sides)
    terminations: dict[str, int] = {}
    kinds: list[str] = []
    started = time.perf_counter()
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[rate]}"),
        console=console,
        disable=as_json,
        transient=True,
    ) as progress:
        task = progress.add_task(f"{variant.name}/{variant.preset}", total=games_, rate="")
        for i in range(games_):
            match_seed = derive_seed(seed, "match", i)
            result = play_match(variant, match_seed, names, record=save is not None)
            totals.add(result.stats)
            out = result.outcome
            terminations[out.termination] = terminations.get(out.termination, 0) + 1
            kinds.append(out.kind)
            if out.winners:
                for w in out.winners:
                    wins[w] += 1
            else:
                draws += 1
            for s, sc in enumerate(out.scores):
                score_sums[s] += sc
            for hand in out.hands:
                for s, sc in enumerate(hand.scores):
                    hand_score_sums[s] += sc
            if save is not None:
                result.record.save(save / f"{variant.name}-{i:05d}-{match_seed}.json")
            elapsed = time.perf_counter() - started
            progress.update(task, advance=1, rate=f"{totals.decisions / elapsed:,.0f} decisions/s")
    elapsed = time.perf_counter() - started
    hands = max(totals.hands, 1)
    summary = {
        "game": variant.name,
        "preset": variant.preset,
        "players": variant.rules.to_json().get("players"),
        "bots": names,
        "games": games_,
        "hands": totals.hands,
        "decisions": totals.decisions,
        "seconds": round(elapsed, 3),
        "decisions_per_s": round(totals.decisions / elapsed, 1) if elapsed else 0.0,
        "wins": wins,
        "draws": draws,
        "sides": [list(s) for s in sides],
        "mean_match_score": [round(x / games_, 1) for x in score_sums],
        "mean_hand_score": [round(x / hands, 1) for x in hand_score_sums],
        "mean_decisions_per_hand": round(totals.decisions / hands, 1),
        "mean_legal_actions": round(totals.legal_total / max(totals.decisions, 1), 2),
        "max_legal_actions": totals.legal_max,
        "terminations": terminations,
        "endings": endings(kinds),
    }
    if as_json:
        typer.echo(json.dumps(summary))
        return
    table = Table(title=f"{variant.name} ({variant.preset}) — {games_} matches", show_header=False)
    for key, value in summary.items():
        table.add_row(key.replace("_", " "), str(value))
    console.print(table)
    note = cap_note(endings(kinds), games_)
    if note:
        console.print(f"[bold yellow]note:[/] {note}", highlight=False)
