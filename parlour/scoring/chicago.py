"""Chicago (four-deal) bridge: a score keeper for rounds of four deals and a running session.

A round is four counted deals, one dealt by each player in turn (seed 003): deal 1 nobody is
vulnerable, deals 2 and 3 the dealer's side, deal 4 both.  A passed-out deal is redealt by the same
dealer and not counted.  Partscores carry over below the line toward game; a game cancels both
sides' partials; a partscore made on deal 4 that does not complete a game earns 100.  The round's
difference is rounded to the nearest hundred (+580 → +600, written "+6").  N-S are "We" and E-W
"They"; ``+`` means N-S are ahead.

>>> s = sheet_from_entries(["3S N +1", "3NT E =", "3DX W =", "6S S = honors4"])
>>> r = s.rounds[0]
>>> r.totals[Side.NS], r.totals[Side.EW], r.difference, r.rounded, r.display
(1650, 1070, 580, 600, '+6')
>>> s.add("pass").next_deal()
NextDeal(round=2, deal=1, dealer=<Seat.N: 0>, vulnerable=())
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.core.rules import Rules, option
from parlour.core.said import N_
from parlour.scoring.contract import (
    Contract,
    DealEntry,
    Doubling,
    Entry,
    EntryError,
    HonorKind,
    Honors,
    PassedOut,
    Seat,
    Side,
    Strain,
    parse_entry,
)
from parlour.scoring.tables import ScoreItem, score_deal

__all__ = [
    "ChicagoOptions",
    "Contract",
    "DealEntry",
    "DealRecord",
    "Doubling",
    "Entry",
    "EntryError",
    "HonorKind",
    "Honors",
    "NextDeal",
    "PassedOut",
    "RoundSheet",
    "Seat",
    "Session",
    "Side",
    "Strain",
    "parse_entry",
    "round_hundred",
    "sheet_from_entries",
    "vulnerable_sides",
]

DEALS_PER_ROUND = 4


@dataclass(frozen=True)
class ChicagoOptions(Rules):
    """House rules of the Chicago score keeper (RULES.md §5)."""

    partscore_carryover: bool = option(
        True,
        "partscores carry over below the line toward game and a game cancels both sides' "
        "partials; a partscore on deal 4 that does not complete a game earns 100. Off: every "
        "deal is scored alone (game needs 100 in one deal; a partscore earns 50)",
    )
    # source: seed 003 (003_8b94f64b123ab947.txt): the dealer's side is vulnerable
    vulnerability: str = option(
        "dealer",
        "who is vulnerable on deals 2 and 3: 'dealer' = the dealer's side (the standard rule), "
        "'non_dealer' = the dealer's opponents",
        choices=("dealer", "non_dealer"),
    )
    round_half: str = option(
        "up",
        "rounding a difference ending in exactly 50 (a house rule; the standard rules are "
        "silent): 'up' = the winner's "
        "margin rounds up (550 → 600), 'down' = it rounds down (550 → 500), 'even' = to the "
        "even hundred (550 → 600, 650 → 600)",
        choices=("up", "down", "even"),
    )
    honors: bool = option(
        True,
        "score honors held in one hand (four trump honors 100, five 150, four aces at "
        "notrump 150); off = honors are not scored and entering them is an error",
    )
    first_dealer: str = option(
        "N", "the seat that deals the first deal of every round", choices=("N", "E", "S", "W")
    )


def vulnerable_sides(deal: int, dealer: Seat, options: ChicagoOptions) -> tuple[Side, ...]:
    """Sides vulnerable on deal 1–4 of a round: none; the dealer's side twice; both.

    >>> vulnerable_sides(2, Seat.E, ChicagoOptions())
    (<Side.EW: 'EW'>,)
    """
    if deal == 1:
        return ()
    if deal == DEALS_PER_ROUND:
        return (Side.NS, Side.EW)
    side = dealer.side if options.vulnerability == "dealer" else dealer.side.other
    return (side,)


def vulnerability_text(sides: Sequence[Side]) -> str:
    """``none``, ``NS``, ``EW`` or ``both``."""
    if not sides:
        return "none"
    return "both" if len(sides) == 2 else sides[0].value


def round_hundred(difference: int, half: str = "up") -> int:
    """The difference rounded to the nearest hundred; an exact 50 goes by ``half``.

    The winner's margin is rounded, so +550 and -550 round alike.

    >>> round_hundred(580), round_hundred(-549), round_hundred(550), round_hundred(-550, "down")
    (600, -500, 600, -500)
    >>> round_hundred(650, "even"), round_hundred(750, "even")
    (600, 800)
    """
    sign = -1 if difference < 0 else 1
    hundreds, rest = divmod(abs(difference), 100)
    if rest > 50 or (rest == 50 and (half == "up" or (half == "even" and hundreds % 2 == 1))):
        hundreds += 1
    return sign * hundreds * 100


def hundreds_display(rounded: int) -> str:
    """``+6``, ``-3`` or ``0``: a rounded difference in hundreds, as written on the pad."""
    n = rounded // 100
    return "0" if n == 0 else f"{n:+d}"


@dataclass(frozen=True)
class NextDeal:
    """Where the session stands: the deal to be played next, its dealer and vulnerability."""

    round: int
    deal: int
    dealer: Seat
    vulnerable: tuple[Side, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "deal": self.deal,
            "dealer": self.dealer.name,
            "vulnerable": vulnerability_text(self.vulnerable),
            "vulnerable_sides": {s.value: s in self.vulnerable for s in Side},
        }


@dataclass(frozen=True)
class DealRecord:
    """One line of the sheet: a scored deal, or a passed-out deal (not counted)."""

    round: int
    deal: int
    dealer: Seat
    vulnerable: tuple[Side, ...]
    entry: Entry
    items: Mapping[Side, tuple[ScoreItem, ...]]
    game: Side | None
    partials_after: Mapping[Side, int]
    next: NextDeal

    @property
    def passed_out(self) -> bool:
        return isinstance(self.entry, PassedOut)

    def above(self, side: Side) -> int:
        return sum(i.points for i in self.items[side] if not i.below)

    def below(self, side: Side) -> int:
        return sum(i.points for i in self.items[side] if i.below)

    def total(self, side: Side) -> int:
        return self.above(side) + self.below(side)

    def to_json(self) -> dict[str, Any]:
        entry = self.entry
        out: dict[str, Any] = {
            "round": self.round,
            "deal": self.deal,
            "dealer": self.dealer.name,
            "vulnerable": vulnerability_text(self.vulnerable),
            "vulnerable_sides": {s.value: s in self.vulnerable for s in Side},
            "passed_out": self.passed_out,
            "entry": str(entry),
            "contract": None,
            "result": None,
            "honors": None,
        }
        if isinstance(entry, DealEntry):
            assert entry.contract.declarer is not None
            out["contract"] = entry.contract.to_json()
            out["result"] = {"tricks": entry.tricks, "text": entry.result, "made": entry.made}
            if entry.honors is not None:
                holder = entry.contract.declarer.side
                out["honors"] = {
                    "kind": entry.honors.kind.value,
                    "side": (holder.other if entry.honors.defenders else holder).value,
                }
        for side in Side:
            out[side.value] = {
                "above": self.above(side),
                "below": self.below(side),
                "total": self.total(side),
                "items": [i.to_json() for i in self.items[side]],
            }
        out["game"] = None if self.game is None else self.game.value
        out["partials_after"] = {s.value: self.partials_after[s] for s in Side}
        out["next"] = self.next.to_json()
        return out


@dataclass(frozen=True)
class RoundSheet:
    """One round of up to four counted deals (plus any passed-out deals) and its result."""

    number: int
    deals: tuple[DealRecord, ...]
    options: ChicagoOptions

    @property
    def counted(self) -> int:
        return sum(1 for d in self.deals if not d.passed_out)

    @property
    def complete(self) -> bool:
        return self.counted == DEALS_PER_ROUND

    @property
    def totals(self) -> dict[Side, int]:
        return {s: sum(d.total(s) for d in self.deals) for s in Side}

    @property
    def difference(self) -> int:
        """N-S total minus E-W total."""
        t = self.totals
        return t[Side.NS] - t[Side.EW]

    @property
    def rounded(self) -> int:
        return round_hundred(self.difference, self.options.round_half)

    @property
    def display(self) -> str:
        return hundreds_display(self.rounded)

    @property
    def winner(self) -> Side | None:
        if self.rounded == 0:
            return None
        return Side.NS if self.rounded > 0 else Side.EW

    def to_json(self) -> dict[str, Any]:
        t = self.totals
        winner = self.winner
        return {
            "number": self.number,
            "complete": self.complete,
            "deals": [d.to_json() for d in self.deals],
            "totals": {s.value: t[s] for s in Side},
            "above": {s.value: sum(d.above(s) for d in self.deals) for s in Side},
            "below": {s.value: sum(d.below(s) for d in self.deals) for s in Side},
            "difference": self.difference,
            "rounded_difference": self.rounded,
            "display": self.display,
            "winner": None if winner is None else winner.value,
        }


@dataclass(frozen=True)
class Session:
    """A running session: the entries in order; the sheet is computed from them.

    Sessions are values: :meth:`add` and :meth:`undo` return a new session.
    """

    options: ChicagoOptions = field(default_factory=ChicagoOptions)
    entries: tuple[Entry, ...] = ()

    def add(self, entry: Entry | str, seats: Mapping[str, Seat] | None = None) -> Session:
        """This session with one more deal (text is parsed; ``seats``: what a seat may be typed
        as, when not ``N E S W``); raises :class:`EntryError`."""
        parsed = parse_entry(entry, seats) if isinstance(entry, str) else entry
        if isinstance(parsed, DealEntry) and parsed.honors is not None and not self.options.honors:
            raise EntryError(
                N_(
                    "honors {honors} entered, but honors are not scored (option honors is off)",
                    honors=str(parsed.honors),
                )
            )
        return Session(self.options, (*self.entries, parsed))

    def undo(self) -> Session:
        """This session without its last entry; raises :class:`EntryError` if it is empty."""
        if not self.entries:
            raise EntryError(N_("nothing to undo: no deal has been entered"))
        return Session(self.options, self.entries[:-1])

    @property
    def rounds(self) -> tuple[RoundSheet, ...]:
        return _build_rounds(self.options, self.entries)

    def next_deal(self) -> NextDeal:
        rounds = self.rounds
        if not rounds:
            return _next(self.options, 1, 1)
        last = rounds[-1]
        if last.deals:
            return last.deals[-1].next
        return _next(self.options, last.number, 1)

    @property
    def complete_rounds(self) -> tuple[RoundSheet, ...]:
        return tuple(r for r in self.rounds if r.complete)

    def score(self, side: Side = Side.NS) -> int:
        """The session score of ``side`` in hundreds: the sum of its complete rounds' results."""
        total = sum(r.rounded for r in self.complete_rounds) // 100
        return total if side is Side.NS else -total

    def to_json(self) -> dict[str, Any]:
        rounds = self.rounds
        ns = self.score(Side.NS)
        return {
            "type": "ChicagoSheet",
            "options": self.options.to_json(),
            "entries": [str(e) for e in self.entries],
            "rounds": [r.to_json() for r in rounds],
            "session": {
                "complete_rounds": len(self.complete_rounds),
                "score": {Side.NS.value: ns, Side.EW.value: -ns},
                "display": "0" if ns == 0 else f"{ns:+d}",
            },
            "next": self.next_deal().to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Session:
        """Rebuild from :meth:`to_json` output (its ``options`` and ``entries``)."""
        return sheet_from_entries(list(data.get("entries", [])), data.get("options"))


def _next(options: ChicagoOptions, round_no: int, deal: int) -> NextDeal:
    dealer = Seat[options.first_dealer].after(deal - 1)
    return NextDeal(round_no, deal, dealer, vulnerable_sides(deal, dealer, options))


def _build_rounds(options: ChicagoOptions, entries: Iterable[Entry]) -> tuple[RoundSheet, ...]:
    rounds: list[RoundSheet] = []
    records: list[DealRecord] = []
    round_no, deal = 1, 1
    partials = dict.fromkeys(Side, 0)
    for entry in entries:
        current = _next(options, round_no, deal)
        items: dict[Side, tuple[ScoreItem, ...]] = {s: () for s in Side}
        game: Side | None = None
        if isinstance(entry, DealEntry):
            assert entry.contract.declarer is not None
            side = entry.contract.declarer.side
            scored = score_deal(
                entry.contract,
                entry.tricks,
                vulnerable=side in current.vulnerable,
                honors=entry.honors if options.honors else None,
                partial_before=partials[side],
                fourth_deal=deal == DEALS_PER_ROUND,
                carryover=options.partscore_carryover,
            )
            items = {side: scored.declarer, side.other: scored.defenders}
            if scored.game:
                game = side
                # A game ends the game in progress: both sides' partials are cancelled.
                partials = dict.fromkeys(Side, 0)
            elif options.partscore_carryover:
                partials[side] += scored.below
            deal += 1
        finished = deal > DEALS_PER_ROUND
        following = _next(options, round_no + 1, 1) if finished else _next(options, round_no, deal)
        records.append(
            DealRecord(
                round_no,
                current.deal,
                current.dealer,
                current.vulnerable,
                entry,
                items,
                game,
                dict(partials),
                following,
            )
        )
        if finished:
            rounds.append(RoundSheet(round_no, tuple(records), options))
            records, round_no, deal = [], round_no + 1, 1
            # Partscores do not survive the end of a round.
            partials = dict.fromkeys(Side, 0)
    if records:
        rounds.append(RoundSheet(round_no, tuple(records), options))
    return tuple(rounds)


def sheet_from_entries(
    entries: Sequence[str | Entry],
    options: ChicagoOptions | Mapping[str, Any] | None = None,
) -> Session:
    """A session from score-pad lines (``"3NT S ="``, ``"4HX E -2 honors4"``, ``"pass"``).

    ``options`` is a :class:`ChicagoOptions` or its JSON form.  A bad line raises
    :class:`EntryError` whose message starts with ``entry N:`` (1-based) and whose ``index``
    attribute is its 0-based position; nothing of a failed call is kept.
    """
    opts = options if isinstance(options, ChicagoOptions) else ChicagoOptions.from_json(options)
    session = Session(opts)
    for i, entry in enumerate(entries):
        try:
            session = session.add(entry)
        except EntryError as exc:
            raise EntryError(
                N_(
                    "entry {n} ({entry}): {reason}",
                    n=i + 1,
                    entry=repr(str(entry).strip()),
                    reason=exc.said,
                ),
                i,
            ) from None
    return session
