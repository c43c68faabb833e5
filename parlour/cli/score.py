"""``parlour score chicago``: a Chicago bridge score pad, interactive or from a list of deals.

Deals are written ``3NT S =``, ``4HX E -2 honors4``, ``6♠ by N 12`` or ``pass``
(see docs/chicago.md).  With no deals and no ``--file`` the pad is interactive: it reads one line at
a time (from a terminal or a pipe), shows the sheet after each deal and says who is vulnerable next;
``undo`` takes back the last entry and ``quit`` ends.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from parlour.cli.base import app
from parlour.cli.common import fail, parse_options
from parlour.core.errors import RulesError
from parlour.scoring.chicago import (
    ChicagoOptions,
    DealRecord,
    EntryError,
    NextDeal,
    RoundSheet,
    Session,
    Side,
)
from parlour.scoring.contract import DealEntry

score_app = typer.Typer(
    name="score",
    help="Score keepers: a Chicago (four-deal) bridge score pad.",
    no_args_is_help=True,
)
app.add_typer(score_app, name="score")

_HELP = """\
Enter one deal per line: contract, declarer, result [, honors].
  3NT S =          3 notrump by South, made exactly
  4HX E -2         4 hearts doubled by East, down 2
  4SXX W +1        4 spades redoubled by West, one overtrick
  6H by N 12       6 hearts by North, 12 tricks taken
  4S N = honors4   honors: honors4 / honors5 (trumps), aces4 (notrump); add :def for the defenders
  pass             passed out: redealt by the same dealer, not counted
Commands: undo (take back the last entry), sheet, json, help, quit."""

_LABEL = {Side.NS: "We (N-S)", Side.EW: "They (E-W)"}


def _console() -> Console:
    # A pipe gets a fixed, wide layout so the sheet does not wrap into an unreadable column.
    return Console(width=None if sys.stdout.isatty() else 132, highlight=False)


def _options(pairs: list[str] | None) -> ChicagoOptions:
    try:
        return ChicagoOptions.from_json(parse_options(pairs))
    except RulesError as exc:
        raise fail(escape(str(exc))) from None


def _vul_text(vul: tuple[Side, ...]) -> str:
    if not vul:
        return "none"
    return "both" if len(vul) == 2 else vul[0].label


def next_text(nd: NextDeal) -> str:
    """``round 1, deal 2: dealer E, vulnerable: E-W``."""
    return f"round {nd.round}, deal {nd.deal}: dealer {nd.dealer.name}, vulnerable: {_vul_text(nd.vulnerable)}"


def _signed(n: int) -> str:
    return "0" if n == 0 else f"{n:+,}"


def _points(n: int) -> str:
    return f"{n:,}" if n else ""


def _notes(record: DealRecord) -> str:
    if record.passed_out:
        return f"passed out — redealt by {record.dealer.name}, not counted"
    parts = []
    declaring = _declaring(record)
    for side in Side:
        for item in record.items[side]:
            if not item.below:
                who = "" if side is declaring else f"{side.label}: "
                parts.append(f"{who}{item.what} {item.points:,}")
    if record.game is not None:
        parts.append(f"{record.game.label} game: new line")
    return "; ".join(parts)


def _declaring(record: DealRecord) -> Side | None:
    entry = record.entry
    if isinstance(entry, DealEntry) and entry.contract.declarer is not None:
        return entry.contract.declarer.side
    return None


def round_table(sheet: RoundSheet) -> Table:
    """One round of the pad as a Rich table, with its totals and rounded result."""
    state = "complete" if sheet.complete else f"{sheet.counted} of 4 deals"
    table = Table(title=f"Chicago — round {sheet.number} ({state})", title_justify="left")
    table.add_column("Deal", justify="right")
    table.add_column("Dealer")
    table.add_column("Vul")
    table.add_column("Contract")
    table.add_column("Result", justify="right")
    for side in Side:
        table.add_column(f"{_LABEL[side]}\nabove", justify="right")
        table.add_column("below", justify="right")
    table.add_column("Notes")
    for record in sheet.deals:
        entry = record.entry
        contract = str(entry.contract) if isinstance(entry, DealEntry) else "passed out"
        result = entry.result if isinstance(entry, DealEntry) else ""
        cells = [
            str(record.deal),
            record.dealer.name,
            _vul_text(record.vulnerable),
            contract,
            result,
        ]
        for side in Side:
            cells += [_points(record.above(side)), _points(record.below(side))]
        table.add_row(*(escape(c) for c in cells), escape(_notes(record)))
    totals = sheet.totals
    table.add_section()
    table.add_row(
        "",
        "",
        "",
        "Total",
        "",
        f"{totals[Side.NS]:,}",
        "",
        f"{totals[Side.EW]:,}",
        "",
        f"difference {_signed(sheet.difference)} → {_signed(sheet.rounded)} ({sheet.display})",
    )
    return table


def round_summary(sheet: RoundSheet) -> str:
    totals = sheet.totals
    head = f"Round {sheet.number}: We {totals[Side.NS]:,} to They {totals[Side.EW]:,}"
    if sheet.difference == 0:
        return f"{head}: level, 0"
    winner = "We" if sheet.difference > 0 else "They"
    margin = abs(sheet.difference)
    return f"{head}: {winner} by {margin:,}, rounded {abs(sheet.rounded):,} → {sheet.display}"


def render(session: Session, console: Console, *, only_last: bool = False) -> None:
    """Print the sheet: every round (or the last), the session score and the next deal."""
    rounds = session.rounds
    shown = rounds[-1:] if only_last else rounds
    for sheet in shown:
        console.print(round_table(sheet))
        if sheet.complete:
            console.print(escape(round_summary(sheet)))
    complete = session.complete_rounds
    if len(complete) > 1 or (complete and (only_last or len(rounds) > len(complete))):
        score = session.score(Side.NS)
        console.print(
            f"Session after {len(complete)} round(s): We {score:+d}, They {-score:+d}"
            if score
            else f"Session after {len(complete)} round(s): level"
        )
    console.print(f"Next: {next_text(session.next_deal())}")


def _read_file(path: Path) -> list[str]:
    try:
        text = sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8")
    except OSError as exc:
        raise fail(escape(f"cannot read {path}: {exc.strerror or exc}")) from None
    return [line.split("#", 1)[0].strip() for line in text.splitlines()]


@score_app.command()
def chicago(
    deals: Annotated[
        list[str] | None,
        typer.Argument(help="deals, each quoted: '3NT S =' '4HX E -2 honors4' pass"),
    ] = None,
    file: Annotated[
        Path | None,
        typer.Option("--file", "-f", help="read deals from a file, one per line ('-' = stdin)"),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the sheet as JSON")] = False,
    interactive: Annotated[
        bool,
        typer.Option("--interactive", "-i", help="keep the pad open after the given deals"),
    ] = False,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            help="option name=value: partscore_carryover, vulnerability, round_half, honors, "
            "first_dealer",
        ),
    ] = None,
) -> None:
    """Chicago bridge score pad: give deals (or --file) to print the sheet, or none to enter them
    one by one."""
    options = _options(option)
    given: list[str] = list(deals or [])
    lines: list[tuple[str, str]] = [(f"deal {i + 1}", d) for i, d in enumerate(given)]
    if file is not None:
        lines += [(f"{file}:{n}", t) for n, t in enumerate(_read_file(file), start=1) if t]
    session = Session(options)
    for where, text in lines:
        try:
            session = session.add(text)
        except EntryError as exc:
            raise fail(escape(f"{where}: {text!r}: {exc}")) from None
    if interactive or (not given and file is None):
        session = _pad(session, as_json)
        return
    _output(session, as_json)


def _output(session: Session, as_json: bool) -> None:
    if as_json:
        sys.stdout.write(json.dumps(session.to_json(), ensure_ascii=False, indent=2) + "\n")
    else:
        render(session, _console())


def _pad(session: Session, as_json: bool) -> Session:
    console = _console()
    echo = not sys.stdin.isatty()
    console.print("Chicago score pad — N-S are We, E-W are They. Type help for the notation.")
    if session.entries:
        render(session, console)
    while True:
        console.print(f"{next_text(session.next_deal())} > ", end="")
        line = sys.stdin.readline()
        if not line:
            console.print()
            break
        command = line.strip()
        if echo:
            console.print(escape(command))
        if not command or command.startswith("#"):
            continue
        word = command.lower()
        if word in ("quit", "exit", "q", "end"):
            break
        if word in ("help", "?", "h"):
            console.print(escape(_HELP))
        elif word in ("sheet", "show"):
            render(session, console)
        elif word == "json":
            console.print_json(data=session.to_json())
        elif word == "undo":
            try:
                taken = session.entries[-1] if session.entries else None
                session = session.undo()
            except EntryError as exc:
                console.print(f"[bold red]error:[/] {escape(str(exc))}")
                continue
            console.print(f"undone: {escape(str(taken))}")
            render(session, console, only_last=True)
        else:
            try:
                session = session.add(command)
            except EntryError as exc:
                console.print(f"[bold red]error:[/] {escape(str(exc))} — nothing recorded")
                continue
            render(session, console, only_last=True)
    if session.entries:
        _output(session, as_json)
    return session
