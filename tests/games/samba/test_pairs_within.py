"""The going-out search's early refusal ``placement.pairs_within`` (docs/speed.md "tenth pass"):
some split of the hand's naturals between sequences and groups leaves at most as many natural
pairs of a rank with no group of the side's as there are wild cards.  A group is three or more
cards of one rank, a wild card only with twice as many naturals (RULES.md §1 "Melds"; seed 002),
so two naturals alone go out only as a new group with a wild card — each pair needs its own.
Checked here against brute force over every split (``pools``), on random hands against random
tables of groups and growing sequences (each hand asked with 0…3 wild cards: the least number
of pairs, remembered by ``least_pairs``, is checked on its second use too), and the refusal is exact: ``can_go_out`` answers no
whenever it refuses."""

from __future__ import annotations

import random

from parlour.core.cards import parse_cards
from parlour.games.samba.parts.placement import (
    IDX,
    Table,
    counts,
    pairs_within,
    pools,
    raw_pool,
)
from parlour.games.samba.parts.reach import can_go_out
from parlour.games.samba.rules import SambaRules
from tests.games.samba.test_pools_packed import random_table


def _brute(h: list[int], table: Table, nw: int) -> bool:
    for pool in pools(h, table):
        pairs = 0
        for i in IDX:
            if pool[i] == 2 and not table.by_rank[i + 4]:
                pairs += 1
        if pairs <= nw:
            return True
    return False


def _table(rng: random.Random) -> Table:
    return random_table(rng, longest=6, groups=True)


def _hand(rng: random.Random, cards: int) -> list[int]:
    h = [0] * 53
    for _ in range(cards):
        while True:
            k = rng.randrange(4) * 13 + 2 + rng.randrange(11)
            if h[k] < 3:  # at most three decks
                h[k] += 1
                break
    return h


def test_pairs_within_is_the_least_pairs_over_the_splits() -> None:
    rng = random.Random(18)
    refused = kept_by_search = 0
    for _ in range(1500):
        # runs of three or more in a suit make the splits differ: crowd a few ranks
        h = _hand(rng, rng.randint(4, 26))
        table = _table(rng)
        for nw in range(4):
            want = _brute(h, table, nw)
            assert pairs_within(h, table, raw_pool(h), nw) == want, (h, table.seqs, nw)
            refused += not want
            kept_by_search += want and len(pools(h, table)) > 1
    assert refused > 200  # both answers, and splits to choose between, were seen
    assert kept_by_search > 200


def test_pairs_within_refuses_only_where_going_out_is_impossible() -> None:
    """``can_go_out`` is exact (``test_reach.py``); where pairs_within refuses, it says no too."""
    rng = random.Random(19)
    rules = SambaRules()
    seen = 0
    for _ in range(400):
        h = _hand(rng, rng.randint(4, 14))
        nw = rng.randint(0, 2)
        h[52] = nw
        table = _table(rng)
        if not pairs_within(h, table, raw_pool(h), nw):
            seen += 1
            assert not can_go_out(h, table, rules)
    assert seen > 50


def test_a_run_that_takes_a_pairs_card_leaves_the_pair_a_single() -> None:
    """5♠ 6♠ 7♠ 6♥ 8♦ 8♥ 9♦ 9♥: all to groups, three pairs (6s, 8s, 9s); with the run 5♠ 6♠ 7♠
    the 6♥ is a single and two pairs are left."""
    h = counts(parse_cards("5♠ 6♠ 7♠ 6♥ 8♦ 8♥ 9♦ 9♥"))
    table = Table(())
    assert not pairs_within(h, table, raw_pool(h), 1)
    assert pairs_within(h, table, raw_pool(h), 2)
