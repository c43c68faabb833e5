"""The quick steps of the going-out and first-meld solver (`parts/reach.py`: ``quick_out``,
``_quick_place``, ``_quick_new``, ``_stranded``, ``_short_of_sevens``) rewritten for the compiled
build without builtin ``sum``/``sorted``/``min``/``max`` calls, key functions and per-group tuples
(issue 18, docs/speed.md "fourth pass") give the same answers as the code they replaced, kept here
as the reference, on thousands of random hands and tables under every meld option.  The solver's
answers themselves are checked against brute force in ``test_reach.py`` (seed 002, RULES.md §1
"Going out", "First meld")."""

from __future__ import annotations

import random

from parlour.games.samba.parts.melds import VALUE, WILD_KINDS, Meld, make_meld
from parlour.games.samba.parts.placement import (
    IDX,
    RANK_VALUE,
    Table,
    counts,
    raw_pool,
    wild_values,
)
from parlour.games.samba.parts.reach import (
    _longest_run,
    _quick_new,
    _quick_place,
    _short_of_sevens,
    _stranded,
    flags_of,
    quick_out,
)
from parlour.games.samba.rules import SambaRules

# --- the code before the rewrite (main ae37633), as it was -------------------------------------


def _old_quick_place(
    pool: tuple[int, ...], table: Table, wvals: list[int], rules: SambaRules
) -> tuple[int, bool, int, bool]:
    """:func:`_quick_value` with the number of wild cards placed (the best ones) and whether one
    of them can go into a new meld (with a pair, into a new group, or a new wild meld)."""
    nwo = rules.no_wild_on_canasta
    value = 0
    left = False
    slots = new_slots = 0
    pairs: list[int] = []
    by_rank = table.by_rank
    for i in IDX:
        r = i + 4
        n = pool[i]
        gs = by_rank[r]
        if gs:
            value += n * RANK_VALUE[r]
            if not nwo:
                a, w = gs[0]
                slots += max(0, min(2, (a + n) // 2) - w)
                for a, w in gs[1:]:
                    slots += max(0, min(2, a // 2) - w)
        elif n >= 3:
            value += n * RANK_VALUE[r]
            new_slots += n // 2
        elif n == 2:
            pairs.append(2 * RANK_VALUE[r])
        elif n == 1:
            left = True
    pairs.sort(reverse=True)
    nw = len(wvals)
    p = min(nw, len(pairs))
    value += sum(pairs[:p])
    if len(pairs) > p:
        left = True
    placed = min(nw, p + slots + new_slots)
    new_wild = p > 0 or (new_slots > 0 and placed > 0)
    if rules.wild_melds and nw - placed >= 3:
        placed = nw
        new_wild = True
    value += sum(wvals[:placed])
    return value, left or placed < nw, placed, new_wild


def _old_quick_new(
    pool: tuple[int, ...], table: Table, wvals: list[int], rules: SambaRules
) -> tuple[int, bool, set[int]]:
    """:func:`_quick_value` and the card kinds its placement puts into new groups: naturals of a
    rank held three or more times (a group of the side's of that rank takes them by a merge),
    pairs given a wild card, and wild cards when one of those placed goes into a new meld."""
    value, left, placed, new_wild = _old_quick_place(pool, table, wvals, rules)
    groups = table.groups
    kinds: set[int] = set()
    pairs = sorted(
        (2 * RANK_VALUE[i + 4] for i in IDX if pool[i] == 2 and i + 4 not in groups),
        reverse=True,
    )
    p = min(len(wvals), len(pairs))
    cut = pairs[p - 1] if p else 10**9  # pairs worth this much or more were given a wild card
    for i in IDX:
        n = pool[i]
        if n >= 3 or (n == 2 and i + 4 not in groups and 2 * RANK_VALUE[i + 4] >= cut):
            kinds.update((i + 2, i + 15, i + 28, i + 41))
    if new_wild and placed:
        lowest = wvals[placed - 1]  # the wild cards placed are the best ones
        kinds.update(k for k in WILD_KINDS if VALUE[k] >= lowest)
    return value, left, kinds


def _old_may_sequence(h: list[int], k: int, table: Table) -> bool:
    """Whether the natural ``k`` (held) could join a sequence at all (ignoring what the other
    cards need): three in a row of its suit in the hand, or a chain of held cards from the end of
    one of the side's sequences of the suit."""
    r = k % 13 + 2
    if (
        (r >= 6 and h[k - 2] and h[k - 1])
        or (5 <= r <= 13 and h[k - 1] and h[k + 1])
        or (r <= 12 and h[k + 1] and h[k + 2])
    ):
        return True
    seqs = table.seqs[k // 13]
    if not seqs:
        return False
    base = k - r  # kind of rank x of this suit: base + x
    for lo, hi in seqs:
        if r < lo and hi - r < 7 and all([h[base + x] for x in range(r, lo)]):
            return True
        if r > hi and r - lo < 7 and all([h[base + x] for x in range(hi + 1, r + 1)]):
            return True
    return False


def _old_stranded(
    h: list[int], table: Table, raw: tuple[int, ...], nw: int, rules: SambaRules
) -> bool:
    """Quick necessary condition for going out: at most one card that can go nowhere (the
    discard) — a natural with no group of its rank on the table, no two more of it (or one and
    a wild card) in the hand, and no sequence it could join; a black 3 short of three."""
    black = h[1] + h[40]
    stuck = black if black < 3 else 0
    if stuck > 1:
        return True
    by_rank = table.by_rank
    group_home = bool(table.groups)
    wild_pairs = 0  # pairs that only a wild card can meld
    for i in IDX:
        n = raw[i]
        if not n or by_rank[i + 4]:
            continue
        if n >= 3:
            group_home = True
            continue
        k = i + 2
        lonely = 0
        for kk in (k, k + 13, k + 26, k + 39):
            if h[kk] and not _old_may_sequence(h, kk, table):
                lonely += h[kk]
        if n == 2 and lonely:
            if nw:
                group_home = True
            wild_pairs += 1  # a wild card makes it a group, else its lonely cards stay
        elif lonely:
            stuck += lonely
            if stuck > 1:
                return True
    if wild_pairs > nw:
        stuck += wild_pairs - nw
        if stuck > 1:
            return True
    if nw and not group_home and not (rules.wild_melds and (nw >= 3 or table.wild_sizes)):
        stuck += nw
        if stuck > 1:
            return True
    return False


def _old_short_of_sevens(
    h: list[int], table: Table, raw: tuple[int, ...], nw: int, rules: SambaRules
) -> bool:
    """Quick necessary condition for going out: enough seven-card melds within reach."""
    if table.sevens_ok(rules.going_out):
        return False
    by_rank = table.by_rank
    # seven-card melds within reach: groups of a rank merged with all its naturals, a wild card
    # completing a group short of at most two (each wild card once); runs of seven held in a row
    pot = table.bolivias
    short: list[int] = []
    for i in IDX:
        n = raw[i]
        gs = by_rank[i + 4]
        size = n + (sum([a + b for a, b in gs]) if gs else 0)
        if size < 2:
            continue
        pot += size // 7
        if size % 7 >= 5:
            short.append(7 - size % 7)
    wild = nw
    for need in sorted(short):
        if need > wild:
            break
        wild -= need
        pot += 1
    pot_seq = table.sambas
    for suit in range(4):
        base = suit * 13 + 2
        cnt = h[base : base + 11]
        if 11 - cnt.count(0) >= 7 and _longest_run(cnt) >= 7:
            pot_seq += 1 + (sum([1 for x in cnt if x >= 2]) >= 7)
        for lo, hi in table.seqs[suit]:
            down = 0
            while lo - down - 1 >= 4 and cnt[lo - down - 5]:
                down += 1
            up = 0
            while hi + up + 1 <= 14 and cnt[hi + up - 3]:
                up += 1
            if hi - lo + 1 + down + up >= 7:
                pot_seq += 1
    if rules.wild_melds:
        pot += (sum(table.wild_sizes) + nw) // 7
    if rules.going_out != "two_canastas" and pot_seq == 0:
        return True
    return pot + pot_seq < 2


def _old_quick_out(
    pool: tuple[int, ...],
    table: Table,
    nw: int,
    budget: int,
    rules: SambaRules,
    new_sambas: int = 0,
) -> bool:
    """A way to go out found without search (sufficient, not necessary): the naturals of
    ``pool`` into the side's groups of their rank (merged when the wild cards allow) or new
    groups, a wild card with each natural pair, then wild cards completing groups of five or six
    to canastas, the rest where there is room; enough seven-card melds then?"""
    nwo = rules.no_wild_on_canasta
    by_rank = table.by_rank
    stuck = 0
    slots = 0
    pairs = 0
    canastas = 0
    short: list[tuple[int, int]] = []  # (wilds a group needs to be a canasta, its wild room)
    for i in IDX:
        n = pool[i]
        gs = by_rank[i + 4]
        if gs:
            members: tuple[tuple[int, int, bool], ...]
            if len(gs) == 1:
                a0, w0 = gs[0]
                members = ((a0 + n, w0, a0 + w0 >= 7),)
            elif not nwo and sum([w for _, w in gs]) <= 2:
                members = ((n + sum([a for a, _ in gs]), sum([w for _, w in gs]), False),)
            else:  # not merged: the naturals go to the largest group
                ordered = sorted(gs, key=lambda g: -(g[0] + g[1]))
                members = tuple(
                    [(a + n * (j == 0), w, a + w >= 7) for j, (a, w) in enumerate(ordered)]
                )
            for a, w, was_canasta in members:
                if nwo and was_canasta:
                    room = 0
                else:
                    room = a // 2
                    if room > 2:
                        room = 2
                    room -= w
                    if room < 0:
                        room = 0
                size = a + w
                if size >= 7:
                    canastas += 1
                    if not nwo:
                        slots += room
                elif 7 - size <= room:
                    short.append((7 - size, room))
                else:
                    slots += room
        elif not n:
            continue
        elif n >= 7:
            canastas += 1
            slots += 1  # seven naturals and a wild card (added before the seventh natural)
        elif n >= 5:
            short.append((7 - n, 2))  # n // 2 >= 2
        elif n >= 3:
            slots += n // 2
        elif n == 2:
            pairs += 1
        else:
            stuck += 1
            if stuck > budget:
                return False
    if pairs > nw:
        return False
    wild = nw - pairs
    if len(short) > 1:
        short.sort()
    for need, room in short:
        if need <= wild:
            wild -= need
            canastas += 1
            slots += 0 if nwo else room - need  # nwo: nothing more once it is a canasta
        else:
            slots += room
    extra = wild - slots
    if extra > 0 and not (rules.wild_melds and extra >= 3):
        stuck += extra
    if stuck > budget:
        return False
    sambas = table.sambas + new_sambas
    if sambas + canastas + table.bolivias < 2:
        return False
    return rules.going_out == "two_canastas" or sambas > 0


# --- the comparison ----------------------------------------------------------------------------


def _table(rng: random.Random, wild_melds: bool) -> Table:
    """A side's melds: groups (several of a rank, canastas, wild cards), sequences, wild melds."""
    melds: list[Meld] = []
    ranks = rng.sample(range(4, 15), rng.choice([2, 5]))
    for _ in range(rng.randint(0, 9)):
        t = rng.random()
        m: Meld | None
        if t < 0.6:
            r = rng.choice(ranks)
            cards = [rng.randrange(4) * 13 + r - 2 for _ in range(rng.randint(2, 8))]
            cards += [rng.choice([52, 0, 13])] * rng.randint(0, 2)
            m = make_meld(cards)
        elif t < 0.9:
            x = rng.randrange(4)
            lo = rng.randint(4, 12)
            m = make_meld([x * 13 + r - 2 for r in range(lo, min(15, lo + rng.randint(3, 7)))])
        else:
            m = make_meld([rng.choice([52, 0, 13])] * rng.randint(3, 7), wild_melds=True)
        if m is not None and (wild_melds or m.kind != "wild"):
            melds.append(m)
    return Table(tuple(melds))


def _hand(rng: random.Random) -> list[int]:
    size = rng.choice([3, 6, 10, 16, 24])
    kinds = rng.sample(range(53), rng.randint(4, 20))
    return counts([rng.choice(kinds) for _ in range(size)])


def test_quick_steps_equal_the_code_they_replaced() -> None:
    rng = random.Random(2026)
    yes = 0
    for _ in range(4000):
        rules = SambaRules(
            no_wild_on_canasta=rng.random() < 0.4,
            wild_melds=rng.random() < 0.3,
            going_out=rng.choice(["two_canastas", "two_sevens_one_sequence"]),
        )
        table = _table(rng, rules.wild_melds)
        h = _hand(rng)
        raw = raw_pool(h)
        nw = sum(h[k] for k in WILD_KINDS)
        wvals = wild_values(h)
        assert _stranded(h, table, raw, nw, flags_of(rules)) == _old_stranded(
            h, table, raw, nw, rules
        )
        assert _short_of_sevens(h, table, raw, nw, flags_of(rules)) == _old_short_of_sevens(
            h, table, raw, nw, rules
        )
        assert _quick_place(raw, table, wvals, flags_of(rules)) == _old_quick_place(
            raw, table, wvals, rules
        )
        assert _quick_new(raw, table, wvals, rules) == _old_quick_new(raw, table, wvals, rules)
        for _ in range(3):
            pool = tuple(rng.choice([0, 0, 0, 1, 2, 2, 3, 5, 6, 7]) for _ in range(11))
            nw2 = rng.randint(0, 7)
            budget = rng.choice([0, 1])
            sm = rng.choice([0, 0, 1, 2])
            want = _old_quick_out(pool, table, nw2, budget, rules, sm)
            assert quick_out(pool, table, nw2, budget, rules, sm) == want, (pool, table, nw2)
            yes += want
    assert yes > 300


def test_quick_out_gives_the_naturals_to_the_first_largest_group() -> None:
    """Two groups of one rank that cannot merge (no wild card on a canasta), of one size: the
    hand's naturals go to the first of them (the reference's stable sort), here the one with a
    wild card — which leaves the other room for the two wild cards that make it a second
    canasta."""
    rules = SambaRules(no_wild_on_canasta=True, going_out="two_canastas")
    nines_wild = make_meld([7, 7, 7, 7, 52])  # four nines and a joker
    nines = make_meld([20, 20, 20, 20, 20])  # five nines
    assert nines_wild is not None and nines is not None
    table = Table((nines_wild, nines))
    pool = (0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0)  # two more nines
    assert _old_quick_out(pool, table, 2, 0, rules)
    assert quick_out(pool, table, 2, 0, rules)
