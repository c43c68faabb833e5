"""Samba's actions: small frozen records with a readable ``str`` and a JSON form.

Melds are built one card at a time: ``Stage`` puts a card from the hand into the new meld being
built (the *pending* meld); the third card completes it.  ``AddToMeld`` extends a meld of the
side.  This keeps every decision small while every turn a person could make stays reachable.

>>> str(Discard(34)), str(TakePile((34, 34)))
('discard 10♥', 'take the pile with 10♥ 10♥')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from parlour.core.canasta import RED_THREES
from parlour.core.cards import Card, card_str, cards_str
from parlour.core.codec import card_field, cards_field

#: how each kind is written (``card_str``), looked up by the texts of the actions: compiled,
#: ``card_str`` costs about 1,700 instructions a call and the logs, the digests of the benchmark
#: and the server's move list turn every action into text
_CARD_TEXT: Final[tuple[str, ...]] = tuple(card_str(k) for k in range(53))


#: the texts of the one-card actions by kind (``str`` of a ``Stage`` or a ``Discard``: the
#: benchmark's digest and the logs turn every action into text)
_STAGE_TEXT: Final[tuple[str, ...]] = tuple("meld " + t for t in _CARD_TEXT)
_DISCARD_TEXT: Final[tuple[str, ...]] = tuple("discard " + t for t in _CARD_TEXT)


def _card_text(card: Card) -> str:
    """``card_str(card)``, from the table for a card kind."""
    if isinstance(card, int) and 0 <= card < 53:
        return _CARD_TEXT[card]
    return card_str(card)


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw two cards from the stock (one if only one is left; an empty stock ends the hand)."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class TakePile:
    """Take the discard pile: meld its top card with this natural pair as a new group."""

    pair: tuple[Card, ...] = cards_field()

    def __str__(self) -> str:
        pair = self.pair
        if len(pair) == 2:
            return f"take the pile with {_card_text(pair[0])} {_card_text(pair[1])}"
        return f"take the pile with {cards_str(pair)}"


@dataclass(frozen=True, slots=True)
class TakeTop:
    """Take only the top discard and add it to the side's sequence number ``meld``."""

    meld: int

    def __str__(self) -> str:
        return f"take the top card onto meld {self.meld}"


@dataclass(frozen=True, slots=True)
class Stage:
    """Put a card from the hand into the new meld being built (3 cards complete it)."""

    card: Card = card_field()  # noqa: RUF009

    def __str__(self) -> str:
        card = self.card
        if isinstance(card, int) and 0 <= card < 53:
            return _STAGE_TEXT[card]
        return f"meld {card_str(card)}"


@dataclass(frozen=True, slots=True)
class Unstage:
    """Take the cards of the unfinished new meld back into the hand."""

    def __str__(self) -> str:
        return "take back the unfinished meld"


@dataclass(frozen=True, slots=True)
class AddToMeld:
    """Add one card from the hand to the side's meld number ``meld``."""

    meld: int
    card: Card = card_field()  # noqa: RUF009

    def __str__(self) -> str:
        return f"add {_card_text(self.card)} to meld {self.meld}"


@dataclass(frozen=True, slots=True)
class MergeGroups:
    """Merge the side's group ``other`` into group ``meld`` (same rank)."""

    meld: int
    other: int

    def __str__(self) -> str:
        return f"merge meld {self.other} into meld {self.meld}"


@dataclass(frozen=True, slots=True)
class LayRedThree:
    """Lay a red 3 out on its own."""

    card: Card = card_field()  # noqa: RUF009

    def __str__(self) -> str:
        return f"lay out {_card_text(self.card)}"


@dataclass(frozen=True, slots=True)
class MeldBlackThrees:
    """Meld black 3s as a group (only on the turn the player goes out)."""

    cards: tuple[Card, ...] = cards_field()

    def __str__(self) -> str:
        return f"meld black 3s {cards_str(self.cards)}"


@dataclass(frozen=True, slots=True)
class UndoOpening:
    """Take back this turn's melds of a first meld that does not reach the minimum
    (a pile taken for it goes back to the table)."""

    def __str__(self) -> str:
        return "take back the opening melds"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard one card, ending the turn."""

    card: Card = card_field()  # noqa: RUF009

    def __str__(self) -> str:
        card = self.card
        if isinstance(card, int) and 0 <= card < 53:
            return _DISCARD_TEXT[card]
        return f"discard {card_str(card)}"


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn keeping the last card (only when not allowed to go out)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class AskGoOut:
    """Ask 'Partner, may I go out?'."""

    def __str__(self) -> str:
        return "partner, may I go out?"


@dataclass(frozen=True, slots=True)
class AnswerGoOut:
    """The partner's answer; the asker must obey it."""

    yes: bool

    def __str__(self) -> str:
        return "yes, go out" if self.yes else "no, do not go out"


SambaAction = (
    Draw
    | TakePile
    | TakeTop
    | Stage
    | Unstage
    | AddToMeld
    | MergeGroups
    | LayRedThree
    | MeldBlackThrees
    | UndoOpening
    | Discard
    | Pass
    | AskGoOut
    | AnswerGoOut
)

ACTION_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        Draw,
        TakePile,
        TakeTop,
        Stage,
        Unstage,
        AddToMeld,
        MergeGroups,
        LayRedThree,
        MeldBlackThrees,
        UndoOpening,
        Discard,
        Pass,
        AskGoOut,
        AnswerGoOut,
    )
}

# Interned instances: legal_actions hands these out instead of building new objects.
DRAW: Final = Draw()
UNSTAGE: Final = Unstage()
UNDO: Final = UndoOpening()
PASS: Final = Pass()
ASK: Final = AskGoOut()
YES: Final = AnswerGoOut(True)
NO: Final = AnswerGoOut(False)
DISCARD: Final[tuple[Discard, ...]] = tuple(Discard(k) for k in range(53))
STAGE: Final[tuple[Stage, ...]] = tuple(Stage(k) for k in range(53))
LAY_RED3: Final[dict[int, LayRedThree]] = {k: LayRedThree(k) for k in RED_THREES}
_TOP: Final[dict[int, TakeTop]] = {}
#: interned by an int key (``a * 64 + b``, ``meld * 1024 + other``): compiled, a tuple key is a
#: new tuple and its hash at every look-up
_PAIR: Final[dict[int, TakePile]] = {}
_MERGE: Final[dict[int, MergeGroups]] = {}


#: ADD[meld][card]: interned AddToMeld actions, made on first use (a row of 53 made at once cost
#: a frozen dataclass's interpreted ``__init__`` per card, most of them never offered)
ADD: Final[list[list[AddToMeld | None]]] = []


def add_row(meld: int) -> list[AddToMeld | None]:
    """The row of interned ``AddToMeld`` actions of the meld (``None`` where none is made yet:
    :func:`add_action` makes it)."""
    while len(ADD) <= meld:
        ADD.append([None] * 53)
    return ADD[meld]


def add_action(meld: int, card: Card) -> AddToMeld:
    if not 0 <= card < 53:
        return AddToMeld(meld, card)
    row = add_row(meld)
    a = row[card]
    if a is None:
        a = row[card] = AddToMeld(meld, card)
    return a


def top_action(meld: int) -> TakeTop:
    a = _TOP.get(meld)
    if a is None:
        a = _TOP[meld] = TakeTop(meld)
    return a


def pair_action(a: Card, b: Card) -> TakePile:
    if not (0 <= a < 64 and 0 <= b < 64):
        return TakePile((a, b))
    key = a * 64 + b
    act = _PAIR.get(key)
    if act is None:
        act = _PAIR[key] = TakePile((a, b))
    return act


def merge_action(meld: int, other: int) -> MergeGroups:
    if not (0 <= meld < 1024 and 0 <= other < 1024):
        return MergeGroups(meld, other)
    key = meld * 1024 + other
    act = _MERGE.get(key)
    if act is None:
        act = _MERGE[key] = MergeGroups(meld, other)
    return act
