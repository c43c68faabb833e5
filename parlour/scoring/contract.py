"""Bridge contracts, results and honors, and the notation people write them in.

A contract is a level (1–7 odd tricks over the book of six), a strain (♣ ♦ ♥ ♠ or notrump), a
doubling (undoubled, ``X`` doubled, ``XX`` redoubled) and the declarer's seat (N, E, S, W).

>>> c = Contract.parse("4sxx by w")
>>> str(c), c.ascii(), c.tricks_needed
('4♠XX by W', '4SXX by W', 10)
>>> parse_entry("3NT S =")
DealEntry(contract=Contract(level=3, strain=<Strain.NOTRUMP: 'NT'>, doubling=<Doubling.UNDOUBLED: 1>, declarer=<Seat.S: 2>), tricks=9, honors=None)
>>> str(parse_entry("4HX E -2 honors4"))
'4♥X by E -2 honors4'
>>> parse_entry("8NT S =")
Traceback (most recent call last):
...
parlour.scoring.contract.EntryError: level 8 in '8NT': a contract is 1 to 7 odd tricks (7 = all 13 tricks)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum, IntEnum, StrEnum
from typing import Any

from parlour.core.errors import ParlourError
from parlour.core.said import N_, Said

__all__ = [
    "Contract",
    "DealEntry",
    "Doubling",
    "Entry",
    "EntryError",
    "HonorKind",
    "Honors",
    "PassedOut",
    "Seat",
    "SeatLetter",
    "Side",
    "Strain",
    "parse_entry",
    "parse_result",
    "result_text",
]


class EntryError(ParlourError, ValueError):
    """A contract, result or deal entry that cannot be right; the message says what and why.

    ``index`` is the 0-based position of the bad entry when a list of entries was read."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index
        #: the message as said (a :class:`~parlour.core.said.Said` where it is a catalog
        #: message, told in the reader's language by the server and the pad)
        self.said = message


class Side(StrEnum):
    """A partnership: North-South (``NS``, "We" on the sheet) or East-West (``EW``, "They")."""

    NS = "NS"
    EW = "EW"

    @property
    def other(self) -> Side:
        return Side.EW if self is Side.NS else Side.NS

    @property
    def label(self) -> str:
        return "N-S" if self is Side.NS else "E-W"


class Seat(IntEnum):
    """A seat at the table, clockwise from North."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def side(self) -> Side:
        return Side.NS if self % 2 == 0 else Side.EW

    def after(self, steps: int = 1) -> Seat:
        """The seat ``steps`` places to the left (clockwise), as the deal passes."""
        return Seat((self + steps) % 4)

    @classmethod
    def parse(cls, text: str, seats: Mapping[str, Seat] | None = None) -> Seat:
        """A seat from its letter or name; ``seats`` (upper-case text → seat) replaces the
        English ``N E S W`` / ``NORTH`` … when given (the terminal pad in another language)."""
        key = text.strip().upper()
        found = (seats if seats is not None else _ENGLISH_SEATS).get(key)
        if found is not None:
            return found
        raise EntryError(
            N_(
                "bad declarer {text}: the declarer is a seat, {seats}",
                text=repr(text),
                seats=seat_list(),
            )
        )


_SEAT_WORDS = {Seat.N: "NORTH", Seat.E: "EAST", Seat.S: "SOUTH", Seat.W: "WEST"}
#: what a seat may be typed as (upper case): its letter or its English name
_ENGLISH_SEATS: dict[str, Seat] = {
    **{s.name: s for s in Seat},
    **{word: s for s, word in _SEAT_WORDS.items()},
}


class SeatLetter:
    """A seat's letter in a message: ``N``/``E``/``S``/``W`` (what the parser reads in English,
    and what the server's pad reads); a terminal pad in another language writes its own letters
    in its place (``parlour.cli.score``: Dutch ``N O Z W``)."""

    __slots__ = ("seat",)

    def __init__(self, seat: Seat) -> None:
        self.seat = seat

    def __str__(self) -> str:
        return self.seat.name


def seat_list() -> Said:
    """``N, E, S or W``: the seats one may type, as a message (joined in the reader's words)."""
    return N_(
        "{north}, {east}, {south} or {west}",
        north=SeatLetter(Seat.N),
        east=SeatLetter(Seat.E),
        south=SeatLetter(Seat.S),
        west=SeatLetter(Seat.W),
    )


class Strain(Enum):
    """The trump suit of a contract, or notrump."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"
    NOTRUMP = "NT"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def is_minor(self) -> bool:
        return self in (Strain.CLUBS, Strain.DIAMONDS)

    @property
    def is_notrump(self) -> bool:
        return self is Strain.NOTRUMP


_SYMBOLS = {
    Strain.CLUBS: "♣",
    Strain.DIAMONDS: "♦",
    Strain.HEARTS: "♥",
    Strain.SPADES: "♠",
    Strain.NOTRUMP: "NT",
}
# Longest first, so "NT" wins over "N" and "NOTRUMP" over both.
_STRAIN_ALIASES: tuple[tuple[str, Strain], ...] = (
    ("NOTRUMPS", Strain.NOTRUMP),
    ("NOTRUMP", Strain.NOTRUMP),
    ("NT", Strain.NOTRUMP),
    # sans atout (Dutch, German), sin triunfo / sem trunfo (Spanish, Portuguese): the notrump the
    # pads of those languages write (issue 34); before "S", and no contract began with them
    ("SA", Strain.NOTRUMP),
    ("ST", Strain.NOTRUMP),
    ("N", Strain.NOTRUMP),
    ("♣", Strain.CLUBS),
    ("♧", Strain.CLUBS),
    ("C", Strain.CLUBS),
    ("♦", Strain.DIAMONDS),
    ("♢", Strain.DIAMONDS),
    ("D", Strain.DIAMONDS),
    ("♥", Strain.HEARTS),
    ("♡", Strain.HEARTS),
    ("H", Strain.HEARTS),
    ("♠", Strain.SPADES),
    ("♤", Strain.SPADES),
    ("S", Strain.SPADES),
)


class Doubling(IntEnum):
    """Undoubled, doubled or redoubled; the value is the trick-score multiplier (×1, ×2, ×4)."""

    UNDOUBLED = 1
    DOUBLED = 2
    REDOUBLED = 4

    @property
    def suffix(self) -> str:
        return {1: "", 2: "X", 4: "XX"}[self.value]


_DOUBLING_SUFFIXES = {"": Doubling.UNDOUBLED, "X": Doubling.DOUBLED, "XX": Doubling.REDOUBLED}


def _strain_help() -> Said:
    return N_("use C, D, H, S or NT (or ♣ ♦ ♥ ♠)")


@dataclass(frozen=True)
class Contract:
    """The final bid: ``level`` odd tricks in ``strain``, maybe doubled, played by ``declarer``."""

    level: int
    strain: Strain
    doubling: Doubling = Doubling.UNDOUBLED
    declarer: Seat | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.level, int) or not 1 <= self.level <= 7:
            raise EntryError(
                N_("level {level}: a contract is 1 to 7 odd tricks", level=repr(self.level))
            )

    @property
    def tricks_needed(self) -> int:
        """Tricks declarer must take: the book of six plus the level."""
        return self.level + 6

    def __str__(self) -> str:
        return self._text(self.strain.symbol)

    def ascii(self) -> str:
        """The contract with letters for suits (``4SX by N``)."""
        return self._text(self.strain.value)

    def _text(self, strain: str) -> str:
        text = f"{self.level}{strain}{self.doubling.suffix}"
        return text if self.declarer is None else f"{text} by {self.declarer.name}"

    @classmethod
    def parse(cls, text: str) -> Contract:
        """``3NT``, ``4♠X``, ``4SXX``, ``6H by S``, ``3nt s``; the declarer may be left out."""
        tokens = _tokens(text)
        if not tokens:
            raise EntryError(N_("empty contract: write it like 3NT, 4♠X or 6H by S"))
        contract, pos = _parse_contract(tokens, 0, require_declarer=False)
        if pos < len(tokens):
            raise EntryError(
                N_(
                    "unexpected {token} after the contract in {text}",
                    token=repr(tokens[pos]),
                    text=repr(text),
                )
            )
        return contract

    def to_json(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "strain": self.strain.value,
            "symbol": self.strain.symbol,
            "doubling": self.doubling.suffix,
            "declarer": None if self.declarer is None else self.declarer.name,
            "text": str(self),
        }


class HonorKind(StrEnum):
    """Honors held in one hand: four or five of the trump A K Q J 10, or four aces at notrump."""

    FOUR_TRUMPS = "honors4"
    FIVE_TRUMPS = "honors5"
    FOUR_ACES = "aces4"


@dataclass(frozen=True)
class Honors:
    """Honors held in one hand, by the declaring side or (``defenders=True``) the other side."""

    kind: HonorKind
    defenders: bool = False

    def __str__(self) -> str:
        return f"{self.kind.value}:def" if self.defenders else self.kind.value

    def check(self, contract: Contract) -> None:
        """Raise :class:`EntryError` if these honors cannot exist in this contract's strain."""
        if contract.strain.is_notrump and self.kind is not HonorKind.FOUR_ACES:
            raise EntryError(
                N_(
                    "{honors} at notrump: there are no trumps; at notrump only four aces in one "
                    "hand count (write aces4)",
                    honors=self.kind.value,
                )
            )
        if not contract.strain.is_notrump and self.kind is HonorKind.FOUR_ACES:
            raise EntryError(
                N_(
                    "aces4 in a contract with trumps ({strain}): four aces count only at "
                    "notrump; with a trump suit write honors4 or honors5 (A K Q J 10 of trumps)",
                    strain=contract.strain.symbol,
                )
            )


_HONORS_RE = re.compile(
    r"^(?:(?:honou?rs?|hon|h)(?P<n>[45])|(?P<aces>aces4|4aces|aces))(?::(?P<who>\w+))?$",
    re.IGNORECASE,
)


def _parse_honors(text: str, contract: Contract, seats: Mapping[str, Seat] | None) -> Honors:
    match = _HONORS_RE.match(text)
    if match is None:
        raise EntryError(
            N_(
                "unexpected {text}: after the result only honors may follow — honors4, honors5 "
                "(trump honors in one hand) or aces4 (four aces at notrump), optionally :def",
                text=repr(text),
            )
        )
    if match["aces"]:
        kind = HonorKind.FOUR_ACES
    else:
        kind = HonorKind.FOUR_TRUMPS if match["n"] == "4" else HonorKind.FIVE_TRUMPS
    who = (match["who"] or "dec").lower()
    if who in ("dec", "declarer"):
        defenders = False
    elif who in ("def", "defenders", "defence", "defense"):
        defenders = True
    else:
        if not _is_seat(who, seats):
            raise EntryError(
                N_(
                    "bad honors holder {who} in {text}: write :def (defenders), :dec or a seat",
                    who=repr(match["who"]),
                    text=repr(text),
                )
            )
        seat = Seat.parse(who, seats)
        assert contract.declarer is not None
        defenders = seat.side is not contract.declarer.side
    honors = Honors(kind, defenders)
    honors.check(contract)
    return honors


def parse_result(text: str, contract: Contract) -> int:
    """Tricks declarer took, from ``=`` (made exactly), ``+2``, ``-1`` or a number ``0``–``13``.

    >>> three_nt = Contract.parse("3NT")
    >>> parse_result("=", three_nt), parse_result("+1", three_nt), parse_result("-2", three_nt)
    (9, 10, 7)
    >>> parse_result("+5", three_nt)
    Traceback (most recent call last):
    ...
    parlour.scoring.contract.EntryError: 3NT +5 would be 14 tricks: a deal has only 13
    """
    raw = text.strip().replace("−", "-").replace("–", "-")
    need = contract.tricks_needed
    name = f"{contract.level}{contract.strain.value}{contract.doubling.suffix}"
    if raw in ("=", "made", "m"):
        return need
    if re.fullmatch(r"[+-]\d+", raw):
        n = int(raw[1:])
        if raw[0] == "+":
            if need + n > 13:
                raise EntryError(
                    N_(
                        "{contract} {result} would be {tricks} tricks: a deal has only 13",
                        contract=name,
                        result=raw,
                        tricks=need + n,
                    )
                )
            return need + n
        if n == 0:
            raise EntryError(
                N_("{contract} -0: write '=' for a contract made exactly", contract=name)
            )
        if n > need:
            raise EntryError(
                N_(
                    "{contract} {result}: declarer needs {need} tricks, so the most it can go "
                    "down is -{need}",
                    contract=name,
                    result=raw,
                    need=need,
                )
            )
        return need - n
    if raw.isdigit():
        tricks = int(raw)
        if tricks > 13:
            raise EntryError(N_("{tricks} tricks: a deal has only 13", tricks=tricks))
        return tricks
    raise EntryError(
        N_(
            "bad result {text}: write '=' (made exactly), '+1' (overtricks), '-2' (down) or the "
            "number of tricks declarer took (0-13)",
            text=repr(text),
        )
    )


def result_text(contract: Contract, tricks: int) -> str:
    """``=``, ``+n`` or ``-n``: the tricks taken relative to the contract."""
    diff = tricks - contract.tricks_needed
    return "=" if diff == 0 else f"{diff:+d}"


@dataclass(frozen=True)
class DealEntry:
    """One deal played out: the contract (with declarer), tricks declarer took, honors held."""

    contract: Contract
    tricks: int
    honors: Honors | None = None

    def __post_init__(self) -> None:
        if self.contract.declarer is None:
            raise EntryError(
                N_(
                    "{contract} has no declarer: say who played it ({seats})",
                    contract=str(self.contract),
                    seats=seat_list(),
                )
            )
        if not isinstance(self.tricks, int) or not 0 <= self.tricks <= 13:
            raise EntryError(
                N_("{tricks} tricks: declarer takes 0 to 13 tricks", tricks=repr(self.tricks))
            )
        if self.honors is not None:
            self.honors.check(self.contract)

    @property
    def made(self) -> bool:
        return self.tricks >= self.contract.tricks_needed

    @property
    def result(self) -> str:
        return result_text(self.contract, self.tricks)

    def __str__(self) -> str:
        text = f"{self.contract} {self.result}"
        return text if self.honors is None else f"{text} {self.honors}"

    def ascii(self) -> str:
        text = f"{self.contract.ascii()} {self.result}"
        return text if self.honors is None else f"{text} {self.honors}"


@dataclass(frozen=True)
class PassedOut:
    """All four players passed: the deal is thrown in, redealt by the same dealer, not counted."""

    def __str__(self) -> str:
        return "pass"

    def ascii(self) -> str:
        return "pass"


Entry = DealEntry | PassedOut

_PASS_WORDS = {"pass", "passed", "passed out", "passout", "all pass", "p", "-"}


def parse_entry(text: str, seats: Mapping[str, Seat] | None = None) -> Entry:
    """One line of the score pad: ``3NT S =``, ``4HX E -2 honors4``, ``6H by S 12`` or ``pass``.
    ``seats`` (upper-case text → seat) is what a seat may be typed as, when not English."""
    if " ".join(text.lower().split()) in _PASS_WORDS:
        return PassedOut()
    tokens = _tokens(text)
    if not tokens:
        raise EntryError(N_("empty entry: write a deal like '3NT S =' or 'pass'"))
    contract, pos = _parse_contract(tokens, 0, require_declarer=True, seats=seats)
    if pos >= len(tokens):
        raise EntryError(
            N_(
                "{contract}: the result is missing — write '=', '+1', '-2' or the tricks taken",
                contract=str(contract),
            )
        )
    tricks = parse_result(tokens[pos], contract)
    pos += 1
    honors = None
    if pos < len(tokens):
        honors = _parse_honors(tokens[pos], contract, seats)
        pos += 1
    if pos < len(tokens):
        raise EntryError(
            N_(
                "unexpected {tail} at the end of {text}",
                tail=repr(" ".join(tokens[pos:])),
                text=repr(text.strip()),
            )
        )
    return DealEntry(contract, tricks, honors)


def _tokens(text: str) -> list[str]:
    return text.replace("\ufe0f", "").split()


def _parse_contract(
    tokens: list[str],
    pos: int,
    *,
    require_declarer: bool,
    seats: Mapping[str, Seat] | None = None,
) -> tuple[Contract, int]:
    head = tokens[pos]
    pos += 1
    # Allow "3 NT" and "4S X": glue a bare level to its strain, and a bare X/XX to the bid.
    if head.isdigit() and pos < len(tokens):
        head += tokens[pos]
        pos += 1
    if pos < len(tokens) and tokens[pos].upper() in ("X", "XX"):
        head += tokens[pos]
        pos += 1
    level, strain, doubling = _parse_bid(head)
    declarer: Seat | None = None
    if pos < len(tokens) and tokens[pos].lower() == "by":
        if pos + 1 >= len(tokens):
            raise EntryError(N_("'{head} by' needs a seat: {seats}", head=head, seats=seat_list()))
        declarer = Seat.parse(tokens[pos + 1], seats)
        pos += 2
    elif pos < len(tokens) and _is_seat(tokens[pos], seats):
        declarer = Seat.parse(tokens[pos], seats)
        pos += 1
    elif require_declarer:
        if pos < len(tokens) and re.fullmatch(r"[A-Za-z]+", tokens[pos]):
            Seat.parse(tokens[pos], seats)  # raises "bad declarer ..."
        raise EntryError(
            N_(
                "missing declarer after {quoted}: say who played it, e.g. '{head} {south} ='",
                quoted=repr(head),
                head=head,
                south=SeatLetter(Seat.S),
            )
        )
    return Contract(level, strain, doubling, declarer), pos


def _is_seat(token: str, seats: Mapping[str, Seat] | None = None) -> bool:
    return token.upper() in (seats if seats is not None else _ENGLISH_SEATS)


def _parse_bid(token: str) -> tuple[int, Strain, Doubling]:
    match = re.match(r"^(\d+)(.*)$", token)
    if match is None:
        raise EntryError(
            N_(
                "bad contract {token}: write the level then the strain, like 3NT, 4♠X or 6H",
                token=repr(token),
            )
        )
    level = int(match[1])
    if not 1 <= level <= 7:
        raise EntryError(
            N_(
                "level {level} in {token}: a contract is 1 to 7 odd tricks (7 = all 13 tricks)",
                level=level,
                token=repr(token),
            )
        )
    rest = match[2].upper()
    if not rest:
        raise EntryError(
            N_("{token} has no strain: {help}", token=repr(token), help=_strain_help())
        )
    for alias, strain in _STRAIN_ALIASES:
        if rest.startswith(alias):
            suffix = rest[len(alias) :]
            if suffix not in _DOUBLING_SUFFIXES:
                raise EntryError(
                    N_(
                        "bad doubling {doubling} in {token}: write X for doubled or XX for "
                        "redoubled",
                        doubling=repr(match[2][len(alias) :]),
                        token=repr(token),
                    )
                )
            return level, strain, _DOUBLING_SUFFIXES[suffix]
    bad = re.match(r"^[^X]+", rest)
    raise EntryError(
        N_(
            "unknown strain {strain} in {token}: {help}",
            strain=repr(bad[0] if bad else rest),
            token=repr(token),
            help=_strain_help(),
        )
    )
