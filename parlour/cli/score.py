"""``parlour score chicago``: a Chicago bridge score pad, interactive or from a list of deals.

Deals are written ``3NT S =``, ``4HX E -2 honors4``, ``6♠ by N 12`` or ``pass``
(see docs/chicago.md).  With no deals and no ``--file`` the pad is interactive: it reads one line at
a time (from a terminal or a pipe), shows the sheet after each deal and says who is vulnerable next;
``undo`` takes back the last entry and ``quit`` ends.

Issue 34: the pad speaks the player's language (``--lang``, else ``LANGUAGE``/``LC_ALL``/``LANG``):
its sheet, notes, help and refusals are catalog messages, its numbers are written as the language
writes them, and the seats are the letters bridge players of that language write (Dutch N O Z W,
German N O S W, Spanish N E S O, Brazilian N L S O; docs/translating.md), on the sheet and as
input — the English N E S W are read too (no language here uses one of them for another seat).
``--json`` stays English: it is data for scripts.
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

from parlour import i18n
from parlour.cli.base import app
from parlour.cli.common import fail, parse_options, said, terminal_language
from parlour.core.errors import RulesError
from parlour.core.said import N_, Said
from parlour.core.text import tell
from parlour.scoring.chicago import (
    ChicagoOptions,
    DealRecord,
    EntryError,
    NextDeal,
    RoundSheet,
    Seat,
    Session,
    Side,
)
from parlour.scoring.contract import DealEntry, SeatLetter, Strain

score_app = typer.Typer(
    name="score",
    help=N_("Score keepers: a Chicago (four-deal) bridge score pad."),
    no_args_is_help=True,
)
app.add_typer(score_app, name="score")

#: the English seat names a seat may be typed as, in every language
_SEAT_NAMES = {Seat.N: "NORTH", Seat.E: "EAST", Seat.S: "SOUTH", Seat.W: "WEST"}


class Pad:
    """The pad's words in one language: its seat letters, sides, numbers and sentences."""

    def __init__(self, lang: str = i18n.SOURCE) -> None:
        t = self.t = i18n.messages(lang)
        self.english = t.lang == i18n.SOURCE
        #: each seat's letter as bridge players of the language write it
        self.letter = {
            Seat.N: t.pgettext("bridge seat", "N"),
            Seat.E: t.pgettext("bridge seat", "E"),
            Seat.S: t.pgettext("bridge seat", "S"),
            Seat.W: t.pgettext("bridge seat", "W"),
        }
        names = {
            Seat.N: t.pgettext("seat", "North"),
            Seat.E: t.pgettext("seat", "East"),
            Seat.S: t.pgettext("seat", "South"),
            Seat.W: t.pgettext("seat", "West"),
        }
        # what a seat may be typed as: the English letters and names, then the language's own
        # (which win, should a language ever give an English letter to another seat)
        typed: dict[str, Seat] = {seat.name: seat for seat in Seat}
        typed.update({word: seat for seat, word in _SEAT_NAMES.items()})
        for seat in Seat:
            typed[names[seat].upper()] = seat
        for seat in Seat:
            typed[self.letter[seat].upper()] = seat
        self.seats = typed
        self.side = {
            Side.NS: f"{self.letter[Seat.N]}-{self.letter[Seat.S]}",
            Side.EW: f"{self.letter[Seat.E]}-{self.letter[Seat.W]}",
        }
        self.label = {Side.NS: t.gettext("We (N-S)"), Side.EW: t.gettext("They (E-W)")}

    # --- numbers ---------------------------------------------------------------------------

    def number(self, n: int) -> str:
        """``1,650`` in English (as the pad always wrote it), ``1.650`` in Dutch."""
        return f"{n:,}" if self.english else self.t.number(n)

    def signed(self, n: int) -> str:
        if n == 0:
            return "0"
        return ("+" if n > 0 else "-") + self.number(abs(n))

    def points(self, n: int) -> str:
        return self.number(n) if n else ""

    # --- words -----------------------------------------------------------------------------

    def said(self, message: str) -> str:
        """A scorer's message (an ``EntryError.said``) in this language, its seats in its
        letters."""
        return tell(self._lettered(message), self.t)

    def _lettered(self, message: str) -> str:
        if not isinstance(message, Said) or self.english:
            return message
        values: dict[str, object] = {}
        for key, value in message.values.items():
            if isinstance(value, SeatLetter):
                values[key] = self.letter[value.seat]
            elif isinstance(value, Said):
                values[key] = self._lettered(value)
            else:
                values[key] = value
        return Said(message.msgid, message.plural, message.n, values)

    def vul(self, vul: tuple[Side, ...]) -> str:
        t = self.t
        if not vul:
            return t.pgettext("vulnerable", "none")
        return t.pgettext("vulnerable", "both") if len(vul) == 2 else self.side[vul[0]]

    def contract(self, entry: DealEntry) -> str:
        c = entry.contract
        # notrump as the language writes it (SA in Dutch and German, ST in Spanish and
        # Portuguese: the pad reads those too); the suits are their symbols everywhere
        strain = self.t.pgettext("strain", "NT") if c.strain is Strain.NOTRUMP else c.strain.symbol
        bid = f"{c.level}{strain}{c.doubling.suffix}"
        if c.declarer is None:
            return bid
        return self.t.gettext("{contract} by {declarer}").format(
            contract=bid, declarer=self.letter[c.declarer]
        )

    def entry(self, entry: object) -> str:
        """A deal as the sheet writes it: ``3NT by E =`` (``3NT door O =`` in Dutch)."""
        if not isinstance(entry, DealEntry):
            return self.t.gettext("passed out")
        text = f"{self.contract(entry)} {entry.result}"
        return text if entry.honors is None else f"{text} {entry.honors}"

    def next_text(self, nd: NextDeal) -> str:
        """``round 1, deal 2: dealer E, vulnerable: E-W``."""
        return self.t.gettext(
            "round {round}, deal {deal}: dealer {dealer}, vulnerable: {vulnerable}"
        ).format(
            round=self.number(nd.round),
            deal=nd.deal,
            dealer=self.letter[nd.dealer],
            vulnerable=self.vul(nd.vulnerable),
        )

    def notes(self, record: DealRecord) -> str:
        t = self.t
        if record.passed_out:
            return t.gettext("passed out — redealt by {dealer}, not counted").format(
                dealer=self.letter[record.dealer]
            )
        parts = []
        declaring = _declaring(record)
        for side in Side:
            for item in record.items[side]:
                if not item.below:
                    who = "" if side is declaring else f"{self.side[side]}: "
                    parts.append(f"{who}{tell(item.what, t)} {self.number(item.points)}")
        if record.game is not None:
            parts.append(t.gettext("{side} game: new line").format(side=self.side[record.game]))
        return "; ".join(parts)

    def round_table(self, sheet: RoundSheet) -> Table:
        """One round of the pad as a Rich table, with its totals and rounded result."""
        t = self.t
        state = (
            t.gettext("complete")
            if sheet.complete
            else t.gettext("{counted} of 4 deals").format(counted=sheet.counted)
        )
        table = Table(
            title=t.gettext("Chicago — round {round} ({state})").format(
                round=self.number(sheet.number), state=state
            ),
            title_justify="left",
        )
        table.add_column(t.pgettext("score pad", "Deal"), justify="right")
        table.add_column(t.pgettext("score pad", "Dealer"))
        table.add_column(t.pgettext("score pad", "Vul"))
        table.add_column(t.pgettext("score pad", "Contract"))
        table.add_column(t.pgettext("score pad", "Result"), justify="right")
        above = t.pgettext("score pad", "above")
        for side in Side:
            table.add_column(f"{self.label[side]}\n{above}", justify="right")
            table.add_column(t.pgettext("score pad", "below"), justify="right")
        table.add_column(t.pgettext("score pad", "Notes"))
        for record in sheet.deals:
            entry = record.entry
            cells = [
                str(record.deal),
                self.letter[record.dealer],
                self.vul(record.vulnerable),
                self.contract(entry) if isinstance(entry, DealEntry) else t.gettext("passed out"),
                entry.result if isinstance(entry, DealEntry) else "",
            ]
            for side in Side:
                cells += [self.points(record.above(side)), self.points(record.below(side))]
            table.add_row(*(escape(c) for c in cells), escape(self.notes(record)))
        totals = sheet.totals
        table.add_section()
        table.add_row(
            "",
            "",
            "",
            escape(t.pgettext("score pad", "Total")),
            "",
            self.number(totals[Side.NS]),
            "",
            self.number(totals[Side.EW]),
            "",
            escape(
                t.gettext("difference {difference} → {rounded} ({display})").format(
                    difference=self.signed(sheet.difference),
                    rounded=self.signed(sheet.rounded),
                    display=sheet.display,
                )
            ),
        )
        return table

    def round_summary(self, sheet: RoundSheet) -> str:
        t = self.t
        totals = sheet.totals
        values = {
            "round": self.number(sheet.number),
            "we": self.number(totals[Side.NS]),
            "they": self.number(totals[Side.EW]),
            "margin": self.number(abs(sheet.difference)),
            "rounded": self.number(abs(sheet.rounded)),
            "display": sheet.display,
        }
        if sheet.difference == 0:
            message = t.gettext("Round {round}: We {we} to They {they}: level, 0")
        elif sheet.difference > 0:
            message = t.gettext(
                "Round {round}: We {we} to They {they}: We by {margin}, rounded {rounded} → "
                "{display}"
            )
        else:
            message = t.gettext(
                "Round {round}: We {we} to They {they}: They by {margin}, rounded {rounded} → "
                "{display}"
            )
        return message.format(**values)

    def session_line(self, session: Session) -> str:
        t = self.t
        count = len(session.complete_rounds)
        score = session.score(Side.NS)
        if not score:
            return t.ngettext(
                "Session after {count} round: level", "Session after {count} rounds: level", count
            ).format(count=self.number(count))
        return t.ngettext(
            "Session after {count} round: We {we}, They {they}",
            "Session after {count} rounds: We {we}, They {they}",
            count,
        ).format(count=self.number(count), we=f"{score:+d}", they=f"{-score:+d}")

    def help(self) -> str:
        return self.t.gettext(
            "Enter one deal per line: contract, declarer, result [, honors].\n"
            "  3NT S =          3 notrump by South, made exactly\n"
            "  4HX E -2         4 hearts doubled by East, down 2\n"
            "  4SXX W +1        4 spades redoubled by West, one overtrick\n"
            "  6H by N 12       6 hearts by North, 12 tricks taken\n"
            "  4S N = honors4   honors: honors4 / honors5 (trumps), aces4 (notrump); "
            "add :def for the defenders\n"
            "  pass             passed out: redealt by the same dealer, not counted\n"
            "Seats: N E S W. Suits: C D H S or ♣ ♦ ♥ ♠, notrump NT.\n"
            "Commands: undo (take back the last entry), sheet, json, help, quit."
        )

    def render(self, session: Session, console: Console, *, only_last: bool = False) -> None:
        """Print the sheet: every round (or the last), the session score and the next deal."""
        rounds = session.rounds
        shown = rounds[-1:] if only_last else rounds
        for sheet in shown:
            console.print(self.round_table(sheet))
            if sheet.complete:
                console.print(escape(self.round_summary(sheet)))
        complete = session.complete_rounds
        if len(complete) > 1 or (complete and (only_last or len(rounds) > len(complete))):
            console.print(escape(self.session_line(session)))
        console.print(
            escape(self.t.gettext("Next: {next}").format(next=self.next_text(session.next_deal())))
        )


_ENGLISH = Pad()


def next_text(nd: NextDeal) -> str:
    """``round 1, deal 2: dealer E, vulnerable: E-W``."""
    return _ENGLISH.next_text(nd)


def round_table(sheet: RoundSheet) -> Table:
    """One round of the pad (in English) as a Rich table."""
    return _ENGLISH.round_table(sheet)


def round_summary(sheet: RoundSheet) -> str:
    return _ENGLISH.round_summary(sheet)


def render(session: Session, console: Console, *, only_last: bool = False) -> None:
    _ENGLISH.render(session, console, only_last=only_last)


def _console() -> Console:
    # A pipe gets a fixed, wide layout so the sheet does not wrap into an unreadable column.
    return Console(width=None if sys.stdout.isatty() else 132, highlight=False)


def _options(pairs: list[str] | None) -> ChicagoOptions:
    try:
        return ChicagoOptions.from_json(parse_options(pairs))
    except RulesError as exc:
        raise fail(said(exc)) from None


def _declaring(record: DealRecord) -> Side | None:
    entry = record.entry
    if isinstance(entry, DealEntry) and entry.contract.declarer is not None:
        return entry.contract.declarer.side
    return None


def _read_file(path: Path, pad: Pad) -> list[str]:
    try:
        text = sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8")
    except OSError as exc:
        raise fail(
            escape(
                pad.t.gettext("cannot read {path}: {error}").format(
                    path=path, error=exc.strerror or exc
                )
            )
        ) from None
    return [line.split("#", 1)[0].strip() for line in text.splitlines()]


@score_app.command(
    help=N_(
        "Chicago bridge score pad: give deals (or --file) to print the sheet, or none to enter "
        "them one by one."
    )
)
def chicago(
    deals: Annotated[
        list[str] | None,
        typer.Argument(help=N_("deals, each quoted: '3NT S =' '4HX E -2 honors4' pass")),
    ] = None,
    file: Annotated[
        Path | None,
        typer.Option("--file", "-f", help=N_("read deals from a file, one per line ('-' = stdin)")),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("print the sheet as JSON"))] = False,
    interactive: Annotated[
        bool,
        typer.Option("--interactive", "-i", help=N_("keep the pad open after the given deals")),
    ] = False,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            help=N_(
                "option name=value: partscore_carryover, vulnerability, round_half, honors, "
                "first_dealer"
            ),
        ),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            help=N_(
                "the pad's language: en, nl, de, es, pt-BR (default: LANG / LC_ALL); the seats "
                "are written and typed in its letters (Dutch N O Z W)"
            )
        ),
    ] = None,
) -> None:
    """Chicago bridge score pad: give deals (or --file) to print the sheet, or none to enter them
    one by one."""
    pad = Pad(terminal_language(lang))
    options = _options(option)
    given: list[str] = list(deals or [])
    lines: list[tuple[str, str]] = [
        (pad.t.gettext("deal {n}").format(n=i + 1), d) for i, d in enumerate(given)
    ]
    if file is not None:
        lines += [(f"{file}:{n}", t) for n, t in enumerate(_read_file(file, pad), start=1) if t]
    session = Session(options)
    for where, text in lines:
        try:
            session = session.add(text, pad.seats)
        except EntryError as exc:
            raise fail(escape(f"{where}: {text!r}: {pad.said(exc.said)}")) from None
    if interactive or (not given and file is None):
        session = _pad(session, as_json, pad)
        return
    _output(session, as_json, pad)


def _output(session: Session, as_json: bool, pad: Pad) -> None:
    if as_json:
        sys.stdout.write(json.dumps(session.to_json(), ensure_ascii=False, indent=2) + "\n")
    else:
        pad.render(session, _console())


def _pad(session: Session, as_json: bool, pad: Pad) -> Session:
    console = _console()
    t = pad.t
    echo = not sys.stdin.isatty()
    console.print(
        escape(
            t.gettext(
                "Chicago score pad — {ns} are We, {ew} are They. Type help for the notation."
            ).format(ns=pad.side[Side.NS], ew=pad.side[Side.EW])
        )
    )
    if session.entries:
        pad.render(session, console)
    error = escape(t.gettext("error:"))
    while True:
        console.print(f"{escape(pad.next_text(session.next_deal()))} > ", end="")
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
            console.print(escape(pad.help()))
        elif word in ("sheet", "show"):
            pad.render(session, console)
        elif word == "json":
            console.print_json(data=session.to_json())
        elif word == "undo":
            try:
                taken = session.entries[-1] if session.entries else None
                session = session.undo()
            except EntryError as exc:
                console.print(f"[bold red]{error}[/] {escape(pad.said(exc.said))}")
                continue
            console.print(escape(t.gettext("undone: {entry}").format(entry=pad.entry(taken))))
            pad.render(session, console, only_last=True)
        else:
            try:
                session = session.add(command, pad.seats)
            except EntryError as exc:
                console.print(
                    f"[bold red]{error}[/] "
                    + escape(
                        t.gettext("{error} — nothing recorded").format(error=pad.said(exc.said))
                    )
                )
                continue
            pad.render(session, console, only_last=True)
    if session.entries:
        _output(session, as_json, pad)
    return session
