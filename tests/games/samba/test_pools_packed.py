"""Every split of a hand's naturals between sequences and groups
(:func:`parlour.games.samba.parts.placement.pools`) is searched on packed counts (one int per
split): its answers, in their order, must be those of the same search on tuples of counts
(the reference below), for random hands against random tables of growing sequences, and a
packed rank must never reach its field's limit.  Rules: seed 002 (RULES.md §1 "Melds")."""

from __future__ import annotations

import random

from parlour.games.samba.parts.placement import (
    SPLIT_SAMBAS,
    Table,
    no_run,
    packed_splits,
    pools,
    suit_options,
)
from parlour.games.samba.position import meld_of

SUITS = "♣♦♥♠"
RANKS = "456789TJQKA"


def _reference(h: list[int], table: Table) -> dict[tuple[int, ...], int]:
    states: dict[tuple[int, ...], int] = {(0,) * 11: 0}
    for suit in range(4):
        cnt = tuple(h[suit * 13 + 2 : suit * 13 + 13])
        if not any(cnt):
            continue
        seqs = table.seqs[suit]
        opts = {cnt: 0} if not seqs and no_run(cnt) else suit_options(cnt, seqs)
        new: dict[tuple[int, ...], int] = {}
        for pool, sm in states.items():
            for rem, sm2 in opts.items():
                key = tuple(p + r for p, r in zip(pool, rem, strict=True))
                if new.get(key, -1) < sm + sm2:
                    new[key] = sm + sm2
        states = new
    return states


def random_table(rng: random.Random, longest: int = 7, groups: bool = False) -> Table:
    """A side's table: sequences of 3 to ``longest`` cards in up to three suits, and with
    ``groups`` up to three groups of three naturals."""
    melds = []
    for suit in rng.sample(range(4), rng.randint(0, 3)):
        lo = rng.randint(0, 6)
        n = rng.randint(3, longest)
        ranks = RANKS[lo : lo + n]
        if len(ranks) >= 3:
            melds.append(meld_of(" ".join(r + SUITS[suit] for r in ranks)))
    if groups:
        for r in rng.sample(RANKS, rng.randint(0, 3)):
            melds.append(meld_of(" ".join(r + SUITS[j] for j in range(3))))
    return Table(tuple(melds))


def test_packed_pools_equal_the_tuple_search_in_order() -> None:
    rng = random.Random(11)
    many = 0
    for _ in range(400):
        h = [0] * 53
        for _ in range(rng.randint(5, 22)):
            suit = rng.randrange(4)
            h[suit * 13 + 2 + rng.randrange(11)] += 1
        table = random_table(rng)
        got = pools(h, table)
        want = _reference(h, table)
        assert list(got.items()) == list(want.items())
        many += len(want) > 3
    assert many > 20  # the search had splits to choose between


def _unpacked(split: int) -> tuple[tuple[int, ...], int]:
    pool = split >> SPLIT_SAMBAS
    return tuple((pool >> (5 * i)) & 31 for i in range(11)), split & ((1 << SPLIT_SAMBAS) - 1)


def test_packed_splits_are_the_pools_most_sambas_first() -> None:
    """The going-out search reads :func:`packed_splits` (remembered by the hand's naturals and
    the side's sequences): the splits of :func:`pools`, the most new sambas first and in their
    order otherwise — asked twice, the remembered answer is the same."""
    rng = random.Random(12)
    sambas = 0
    for _ in range(300):
        h = [0] * 53
        for _ in range(rng.randint(5, 24)):
            suit = rng.randrange(4)
            h[suit * 13 + 2 + rng.randrange(11)] += 1
        h[0] = rng.randint(0, 2)  # wild cards and black 3s play no part in the splits
        table = random_table(rng)
        want = sorted(pools(h, table).items(), key=lambda kv: -kv[1])
        for _ in range(2):
            assert [_unpacked(s) for s in packed_splits(h, table)] == want
        sambas += want[0][1] > 0
    assert sambas > 5  # some hands made sambas, which come first


def test_packed_pools_hold_three_decks_of_one_rank() -> None:
    h = [0] * 53
    for suit in range(4):
        for k in (2, 4, 6, 8, 10, 12):
            h[suit * 13 + k] = 3  # three decks: twelve naturals of every other rank, no run
    table = Table(())
    got = pools(h, table)
    assert list(got.items()) == list(_reference(h, table).items())
    assert max(max(p) for p in got) == 12
