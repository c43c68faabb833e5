"""Messages an engine says without a language (issue 34): a refusal's reason is English text
that remembers its catalog message and values, so an edge (server, terminal) can tell it in the
reader's language with :func:`parlour.core.text.tell`.

A :class:`Said` *is* the English ``str`` (every caller that compares, logs or journals the
reason sees the same text as before); ``msgid``/``plural``/``n``/``values`` are what a
translation needs.  Cards and ranks are values of their own (:class:`Card`, :class:`Cards`,
:class:`Rank`, :class:`Ranks`), written as each language writes them.  ``N_`` and ``ngettext``
are names ``pybabel extract`` looks for, so the messages land in the catalog.

>>> r = N_("you do not hold {card}", card=Card(51))
>>> r, r.msgid, r == "you do not hold A♠"
('you do not hold A♠', 'you do not hold {card}', True)
>>> ngettext("a play is at most {count} card", "a play is at most {count} cards", 3, count=3)
'a play is at most 3 cards'
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core.cards import card_str, rank_str


class Card:
    """A card in a message (``A♠``; ``H♠`` in Dutch)."""

    __slots__ = ("card",)

    def __init__(self, card: int) -> None:
        self.card = card

    def __str__(self) -> str:
        return card_str(self.card)


class Cards:
    """Cards in a message, written one after another (``7♥ 8♣``)."""

    __slots__ = ("cards",)

    def __init__(self, cards: Sequence[int]) -> None:
        self.cards = tuple(cards)

    def __str__(self) -> str:
        return " ".join(card_str(c) for c in self.cards)


class Rank:
    """A rank in a message (``K``; ``H`` in Dutch)."""

    __slots__ = ("rank",)

    def __init__(self, rank: int) -> None:
        self.rank = rank

    def __str__(self) -> str:
        return rank_str(self.rank)


class Ranks:
    """Ranks in a message, with commas (``Q, K, A``)."""

    __slots__ = ("ranks",)

    def __init__(self, ranks: Sequence[int]) -> None:
        self.ranks = tuple(ranks)

    def __str__(self) -> str:
        return ", ".join(rank_str(r) for r in self.ranks)


class SeatNo:
    """A seat in a message: its number in English (``seat 2 plays first``, as logs and golden
    playthroughs write it); told in a language, the seat's name at the table where the edge
    knows it (``tell(..., names=...)``), else ``seat 2`` in that language."""

    __slots__ = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def __str__(self) -> str:
        return str(self.seat)


class MeldNo:
    """A meld of a side in a message: its 0-based index in English (``add 7♣ to meld 0``, as the
    engines write it); told in a language, ``#1`` as the table numbers melds."""

    __slots__ = ("meld",)

    def __init__(self, meld: int) -> None:
        self.meld = meld

    def __str__(self) -> str:
        return str(self.meld)


class Listed:
    """Messages listed with commas (``1 more samba, 1 more dirty book``), each told in the
    reader's language."""

    __slots__ = ("items",)

    def __init__(self, items: Sequence[object]) -> None:
        self.items = tuple(items)

    def __str__(self) -> str:
        return ", ".join(str(i) for i in self.items)


class Said(str):
    """English text that is one catalog message with named values."""

    msgid: str
    plural: str | None
    n: int
    values: dict[str, object]

    def __new__(
        cls,
        msgid: str,
        plural: str | None = None,
        n: int = 1,
        values: dict[str, object] | None = None,
    ) -> Said:
        vals = values or {}
        source = msgid if plural is None or n == 1 else plural
        self = super().__new__(
            cls, source.format(**{k: str(v) for k, v in vals.items()}) if vals else source
        )
        self.msgid, self.plural, self.n, self.values = msgid, plural, n, vals
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (Said, (self.msgid, self.plural, self.n, self.values))


def N_(msgid: str, /, **values: object) -> Said:
    """One message with its values (``{name}`` placeholders)."""
    return Said(msgid, None, 1, values)


def ngettext(singular: str, plural: str, n: int, /, **values: object) -> Said:
    """One message with a plural: ``{count}`` or any named value, chosen by ``n``."""
    return Said(singular, plural, n, values)
