"""Brute-force references for :mod:`parlour.games.samba.parts.reach` (small hands only): every way to
meld the cards one step at a time — a new three-card meld, one card onto a meld, a merge — with
the meld rules of :mod:`parlour.games.samba.parts.melds`, written independently of the solver."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from parlour.games.samba.parts.melds import (
    BLACK3,
    GROUP,
    WILD_KINDS,
    Meld,
    add_card,
    can_merge,
    fits,
    make_meld,
    meets_going_out,
    merge,
)
from parlour.games.samba.rules import SambaRules


def _canon(melds: Sequence[Meld]) -> tuple[tuple[int, ...], ...]:
    return tuple(sorted(m.cards for m in melds))


def _moves(
    h: list[int], melds: list[Meld], rules: SambaRules
) -> list[tuple[list[int], list[Meld]]]:
    out: list[tuple[list[int], list[Meld]]] = []
    kinds = [k for k in range(53) if h[k] and k not in (14, 27)]
    seen: set[tuple[int, ...]] = set()
    for combo in itertools.combinations_with_replacement(kinds, 3):
        if combo in seen or any(h[k] < combo.count(k) for k in set(combo)):
            continue
        seen.add(combo)
        m = make_meld(combo, wild_melds=rules.wild_melds)
        if m is None or m.kind == BLACK3:
            continue
        h2 = h[:]
        for k in combo:
            h2[k] -= 1
        out.append((h2, [*melds, m]))
    nwo = rules.no_wild_on_canasta
    for i, m in enumerate(melds):
        for k in kinds:
            if fits(m, k, no_wild_on_canasta=nwo):
                h2 = h[:]
                h2[k] -= 1
                out.append((h2, [*melds[:i], add_card(m, k), *melds[i + 1 :]]))
    for i, j in itertools.combinations(range(len(melds)), 2):
        if melds[i].kind == GROUP and can_merge(melds[i], melds[j], no_wild_on_canasta=nwo):
            rest = [m for x, m in enumerate(melds) if x not in (i, j)]
            out.append((h[:], [*rest, merge(melds[i], melds[j])]))
    return out


def brute_go_out(
    hand: Sequence[int],
    melds: Sequence[Meld],
    rules: SambaRules,
    *,
    need_value: int | None = None,
    budget: int = 1,
) -> bool:
    """Every card melded (red 3s laid out, black 3s as a group at the end: three or more, with
    ``black_three_wilds`` wild cards too under the group limits) but at most ``budget`` (the
    discard), and the side meets the going-out requirement."""
    h = list(hand)
    h[14] = h[27] = 0  # red 3s are laid out
    memo: dict[object, bool] = {}

    def black_group(h: list[int]) -> int:
        """The most cards one group of black 3s (and wild cards) can take from ``h``: every
        sub-multiset of the black 3s and wild cards tried."""
        kinds = [k for k in (1, 40, *WILD_KINDS) if h[k]]
        best = 0
        for ns in itertools.product(*[range(h[k] + 1) for k in kinds]):
            cards = [k for k, n in zip(kinds, ns, strict=True) for _ in range(n)]
            if len(cards) > best:
                m = make_meld(cards, black_three_wilds=rules.black_three_wilds)
                if m is not None and m.kind == BLACK3:
                    best = len(cards)
        return best

    def rec(h: list[int], melds: list[Meld]) -> bool:
        key = (tuple(h), _canon(melds))
        if key in memo:
            return memo[key]
        memo[key] = False
        value = sum(m.value for m in melds)
        if meets_going_out(melds, rules.going_out) and (need_value is None or value >= need_value):
            left = sum(h) - black_group(h)
            if left <= budget:
                memo[key] = True
                return True
        for h2, m2 in _moves(h, melds, rules):
            if rec(h2, m2):
                memo[key] = True
                return True
        return False

    return rec(h, list(melds))


def brute_opening(
    hand: Sequence[int],
    melds: Sequence[Meld],
    minimum: int,
    *,
    keep_one: bool,
    rules: SambaRules,
) -> bool:
    """The melds (all of this turn) reach ``minimum`` with a card left in the hand (with
    ``keep_one``), or with every card melded and the side allowed out."""
    memo: dict[object, bool] = {}

    def rec(h: list[int], melds: list[Meld]) -> bool:
        key = (tuple(h), _canon(melds))
        if key in memo:
            return memo[key]
        memo[key] = False
        if sum(m.value for m in melds) >= minimum and (
            not keep_one or sum(h) > 0 or meets_going_out(melds, rules.going_out)
        ):
            memo[key] = True
            return True
        for h2, m2 in _moves(h, melds, rules):
            if rec(h2, m2):
                memo[key] = True
                return True
        return False

    return rec(list(hand), list(melds))
