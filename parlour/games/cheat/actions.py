"""The decisions of Cheat.

A play is made in stages so that the number of legal actions stays small while every multiset of
cards stays reachable: ``Pick`` one card at a time (in non-decreasing card order, so each multiset
has exactly one way to be picked), then ``Claim`` a count and a rank.  After a play every other
seat answers ``Challenge`` or ``Pass`` (blind: in seat order, unaware of the others' answers).

>>> str(Pick(34)), str(Claim(2, 7)), str(Challenge()), str(ChooseFirst(2))
('pick 10♥', 'claim 2 × 7', 'challenge', 'seat 2 plays first')
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.core.cards import card_str, rank_str
from parlour.core.codec import card_field


@dataclass(frozen=True, slots=True)
class Pick:
    """Put one card from the hand into the (face-down, private) play being built."""

    card: int = card_field()

    def __str__(self) -> str:
        return f"pick {card_str(self.card)}"


@dataclass(frozen=True, slots=True)
class Claim:
    """Finish the play: put the picked cards face down and announce "``count`` × ``rank``"."""

    count: int
    rank: int

    def __str__(self) -> str:
        return f"claim {self.count} × {rank_str(self.rank)}"


@dataclass(frozen=True, slots=True)
class Challenge:
    """Call "Cheat!" / "Bullshit!" / "I doubt it!" on the most recent play."""

    def __str__(self) -> str:
        return "challenge"


@dataclass(frozen=True, slots=True)
class Pass:
    """Let the most recent play stand (as far as this seat is concerned)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class ChooseFirst:
    """The dealer picks the first player (Canada)."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} plays first"


Action = Pick | Claim | Challenge | Pass | ChooseFirst

ACTION_TYPES: dict[str, type] = {
    "Pick": Pick,
    "Claim": Claim,
    "Challenge": Challenge,
    "Pass": Pass,
    "ChooseFirst": ChooseFirst,
}
