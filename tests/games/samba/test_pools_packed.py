"""Every split of a hand's naturals between sequences and groups
(:func:`parlour.games.samba.parts.placement.pools`) is searched on packed counts (one int per
split): its answers, in their order, must be those of the same search on tuples of counts
(the reference below), for random hands against random tables of growing sequences, and a
packed rank must never reach its field's limit.  Rules: seed 002 (RULES.md §1 "Melds")."""

from __future__ import annotations

import random

from parlour.games.samba.parts.placement import Table, no_run, pools, suit_options
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


def _table(rng: random.Random) -> Table:
    melds = []
    for suit in rng.sample(range(4), rng.randint(0, 3)):
        lo = rng.randint(0, 6)
        n = rng.randint(3, 7)
        ranks = RANKS[lo : lo + n]
        if len(ranks) >= 3:
            melds.append(meld_of(" ".join(r + SUITS[suit] for r in ranks)))
    return Table(tuple(melds))


def test_packed_pools_equal_the_tuple_search_in_order() -> None:
    rng = random.Random(11)
    many = 0
    for _ in range(400):
        h = [0] * 53
        for _ in range(rng.randint(5, 22)):
            suit = rng.randrange(4)
            h[suit * 13 + 2 + rng.randrange(11)] += 1
        table = _table(rng)
        got = pools(h, table)
        want = _reference(h, table)
        assert list(got.items()) == list(want.items())
        many += len(want) > 3
    assert many > 20  # the search had splits to choose between


def test_packed_pools_hold_three_decks_of_one_rank() -> None:
    h = [0] * 53
    for suit in range(4):
        for k in (2, 4, 6, 8, 10, 12):
            h[suit * 13 + k] = 3  # three decks: twelve naturals of every other rank, no run
    table = Table(())
    got = pools(h, table)
    assert list(got.items()) == list(_reference(h, table).items())
    assert max(max(p) for p in got) == 12
