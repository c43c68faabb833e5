"""Card values and the meld rules of Samba Hand and Foot (seed ``004_bae80ddcdedd4514.txt``).

A side's melds are *books* of one rank (4–A), *runs* of one suit (8–A, no wilds; seven cards = a
samba) and *wild books* (2s and jokers only).  Every meld starts with at least 3 cards and is closed
when it holds 7 (a finished book).

>>> from parlour.core.cards import parse_cards
>>> meld_problem(BOOK, 9, tuple(parse_cards("9h 9s 2c")))
>>> meld_problem(BOOK, 7, tuple(parse_cards("7h 7s Jk")))
'wild cards may never be played in the book of 7s'
>>> meld_problem(RUN, 2, tuple(parse_cards("8h 9h 10h")))
>>> card_value(parse_cards("Jk")[0]), card_value(parse_cards("As")[0])
(50, 20)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from parlour.core.cards import (
    JOKER,
    Card,
    cards_str,
    is_red,
    make_card,
    rank_of,
    rank_str,
    suit_of,
)
from parlour.core.codec import cards_field
from parlour.core.said import N_, Rank
from parlour.core.said import Card as CardValue

BOOK: Final = "book"
RUN: Final = "run"
WILDS: Final = "wilds"
BOOK_SIZE: Final = 7
MIN_MELD: Final = 3
SAMBA_LOW: Final = 8  # a samba is A K Q J 10 9 8 of one suit
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


def is_wild(card: Card) -> bool:
    return card == JOKER or rank_of(card) == 2


def is_red_three(card: Card) -> bool:
    return rank_of(card) == 3 and is_red(card)


def is_black_three(card: Card) -> bool:
    return rank_of(card) == 3 and not is_red(card)


def card_value(card: Card) -> int:
    """Seed 004's card values: joker 50; A and 2 = 20; K–8 = 10; 7–4 = 5; 3s count 0 here
    (black 3s left in hand are a penalty, red 3s a bonus — see scoring)."""
    if card == JOKER:
        return 50
    r = rank_of(card)
    if r in (2, 14):
        return 20
    if r >= 8:
        return 10
    if r >= 4:
        return 5
    return 0


CARD_VALUES: Final[tuple[int, ...]] = tuple(card_value(c) for c in range(JOKER + 1))


def cards_value(cards: Sequence[Card]) -> int:
    total = 0
    for c in cards:
        total += CARD_VALUES[c]
    return total


def wilds_allowed(rank: int) -> bool:
    """Wilds may complete books of 4–6 and 8–A only (never 7s)."""
    return 4 <= rank <= 14 and rank != 7


#: the wild cards as they join a meld (every 2 as 2♣: no rule tells the suits of 2s apart)
WILD_ADDS: Final[tuple[Card, ...]] = (make_card(2, 0), JOKER)


def _natural_adds(rank: int) -> tuple[Card, ...]:
    """The naturals of ``rank`` as they join a book (4s–7s as the club: their suits never
    matter; 8–A by suit, as sambas are one suit)."""
    if rank <= 7:
        return (make_card(rank, 0),)
    return tuple(make_card(rank, s) for s in range(4))


#: what may join an unfinished book of each rank 4–A: [naturals only, naturals or wilds]
BOOK_ADDS: Final[dict[int, tuple[tuple[Card, ...], tuple[Card, ...]]]] = {
    r: (_natural_adds(r), _natural_adds(r) + (WILD_ADDS if wilds_allowed(r) else ()))
    for r in range(4, 15)
}
NO_ADDS: Final[tuple[tuple[Card, ...], tuple[Card, ...]]] = (
    (),
    (),
)  # no book of other ranks exists


@dataclass(frozen=True, slots=True)
class Meld:
    """One meld of a side: ``kind`` is book/run/wilds; ``key`` the rank (book) or suit (run)."""

    kind: str
    key: int
    cards: tuple[Card, ...] = cards_field()
    # derived, cached (melds are immutable)
    complete: bool = field(init=False, compare=False, repr=False)
    wild_count: int = field(init=False, compare=False, repr=False)
    #: the cards that may still join the meld, one for each set of cards no rule tells apart
    #: (the lowest kind: the club of 4s–7s, 2♣ for every 2); none once it is complete
    addable: tuple[Card, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "complete", len(self.cards) >= BOOK_SIZE)
        wild = 0
        for c in self.cards:
            if c == JOKER or c % 13 == 0:  # a joker or a 2
                wild += 1
        object.__setattr__(self, "wild_count", wild)
        object.__setattr__(self, "addable", () if self.complete else self._addable(wild))

    def _addable(self, wild: int) -> tuple[Card, ...]:
        """A wild may join a book only while it keeps more naturals than wilds; a run grows at
        either end within 8–A of its suit (one suit: its kinds run in rank order)."""
        if self.kind == BOOK:
            return BOOK_ADDS.get(self.key, NO_ADDS)[len(self.cards) - wild > wild + 1]
        if self.kind == RUN:
            if not self.cards:  # a label only (a meld named in a message)
                return ()
            lo, hi = min(self.cards), max(self.cards)
            below = (lo - 1,) if rank_of(lo) > SAMBA_LOW else ()
            return (*below, hi + 1) if rank_of(hi) < 14 else below
        return WILD_ADDS

    @property
    def is_samba(self) -> bool:
        return self.kind == RUN and self.complete

    @property
    def is_sevens(self) -> bool:
        return self.kind == BOOK and self.key == 7 and self.complete

    @property
    def is_wild_book(self) -> bool:
        return self.kind == WILDS and self.complete

    @property
    def is_clean(self) -> bool:
        return self.kind == BOOK and self.key != 7 and self.complete and self.wild_count == 0

    @property
    def is_dirty(self) -> bool:
        return self.kind == BOOK and self.key != 7 and self.complete and self.wild_count > 0

    def label(self) -> str:
        if self.kind == RUN:
            return f"{SUIT_NAMES[self.key]} run"
        if self.kind == WILDS:
            return "wild book"
        return f"book of {rank_str(self.key)}s"

    def __str__(self) -> str:
        return f"{self.label()} [{cards_str(self.cards)}]"


def classify(cards: Sequence[Card]) -> tuple[str, int] | None:
    """The kind and key a new meld of these cards would have (None if it fits none)."""
    if not cards:
        return None
    naturals = [c for c in cards if not is_wild(c)]
    if not naturals:
        return WILDS, 0
    ranks = {rank_of(c) for c in naturals}
    if len(ranks) == 1:
        return BOOK, rank_of(naturals[0])
    if len(naturals) == len(cards) and len({suit_of(c) for c in cards}) == 1:
        return RUN, suit_of(cards[0])
    return None


def meld_problem(kind: str, key: int, cards: Sequence[Card]) -> str | None:
    """Why these cards are not a valid meld of that kind (None if they are).  Size ≥ 3 is checked
    by the caller for new melds; here the upper bound of 7 and the composition."""
    if len(cards) > BOOK_SIZE:
        return N_("a book holds {count} cards; it is closed once complete", count=BOOK_SIZE)
    if kind == WILDS:
        bad = [c for c in cards if not is_wild(c)]
        if bad:
            return N_(
                "a book of wilds holds only 2s and jokers, not {card}", card=CardValue(bad[0])
            )
        return None
    if kind == RUN:
        for c in cards:
            if is_wild(c):
                return N_("wild cards may never be played in a samba")
            if suit_of(c) != key:
                return _not_of_suit(key, c)
            if rank_of(c) < SAMBA_LOW:
                return N_(
                    "a samba runs A K Q J 10 9 8 only; {card} cannot be in it", card=CardValue(c)
                )
        ranks = sorted(rank_of(c) for c in cards)
        if len(set(ranks)) != len(ranks):
            return N_("a samba holds each rank once")
        if ranks[-1] - ranks[0] != len(ranks) - 1:
            return N_("a samba is a run of consecutive ranks")
        return None
    # book of one rank
    if key == 3:
        return N_("3s are never melded (red 3s go to the board at once; black 3s are never played)")
    if not 4 <= key <= 14:
        return N_("there are no books of {rank}s", rank=Rank(key))
    wild = 0
    for c in cards:
        if is_wild(c):
            wild += 1
        elif rank_of(c) != key:
            return N_(
                "{card} does not belong in a book of {rank}s", card=CardValue(c), rank=Rank(key)
            )
    if wild and key == 7:
        return N_("wild cards may never be played in the book of 7s")
    if wild and not wilds_allowed(key):
        return N_("wild cards may not be played in a book of {rank}s", rank=Rank(key))
    if wild >= len(cards) - wild:
        return N_("a book needs more natural cards than wild cards")
    return None


def _not_of_suit(suit: int, card: Card) -> str:
    """A samba is one suit: ``card`` is not of ``suit`` (one message a suit)."""
    said = (
        N_("a samba is one suit: {card} is not a club", card=CardValue(card)),
        N_("a samba is one suit: {card} is not a diamond", card=CardValue(card)),
        N_("a samba is one suit: {card} is not a heart", card=CardValue(card)),
        N_("a samba is one suit: {card} is not a spade", card=CardValue(card)),
    )
    return said[suit]
