"""Hand values: the best single suit, A = 11, K Q J = 10, others their pips; 31 at most
(seed ``001_e8630c614840283e.txt``, "Cards and their value"), plus the variants' special hands.

>>> from parlour.core.cards import parse_cards
>>> from parlour.games.scat.rules import ScatRules
>>> hand_value(parse_cards("A♥ K♥ 10♥"), ScatRules())
31
>>> hand_value(parse_cards("A♣ 7♥ 5♥"), ScatRules())
12
>>> hand_value(parse_cards("8♠ 8♥ 8♦"), ScatRules(three_of_a_kind=30.5))
30.5
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core.cards import ACE, Card
from parlour.games.scat.rules import ScatRules

#: a hand's value: an int, a float only for a fractional special hand (``three_of_a_kind=30.5``);
#: not ``float``, which the compiled build would turn every int into (17 shown as 17.0)
Value = int | float

#: value of a card kind 0..51 (index = kind)
CARD_VALUE: tuple[int, ...] = tuple(
    11 if r == ACE else (10 if r >= 10 else r) for _s in range(4) for r in range(2, 15)
)


def card_value(card: Card) -> int:
    return CARD_VALUE[card]


def suit_totals(cards: Sequence[Card]) -> list[int]:
    """Sum of card values per suit (♣ ♦ ♥ ♠)."""
    tot = [0, 0, 0, 0]
    for c in cards:
        tot[c // 13] += CARD_VALUE[c]
    return tot


def is_three_of_a_kind(cards: Sequence[Card]) -> bool:
    return len(cards) == 3 and cards[0] % 13 == cards[1] % 13 == cards[2] % 13


def is_straight_flush(cards: Sequence[Card]) -> bool:
    """Three cards of one suit in sequence (ace high only: A-K-Q, not A-2-3)."""
    if len(cards) != 3 or not cards[0] // 13 == cards[1] // 13 == cards[2] // 13:
        return False
    ranks = sorted(c % 13 for c in cards)
    return ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1


def is_one_suit(cards: Sequence[Card]) -> bool:
    return len(cards) == 3 and cards[0] // 13 == cards[1] // 13 == cards[2] // 13


def hand_value(cards: Sequence[Card], rules: ScatRules) -> Value:
    """The value of a hand under ``rules`` (31 at most, 33 for a Grand Cadillac)."""
    if len(cards) != 3:
        return max(suit_totals(cards))
    a, b, c = cards
    sa, sb, sc = a // 13, b // 13, c // 13
    va, vb, vc = CARD_VALUE[a], CARD_VALUE[b], CARD_VALUE[c]
    if sa == sb:
        best = va + vb + vc if sa == sc else max(va + vb, vc)
    elif sa == sc:
        best = max(va + vc, vb)
    elif sb == sc:
        best = max(vb + vc, va)
    else:
        best = max(va, vb, vc)
    ra = a % 13
    if ra == b % 13 == c % 13:
        if rules.three_aces_33 and ra == ACE - 2:
            return 33
        if rules.three_of_a_kind is not None and rules.three_of_a_kind > best:
            tk = rules.three_of_a_kind
            return int(tk) if float(tk).is_integer() else tk
    if rules.straight_flush_30 and best < 30 and is_straight_flush(cards):
        return 30
    return best


def is_declarable(cards: Sequence[Card], rules: ScatRules) -> bool:
    """A hand that is declared at once: 31 (or a Grand Cadillac's 33); both need an ace."""
    for c in cards:
        if c % 13 == ACE - 2:
            return hand_value(cards, rules) >= 31
    return False


def rank_key(cards: Sequence[Card], rules: ScatRules) -> tuple[int, ...]:
    """Poker-style tie-break key: ranks (descending) of the cards that make the hand's value.

    >>> from parlour.core.cards import parse_cards
    >>> r = ScatRules()
    >>> rank_key(parse_cards("A♥ 10♥ 9♥"), r) > rank_key(parse_cards("K♠ Q♠ J♠"), r)
    True
    >>> rank_key(parse_cards("K♥ J♥ 7♥"), r) > rank_key(parse_cards("K♠ 9♠ 8♠"), r)
    True
    """
    if (
        len(cards) == 3
        and is_three_of_a_kind(cards)
        and hand_value(cards, rules) > max(suit_totals(cards))
    ):
        return tuple(sorted((c % 13 + 2 for c in cards), reverse=True))
    totals = suit_totals(cards)
    top = max(totals)
    keys = [
        tuple(sorted((c % 13 + 2 for c in cards if c // 13 == s), reverse=True))
        for s in range(4)
        if totals[s] == top and top > 0
    ]
    return max(keys) if keys else ()
