"""What every game's filler shares."""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Any, Final

#: card kinds per card segment (52 cards and the joker)
KINDS: Final = 53
#: a card list this long or longer is copied in as one block (fewer: entry by entry)
BLOCK_FROM: Final = 6

#: an encoding's own (interpreted) id of one action: what a compiled ``ids`` falls back on
Slow = Callable[[Any, Any], Any]


def add_cards(buf: memoryview[float], base: int, cards: tuple[int, ...]) -> None:
    """Add 1 at ``base + card`` for each card (a card listed twice counts twice)."""
    for c in cards:
        i = base + c
        buf[i] = buf[i] + 1.0


def put_counts(buf: memoryview[float], base: int, counts: list[int]) -> None:
    """A count vector (an entry per card kind) into the segment at ``base`` (zero before)."""
    for i, c in enumerate(counts):
        if c:
            buf[base + i] = float(c)


def put_count_tuple(buf: memoryview[float], base: int, counts: tuple[int, ...]) -> None:
    """:func:`put_counts` of a count vector held as a tuple (typed: a C loop over it)."""
    for i, c in enumerate(counts):
        if c:
            buf[base + i] = float(c)


class Sizes:
    """The card totals of count vectors, by the vector's identity (copy-on-write states never
    change a vector they hold: a hand or a seat's known cards stay the same list until they
    change; the entry keeps the list alive, so its id is not reused while the entry exists)."""

    def __init__(self) -> None:
        self.seen: dict[int, tuple[list[int], int]] = {}

    def of(self, counts: list[int]) -> int:
        hit = self.seen.get(id(counts))
        if hit is not None and hit[0] is counts:
            return hit[1]
        total = 0
        for c in counts:
            total += c
        if len(self.seen) >= 8192:
            self.seen.clear()
        self.seen[id(counts)] = (counts, total)
        return total


def put_ones(buf: memoryview[int], base: int, ids: list[int]) -> None:
    """1 at ``base + i`` for each id (an ``int8`` mask's memory: the legal ids of a state)."""
    for i in ids:
        buf[base + i] = 1


def block(values: list[float]) -> memoryview[float]:
    """A float32 block to copy into a buffer (``buf[a:b] = block``: one memory copy)."""
    return memoryview(array("f", values))


def float_block(values: list[float]) -> array[float]:
    """:func:`block` as the ``array`` itself (copied in the same way: ``buf[a:b] = it``).
    An array is one object the garbage collector does not track (a memoryview of it adds
    two it does): a cache of many blocks then costs the collector nothing."""
    return array("f", values)


class SeatSizes:
    """The card total of each seat's count vector, kept for the vector last seen in that seat
    (copy-on-write states keep a vector until it changes: a seat's hand is mostly the same list
    from one step to the next).  One entry per seat, not a cache of every vector seen: the
    lists it keeps alive are few, and the garbage collector has little to walk."""

    def __init__(self) -> None:
        self.seen: list[list[int] | None] = []
        self.total: list[int] = []

    def of(self, seat: int, counts: list[int]) -> int:
        seen = self.seen
        while len(seen) <= seat:
            seen.append(None)
            self.total.append(0)
        if seen[seat] is counts:
            return self.total[seat]
        total = 0
        for c in counts:
            total += c
        seen[seat] = counts
        self.total[seat] = total
        return total


class CardBlocks:
    """Card segments made once per distinct card list (a hand, a pile recurs for several
    steps) and copied in as one block; short lists are written entry by entry."""

    def __init__(self) -> None:
        self.blocks: dict[tuple[int, ...], memoryview[float]] = {}

    def put(self, buf: memoryview[float], base: int, cards: tuple[int, ...]) -> None:
        """The count vector of ``cards`` into the segment at ``base`` (zero before)."""
        if len(cards) < BLOCK_FROM:
            add_cards(buf, base, cards)
            return
        found = self.blocks.get(cards)
        if found is None:
            counts = [0.0] * KINDS
            for c in cards:
                counts[c] += 1.0
            if len(self.blocks) >= 8192:
                self.blocks.clear()
            found = self.blocks[cards] = block(counts)
        buf[base : base + KINDS] = found
