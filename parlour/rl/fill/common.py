"""What every game's filler shares."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: the buffer a filler writes: a float32 ``memoryview`` of the observation vector
Buffer = memoryview


def add_cards(buf: memoryview[float], base: int, cards: tuple[int, ...]) -> None:
    """Add 1 at ``base + card`` for each card (a card listed twice counts twice)."""
    for c in cards:
        i = base + c
        buf[i] = buf[i] + 1.0


#: an encoding's own (interpreted) id of one action: what a compiled ``ids`` falls back on
Slow = Callable[[Any, Any], Any]
