"""The actions of Samba Hand and Foot: small frozen values with a readable text form.

A turn is ``Draw`` (or ``TakePile``), then any number of ``Meld`` / ``AddToMeld``, then ``Discard``.
``Retract`` takes back the melds of a turn whose meld requirement is not met yet.

>>> from parlour.core.cards import parse_cards
>>> str(Meld(tuple(parse_cards("9h 9s Jk"))))
'meld 9♥ 9♠ Jk'
>>> str(AddToMeld(2, parse_cards("Qd")[0]))
'add Q♦ to meld 2'
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.core.cards import Card, card_str, cards_str
from parlour.core.codec import card_field, cards_field


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw ``draw_count`` cards from the stock (with an empty stock: see ``stock_out``)."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class TakePile:
    """Take the top card of the discard pile with the next cards below it; the top card is melded
    with ``cards`` (two from the hand) onto ``meld`` (index of the side's meld, -1 = a new meld)."""

    cards: tuple[Card, ...] = cards_field()
    meld: int = -1

    def __post_init__(self) -> None:  # the order cards are named in does not matter
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))

    def __str__(self) -> str:
        where = "a new meld" if self.meld < 0 else f"meld {self.meld}"
        return f"take the pile, top card with {cards_str(self.cards)} onto {where}"


@dataclass(frozen=True, slots=True)
class Meld:
    """Start a new meld with exactly three cards from the hand (in any order)."""

    cards: tuple[Card, ...] = cards_field()

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))

    def __str__(self) -> str:
        return f"meld {cards_str(self.cards)}"


@dataclass(frozen=True, slots=True)
class AddToMeld:
    """Add one card from the hand to one of the side's unfinished melds."""

    meld: int
    card: Card = card_field()  # noqa: RUF009

    def __str__(self) -> str:
        return f"add {card_str(self.card)} to meld {self.meld}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard one card; ends the turn (and the round, when it is the last card of a side that
    holds every required book)."""

    card: Card = card_field()  # noqa: RUF009

    def __str__(self) -> str:
        return f"discard {card_str(self.card)}"


@dataclass(frozen=True, slots=True)
class Retract:
    """Take back this turn's melds (and a pile taken this turn) while the meld requirement is not
    met; after taking back a pile the player must draw."""

    def __str__(self) -> str:
        return "take back this turn's melds"


Action = Draw | TakePile | Meld | AddToMeld | Discard | Retract

ACTION_TYPES: dict[str, type] = {
    cls.__name__: cls for cls in (Draw, TakePile, Meld, AddToMeld, Discard, Retract)
}
