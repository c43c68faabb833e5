"""What the games' position builders share: their error, reading cards, checking seats.

>>> position_cards("9♥ 9♠ Jk", "hand")
[33, 46, 52]
>>> position_cards("9♥ 1x", "hand")
Traceback (most recent call last):
...
parlour.core.position.PositionError: hand: ...
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from parlour.core.cards import NUM_KINDS, Card, parse_cards
from parlour.core.errors import ParlourError

#: cards as text (``"9♥ 9♠ Jk"``, ``"9h 9s jk"``) or as card numbers
Cards = str | Sequence[Card]


class PositionError(ParlourError, ValueError):
    """A position the rules could never reach; the message names the problem."""


def position_cards(value: Cards | None, where: str) -> list[Card]:
    """Cards given as text or numbers (``None``: none); :class:`PositionError` names ``where``."""
    if value is None:
        return []
    if isinstance(value, str):
        try:
            return list(parse_cards(value)) if value.strip() else []
        except (ValueError, KeyError) as exc:
            raise PositionError(f"{where}: {exc}") from None
    out = list(value)
    for c in out:
        if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < NUM_KINDS:
            raise PositionError(f"{where}: {c!r} is not a card")
    return out


def seat_checker(players: int) -> Callable[[object, str], int]:
    """``check(seat, what)``: the seat, or :class:`PositionError` saying there is no such seat."""

    def check(seat: object, what: str) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise PositionError(
                f"{what}: there is no seat {seat!r} ({players} players: 0 to {players - 1})"
            )
        return seat

    return check
