"""Card values and melds of Samba (RULES.md §1 "Melds"; seed 002 "Melds").

>>> from parlour.core.cards import parse_cards
>>> m = make_meld(parse_cards("Jk 8♥ 8♣"))
>>> (m.kind, m.rank, m.value, m.wilds)
('group', 8, 70, 1)
>>> make_meld(parse_cards("9♠ Jk 2♥")) is None
True
>>> make_meld(parse_cards("6♥ 7♥ 8♥")).kind
'sequence'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from parlour.core import canasta
from parlour.core.cards import JOKER, Card, card_str
from parlour.core.codec import cards_field

GROUP: Final = "group"
SEQUENCE: Final = "sequence"
WILD: Final = "wild"
BLACK3: Final = "black3"

# the Canasta family's card facts (parlour.core.canasta), under the names Samba's modules use
RED_THREES: Final = canasta.RED_THREES
BLACK_THREES: Final = canasta.BLACK_THREES
TWOS: Final = canasta.TWOS
WILD_KINDS: Final = canasta.WILD_KINDS


def _value(kind: int) -> int:
    if kind == JOKER:
        return 50
    rank = kind % 13 + 2
    if rank in (2, 14):
        return 20
    if rank >= 8:
        return 10
    if rank == 3:
        return 0 if kind in RED_THREES else 5
    return 5


#: card value by kind (red 3s have no card value; they are bonus cards)
VALUE: Final[tuple[int, ...]] = tuple(_value(k) for k in range(53))
IS_WILD: Final[tuple[bool, ...]] = tuple(k in WILD_KINDS for k in range(53))
#: natural cards: 4 through A
IS_NATURAL: Final[tuple[bool, ...]] = tuple(k != JOKER and k % 13 + 2 >= 4 for k in range(53))
RANK: Final[tuple[int, ...]] = tuple(0 if k == JOKER else k % 13 + 2 for k in range(53))
SUIT: Final[tuple[int, ...]] = tuple(-1 if k == JOKER else k // 13 for k in range(53))
#: natural kinds of each rank (index = rank)
KINDS_OF_RANK: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(s * 13 + r - 2 for s in range(4)) if 2 <= r <= 14 else () for r in range(15)
)


#: how each kind is written ("10♥"), for fast event texts
CARD_TEXT: Final[tuple[str, ...]] = tuple(card_str(k) for k in range(53))


def cards_text(cards: Iterable[Card]) -> str:
    if isinstance(cards, tuple):
        return _tuple_text(cards)
    return " ".join([CARD_TEXT[c] for c in cards])


def _tuple_text(cards: tuple[Card, ...]) -> str:
    """:func:`cards_text` of a tuple (compiled: an indexed loop, not the generic iterator)."""
    n = len(cards)
    if n == 0:
        return ""
    if n == 1:
        return CARD_TEXT[cards[0]]
    return " ".join([CARD_TEXT[cards[i]] for i in range(n)])


@dataclass(slots=True, init=False, unsafe_hash=True)
class Meld:
    """A meld on the table.  ``kind``: group, sequence, wild (Bolivia) or black3 (a group of black
    3s, wild cards in it as in any group: 7 or more cards make a pure or mixed canasta).

    ``rank`` is the group's rank (sequences: lowest rank); ``suit`` a sequence's suit (else -1);
    ``high`` a sequence's highest rank.  ``canasta`` is "pure", "mixed" or "" (not a canasta);
    ``samba`` marks a 7-card sequence (Bolivia: escalera), ``bolivia`` a 7-card wild meld.

    A value: never changed once made (states share their melds), compared and hashed by its
    fields.  Not a frozen dataclass for speed: compiled, this ``__init__`` sets the fields
    directly, where a frozen dataclass's generated one runs interpreted and sets each field
    through ``object.__setattr__`` (melds are made on every meld, addition and merge, and by
    the legal-action checks)."""

    kind: str
    rank: int
    suit: int
    high: int
    cards: tuple[Card, ...] = cards_field()
    wilds: int = 0
    value: int = 0
    canasta: str = ""
    samba: bool = False
    bolivia: bool = False

    def __init__(
        self,
        kind: str,
        rank: int,
        suit: int,
        high: int,
        cards: tuple[Card, ...] = (),
        wilds: int = 0,
        value: int = 0,
        canasta: str = "",
        samba: bool = False,
        bolivia: bool = False,
    ) -> None:
        self.kind = kind
        self.rank = rank
        self.suit = suit
        self.high = high
        self.cards = cards
        self.wilds = wilds
        self.value = value
        self.canasta = canasta
        self.samba = samba
        self.bolivia = bolivia

    def __reduce__(
        self,
    ) -> tuple[type[Meld], tuple[str, int, int, int, tuple[Card, ...], int, int, str, bool, bool]]:
        # pickle and copy make a meld again through __init__ (compiled, the class is built by
        # __init__ only: there is no empty meld to fill in afterwards)
        return (
            Meld,
            (
                self.kind,
                self.rank,
                self.suit,
                self.high,
                self.cards,
                self.wilds,
                self.value,
                self.canasta,
                self.samba,
                self.bolivia,
            ),
        )

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def is_seven(self) -> bool:
        """A seven-card meld: canasta, samba or bolivia (what going out counts)."""
        return self.canasta != "" or self.samba or self.bolivia


def expand_counts(h: list[int]) -> list[Card]:
    """The cards of a count vector in kind order (a faster ``parlour.core.cards.expand``)."""
    out: list[Card] = []
    for k in range(53):
        n = h[k]
        if n:
            out.append(k)
            for _ in range(1, n):
                out.append(k)
    return out


def held_kinds(h: list[int]) -> list[Card]:
    """The kinds a count vector holds, in order (each once)."""
    return [k for k, x in enumerate(h) if x]


#: every card kind, in order
ALL_KINDS: Final[tuple[int, ...]] = tuple(range(53))


def build(kind: str, rank: int, suit: int, high: int, cards: Sequence[Card]) -> Meld:
    """A meld record with its derived flags (the cards are assumed to form a valid meld)."""
    cs = tuple(sorted(cards))
    wilds = value = 0
    for c in cs:
        if IS_WILD[c]:
            wilds += 1
        value += VALUE[c]
    n = len(cs)
    canasta = ""
    if kind in (GROUP, BLACK3) and n >= 7:
        canasta = "pure" if wilds == 0 else "mixed"
    return Meld(
        kind,
        rank,
        suit,
        high,
        cs,
        wilds,
        value,
        canasta,
        kind == SEQUENCE and n == 7,
        kind == WILD and n >= 7,
    )


def make_meld(
    cards: Sequence[Card], *, wild_melds: bool = False, black_three_wilds: bool = False
) -> Meld | None:
    """The meld these cards form as a new meld (≥ 3 cards), or None if they form none.

    Black 3s are handled apart (only on the going-out turn, never built card by card): black 3s
    alone make a ``black3`` group, and with ``black_three_wilds`` so do black 3s with wild cards
    under the normal group limits (seed 002: 'following the normal group rules').

    >>> make_meld(parse_cards("3♣ 3♠ Jk")) is None
    True
    >>> m = make_meld(parse_cards("3♣ 3♠ Jk"), black_three_wilds=True)
    >>> (m.kind, m.wilds, m.value)
    ('black3', 1, 60)
    >>> make_meld(parse_cards("3♣ Jk 2♥"), black_three_wilds=True) is None
    True"""
    if len(cards) < 3:
        return None
    if len(cards) == 3:
        # three naturals (every meld finished card by card but those with wild cards): the
        # tests below, written out
        a, b, c = cards[0], cards[1], cards[2]
        if IS_NATURAL[a] and IS_NATURAL[b] and IS_NATURAL[c]:
            ra, rb, rc = RANK[a], RANK[b], RANK[c]
            if ra == rb and rb == rc:
                return build(GROUP, ra, -1, ra, cards)
            if SUIT[a] == SUIT[b] and SUIT[b] == SUIT[c] and ra != rb and rb != rc and ra != rc:
                lo = min(ra, rb, rc)
                hi = max(ra, rb, rc)
                if hi - lo == 2:
                    return build(SEQUENCE, lo, SUIT[a], hi, cards)
            return None
    wilds = [c for c in cards if IS_WILD[c]]
    nats = [c for c in cards if not IS_WILD[c]]
    if not nats:
        if wild_melds and len(cards) <= 7:
            return build(WILD, 0, -1, 0, cards)
        return None
    if not all(IS_NATURAL[c] for c in nats):
        if all(c in BLACK_THREES for c in nats) and (
            not wilds or (black_three_wilds and len(wilds) <= 2 and len(nats) >= 2 * len(wilds))
        ):
            return build(BLACK3, 3, -1, 3, cards)
        return None
    ranks = {RANK[c] for c in nats}
    if len(ranks) == 1:
        if len(wilds) <= 2 and len(nats) >= 2 * len(wilds):
            return build(GROUP, RANK[nats[0]], -1, RANK[nats[0]], cards)
        return None
    if wilds or len(cards) > 7 or len({SUIT[c] for c in nats}) != 1:
        return None
    rs = sorted(RANK[c] for c in nats)
    if rs[-1] - rs[0] != len(rs) - 1 or len(ranks) != len(rs):
        return None
    return build(SEQUENCE, rs[0], SUIT[nats[0]], rs[-1], cards)


def fits(meld: Meld, card: Card, *, no_wild_on_canasta: bool = False) -> bool:
    """Whether one card may be added to the meld (RULES.md §1: wild limits, max 7 in a sequence,
    nothing on a samba or bolivia, black 3s never extended)."""
    kind = meld.kind
    if kind == GROUP:
        if IS_WILD[card]:
            if no_wild_on_canasta and meld.canasta:
                return False
            w = meld.wilds + 1
            return w <= 2 and len(meld.cards) - meld.wilds >= 2 * w
        return IS_NATURAL[card] and RANK[card] == meld.rank
    if kind == SEQUENCE:
        if len(meld.cards) >= 7 or IS_WILD[card] or SUIT[card] != meld.suit:
            return False
        r = RANK[card]
        return (r == meld.rank - 1 and r >= 4) or (r == meld.high + 1 and r <= 14)
    if kind == WILD:
        return IS_WILD[card] and len(meld.cards) < 7
    return False


def add_card(meld: Meld, card: Card) -> Meld:
    """The meld with one more card (``fits`` must hold): :func:`build` of the cards and ``card``,
    from the meld's own sorted cards, wild cards and value (no sort, no new count)."""
    cards = meld.cards
    n = len(cards)
    i = n
    while i > 0 and cards[i - 1] > card:
        i -= 1
    cs = cards[:i] + (card,) + cards[i:]  # noqa: RUF005
    wilds = meld.wilds + (1 if IS_WILD[card] else 0)
    value = meld.value + VALUE[card]
    kind = meld.kind
    n += 1
    if kind == SEQUENCE:
        r = RANK[card]
        return Meld(
            SEQUENCE,
            min(meld.rank, r),
            meld.suit,
            max(meld.high, r),
            cs,
            wilds,
            value,
            "",
            n == 7,
            False,
        )
    canasta = ""
    if n >= 7 and kind in (GROUP, BLACK3):
        canasta = "pure" if wilds == 0 else "mixed"
    return Meld(
        kind,
        meld.rank,
        meld.suit,
        meld.high,
        cs,
        wilds,
        value,
        canasta,
        False,
        kind == WILD and n >= 7,
    )


def can_merge(a: Meld, b: Meld, *, no_wild_on_canasta: bool = False) -> bool:
    """Two groups of one rank may be merged if the result keeps the wild limits."""
    if a.kind != GROUP or b.kind != GROUP or a.rank != b.rank:
        return False
    if a.wilds + b.wilds > 2:
        return False
    return not (no_wild_on_canasta and ((a.canasta and b.wilds) or (b.canasta and a.wilds)))


def merge(a: Meld, b: Meld) -> Meld:
    return build(GROUP, a.rank, -1, a.rank, (*a.cards, *b.cards))


def is_seven_count(melds: Iterable[Meld]) -> tuple[int, int]:
    """(seven-card melds, of which sequences) of a side."""
    sevens = seqs = 0
    for m in melds:
        if m.canasta or m.samba or m.bolivia:
            sevens += 1
            if m.samba:
                seqs += 1
    return sevens, seqs


def meets_going_out(melds: Iterable[Meld], going_out: str) -> bool:
    """Seed 002: 'two sambas, two canastas, or one of each'; Bolivia: two 7-card melds, one a
    sequence (escalera)."""
    sevens, seqs = is_seven_count(melds)
    if going_out == "two_canastas":
        return sevens >= 2
    return sevens >= 2 and seqs >= 1
