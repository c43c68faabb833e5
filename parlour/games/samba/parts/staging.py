"""Building a new meld one card at a time (the ``Stage`` action): which cards can join the cards
already staged so that three cards from the hand still make a valid meld (RULES.md §1 "Melds").

>>> from parlour.core.cards import cards_str
>>> from parlour.games.samba.position import position
>>> s = position(hands={0: "7♥ 9♥ 8♣ 8♠ Jk"}, melds={0: ["A♣ A♦ A♠"]}, phase="meld",
...              pending="8♥")
>>> cards_str(continuations(s, s.pending, s.hands[0]))
'8♣ 7♥ 9♥ 8♠ Jk'
"""

from __future__ import annotations

from parlour.core.canasta import wild_count
from parlour.games.samba.parts.melds import (
    BLACK3,
    IS_NATURAL,
    IS_WILD,
    KINDS_OF_RANK,
    RANK,
    SUIT,
    WILD_KINDS,
    make_meld,
)
from parlour.games.samba.parts.reach import flags_of
from parlour.games.samba.state import State


def _seq_window_ok(h: list[int], suit: int, ranks: list[int], need_from_hand: int) -> bool:
    """Some 3-rank window of ``suit`` holds ``ranks``; the missing ranks are in the hand."""
    lo_min = max(4, max(ranks) - 2)
    lo_max = min(12, min(ranks))
    base = suit * 13 - 2
    for lo in range(lo_min, lo_max + 1):
        missing = [r for r in (lo, lo + 1, lo + 2) if r not in ranks]
        if len(missing) == need_from_hand and all(h[base + r] for r in missing):
            return True
    return False


def stage_ok(s: State, pending: tuple[int, ...], card: int, h: list[int]) -> bool:
    """Whether ``card`` (still counted in ``h``) can join the pending cards so that three cards
    from the hand can still complete a valid new meld."""
    cards = (*pending, card)
    k = len(cards)
    if k == 3:
        meld = make_meld(cards, wild_melds=s.rules.wild_melds)
        return meld is not None and meld.kind != BLACK3
    h[card] = h[card] - 1
    try:
        need = 3 - k
        nats = [c for c in cards if not IS_WILD[c]]
        wilds = k - len(nats)
        if any(not IS_NATURAL[c] for c in nats):
            return False
        nw = sum(h[w] for w in WILD_KINDS)
        if not nats:
            # all wild so far: a wild meld, or a group of some rank with two naturals in hand
            if s.rules.wild_melds and nw >= need:
                return True
            if wilds >= 2:
                return False
            return any(sum(h[x] for x in KINDS_OF_RANK[r]) >= 2 for r in range(4, 15))
        ranks = [RANK[c] for c in nats]
        if len(set(ranks)) == 1 and wilds <= 1:
            r = ranks[0]
            nr = sum(h[x] for x in KINDS_OF_RANK[r])
            for a in range(need + 1):
                b = need - a
                if a <= nr and b <= nw and wilds + b <= 1 and len(nats) + a >= 2:
                    return True
        if wilds or len({SUIT[c] for c in nats}) != 1 or len(set(ranks)) != len(ranks):
            return False
        if max(ranks) - min(ranks) > 2:
            return False
        return _seq_window_ok(h, SUIT[nats[0]], ranks, need)
    finally:
        h[card] = h[card] + 1


def continuations(s: State, pending: tuple[int, ...], h: list[int]) -> list[int]:
    """Kinds in the hand that can join the pending cards so that the hand can still complete a
    valid three-card meld (the rule of :func:`stage_ok`, written out for speed)."""
    nw = wild_count(h)
    wild_melds = flags_of(s.rules).wild_melds  # compiled (the rules: an interpreted dataclass)
    out: list[int] = []
    if len(pending) == 1:
        p = pending[0]
        if IS_WILD[p]:
            for r in range(4, 15):
                ks = KINDS_OF_RANK[r]
                if h[ks[0]] + h[ks[1]] + h[ks[2]] + h[ks[3]] >= 2:
                    for k in ks:
                        if h[k]:
                            out.append(k)
            if wild_melds and nw >= 2:
                for k in WILD_KINDS:
                    if h[k]:
                        out.append(k)
            out.sort()
            return out
        # written in kind order (no sort): suit by suit its 2 (wild), then the card's rank or,
        # in the card's own suit, the ranks around it; the joker last
        r = RANK[p]
        j = r - 2
        nr = h[j] + h[j + 13] + h[j + 26] + h[j + 39]
        rank_ok = nr >= 2 or (nr >= 1 and nw >= 1)
        wild_ok = nr >= 1
        base = p - r  # kind of rank x in this suit: base + x
        lo_ok = r >= 5 and h[base + r - 1] > 0
        hi_ok = r <= 13 and h[base + r + 1] > 0
        lo2 = r >= 6 and h[base + r - 2] > 0
        hi2 = r <= 12 and h[base + r + 2] > 0
        own = base + 2  # the first kind of the card's suit
        for b0 in range(0, 52, 13):
            if wild_ok and h[b0]:
                out.append(b0)
            if b0 == own:
                if lo2 and lo_ok:
                    out.append(base + r - 2)
                if lo_ok and (lo2 or hi_ok):
                    out.append(base + r - 1)
                if rank_ok and h[p]:
                    out.append(p)
                if hi_ok and (lo_ok or hi2):
                    out.append(base + r + 1)
                if hi2 and hi_ok:
                    out.append(base + r + 2)
            elif rank_ok and h[b0 + j]:
                out.append(b0 + j)
        if wild_ok and h[52]:
            out.append(52)
        return out
    a, b = pending
    if IS_WILD[a] and IS_WILD[b]:
        return [k for k in WILD_KINDS if h[k]] if wild_melds else []
    if IS_WILD[a] or IS_WILD[b]:
        nat = b if IS_WILD[a] else a
        return [k for k in KINDS_OF_RANK[RANK[nat]] if h[k]]
    ra, rb = RANK[a], RANK[b]
    if ra == rb:
        return sorted([k for k in (*KINDS_OF_RANK[ra], *WILD_KINDS) if h[k]])
    lo, hi = min(ra, rb), max(ra, rb)
    base = a - ra
    if hi - lo == 2:
        return [base + lo + 1] if h[base + lo + 1] else []
    res = []
    if lo >= 5 and h[base + lo - 1]:
        res.append(base + lo - 1)
    if hi <= 13 and h[base + hi + 1]:
        res.append(base + hi + 1)
    return res
