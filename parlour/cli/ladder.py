"""``parlour ladder GAME`` / ``--all``: the published strength ladder (docs/ladder.md)."""

from __future__ import annotations

import datetime
import json
import shlex
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from parlour import bots as bot_registry
from parlour.cli.base import app
from parlour.cli.common import console, fail, split_names
from parlour.core.errors import ParlourError
from parlour.core.said import N_
from parlour.sim.executors import EXECUTORS, default_workers, stopped
from parlour.sim.ladder import (
    DEFAULT_BOTS,
    LADDER_GAMES,
    LadderResult,
    ladder_plan,
    ladder_variant,
    machine,
    publish,
    rerender,
    run_ladder,
)
from parlour.sim.tournament import GameResult, RunningTally


@app.command(short_help=N_("Round robin of bots on duplicate deals, with ratings."))
def ladder(
    game: Annotated[
        str | None, typer.Argument(help=f"game: {', '.join(LADDER_GAMES)} (or --all)")
    ] = None,
    all_: Annotated[bool, typer.Option("--all", help="every game, one after another")] = False,
    bots: Annotated[str, typer.Option(help="bots of the round robin, comma-separated")] = ",".join(
        DEFAULT_BOTS
    ),
    games_: Annotated[
        int,
        typer.Option("--games", help="deals per pair; each is played twice, sides swapped"),
    ] = 2,
    seed: Annotated[int, typer.Option(help="base seed: every pair plays the same deals")] = 0,
    workers: Annotated[
        int | None, typer.Option(help="parallel worker processes (default: all cores)")
    ] = None,
    executor: Annotated[str, typer.Option(help="local (process pool) or ray")] = "local",
    address: Annotated[
        str | None, typer.Option(help="Ray cluster address (default: start a local Ray)")
    ] = None,
    docs: Annotated[
        Path, typer.Option(help="docs folder: writes ladder.md, ladder/GAME.json, img/*.png")
    ] = Path("docs"),
    render: Annotated[
        bool,
        typer.Option("--render", help="only rewrite the page and PNGs from docs/ladder/*.json"),
    ] = False,
    note: Annotated[
        str | None, typer.Option(help="a line for the page, e.g. how busy the machine was")
    ] = None,
    time_limit: Annotated[
        float | None,
        typer.Option(help="stop after this many seconds and report the games finished"),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(
            help="where a stopped ladder saves its games finished (JSON; default: a "
            "temporary file it names)"
        ),
    ] = None,
) -> None:
    """Round robin of bots with duplicate deals; Bradley–Terry ratings with 95 % intervals;
    writes docs/ladder.md and a PNG per game.  A progress bar shows the running score; stopped
    by Ctrl-C or --time-limit, the ladder prints and saves the ratings of the games finished
    (and publishes nothing)."""
    if render:
        _need_matplotlib()
        if not list((docs / "ladder").glob("*.json")):
            raise fail(f"no saved ladder in {docs / 'ladder'}; run parlour ladder GAME first")
        for path in rerender(docs):
            console.print(f"wrote {path}")
        return
    if all_ == (game is not None):
        raise fail("name one game or give --all")
    chosen = list(LADDER_GAMES) if all_ else [str(game)]
    for g in chosen:
        if g not in LADDER_GAMES:
            raise fail(f"no ladder for {g!r}; games: {', '.join(LADDER_GAMES)}")
    names = split_names(bots)
    if executor not in EXECUTORS:
        raise fail(f"unknown executor {executor!r}; choose one of {', '.join(EXECUTORS)}")
    if games_ < 1:
        raise fail(f"--games must be at least 1, got {games_}")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise fail(
            "the ladder's plots need matplotlib, the plot extra: uv sync --extra plot"
        ) from None
    variants = {g: ladder_variant(g) for g in chosen}
    for variant in variants.values():
        known = bot_registry.available(variant)
        for n in names:
            if n.partition(":")[0] not in known:
                raise fail(f"no bot {n!r} for {variant.name}; bots: {', '.join(known)}")
        try:
            ladder_plan(variant, names, 1, seed)
        except ValueError as exc:
            raise fail(str(exc)) from None
    # the command as a canonical line (what was asked, defaults spelled out), for the page
    command = " ".join(
        [
            "uv run parlour ladder",
            "--all" if all_ else str(game),
            "--bots",
            ",".join(names),
            "--games",
            str(games_),
            "--seed",
            str(seed),
        ]
        + ([] if executor == "local" else ["--executor", executor])
        + ([] if workers is None else ["--workers", str(workers)])
        + ([] if docs == Path("docs") else ["--docs", shlex.quote(str(docs))])
        + ([] if note is None else ["--note", shlex.quote(note)])
    )
    if time_limit is not None and time_limit < 0:
        raise fail(f"--time-limit must be at least 0, got {time_limit}")
    deadline = None if time_limit is None else time.monotonic() + time_limit
    for g, variant in variants.items():
        started = time.perf_counter()
        total = len(ladder_plan(variant, names, games_, seed)[0])
        tally = RunningTally()
        with Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            TextColumn("{task.fields[running]}"),
            console=console,
            transient=True,
        ) as progress:
            task = progress.add_task(f"{g} ladder", total=total, running="")

            def tick(
                last: GameResult,
                done: Sequence[GameResult],
                task_id: TaskID = task,
                label: str = f"{g} ladder",
                of: int = total,
                p: Progress = progress,
                t: RunningTally = tally,
            ) -> None:
                t.add(last)
                p.update(task_id, completed=len(done), running=t.text())
                if not console.is_terminal:  # a log file: one line per game instead of a bar
                    console.print(f"{label}: {len(done)}/{of} games · {t.text()}", highlight=False)

            try:
                result = run_ladder(
                    g,
                    names,
                    games_,
                    seed,
                    executor=executor,
                    workers=workers,
                    address=address,
                    progress=tick,
                    variant=variant,
                    deadline=deadline,
                )
            except (ValueError, RuntimeError, ParlourError) as exc:
                raise fail(str(exc)) from None
        seconds = time.perf_counter() - started
        played = sum(p.games for p in result.pairs)
        if played < total:
            why = (
                "time limit" if deadline is not None and time.monotonic() >= deadline else "Ctrl-C"
            )
            line = stopped(total, played, why)
            result.meta = {"command": command, "stopped": line, "games": played, "planned": total}
            console.print(f"[bold yellow]{g}: {line}[/]", highlight=False)
            _print(result, seconds)
            if save is None:
                stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d-%H%M%S")
                save = Path(tempfile.gettempdir()) / f"parlour-ladder-{g}-{stamp}.json"
            save.parent.mkdir(parents=True, exist_ok=True)
            save.write_text(json.dumps(result.to_json(), indent=1) + "\n", encoding="utf-8")
            console.print(
                f"the {played} games finished are saved to {save}; nothing was published",
                highlight=False,
                soft_wrap=True,
            )
            return
        result.meta = {
            "command": command,
            "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "machine": machine(),
            "executor": executor,
            "workers": workers or default_workers(),
            "seconds": round(seconds),
        }
        if note:
            result.meta["note"] = note
        page, png = publish(result, docs)
        _print(result, seconds)
        console.print(f"wrote {page} and {png}")


def _need_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise fail(
            "the ladder's plots need matplotlib, the plot extra: uv sync --extra plot"
        ) from None


def _print(result: LadderResult, seconds: float) -> None:
    deals = f"{result.deals} deal{'s' if result.deals != 1 else ''}"
    table = Table(title=f"{result.game} ladder — {deals} per pair, {seconds:.0f} s")
    for col in ("bot", "rating", "95 % interval"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for name, r in sorted(result.ratings.items(), key=lambda kv: -kv[1]["elo"]):
        table.add_row(name, f"{r['elo']:+.0f}", f"[{r['lo']:+.0f}, {r['hi']:+.0f}]")
    console.print(table)
