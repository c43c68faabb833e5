"""Cards as small integers, parsed and printed the way people write them.

A card *kind* is an int: ``suit * 13 + (rank - 2)`` for the 52 ordinary cards (ranks 2..14, ace
high = 14) and ``JOKER = 52``.  Several decks make cards of one kind interchangeable, so hands
are multisets (count vectors of length ``NUM_KINDS``).

>>> parse_card("10♥") == parse_card("TH")
True
>>> card_str(parse_card("qs"))
'Q♠'
>>> card_str(JOKER), card_str(JOKER, ascii=True)
('Jk', 'JK')
>>> [card_str(c) for c in parse_cards("9d 9h Jk")]
['9♦', '9♥', 'Jk']
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Final

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
SUITS = (CLUBS, DIAMONDS, HEARTS, SPADES)
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_LETTERS = "CDHS"
RANKS = tuple(range(2, 15))  # 2..10, J=11, Q=12, K=13, A=14
JACK, QUEEN, KING, ACE = 11, 12, 13, 14
RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
JOKER: Final = 52
NUM_KINDS: Final = 53

Card = int


def make_card(rank: int, suit: int) -> Card:
    """The kind of the ordinary card with this rank (2..14) and suit (0..3)."""
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(f"no card of rank {rank} and suit {suit}")
    return suit * 13 + rank - 2


def rank_of(card: Card) -> int:
    """Rank 2..14 (ace = 14); 0 for a joker."""
    return 0 if card == JOKER else card % 13 + 2


def suit_of(card: Card) -> int:
    """Suit 0..3 (♣ ♦ ♥ ♠); -1 for a joker."""
    return -1 if card == JOKER else card // 13


def is_red(card: Card) -> bool:
    return suit_of(card) in (DIAMONDS, HEARTS)


def rank_str(rank: int, *, ascii: bool = False) -> str:
    if rank == 10:
        return "T" if ascii else "10"
    return RANK_NAMES.get(rank, str(rank))


def card_str(card: Card, *, ascii: bool = False) -> str:
    """How people write the card: ``10♥``, ``Q♠``, ``Jk`` (ASCII: ``TH``, ``QS``, ``JK``)."""
    if card == JOKER:
        return "JK" if ascii else "Jk"
    if not 0 <= card < JOKER:
        raise ValueError(f"not a card kind: {card}")
    suit = suit_of(card)
    symbol = SUIT_LETTERS[suit] if ascii else SUIT_SYMBOLS[suit]
    return rank_str(rank_of(card), ascii=ascii) + symbol


_RANK_WORDS = {"A": 14, "K": 13, "Q": 12, "J": 11, "T": 10, "10": 10}
_SUIT_WORDS = {
    "♣": CLUBS,
    "♧": CLUBS,
    "C": CLUBS,
    "♦": DIAMONDS,
    "♢": DIAMONDS,
    "D": DIAMONDS,
    "♥": HEARTS,
    "♡": HEARTS,
    "H": HEARTS,
    "♠": SPADES,
    "♤": SPADES,
    "S": SPADES,
}


def parse_rank(text: str) -> int:
    """Parse a rank as people write it: ``A K Q J 10 T 9 … 2`` (case-insensitive)."""
    t = text.strip().upper()
    if t in _RANK_WORDS:
        return _RANK_WORDS[t]
    if t.isdigit() and 2 <= int(t) <= 10:
        return int(t)
    raise ValueError(f"not a rank: {text!r} (use A K Q J 10 9 8 7 6 5 4 3 2, or T for ten)")


def parse_card(text: str) -> Card:
    """Parse ``10♥``, ``TH``, ``th``, ``Q♠``, ``qs``, ``Jk``/``JK``/``joker``."""
    t = text.strip()
    if t.upper() in ("JK", "JOKER", "🃏", "*"):
        return JOKER
    if len(t) < 2:
        raise ValueError(f"not a card: {text!r} (write e.g. 10♥, TH, Q♠, QS or Jk)")
    suit_char = t[-1].upper()
    if suit_char not in _SUIT_WORDS:
        raise ValueError(f"not a card: {text!r} (unknown suit {t[-1]!r}; use ♣♦♥♠ or C D H S)")
    try:
        rank = parse_rank(t[:-1])
    except ValueError:
        raise ValueError(f"not a card: {text!r} (unknown rank {t[:-1]!r})") from None
    return make_card(rank, _SUIT_WORDS[suit_char])


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse several cards separated by spaces or commas."""
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(w) for w in words]


def cards_str(cards: Iterable[Card], *, ascii: bool = False) -> str:
    return " ".join(card_str(c, ascii=ascii) for c in cards)


def shoe(decks: int = 1, jokers: int = 0) -> list[Card]:
    """An unshuffled shoe of ``decks`` 52-card packs plus ``jokers`` jokers, in kind order."""
    if decks < 0 or jokers < 0:
        raise ValueError("decks and jokers must be ≥ 0")
    cards = [c for c in range(52) for _ in range(decks)]
    cards.extend([JOKER] * jokers)
    return cards


def shuffle_as_random(cards: list[int], rng: random.Random) -> None:
    """``rng.shuffle(cards)``: the same permutation from the same generator state, written out so
    that it compiles (``random.shuffle`` runs two interpreted calls a card: about 0.35 M
    instructions a Samba deal, 13 µs a Scat deal).  The algorithm is CPython's: from the last
    position down, swap with a position drawn below ``i + 1`` by ``getrandbits`` of that many
    bits, drawing again while too large; ``tests/core/test_shuffle.py`` checks it against
    ``random.shuffle``."""
    bits = rng.getrandbits
    n = len(cards)
    k = n.bit_length()  # bits of i + 1 below: kept in step as i falls
    for i in range(n - 1, 0, -1):
        m = i + 1
        while k > 1 and m < 1 << (k - 1):
            k -= 1
        j = bits(k)
        while j >= m:
            j = bits(k)
        cards[i], cards[j] = cards[j], cards[i]


def shuffled_shoe(rng: random.Random, decks: int = 1, jokers: int = 0) -> list[Card]:
    """:func:`shoe` shuffled by ``rng.shuffle`` (written out for a ``random.Random`` itself:
    :func:`shuffle_as_random`; a subclass's own ``shuffle`` is called)."""
    cards = shoe(decks, jokers)
    if type(rng) is random.Random:
        shuffle_as_random(cards, rng)
    else:
        rng.shuffle(cards)
    return cards


# --- multisets as count vectors -------------------------------------------------------------


def counts(cards: Iterable[Card]) -> list[int]:
    """Count vector (length ``NUM_KINDS``) of a collection of cards."""
    v = [0] * NUM_KINDS
    for c in cards:
        v[c] += 1
    return v


def expand(count_vector: Sequence[int]) -> list[Card]:
    """The cards of a count vector, in kind order."""
    out: list[Card] = []
    for kind, n in enumerate(count_vector):
        if n:
            out.extend([kind] * n)
    return out


def contains(count_vector: Sequence[int], cards: Iterable[Card]) -> bool:
    """Whether the multiset holds all of ``cards`` (with multiplicity)."""
    need: dict[int, int] = {}
    for c in cards:
        need[c] = need.get(c, 0) + 1
    return all(count_vector[c] >= n for c, n in need.items())
