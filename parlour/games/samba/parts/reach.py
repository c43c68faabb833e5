"""Exact look-ahead for Samba's legal actions: can this turn still reach its goal?

Two questions decide whether a move is legal beyond the card-by-card checks of :mod:`legal`:

* **the first meld** (seed 002 "Your side's first meld"): can the melds of this turn still reach
  the side's minimum?  Taking the pile for a first meld is legal only then (issue 16 item 4), and
  so is every step of a first meld being built — no move leads into a position where only a
  take-back is left (which is what lets the take-back guard of :mod:`legal` forbid repeats);
* **going out** (seed 002 "Going out"): can the player empty the hand this turn?  "Partner, may I
  go out?" is offered only then (item 5), and after "yes" only moves that keep it possible.

Both are answered over the cards, not by trying the engine's moves one by one: the hand's
naturals go into sequences (the side's sequences extended at either end, or new runs — every way,
suit by suit) and the rest into groups rank by rank (new groups, the side's groups, merges — a
small memoized search per rank); the wild cards are shared out between the ranks (and Bolivia's
wild melds) by dynamic programming (the pieces are in :mod:`parlour.games.samba.parts.placement`).  Any order of these moves is playable card by card, so what
the cards allow is what the turn allows.  ``tests/games/samba/test_reach.py`` checks both
answers against a brute-force search of the engine's own moves on thousands of small positions.

>>> from parlour.core.cards import parse_cards
>>> from parlour.games.samba.position import meld_of
>>> from parlour.games.samba.rules import SambaRules
>>> hand = counts(parse_cards("K♠ K♣ K♦"))
>>> opening_reachable(hand, (meld_of("9♣ 9♦ 9♥"),), 50, keep_one=False, rules=SambaRules())
True
>>> opening_reachable(hand, (meld_of("9♣ 9♦ 9♥"),), 50, keep_one=True, rules=SambaRules())
False
>>> canastas = (meld_of("A♣ A♣ A♦ A♥ A♠ A♠ A♦"), meld_of("Q♣ Q♣ Q♦ Q♥ Q♠ Q♠ Q♦"))
>>> can_go_out(counts(parse_cards("5♠ 6♠ 7♠ 9♦")), canastas, SambaRules())
True
>>> can_go_out(counts(parse_cards("5♠ 6♠ 9♦ J♣")), canastas, SambaRules())
False
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from parlour.core.canasta import wild_count
from parlour.games.samba.parts.melds import IS_WILD, VALUE, WILD_KINDS, Meld
from parlour.games.samba.parts.placement import (
    IDX,
    RANK_VALUE,
    SPLIT_SAMBAS,
    Table,
    counts,
    needy_pool,
    out_options,
    packed_splits,
    pairs_within,
    placed,
    pools,
    raw_pool,
    seq_pool,
    seq_rem,
    table_of,
    wild_fam,
    wild_values,
    x_cap,
)
from parlour.games.samba.rules import SambaRules


class Flags:
    """The rules' fields the searches and the moves read, as attributes of a compiled class:
    ``SambaRules`` is an interpreted dataclass, and each read of its fields from compiled code is
    a generic attribute look-up (about 250 instructions) — read once per rules object here."""

    def __init__(self, rules: SambaRules) -> None:
        self.rules = rules
        self.nwo: bool = rules.no_wild_on_canasta
        self.wild_melds: bool = rules.wild_melds
        self.going_out: str = rules.going_out
        self.two_canastas: bool = rules.going_out == "two_canastas"
        self.black_three_wilds: bool = rules.black_three_wilds
        self.red_threes_as_canasta: bool = rules.red_threes_as_canasta
        self.partner_permission: bool = rules.partner_permission
        self.sequence_take_whole_pile: bool = rules.sequence_take_whole_pile


class _LastFlags:
    """The flags of the rules object last asked for (one game's rules in practice)."""

    def __init__(self) -> None:
        self.flags: Flags | None = None


_LAST: Final = _LastFlags()


def flags_of(rules: SambaRules) -> Flags:
    """:class:`Flags` of ``rules``, made again only when the rules object changes."""
    f = _LAST.flags
    if f is None or f.rules is not rules:
        f = _LAST.flags = Flags(rules)
    return f


def _quick_value(
    pool: tuple[int, ...], table: Table, wvals: list[int], rules: SambaRules
) -> tuple[int, bool]:
    """A placement of the group part found without search (a lower bound of the best): points
    of the naturals in ``pool`` and the wild cards placed, and whether some card stays in hand.
    Groups of three or more naturals and the side's groups take their rank; a natural pair takes
    a wild card (the best pairs first); the rest of the wild cards go where there is room."""
    value, left, _, _ = _quick_place(pool, table, wvals, flags_of(rules))
    return value, left


def _quick_place(
    pool: tuple[int, ...], table: Table, wvals: list[int], f: Flags
) -> tuple[int, bool, int, bool]:
    """:func:`_quick_value` with the number of wild cards placed (the best ones) and whether one
    of them can go into a new meld (with a pair, into a new group, or a new wild meld)."""
    nwo = f.nwo
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
                first = True
                for g in gs:
                    a = g[0] + n if first else g[0]  # the naturals join the first group
                    first = False
                    room = a // 2
                    if room > 2:
                        room = 2
                    room -= g[1]
                    if room > 0:
                        slots += room
        elif n >= 3:
            value += n * RANK_VALUE[r]
            new_slots += n // 2
        elif n == 2:
            pairs.append(2 * RANK_VALUE[r])
        elif n == 1:
            left = True
    if len(pairs) > 1:
        pairs.sort(reverse=True)
    nw = len(wvals)
    p = nw if nw < len(pairs) else len(pairs)
    for j in range(p):
        value += pairs[j]
    if len(pairs) > p:
        left = True
    placed = p + slots + new_slots
    if placed > nw:
        placed = nw
    new_wild = p > 0 or (new_slots > 0 and placed > 0)
    if f.wild_melds and nw - placed >= 3:
        placed = nw
        new_wild = True
    for j in range(placed):
        value += wvals[j]
    return value, left or placed < nw, placed, new_wild


def _best_value(
    pool: tuple[int, ...], table: Table, wvals: list[int], keep_one: bool, rules: SambaRules
) -> int:
    """The most points the naturals of ``pool`` (groups) and the wild cards can add, exactly
    (with ``keep_one``: some card of the hand stays in it); −1 if nothing fits that way."""
    f = flags_of(rules)
    nwo = f.nwo
    wild_melds = f.wild_melds
    nw = len(wvals)
    by_rank = table.by_rank
    # (wild cards used, a card left) -> points of the naturals placed
    dp: dict[tuple[int, bool], int] = {(0, False): 0}
    for i in IDX:
        r = i + 4
        n = pool[i]
        gs = by_rank[r]
        if not n and not gs:
            continue
        rv = RANK_VALUE[r]
        opts: list[tuple[int, int, bool]] = []
        for x in range(min(nw, x_cap(gs, n)) + 1):
            m = placed(gs, n, x, nwo)
            if m < 0:
                continue
            opts.append((x, m * rv, m < n))
            if keep_one and m == n and n:
                m2 = placed(gs, n - 1, x, nwo)
                if m2 >= 0:
                    opts.append((x, m2 * rv, True))
        new: dict[tuple[int, bool], int] = {}
        for (xu, lf), v in dp.items():
            for x, points, lf2 in opts:
                if xu + x > nw:
                    continue
                key = (xu + x, lf or lf2)
                if new.get(key, -1) < v + points:
                    new[key] = v + points
        dp = new
    top = [0]
    for v in wvals:
        top.append(top[-1] + v)
    best = -1
    for (xu, lf), v in dp.items():
        ys = range(nw - xu + 1) if wild_melds else (0,)
        for y in ys:
            if wild_melds and wild_fam(table.wild_sizes, y) < 0:
                continue
            used = xu + y
            if keep_one and not (lf or used < nw):
                continue
            best = max(best, v + top[used])
    return best


def _pool_value(pool: tuple[int, ...]) -> int:
    """The points of the naturals of ``pool``."""
    value = 0
    for i in IDX:
        value += pool[i] * RANK_VALUE[i + 4]
    return value


def opening_reachable(
    h: list[int],
    melds: Sequence[Meld] | Table,
    minimum: int,
    *,
    keep_one: bool,
    rules: SambaRules,
) -> bool:
    """Can the side's melds of this turn (``melds``, all made this turn) plus melds from the hand
    ``h`` reach ``minimum`` (seed 002: 'the cards you put down in that turn must be worth at least
    a minimum')?  With ``keep_one`` the hand may not be emptied on the way unless the player goes
    out then (no discard pile joins the hand: after the first meld a card must be discarded, or
    the player passes, or goes out)."""
    table = table_of(melds)
    need = minimum - table.value
    if need <= 0:
        return not keep_one or any(h) or can_go_out(h, table, rules, need_value=minimum, budget=0)
    wvals = wild_values(h)
    nat_value = 0
    for k in range(53):
        if h[k] and not IS_WILD[k] and k % 13 > 1:
            nat_value += VALUE[k] * h[k]
    wsum = 0
    for wv in wvals:
        wsum += wv
    if nat_value + wsum < need:
        return False
    threes = bool(h[1] or h[40] or h[14] or h[27])
    # quick placements first: every natural to groups, then the most naturals in sequences
    raw = raw_pool(h)
    v, left = _quick_value(raw, table, wvals, rules)
    if v >= need and (not keep_one or left or threes):
        return True
    pool, _ = seq_pool(h, table)
    if pool != raw:
        v, left = _quick_value(pool, table, wvals, rules)
        if nat_value - _pool_value(pool) + v >= need and (not keep_one or left or threes):
            return True
    for pool in sorted(pools(h, table), key=sum):
        v = _best_value(pool, table, wvals, keep_one and not threes, rules)
        if v >= 0 and nat_value - _pool_value(pool) + v >= need:
            return True
    if keep_one:
        # the only other way: meld every card and go out in this very turn
        return can_go_out(h, table, rules, need_value=minimum, budget=0)
    return False


def opening_quick(
    h: list[int],
    melds: Sequence[Meld] | Table,
    minimum: int,
    *,
    keep_one: bool,
    rules: SambaRules,
) -> frozenset[int]:
    """The cards that a quick placement reaching ``minimum`` (with ``keep_one``: leaving a card
    in the hand) puts into *new* melds — every natural into groups of its rank, or the split with
    the most naturals in sequences; wild cards with pairs and where there is room.  Starting a
    meld with one of them keeps the first meld within reach.  Empty: no quick placement reaches
    it (which decides nothing).  Sufficient, not necessary."""
    table = table_of(melds)
    need = minimum - table.value
    wvals = wild_values(h)
    threes = bool(h[1] or h[40] or h[14] or h[27])
    raw = raw_pool(h)
    out: set[int] = set()
    v, left, kinds = _quick_new(raw, table, wvals, rules)
    if v >= need and (not keep_one or left or threes):
        for k in kinds:
            if h[k]:
                out.add(k)
    seqs = table.seqs
    if seqs[0] or seqs[1] or seqs[2] or seqs[3]:
        return frozenset(out)
    pool, _ = seq_pool(h, table)
    if pool != raw:
        v, left, kinds = _quick_new(pool, table, wvals, rules)
        nat = 0
        for i in IDX:
            nat += (raw[i] - pool[i]) * RANK_VALUE[i + 4]
        if nat + v >= need and (not keep_one or left or threes):
            # the split of each suit: its runs are new melds; its other naturals follow `kinds`
            for suit in range(4):
                base = suit * 13 + 2
                cnt = tuple(h[base : base + 11])
                rem = seq_rem(cnt, table.seqs[suit])
                for i in IDX:
                    k = base + i
                    if cnt[i] > rem[i] or (rem[i] and k in kinds):
                        out.add(k)
            for k in WILD_KINDS:
                if h[k] and k in kinds:
                    out.add(k)
    return frozenset(out)


def _quick_new(
    pool: tuple[int, ...], table: Table, wvals: list[int], rules: SambaRules
) -> tuple[int, bool, set[int]]:
    """:func:`_quick_value` and the card kinds its placement puts into new groups: naturals of a
    rank held three or more times (a group of the side's of that rank takes them by a merge),
    pairs given a wild card, and wild cards when one of those placed goes into a new meld."""
    value, left, placed, new_wild = _quick_place(pool, table, wvals, flags_of(rules))
    by_rank = table.by_rank  # () for a rank with no group of the side's
    kinds: set[int] = set()
    pairs: list[int] = []
    for i in IDX:
        if pool[i] == 2 and not by_rank[i + 4]:
            pairs.append(2 * RANK_VALUE[i + 4])
    if len(pairs) > 1:
        pairs.sort(reverse=True)
    p = len(wvals) if len(wvals) < len(pairs) else len(pairs)
    cut = pairs[p - 1] if p else 10**9  # pairs worth this much or more were given a wild card
    for i in IDX:
        n = pool[i]
        if n >= 3 or (n == 2 and not by_rank[i + 4] and 2 * RANK_VALUE[i + 4] >= cut):
            kinds.add(i + 2)
            kinds.add(i + 15)
            kinds.add(i + 28)
            kinds.add(i + 41)
    if new_wild and placed:
        lowest = wvals[placed - 1]  # the wild cards placed are the best ones
        for k in WILD_KINDS:
            if VALUE[k] >= lowest:
                kinds.add(k)
    return value, left, kinds


# --- going out: every card placed# --- going out: every card placed -----------------------------------------------------------


def _may_sequence(h: list[int], k: int, table: Table) -> bool:
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
        if r < lo and hi - r < 7:
            x = r
            while x < lo and h[base + x]:
                x += 1
            if x == lo:
                return True
        if r > hi and r - lo < 7:
            x = hi + 1
            while x <= r and h[base + x]:
                x += 1
            if x > r:
                return True
    return False


def _stranded(
    h: list[int], table: Table, raw: tuple[int, ...], nw: int, f: Flags, b3_room: int = 0
) -> bool:
    """Quick necessary condition for going out: at most one card that can go nowhere (the
    discard) — a natural with no group of its rank on the table, no two more of it (or one and
    a wild card) in the hand, and no sequence it could join; a black 3 short of three.
    ``b3_room``: wild cards the group of black 3s may take (``black_three_wilds``), a home for
    that many wild cards and no more."""
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
        lonely = 0
        for kk in range(i + 2, 53, 13):
            if h[kk] and not _may_sequence(h, kk, table):
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
    homeless = nw - b3_room  # the group of black 3s takes at most b3_room of them
    if homeless > 0 and not group_home and not (f.wild_melds and (nw >= 3 or table.wild_sizes)):
        stuck += homeless
        if stuck > 1:
            return True
    return False


def _short_of_sevens(h: list[int], table: Table, raw: tuple[int, ...], nw: int, f: Flags) -> bool:
    """Quick necessary condition for going out: enough seven-card melds within reach."""
    if table.sevens_ok(f.going_out):
        return False
    by_rank = table.by_rank
    # seven-card melds within reach: groups of a rank merged with all its naturals, a wild card
    # completing a group short of at most two (each wild card once); runs of seven held in a row
    pot = table.bolivias
    short: list[int] = []
    for i in IDX:
        n = raw[i]
        gs = by_rank[i + 4]
        size = n
        for g in gs:
            size += g[0] + g[1]
        if size < 2:
            continue
        pot += size // 7
        if size % 7 >= 5:
            short.append(7 - size % 7)
    wild = nw
    if len(short) > 1:
        short.sort()
    for need in short:
        if need > wild:
            break
        wild -= need
        pot += 1
    pot_seq = table.sambas
    for suit in range(4):
        base = suit * 13 + 2
        cnt = h[base : base + 11]
        if 11 - cnt.count(0) >= 7 and _longest_run(cnt) >= 7:
            doubles = 0
            for x in cnt:
                if x >= 2:
                    doubles += 1
            pot_seq += 1 + (doubles >= 7)
        for lo, hi in table.seqs[suit]:
            down = 0
            while lo - down - 1 >= 4 and cnt[lo - down - 5]:
                down += 1
            up = 0
            while hi + up + 1 <= 14 and cnt[hi + up - 3]:
                up += 1
            if hi - lo + 1 + down + up >= 7:
                pot_seq += 1
    if f.wild_melds:
        wild = nw
        for size in table.wild_sizes:
            wild += size
        pot += wild // 7
    if not f.two_canastas and pot_seq == 0:
        return True
    return pot + pot_seq < 2


def _longest_run(cnt: Sequence[int]) -> int:
    best = run = 0
    for x in cnt:
        run = run + 1 if x else 0
        if run > best:
            best = run
    return best


def quick_out(
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
    return _quick_out(pool, table, nw, budget, flags_of(rules), new_sambas)


def _quick_out(
    pool: tuple[int, ...], table: Table, nw: int, budget: int, f: Flags, new_sambas: int
) -> bool:
    """:func:`quick_out` with the rules' flags read."""
    nwo = f.nwo
    by_rank = table.by_rank
    stuck = 0
    slots = 0
    pairs = 0
    canastas = 0
    # groups short of a canasta that their wild room can complete, as need * 4 + room (room is
    # 0…2): sorting these ints sorts by (need, room)
    short: list[int] = []
    for i in IDX:
        n = pool[i]
        gs = by_rank[i + 4]
        if gs:
            ng = len(gs)
            # merged: the groups of the rank as one (their wild cards allow it); else the
            # naturals go to the largest group (the first of the largest)
            merged = False
            a_all = n
            w_all = 0
            if ng > 1 and not nwo:
                for g in gs:
                    a_all += g[0]
                    w_all += g[1]
                merged = w_all <= 2
            top = 0
            if not merged and ng > 1:
                biggest = -1
                for j in range(ng):
                    g = gs[j]
                    if g[0] + g[1] > biggest:
                        biggest = g[0] + g[1]
                        top = j
            for j in range(1 if merged else ng):
                if merged:
                    a = a_all
                    w = w_all
                    was_canasta = False
                else:
                    g = gs[j]
                    a = g[0]
                    w = g[1]
                    was_canasta = a + w >= 7
                    if j == top:
                        a += n
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
                    short.append((7 - size) * 4 + room)
                else:
                    slots += room
        elif not n:
            continue
        elif n >= 7:
            canastas += 1
            slots += 1  # seven naturals and a wild card (added before the seventh natural)
        elif n >= 5:
            short.append((7 - n) * 4 + 2)  # n // 2 >= 2
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
    for code in short:
        need = code >> 2
        room = code & 3
        if need <= wild:
            wild -= need
            canastas += 1
            slots += 0 if nwo else room - need  # nwo: nothing more once it is a canasta
        else:
            slots += room
    extra = wild - slots
    if extra > 0 and not (f.wild_melds and extra >= 3):
        stuck += extra
    if stuck > budget:
        return False
    sambas = table.sambas + new_sambas
    if sambas + canastas + table.bolivias < 2:
        return False
    return f.two_canastas or sambas > 0


def _packed_hopeless(
    pk: int, held: list[tuple[int, int]], nw: int, budget: int, sevens: int
) -> bool:
    """Quick necessary conditions for going out with the naturals of the packed pool ``pk`` (see
    :func:`parlour.games.samba.parts.placement.packed_splits`) left for groups (``held``: per
    rank the naturals and wild cards of the side's groups; ``sevens``: the seven-card melds there
    are or can be besides groups): at most ``budget`` naturals with no group home (one alone of
    its rank), a wild card for every natural pair with no group (two naturals make a group only
    with a wild card), and groups that can still reach seven cards for the two seven-card melds
    (a group holds at most two wild cards, so seven cards need five naturals)."""
    singles = pairs = 0
    for i in IDX:
        n = pk & 31
        pk >>= 5
        a, w = held[i]
        if not a:
            if n == 1:
                singles += 1
                if singles > budget:
                    return True
            elif n == 2:
                pairs += 1
                if pairs > nw:
                    return True
        if sevens < 2:
            a += n
            if a >= 5:
                g = a // 5
                g2 = (a + w + nw) // 7
                sevens += g if g < g2 else g2
    return sevens < 2


def can_go_out(
    h: list[int],
    melds: Sequence[Meld] | Table,
    rules: SambaRules,
    *,
    need_value: int | None = None,
    budget: int = 1,
) -> bool:
    """Can every card of the hand ``h`` be melded onto the side's ``melds`` (extended, merged,
    new melds; red 3s laid out; black 3s as a group, last: three or more, or with
    ``black_three_wilds`` wild cards too under the group limits) — all but ``budget`` cards
    (one: the last card may be discarded) — so that the side then meets the going-out
    requirement?  ``need_value``: the side has not opened, its melds (all made this turn) must
    also reach this minimum (black 3s, melded only after opening, do not count)."""
    table = table_of(melds)
    nw = wild_count(h)
    black = h[1] + h[40]
    f = flags_of(rules)
    b3_room = 0  # wild cards the group of black 3s may take besides (black_three_wilds)
    if black == 1:
        budget -= 1  # the black 3 is the discard
        if budget < 0:
            return False
    elif black == 2:
        if not (f.black_three_wilds and nw):
            return False  # two black 3s can be neither melded nor both discarded
        # seed 002: black 3s as a group 'following the normal group rules': two black 3s take
        # one wild card, the cheapest (the group comes last and counts for no first meld)
        h = _black_threes_melded(h)
        nw -= 1
        black = 0
    elif black >= 3 and f.black_three_wilds and nw:
        b3_room = min(2, black // 2, nw)  # at most two, twice as many black 3s
    qw = nw - b3_room  # the quick ways out give the group of black 3s its wild cards first
    raw = raw_pool(h)
    # quick refusals and a quick way out first, then the search
    if _stranded(h, table, raw, nw, f, b3_room):
        return False
    if need_value is None and _quick_out(raw, table, qw, budget, f, 0):
        return True
    if b3_room and need_value is None and _quick_out(raw, table, nw, budget, f, 0):
        return True  # the black 3s' group without wild cards: every wild card placed elsewhere
    if _short_of_sevens(h, table, raw, nw, f):
        return False
    if not pairs_within(h, table, raw, nw):
        # every split leaves more natural pairs with no group than there are wild cards: the
        # search's quick refusal (_packed_hopeless) would refuse each of them
        return False
    if need_value is None:
        pool, sm = seq_pool(h, table)
        if pool != raw and _quick_out(pool, table, qw, budget, f, sm):
            return True
        pool, sm = needy_pool(h, table, raw)
        if pool != raw and _quick_out(pool, table, qw, budget, f, sm):
            return True
    # the value of the discarded card matters only for a first meld (``need_value``)
    valued = need_value is not None
    value = table.value
    if valued:
        for k in range(53):
            if h[k] and (k % 13 > 1 or IS_WILD[k]):
                value += VALUE[k] * h[k]
        if value < need_value:  # type: ignore[operator]
            return False
    cheap_wild = 0
    if valued:
        for k in WILD_KINDS:
            if h[k]:
                cheap_wild = VALUE[k]
                break
    need_seq = not f.two_canastas
    nwo = f.nwo
    wild_melds = f.wild_melds
    groups = table.groups
    by_rank = table.by_rank
    fixed_dv = (0 if black == 1 else -1) if not valued else (-1 if black != 1 else 0)
    # per rank: the naturals and wild cards of the side's groups of it (for the bound below)
    held = [(0, 0)] * 11
    for r, gs in groups.items():
        ga = gw = 0
        for g in gs:
            ga += g[0]
            gw += g[1]
        held[r - 4] = (ga, gw)
    wild_sevens = 0
    if wild_melds:
        wild_sevens = nw
        for size in table.wild_sizes:
            wild_sevens += size
        wild_sevens //= 7
    for split in packed_splits(h, table):
        pk = split >> SPLIT_SAMBAS
        sambas = table.sambas + (split & ((1 << SPLIT_SAMBAS) - 1))
        if need_seq and sambas == 0:
            continue
        if _packed_hopeless(pk, held, nw, budget, sambas + table.bolivias + wild_sevens):
            continue
        # (value of the discarded card or -1, canastas up to 2), packed as (dv + 1) * 4 + c
        # (no tuple made and hashed per entry) -> the numbers of wild cards that can have been
        # placed so far, as a bit mask
        full = (1 << (nw + 1)) - 1
        masks: dict[int, int] = {(fixed_dv + 1) * 4: 1}
        for i in IDX:
            r = i + 4
            n = (pk >> (i * 5)) & 31  # the packed pool's count of rank r
            gs = by_rank[r]
            if not n and not gs:
                continue
            opts = out_options(gs, n, nw, budget, RANK_VALUE[r] if valued else 0, nwo)
            new: dict[int, int] = {}
            for code, mask in masks.items():
                dv = (code >> 2) - 1
                c = code & 3
                for x, d, cr in opts:
                    if d >= 0 and dv >= 0:
                        continue
                    m2 = (mask << x) & full
                    if m2:
                        c2 = c + cr
                        if c2 > 2:
                            c2 = 2
                        key = ((d if d >= 0 else dv) + 1) * 4 + c2
                        new[key] = new.get(key, 0) | m2
            masks = new
            if not masks:
                break
        for code, mask in masks.items():
            dv = (code >> 2) - 1
            v = code & 3
            for xu in range(nw + 1):
                if not mask >> xu & 1:
                    continue
                y = nw - xu
                choices = [(y, dv)]
                if budget and dv < 0 and y:
                    choices.append((y - 1, cheap_wild))
                if b3_room:
                    choices = _black_three_choices(choices, b3_room, h)
                for yy, d in choices:
                    if wild_melds:
                        b = wild_fam(table.wild_sizes, yy)
                    elif yy == 0:
                        b = 0
                    else:
                        b = -1
                    if b < 0:
                        continue
                    if valued and value - max(d, 0) < need_value:  # type: ignore[operator]
                        continue
                    if v + sambas + table.bolivias + b >= 2:
                        return True
    return False


def _black_threes_melded(h: list[int]) -> list[int]:
    """The hand without its two black 3s and the cheapest wild card (their group)."""
    h = h[:]
    h[1] = h[40] = 0
    for k in (0, 13, 26, 39, 52):  # the 2s (20 points) before the joker (50)
        if h[k]:
            h[k] -= 1
            break
    return h


def _black_three_choices(
    choices: list[tuple[int, int]], room: int, h: list[int]
) -> list[tuple[int, int]]:
    """``choices`` of :func:`can_go_out` — (wild cards left over, points of the discard or −1;
    the second choice discards the cheapest wild card) — each also with ``t`` ≤ ``room`` of the
    wild cards left over going into the group of black 3s (seed 002: 'following the normal
    group rules'): the cheapest ones, whose points then count for no first meld either."""
    low = wild_values(h)[::-1]  # cheapest first
    out: list[tuple[int, int]] = []
    for j, (y, d) in enumerate(choices):
        out.append((y, d))
        withheld = max(d, 0)
        for t in range(1, min(room, y) + 1):
            withheld += low[j + t - 1]
            out.append((y - t, withheld))
    return out


__all__ = [
    "Table",
    "can_go_out",
    "counts",
    "opening_quick",
    "opening_reachable",
    "quick_out",
    "table_of",
]
