"""Scat's actions: small frozen records with a readable ``str`` and a JSON form.

>>> str(Knock()), str(Discard(12)), str(Discard(12, declare=True))
('knock', 'discard A♣', 'discard A♣ and declare 31')
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.core.cards import card_str
from parlour.core.codec import card_field


@dataclass(frozen=True, slots=True)
class DrawStock:
    """Draw the top card of the stock (seen only by you)."""

    def __str__(self) -> str:
        return "draw from the stock"


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the top card of the discard pile (it may not be discarded again this turn)."""

    def __str__(self) -> str:
        return "take the discard"


@dataclass(frozen=True, slots=True)
class Knock:
    """Knock instead of drawing: your hand is frozen, every other player has one last turn."""

    def __str__(self) -> str:
        return "knock"


@dataclass(frozen=True, slots=True)
class Hammer:
    """(Option ``hammer``) the first player calls an immediate showdown instead of drawing."""

    def __str__(self) -> str:
        return "hammer (show down now)"


@dataclass(frozen=True, slots=True)
class ThrowDown:
    """(Option ``throw_down``) before looking at the cards: call a showdown or play on."""

    call: bool

    def __str__(self) -> str:
        return "throw down (show down now)" if self.call else "play on"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard a card; ``declare=True`` declares the 31 the remaining three cards make."""

    card: int = card_field()
    declare: bool = False

    def __str__(self) -> str:
        return f"discard {card_str(self.card)}" + (" and declare 31" if self.declare else "")


@dataclass(frozen=True, slots=True)
class EndHand:
    """The stock is empty and you do not want the discard: the hand ends and everyone shows."""

    def __str__(self) -> str:
        return "end the hand (stock is empty)"


@dataclass(frozen=True, slots=True)
class Declare31:
    """Show the 31 you were dealt: no play, all other players lose."""

    def __str__(self) -> str:
        return "declare the 31 I was dealt"


Action = DrawStock | TakeDiscard | Knock | Hammer | ThrowDown | Discard | EndHand | Declare31

ACTION_TYPES: dict[str, type] = {
    c.__name__: c
    for c in (DrawStock, TakeDiscard, Knock, Hammer, ThrowDown, Discard, EndHand, Declare31)
}
