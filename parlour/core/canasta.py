"""Card facts shared by the Canasta family (Samba, Hand and Foot, …), named once.

Cards are the kinds of :mod:`parlour.core.cards` (``suit * 13 + rank - 2``, joker 52).  In these
games 2s and jokers are wild, red 3s are bonus cards laid out alone, black 3s block the pile and
meld only when going out, and the natural cards are 4 through A.

>>> from parlour.core.cards import cards_str
>>> cards_str(RED_THREES), cards_str(BLACK_THREES), cards_str(WILD_KINDS)
('3♦ 3♥', '3♣ 3♠', '2♣ 2♦ 2♥ 2♠ Jk')
>>> h = [0] * 53; h[13] = 2; h[52] = 1; h[14] = 1
>>> wild_count(h), IS_WILD[13], IS_NATURAL[14], IS_RED_THREE[14]
(3, True, False, True)
"""

from __future__ import annotations

from typing import Final

from parlour.core.cards import CLUBS, DIAMONDS, HEARTS, JOKER, SPADES, SUITS, Card, make_card

#: 3♦ and 3♥: bonus cards, laid out alone
RED_THREES: Final[tuple[Card, Card]] = (make_card(3, DIAMONDS), make_card(3, HEARTS))
#: 3♣ and 3♠: they block the pile and are melded only on going out
BLACK_THREES: Final[tuple[Card, Card]] = (make_card(3, CLUBS), make_card(3, SPADES))
#: the four 2s (wild)
TWOS: Final[tuple[Card, ...]] = tuple(make_card(2, s) for s in SUITS)
#: every wild kind: the 2s and the joker
WILD_KINDS: Final[tuple[Card, ...]] = (*TWOS, JOKER)
#: the ranks of natural cards (4 … A): the ranks of groups and sequences
NATURAL_RANKS: Final[range] = range(4, 15)

IS_WILD: Final[tuple[bool, ...]] = tuple(k in WILD_KINDS for k in range(53))
IS_RED_THREE: Final[tuple[bool, ...]] = tuple(k in RED_THREES for k in range(53))
IS_BLACK_THREE: Final[tuple[bool, ...]] = tuple(k in BLACK_THREES for k in range(53))
IS_NATURAL: Final[tuple[bool, ...]] = tuple(
    k != JOKER and k % 13 + 2 in NATURAL_RANKS for k in range(53)
)

_W0: Final = WILD_KINDS[0]
_W1: Final = WILD_KINDS[1]
_W2: Final = WILD_KINDS[2]
_W3: Final = WILD_KINDS[3]
_W4: Final = WILD_KINDS[4]


def wild_count(counts: list[int]) -> int:
    """Wild cards in a count vector (index = kind)."""
    return counts[_W0] + counts[_W1] + counts[_W2] + counts[_W3] + counts[_W4]


__all__ = [
    "BLACK_THREES",
    "IS_BLACK_THREE",
    "IS_NATURAL",
    "IS_RED_THREE",
    "IS_WILD",
    "NATURAL_RANKS",
    "RED_THREES",
    "TWOS",
    "WILD_KINDS",
    "wild_count",
]
