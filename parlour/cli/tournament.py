"""``parlour tournament GAME --bots A,B``: bots against each other, with intervals and ratings."""

from __future__ import annotations

import datetime
import json
import math
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from parlour import bots as bot_registry
from parlour.cli.base import app
from parlour.cli.common import choose_variant, console, fail, parse_options, split_names
from parlour.core.errors import ParlourError
from parlour.core.said import N_
from parlour.sim.executors import EXECUTORS, stopped
from parlour.sim.tournament import (
    GameResult,
    RunningTally,
    Tournament,
    cap_note,
    summarize,
)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


@app.command(short_help=N_("Play a tournament between bots and report win rates and ratings."))
def tournament(
    game: Annotated[str, typer.Argument(help="game or preset name: samba, bolivia, cheat, scat …")],
    bots: Annotated[
        str,
        typer.Option(
            help="bots by side (A,B: A at seats 0 and 2 in 4-player Samba) or by seat; "
            "strong:0.5 = 0.5 s per decision, strong:300it = 300 iterations"
        ),
    ],
    preset: Annotated[str | None, typer.Option(help="preset (house rules) of the game")] = None,
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    games_: Annotated[
        int, typer.Option("--games", help="deals to play (each once per rotation if --duplicate)")
    ] = 20,
    duplicate: Annotated[
        bool, typer.Option("--duplicate", help="replay each deal with the bots rotated")
    ] = False,
    seed: Annotated[int, typer.Option(help="base seed; deal i uses a seed derived from it")] = 0,
    workers: Annotated[
        int | None, typer.Option(help="parallel worker processes (default: all cores)")
    ] = None,
    executor: Annotated[str, typer.Option(help="local (process pool) or ray")] = "local",
    address: Annotated[
        str | None, typer.Option(help="Ray cluster address (default: start a local Ray)")
    ] = None,
    max_hands: Annotated[
        int | None, typer.Option(help="end each match after this many hands")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="rules option name=value")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    plot: Annotated[Path | None, typer.Option(help="write a PNG of the win rates here")] = None,
    time_limit: Annotated[
        float | None,
        typer.Option(help="stop after this many seconds and report the games finished"),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(
            help="write the JSON results here (a stopped run saves them anyway, to a "
            "temporary file it names)"
        ),
    ] = None,
) -> None:
    """Play a tournament between bots; report win rates (Wilson 95 %), score differences and
    Bradley–Terry ratings.  A progress bar shows the running score; stopped by Ctrl-C or
    --time-limit, the tournament prints and saves the table of the games finished."""
    options = parse_options(option)
    if max_hands is not None:
        options["max_hands"] = max_hands
    variant = choose_variant(game, preset, players, options)
    if max_hands is not None and "max_hands" not in variant.rules.to_json():
        raise fail(f"{variant.name} has no max_hands option")
    names = split_names(bots)
    if executor not in EXECUTORS:
        raise fail(f"unknown executor {executor!r}; choose one of {', '.join(EXECUTORS)}")
    if plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise fail("--plot needs matplotlib, the plot extra: uv sync --extra plot") from None
    known = bot_registry.available(variant)
    for n in names:
        if n.partition(":")[0] not in known:
            raise fail(f"no bot {n!r} for {variant.name}; bots: {', '.join(known)}")
    try:
        tour = Tournament(variant, names, games_, seed, duplicate)
    except ValueError as exc:
        raise fail(str(exc)) from None
    if time_limit is not None and time_limit < 0:
        raise fail(f"--time-limit must be at least 0, got {time_limit}")
    started = time.perf_counter()
    deadline = None if time_limit is None else time.monotonic() + time_limit
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[running]}"),
        console=console,
        disable=as_json,
        transient=True,
    ) as progress:
        task = progress.add_task(
            f"{variant.name}/{variant.preset}", total=len(tour.specs), rate="", running=""
        )

        tally = RunningTally()

        def tick(last: GameResult, done: Sequence[GameResult]) -> None:
            elapsed = max(time.perf_counter() - started, 1e-9)
            tally.add(last)
            progress.update(
                task,
                completed=len(done),
                rate=f"{len(done) / elapsed:.2f} games/s",
                running=tally.text(),
            )

        try:
            results = tour.run(executor, workers, address, tick, deadline)
        except (ValueError, RuntimeError, ParlourError) as exc:
            raise fail(str(exc)) from None
    elapsed = time.perf_counter() - started
    why = "time limit" if deadline is not None and time.monotonic() >= deadline else "Ctrl-C"
    stop_line = stopped(len(tour.specs), len(results), why)
    summary: dict[str, Any] = {
        "game": variant.name,
        "preset": variant.preset,
        "rules": variant.rules.to_json(),
        "bots": names,
        "seed": seed,
        "duplicate": duplicate,
        "executor": executor,
        "seconds": round(elapsed, 3),
        **{k: v for k, v in summarize(results).items() if k != "bots"},
        "results": summarize(results)["bots"],
        "games_played": [r.to_json() for r in results],
        "planned": len(tour.specs),
    }
    if stop_line:
        summary["stopped"] = stop_line
    saved = save
    if saved is None and stop_line:
        stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d-%H%M%S")
        saved = Path(tempfile.gettempdir()) / f"parlour-tournament-{variant.name}-{stamp}.json"
    if saved is not None:
        saved.parent.mkdir(parents=True, exist_ok=True)
        saved.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    if plot is not None and results:
        from parlour.sim.plot import plot_win_rates

        plot_win_rates(
            {"games": len(results), "bots": summary["results"]},
            plot,
            title=f"{variant.name} ({variant.preset}): {', '.join(names)}"
            + (" — duplicate" if duplicate else ""),
        )
    if as_json:
        typer.echo(json.dumps(summary))
        return
    if stop_line:
        console.print(f"[bold yellow]{stop_line}[/]", highlight=False)
    _print_table(summary, elapsed)
    if plot is not None and results:
        console.print(f"plot written to {plot}")
    if saved is not None:
        console.print(f"results saved to {saved}", highlight=False, soft_wrap=True)


def _print_table(summary: dict[str, Any], elapsed: float) -> None:
    res = summary["results"]
    title = (
        f"{summary['game']} ({summary['preset']}) — {summary['games']} games, "
        f"{summary['deals']} deals{' (duplicate)' if summary['duplicate'] else ''}, "
        f"{elapsed:.1f} s"
    )
    table = Table(title=title)
    for col in ("bot", "games", "wins", "win rate [95%]", "hands won [95%]"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    table.add_column("score diff/game [95%]", justify="right")
    table.add_column("Elo ± s.e.", justify="right")
    for name, r in res.items():
        lo, hi = r["win_rate_ci"]
        hlo, hhi = r["hand_win_rate_ci"]
        m = r["mean_score_diff"]
        mlo, mhi = r["mean_score_diff_ci"]
        table.add_row(
            name,
            str(r["games"]),
            str(r["wins"]) + (f" (+{r['draws']} drawn)" if r["draws"] else ""),
            f"{_pct(r['win_rate'])} [{_pct(lo)}, {_pct(hi)}]",
            f"{r['hands_won']}/{r['hands']} [{_pct(hlo)}, {_pct(hhi)}]",
            f"{m:+.0f} [{mlo:+.0f}, {mhi:+.0f}]" if math.isfinite(mlo) else f"{m:+.0f} [one deal]",
            f"{r['elo']:+.0f} ± {r['elo_stderr']:.0f}",
        )
    console.print(table)
    note = cap_note(summary["endings"], summary["games"])
    if note:
        console.print(f"[bold yellow]note:[/] {note}", highlight=False)
    console.print(
        "seeds: every game's match seed and seating are in --json output "
        "(games_played); replay one with parlour.sim.match.play_match(variant, seed, seating)."
    )
