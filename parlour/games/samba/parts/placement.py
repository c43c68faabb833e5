"""Where the cards of a hand can go, for :mod:`parlour.games.samba.parts.reach`: the side's table as
counts (:class:`Table`, with the table after a move), every split of the hand's naturals between
sequences and groups (suit by suit), the groups of one rank (a memoized search over new groups,
additions and merges) and Bolivia's wild melds.

>>> from parlour.core.cards import parse_cards
>>> from parlour.games.samba.position import meld_of
>>> t = Table((meld_of("9♣ 9♦ 9♥ Jk"), meld_of("5♠ 6♠ 7♠")))
>>> t.groups, t.seqs[3], t.value
({9: ((3, 1),)}, ((5, 7),), 95)
>>> sorted(pools(counts(parse_cards("8♠ 8♦ 8♥")), t).items())
[((0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0), 0), ((0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0), 0)]
>>> fam(((3, 1),), 3, 1, False)  # three more nines and a wild card: one canasta of 8
1
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Final

from parlour.games.samba.parts.melds import GROUP, IS_WILD, SEQUENCE, VALUE, WILD, Meld

#: card value of a natural of each rank (index = rank; 4…A)
RANK_VALUE: Final[tuple[int, ...]] = tuple(VALUE[r - 2] if 4 <= r <= 14 else 0 for r in range(15))
IDX: Final[tuple[int, ...]] = tuple(range(11))  # natural ranks 4…A as indexes 0…10
#: no group of any rank (``Table.by_rank`` of a table without groups)
_NO_GROUPS: Final[tuple[tuple[tuple[int, int], ...], ...]] = ((),) * 15
#: no growing sequence in any suit
_NO_SEQS: Final[tuple[tuple[tuple[int, int], ...], ...]] = ((), (), (), ())


def counts(cards: Iterable[int]) -> list[int]:
    """A count vector over the 53 card kinds."""
    h = [0] * 53
    for c in cards:
        h[c] = h[c] + 1
    return h


class Table:
    """A side's melds as the solver sees them: groups by rank as (naturals, wilds), sequences that
    can still grow as (low, high) by suit, wild melds (Bolivia) that can still grow, the finished
    sambas, canastas and bolivias, and the card points on the table.  ``with_meld``,
    ``with_card`` and ``with_merge`` give the table after a move without building melds."""

    __slots__ = (
        "_melded",
        "bolivias",
        "by_rank",
        "canastas",
        "groups",
        "sambas",
        "seqs",
        "value",
        "wild_sizes",
    )

    bolivias: int
    canastas: int
    groups: dict[int, tuple[tuple[int, int], ...]]
    #: ``groups`` indexed by rank (0…14; () where the side has no group): the solver's loops
    #: index a tuple where a dictionary would hash a boxed int
    by_rank: tuple[tuple[tuple[int, int], ...], ...]
    sambas: int
    seqs: tuple[tuple[tuple[int, int], ...], ...]
    value: int
    wild_sizes: tuple[int, ...]
    # not part of the table: the tables ``with_meld`` made from it, by the meld's cards (the
    # legal-action checks finish the same meld being built from one table again and again)
    _melded: dict[tuple[int, ...], Table] | None

    def __init__(self, melds: Sequence[Meld] = ()) -> None:
        self._melded = None
        if not melds:
            # the empty table (and the start of every ``_copy``): compiled, a class is made
            # through its __init__, so this path is kept short
            self.value = self.sambas = self.bolivias = self.canastas = 0
            self.groups = {}
            self.by_rank = _NO_GROUPS
            self.seqs = _NO_SEQS
            self.wild_sizes = ()
            return
        groups: dict[int, list[tuple[int, int]]] = {}
        seqs: tuple[list[tuple[int, int]], ...] = ([], [], [], [])
        wild_sizes: list[int] = []
        sambas = bolivias = canastas = value = 0
        for m in melds:
            value += m.value
            kind = m.kind
            size = len(m.cards)
            if kind == GROUP:
                w = m.wilds
                if m.rank in groups:
                    groups[m.rank].append((size - w, w))
                else:
                    groups[m.rank] = [(size - w, w)]
                if size >= 7:
                    canastas += 1
            elif kind == SEQUENCE:
                if size >= 7:
                    sambas += 1
                else:
                    seqs[m.suit].append((m.rank, m.high))
            elif kind == WILD:
                if size >= 7:
                    bolivias += 1
                else:
                    wild_sizes.append(size)
            # black 3s melded on going out take nothing more and count for nothing here
        self.value = value
        self.sambas = sambas
        self.bolivias = bolivias
        self.canastas = canastas
        self.groups = {r: tuple(sorted(g)) if len(g) > 1 else (g[0],) for r, g in groups.items()}
        by_rank = list(_NO_GROUPS)
        for r, gs in self.groups.items():
            by_rank[r] = gs
        self.by_rank = tuple(by_rank)
        self.seqs = tuple([tuple(sorted(x)) if len(x) > 1 else tuple(x) for x in seqs])
        self.wild_sizes = tuple(sorted(wild_sizes))

    def sevens_ok(self, going_out: str) -> bool:
        """The side meets the going-out requirement now."""
        if self.sambas + self.canastas + self.bolivias < 2:
            return False
        return going_out == "two_canastas" or self.sambas > 0

    def _copy(self) -> Table:
        t = Table()
        t.value = self.value
        t.sambas = self.sambas
        t.bolivias = self.bolivias
        t.canastas = self.canastas
        t.groups = self.groups
        t.by_rank = self.by_rank
        t.seqs = self.seqs
        t.wild_sizes = self.wild_sizes
        return t

    def _set_group(self, rank: int, old: tuple[int, int] | None, new: tuple[int, int]) -> None:
        if old is None and not self.by_rank[rank]:
            # the rank's first group (the common case of a new meld): nothing to sort
            self.canastas += new[0] + new[1] >= 7
            self._put_groups(rank, (new,))
            return
        gs = list(self.by_rank[rank])
        if old is not None:
            gs.remove(old)
            self.canastas -= old[0] + old[1] >= 7
        gs.append(new)
        self.canastas += new[0] + new[1] >= 7
        self._put_groups(rank, tuple(sorted(gs)))

    def _put_groups(self, rank: int, gs: tuple[tuple[int, int], ...]) -> None:
        groups = dict(self.groups)
        groups[rank] = gs
        self.groups = groups
        by_rank = list(self.by_rank)
        by_rank[rank] = gs
        self.by_rank = tuple(by_rank)

    def _set_seq(self, suit: int, old: tuple[int, int] | None, new: tuple[int, int]) -> None:
        ss = list(self.seqs[suit])
        if old is not None:
            ss.remove(old)
        if new[1] - new[0] >= 6:
            self.sambas += 1
        else:
            ss.append(new)
        seqs = list(self.seqs)
        seqs[suit] = tuple(sorted(ss))
        self.seqs = tuple(seqs)

    def _set_wild(self, old: int | None, new: int) -> None:
        ws = list(self.wild_sizes)
        if old is not None:
            ws.remove(old)
        if new >= 7:
            self.bolivias += 1
        else:
            ws.append(new)
        self.wild_sizes = tuple(sorted(ws))

    def with_meld(self, cards: Sequence[int]) -> Table:
        """The table with a new meld of these cards (a valid group, sequence or wild meld);
        remembered by the cards (in the order given) on this table: the table is a value, never
        changed once made, so the same table serves every caller."""
        key = tuple(cards)
        memo = self._melded
        if memo is None:
            memo = self._melded = {}
        else:
            found = memo.get(key)
            if found is not None:
                return found
        t = self._make_meld(key)
        if len(memo) < 48:
            memo[key] = t
        return t

    def _make_meld(self, cards: tuple[int, ...]) -> Table:
        t = self._copy()
        # one pass: the value, the naturals' count and whether they share one rank (a group),
        # else their lowest and highest rank and suit (a sequence)
        value = nats = 0
        rank = lo = hi = suit = 0
        one_rank = True
        for c in cards:
            value += VALUE[c]
            if IS_WILD[c]:
                continue
            r = c % 13 + 2
            if nats == 0:
                rank = lo = hi = r
                suit = c // 13
            else:
                if r != rank:
                    one_rank = False
                if r < lo:
                    lo = r
                if r > hi:
                    hi = r
            nats += 1
        t.value += value
        if not nats:
            t._set_wild(None, len(cards))
        elif one_rank:
            t._set_group(rank, None, (nats, len(cards) - nats))
        else:
            t._set_seq(suit, None, (lo, hi))
        return t

    def with_card(self, meld: Meld, card: int) -> Table:
        """The table with ``card`` added to ``meld`` (one of the side's melds; it must fit)."""
        t = self._copy()
        t.value += VALUE[card]
        size = len(meld.cards)
        if meld.kind == GROUP:
            a, w = size - meld.wilds, meld.wilds
            t._set_group(meld.rank, (a, w), (a, w + 1) if IS_WILD[card] else (a + 1, w))
        elif meld.kind == SEQUENCE:
            r = card % 13 + 2
            new = (min(meld.rank, r), max(meld.high, r))
            t._set_seq(meld.suit, (meld.rank, meld.high), new)
        else:
            t._set_wild(size, size + 1)
        return t

    def with_merge(self, a: Meld, b: Meld) -> Table:
        """The table with groups ``a`` and ``b`` (one rank) merged."""
        t = self._copy()
        ga = (len(a.cards) - a.wilds, a.wilds)
        gb = (len(b.cards) - b.wilds, b.wilds)
        gs = list(t.groups[a.rank])
        gs.remove(ga)
        gs.remove(gb)
        t.canastas -= (sum(ga) >= 7) + (sum(gb) >= 7)
        merged = (ga[0] + gb[0], ga[1] + gb[1])
        gs.append(merged)
        t.canastas += sum(merged) >= 7
        t._put_groups(a.rank, tuple(sorted(gs)))
        return t


_TABLES: Final[dict[int, tuple[Sequence[Meld], Table]]] = {}
#: tables kept before :data:`_TABLES` starts again: a table is wanted while positions with those
#: melds are alive (play's current position and the few its checks make), so a few dozen hit as
#: often as thousands did (10,608 tables made in 200 seeded games against 10,330 with 4,096);
#: every entry is some 19 objects the cyclic collector tracks, and thousands of dead positions'
#: tables kept alive made its collections many and slow
_TABLES_KEPT: Final = 64


def table_of(melds: Sequence[Meld] | Table) -> Table:
    """:class:`Table` of a side's melds, cached by the melds tuple (states share it until the
    side's melds change); a table is returned as it is."""
    if isinstance(melds, Table):
        return melds
    hit = _TABLES.get(id(melds))
    if hit is not None and hit[0] is melds:
        return hit[1]
    if len(_TABLES) > _TABLES_KEPT:
        _TABLES.clear()
    table = Table(melds)
    _TABLES[id(melds)] = (melds, table)  # holding the tuple keeps its id from being reused
    return table


def table_after(old: tuple[Meld, ...], new: tuple[Meld, ...], table: Table) -> None:
    """Record ``table`` as the :class:`Table` of the melds ``new`` (a move's result from the melds
    ``old``): ``apply`` passes the table it derived from ``old``'s with ``Table.with_meld``,
    ``with_card`` or ``with_merge`` — the same table ``Table(new)`` would build, without going
    over every meld again (``tests/games/samba/test_table_cache.py`` checks it)."""
    if len(_TABLES) > _TABLES_KEPT:
        _TABLES.clear()
    _TABLES[id(new)] = (new, table)


def cached_table(melds: tuple[Meld, ...]) -> Table | None:
    """The table of ``melds`` if one is cached (no table is built)."""
    hit = _TABLES.get(id(melds))
    if hit is not None and hit[0] is melds:
        return hit[1]
    return None


def _held(cnt: tuple[int, ...]) -> bool:
    """``any(cnt)``: compiled, this loop; ``any`` of a tuple would be a look-up of the builtin
    and a generic call (and ``any`` of a generator costs more interpreted)."""
    for x in cnt:  # noqa: SIM110
        if x:
            return True
    return False


def raw_pool(h: list[int]) -> tuple[int, ...]:
    """Every natural of the hand left for groups: the count of each rank 4…A."""
    return (
        h[2] + h[15] + h[28] + h[41],
        h[3] + h[16] + h[29] + h[42],
        h[4] + h[17] + h[30] + h[43],
        h[5] + h[18] + h[31] + h[44],
        h[6] + h[19] + h[32] + h[45],
        h[7] + h[20] + h[33] + h[46],
        h[8] + h[21] + h[34] + h[47],
        h[9] + h[22] + h[35] + h[48],
        h[10] + h[23] + h[36] + h[49],
        h[11] + h[24] + h[37] + h[50],
        h[12] + h[25] + h[38] + h[51],
    )


def seq_pool(h: list[int], table: Table) -> tuple[tuple[int, ...], int]:
    """The split with the most naturals in sequences, suit by suit (and its new sambas)."""
    pool = 0  # packed (:func:`_pack`): a rank's naturals of the four suits stay under 32
    sambas = 0
    for suit in range(4):
        sp = _suit_packed(h, suit * 13 + 2)
        if not sp:
            continue
        seqs = table.seqs[suit]
        if not seqs and _no_run_packed(sp):
            pool += sp
        else:
            best = _most_in_sequences(sp, seqs)
            pool += best >> _SM
            sambas += best & _SM_MASK
    return _unpack(pool), sambas


#: :func:`_most_in_sequences` by (packed counts, sequences) as one int (:func:`_suit_key`): the
#: same few suits come back all the time.  Ints, not tuples: an int is no object the cyclic
#: collector tracks, and thousands of entries made its collections many and slow (sambagc)
_MOST: Final[dict[int, int]] = {}


def _most_in_sequences(sp: int, seqs: tuple[tuple[int, int], ...]) -> int:
    """The split of one suit (packed counts ``sp``) with the most naturals in sequences (the
    fewest left for groups, then the most sambas; the first such in :func:`suit_options`'
    order) as ``rem << _SM | sambas`` (``rem`` packed), remembered."""
    key = _suit_key(sp, seqs)
    found = _MOST.get(key)
    if found is None:
        if len(_MOST) > 1 << 15:
            _MOST.clear()
        best = sp << _SM
        best_sm = 0
        best_left = -1
        for opt in _packed_options(sp, seqs):
            sm = opt & _SM_MASK
            rem = opt >> _SM
            left = 0
            while rem:
                left += rem & _MASK
                rem >>= _W
            if best_left < 0 or left < best_left or (left == best_left and sm > best_sm):
                best, best_sm, best_left = opt, sm, left
        found = _MOST[key] = best
    return found


def needy_pool(h: list[int], table: Table, raw: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """The split that puts into sequences the naturals that have no group to go to (no group of
    the rank on the table, fewer than three held) and as few others as it can."""
    pool = 0  # packed, as in :func:`seq_pool`
    sambas = 0
    groups = table.groups
    needy = 0  # bit i: rank i + 4 is needy
    for i in IDX:
        if raw[i] < 3 and i + 4 not in groups:
            needy |= 1 << i
    for suit in range(4):
        sp = _suit_packed(h, suit * 13 + 2)
        if not sp:
            continue
        seqs = table.seqs[suit]
        if not seqs and _no_run_packed(sp):
            pool += sp
        else:
            best = _needy_split(sp, seqs, needy)
            pool += best >> _SM
            sambas += best & _SM_MASK
    return _unpack(pool), sambas


#: :func:`_needy_split` by (packed counts, sequences, needy ranks) as one int, as :data:`_MOST`
_NEEDY: Final[dict[int, int]] = {}


def _needy_split(sp: int, seqs: tuple[tuple[int, int], ...], needy: int) -> int:
    """:func:`needy_pool`'s split of one suit (packed counts ``sp``; bit i of ``needy``: rank
    i + 4 is needy): the fewest needy naturals left for groups, then the most others left, then
    the most sambas (the first such in :func:`suit_options`' order), as ``rem << _SM |
    sambas``, remembered."""
    key = _suit_key(sp, seqs) << 11 | needy
    found = _NEEDY.get(key)
    if found is None:
        if len(_NEEDY) > 1 << 15:
            _NEEDY.clear()
        best = sp << _SM
        best_stuck = best_left = best_sm = 0
        first = True
        for opt in _packed_options(sp, seqs):
            sm = opt & _SM_MASK
            rem = opt >> _SM
            stuck = 0
            left = 0
            for i in IDX:
                x = (rem >> (_W * i)) & _MASK
                left += x
                if (needy >> i) & 1:
                    stuck += x
            # the least (stuck, -left, -sambas)
            if (
                first
                or stuck < best_stuck
                or (
                    stuck == best_stuck
                    and (left > best_left or (left == best_left and sm > best_sm))
                )
            ):
                best, best_stuck, best_left, best_sm, first = opt, stuck, left, sm, False
        found = _NEEDY[key] = best
    return found


# --- sequences: every way a suit's naturals can go into sequences ----------------------------


def suit_options(
    cnt: tuple[int, ...], seqs: tuple[tuple[int, int], ...]
) -> dict[tuple[int, ...], int]:
    """For one suit (``cnt``: naturals held of ranks 4…A; ``seqs``: the side's growing sequences
    of the suit as (low, high) ranks): the counts left for groups after some naturals go into
    sequences — extending ``seqs`` at either end (up to seven cards) or as new runs of three or
    more — each with the most sambas (seven-card sequences) that way makes.  Not remembered
    itself: :func:`_packed_options` keeps its answers packed."""
    out: dict[tuple[int, ...], int] = {}
    _extend(list(cnt), seqs, out, 0, 0)
    return out


# :func:`suit_options`' two searches are plain functions passed the counts being used up and the
# answers, not closures: a compiled closure and its environment refer to each other, so every
# call left a cycle for the cyclic collector


def _runs(
    c: list[int], out: dict[tuple[int, ...], int], start: int, min_len: int, sambas: int
) -> None:
    key = tuple(c)
    if out.get(key, -1) < sambas:
        out[key] = sambas
    # new runs in canonical order (low rank, then length, never decreasing): each multiset
    # of runs once
    for lo in range(start, 9):
        if not c[lo]:
            continue
        length = 0
        least = min_len if lo == start else 3
        while length < 7 and lo + length < 11 and c[lo + length]:
            length += 1
            if length >= least:
                for i in range(lo, lo + length):
                    c[i] = c[i] - 1
                _runs(c, out, lo, length, sambas + (length == 7))
                for i in range(lo, lo + length):
                    c[i] = c[i] + 1


def _extend(
    c: list[int],
    seqs: tuple[tuple[int, int], ...],
    out: dict[tuple[int, ...], int],
    j: int,
    sambas: int,
) -> None:
    if j == len(seqs):
        _runs(c, out, 0, 3, sambas)
        return
    lo, hi = seqs[j]
    size = hi - lo + 1
    a, b = lo - 4, hi - 4
    down = 0
    while True:
        up = 0
        while True:
            _extend(c, seqs, out, j + 1, sambas + (size + down + up == 7))
            if size + down + up >= 7:
                break
            i = b + up + 1
            if i > 10 or not c[i]:
                break
            c[i] = c[i] - 1
            up += 1
        for t in range(up):
            c[b + 1 + t] = c[b + 1 + t] + 1
        if size + down >= 7:
            break
        i = a - down - 1
        if i < 0 or not c[i]:
            break
        c[i] = c[i] - 1
        down += 1
    for t in range(down):
        c[a - 1 - t] = c[a - 1 - t] + 1


#: bits per rank in a packed pool (:func:`pools`): a rank's count is at most 12 (three decks)
_W: Final = 5
_MASK: Final = (1 << _W) - 1
#: a packed split of one suit with its sambas: ``rem << _SM | sambas`` (at most 4 sambas a suit)
_SM: Final = 5
_SM_MASK: Final = (1 << _SM) - 1
#: :func:`suit_options` by :func:`_suit_key` as packed splits (``rem << _SM | sambas``), in its
#: order: ints in a tuple of ints, which the cyclic collector stops tracking (tuples of pairs
#: in a list keyed by tuples were some 7 tracked objects an entry, kept for good: sambagc)
_OPTS: Final[dict[int, tuple[int, ...]]] = {}


def _pack(cnt: Sequence[int]) -> int:
    """Counts of ranks 4…A as one int, :data:`_W` bits a rank (rank 4 lowest)."""
    v = 0
    for i in range(10, -1, -1):  # a range compiles to an indexed loop, a tuple literal does not
        v = (v << _W) | cnt[i]
    return v


def _unpack(v: int) -> tuple[int, ...]:
    """The counts of ranks 4…A of a packed pool (:func:`_pack`)."""
    return (
        v & _MASK,
        (v >> 5) & _MASK,
        (v >> 10) & _MASK,
        (v >> 15) & _MASK,
        (v >> 20) & _MASK,
        (v >> 25) & _MASK,
        (v >> 30) & _MASK,
        (v >> 35) & _MASK,
        (v >> 40) & _MASK,
        (v >> 45) & _MASK,
        (v >> 50) & _MASK,
    )


def _suit_key(sp: int, seqs: tuple[tuple[int, int], ...]) -> int:
    """One suit's packed counts and the side's growing sequences of it as one int: each
    sequence (low, high ranks, each under 16) in 9 bits above the counts' 55, with a bit set
    so that the number of sequences shows."""
    code = 0
    for lo, hi in seqs:
        code = (code << 9) | 256 | (lo << 4) | hi
    return code << (11 * _W) | sp


def _suit_packed(h: list[int], base: int) -> int:
    """:func:`_pack` of the suit whose rank-4 kind is ``base``, read from the hand."""
    v = 0
    for k in range(base + 10, base - 1, -1):
        v = (v << _W) | h[k]
    return v


def _packed_options(sp: int, seqs: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """:func:`suit_options` of the packed suit ``sp``, packed (``rem << _SM | sambas``, ``rem``
    as :func:`_pack` makes it), remembered: the same few suits come back."""
    key = _suit_key(sp, seqs)
    found = _OPTS.get(key)
    if found is None:
        if len(_OPTS) > 1 << 15:
            _OPTS.clear()
        if not seqs and _no_run_packed(sp):
            found = (sp << _SM,)
        else:
            found = tuple(
                [_pack(rem) << _SM | sm for rem, sm in suit_options(_unpack(sp), seqs).items()]
            )
        _OPTS[key] = found
    return found


def pools(h: list[int], table: Table) -> dict[tuple[int, ...], int]:
    """Every split of the hand's naturals between sequences and groups: the naturals left for
    groups (per rank 4…A) → the most new sambas made with that split.

    The search runs on packed counts (:func:`_pack`; adding two packed pools adds rank by rank,
    no rank reaching 32), which keep the order and the answers of the same search on tuples."""
    out: dict[tuple[int, ...], int] = {}
    for pool, sm in _packed_pools(h, table).items():
        out[_unpack(pool)] = sm
    return out


#: :func:`packed_splits` by :func:`_hand_key` (ints in a tuple: see :data:`_OPTS`)
_SPLITS: Final[dict[int, tuple[int, ...]]] = {}
#: bits of the new sambas in a split of :func:`packed_splits` (a split is ``pool << 5 | sambas``)
SPLIT_SAMBAS: Final = 5


def _hand_key(
    sp0: int, sp1: int, sp2: int, sp3: int, seqs: tuple[tuple[tuple[int, int], ...], ...]
) -> int:
    """A hand's naturals (:func:`_suit_packed` of each suit, 55 bits a suit) and the side's
    sequences (each in 11 bits above them: a set bit, the suit, low and high ranks) as one
    int: all that :func:`packed_splits` depends on."""
    code = 0
    for suit in range(4):
        for lo, hi in seqs[suit]:
            code = (code << 11) | 1024 | (suit << 8) | (lo << 4) | hi
    return (((code << 55 | sp3) << 55 | sp2) << 55 | sp1) << 55 | sp0


def packed_splits(h: list[int], table: Table) -> tuple[int, ...]:
    """:func:`pools` packed: each split as one int, ``pool << SPLIT_SAMBAS | new sambas`` (the
    pool as :func:`_pack` makes it: rank 4…A of the naturals left for groups at bits 5·i…), the
    most new sambas first and in :func:`pools`' order otherwise; remembered by the hand's
    naturals and the side's sequences, all they depend on (the checks of one position's moves
    search the same hand again and again).  Plain ints, not pairs: a tuple is a container the
    cyclic collector tracks, and the splits of a long hand number in the hundreds."""
    key = _hand_key(
        _suit_packed(h, 2),
        _suit_packed(h, 15),
        _suit_packed(h, 28),
        _suit_packed(h, 41),
        table.seqs,
    )
    found = _SPLITS.get(key)
    if found is None:
        if len(_SPLITS) > 1 << 13:
            _SPLITS.clear()
        states = _packed_pools(h, table)
        top = 0
        for sm in states.values():
            if sm > top:
                top = sm
        splits: list[int] = []
        # the most sambas first, in the search's order otherwise (a stable sort by -sambas);
        # fewer than 32 sambas: 155 naturals in sequences, with three decks of 162 cards
        for want in range(top, -1, -1):
            for pool, sm in states.items():
                if sm == want:
                    splits.append(pool << SPLIT_SAMBAS | sm)
        found = _SPLITS[key] = tuple(splits)
    return found


def _packed_pools(h: list[int], table: Table) -> dict[int, int]:
    """:func:`pools`' search, its answers packed."""
    states: dict[int, int] = {0: 0}
    for suit in range(4):
        sp = _suit_packed(h, suit * 13 + 2)  # 2: the kind of rank 4 of the suit
        if not sp:
            continue
        # no three in a row and nothing to extend: every natural of the suit goes to groups
        opts = _packed_options(sp, table.seqs[suit])
        if len(opts) == 1:
            rem = opts[0] >> _SM
            sm2 = opts[0] & _SM_MASK
            states = {pool + rem: sm + sm2 for pool, sm in states.items()}
            continue
        new: dict[int, int] = {}
        for pool, sm in states.items():
            for opt in opts:
                key = pool + (opt >> _SM)
                v = sm + (opt & _SM_MASK)
                # ``new.get`` called directly: compiled, a bound method kept in a local is a
                # generic call
                if new.get(key, -1) < v:
                    new[key] = v
        states = new
    return states


def pairs_within(h: list[int], table: Table, raw: tuple[int, ...], nw: int) -> bool:
    """Whether some split of the hand's naturals (:func:`pools`) leaves at most ``nw`` natural
    pairs of a rank the side has no group of (RULES.md §1 "Melds": a group is three or more
    cards of a rank, a wild card only with twice as many naturals — so two naturals alone make
    a group only with a wild card, each pair its own).  ``raw``: :func:`raw_pool` of ``h``.

    Exact, without the splits themselves: a dynamic programming over the suits whose states are
    the pools cut down to the ranks that can end as such a pair (no group of the side's, two or
    more held), each count capped at 3 (counts only grow from suit to suit, and three or more
    is no pair), so the splits that differ only elsewhere or above 2 are one state.  A split
    that leaves too many pairs is refused by the going-out search's quick refusal anyway."""
    by_rank = table.by_rank
    mask = 0  # the 5-bit fields (see _pack) of the ranks that can end as a pair with no group
    pairs = 0
    for i in IDX:
        n = raw[i]
        if n >= 2 and not by_rank[i + 4]:
            mask |= _MASK << (_W * i)
            if n == 2:
                pairs += 1
    if pairs <= nw:
        return True  # every natural to groups is a split that leaves few enough pairs
    return least_pairs(h, table.seqs, mask) <= nw


#: :func:`least_pairs` by (:func:`_hand_key`, the candidate ranks' fields) as one int: the
#: checks of one position's moves ask about the same hand again and again
_LEAST: Final[dict[int, int]] = {}


def least_pairs(h: list[int], seqs: tuple[tuple[tuple[int, int], ...], ...], mask: int) -> int:
    """The least number of natural pairs over the splits of the hand's naturals (:func:`pools`),
    counting only the ranks whose 5-bit fields (:func:`_pack`) are set in ``mask``; remembered
    (see :func:`pairs_within`)."""
    sp0 = _suit_packed(h, 2)
    sp1 = _suit_packed(h, 15)
    sp2 = _suit_packed(h, 28)
    sp3 = _suit_packed(h, 41)
    key = _hand_key(sp0, sp1, sp2, sp3, seqs) << 55 | mask
    found = _LEAST.get(key)
    if found is not None:
        return found
    states: set[int] = {0}
    for suit in range(4):
        sp = sp0 if suit == 0 else sp1 if suit == 1 else sp2 if suit == 2 else sp3
        mine = sp & mask
        if not mine:
            continue  # the suit's naturals make no difference to the pairs
        sseqs = seqs[suit]
        if not sseqs and _no_run_packed(sp):
            cut = {mine}
        else:
            # the suit's splits cut down to the candidate ranks, each once
            cut = set()
            for opt in _packed_options(sp, sseqs):
                cut.add((opt >> _SM) & mask)
        new: set[int] = set()
        for st in states:
            for c in cut:
                v = st + c
                # fields of 4 or more (bits 2…4 of a field) set to 3
                big = ((v >> 2) | (v >> 3) | (v >> 4)) & _LOW
                new.add((v & ~(big * _MASK)) | (big * 3))
        states = new
    least = 11
    for st in states:
        # a field of exactly 2: bit 1 set, bit 0 clear (fields are at most 3 now)
        two = (st >> 1) & ~st & _LOW
        pairs = 0
        while two:
            two &= two - 1
            pairs += 1
        if pairs < least:
            least = pairs
    if len(_LEAST) > 1 << 13:
        _LEAST.clear()
    _LEAST[key] = least
    return least


#: bit 0 of each of the 11 fields of a packed pool (:func:`_pack`)
_LOW: Final = sum(1 << (_W * i) for i in range(11))


def _no_run_packed(sp: int) -> bool:
    """:func:`no_run` of a packed suit (:func:`_pack`)."""
    run = 0
    for _ in range(11):
        if sp & _MASK:
            run += 1
            if run >= 3:
                return False
        else:
            run = 0
        sp >>= _W
    return True


def no_run(cnt: tuple[int, ...]) -> bool:
    """No three consecutive ranks held in this suit (the only split: all to groups)."""
    run = 0
    for x in cnt:
        run = run + 1 if x else 0
        if run >= 3:
            return False
    return True


# --- groups of one rank -------------------------------------------------------------------------


def _insert(groups: tuple[tuple[int, int], ...], g: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((*groups, g)))


def _canastas(groups: tuple[tuple[int, int], ...], n: int) -> int:
    """The n naturals still to place go into the groups (any group takes any number): the most
    groups of seven or more cards."""
    count = 0
    for d in sorted(max(0, 7 - a - b) for a, b in groups):
        if d > n:
            break
        n -= d
        count += 1
    return count


@lru_cache(maxsize=1 << 16)
def fam(groups: tuple[tuple[int, int], ...], n: int, x: int, nwo: bool) -> int:
    """One rank: the side's groups of it (naturals, wilds), ``n`` naturals and ``x`` wild cards
    from the hand that must all be placed — the most canastas (groups of ≥ 7) possible, or −1 if
    they cannot all be placed.  New groups start as three naturals or two and a wild; a wild goes
    on a group with at most one wild and enough naturals (natural cards are added first when
    needed; ``nwo``: not on a canasta); groups merge when they hold at most two wilds together
    (``nwo``: not a canasta with a group holding wilds).  Naturals are placed last, as many
    groups as possible completed to seven."""
    best = -1
    if x == 0:
        if groups:
            best = _canastas(groups, n)
        elif n == 0:
            best = 0
    if n >= 3:
        best = max(best, fam(_insert(groups, (3, 0)), n - 3, x, nwo))
    if x and n >= 2:
        best = max(best, fam(_insert(groups, (2, 1)), n - 2, x - 1, nwo))
    prev: tuple[int, int] | None = None
    for i, g in enumerate(groups):
        if g == prev:
            continue
        prev = g
        a, w = g
        if x and w < 2:
            top = max(0, 2 * (w + 1) - a)
            if top <= n and not (nwo and a + top + w >= 7):
                rest = groups[:i] + groups[i + 1 :]
                best = max(best, fam(_insert(rest, (a + top, w + 1)), n - top, x - 1, nwo))
        for j in range(i + 1, len(groups)):
            b, v = groups[j]
            if w + v > 2:
                continue
            if nwo and ((a + w >= 7 and v) or (b + v >= 7 and w)):
                continue
            rest = groups[:i] + groups[i + 1 : j] + groups[j + 1 :]
            best = max(best, fam(_insert(rest, (a + b, w + v)), n, x, nwo))
    return best


#: :func:`out_options` by (groups, the other arguments packed)
_OUT_OPTIONS: Final[
    dict[tuple[tuple[tuple[int, int], ...], int], tuple[tuple[int, int, int], ...]]
] = {}


def out_options(
    groups: tuple[tuple[int, int], ...], n: int, nw: int, budget: int, discard_value: int, nwo: bool
) -> tuple[tuple[int, int, int], ...]:
    """One rank when going out: every (wild cards placed, value of a natural of it left as the
    discard or −1, canastas) its groups and ``n`` naturals allow with at most ``nw`` wild cards;
    remembered (a dictionary, not ``lru_cache``: compiled, a cached function is called through
    the module's dictionary and a generic call, and its key is a tuple of all six arguments)."""
    if n > 63 or nw > 63 or not 0 <= budget < 16 or not 0 <= discard_value < 256:
        return _out_options(groups, n, nw, budget, discard_value, nwo)
    code = n | nw << 6 | budget << 12 | discard_value << 16 | nwo << 24
    key = (groups, code)
    found = _OUT_OPTIONS.get(key)
    if found is None:
        if len(_OUT_OPTIONS) > 1 << 14:
            _OUT_OPTIONS.clear()
        found = _OUT_OPTIONS[key] = _out_options(groups, n, nw, budget, discard_value, nwo)
    return found


def _out_options(
    groups: tuple[tuple[int, int], ...], n: int, nw: int, budget: int, discard_value: int, nwo: bool
) -> tuple[tuple[int, int, int], ...]:
    opts: list[tuple[int, int, int]] = []
    for x in range(min(nw, x_cap(groups, n)) + 1):
        c = fam(groups, n, x, nwo)
        if c >= 0:
            opts.append((x, -1, c))
        if budget and n:
            c = fam(groups, n - 1, x, nwo)
            if c >= 0:
                opts.append((x, discard_value, c))
    return tuple(opts)


def x_cap(groups: tuple[tuple[int, int], ...], n: int) -> int:
    """More wild cards than this never fit one rank's groups (two per group at most)."""
    return 2 * (len(groups) + n // 2)


@lru_cache(maxsize=1 << 12)
def wild_fam(sizes: tuple[int, ...], y: int) -> int:
    """Bolivia's wild melds: the growing ones (``sizes``) and ``y`` wild cards that must all be
    placed (new wild melds of 3–7, any of them up to 7 cards) — the most bolivias, or −1."""
    best = -1
    for k in range(y // 3 + 1):
        lows = sorted((*sizes, *([3] * k)), reverse=True)
        total = sum(sizes) + y
        if total > 7 * len(lows) or total < sum(lows):
            continue
        spare = total - sum(lows)
        made = 0
        for low in lows:
            if 7 - low > spare:
                break
            spare -= 7 - low
            made += 1
        best = max(best, made)
    return best


# --- the first meld: the most points the hand can add ------------------------------------------


def wild_values(h: list[int]) -> list[int]:
    """The values of the wild cards held, highest first."""
    out: list[int] = []
    for k in (52, 0, 13, 26, 39):
        out.extend([VALUE[k]] * h[k])
    return out


def placed(groups: tuple[tuple[int, int], ...], n: int, x: int, nwo: bool) -> int:
    """The most of ``n`` naturals one rank's groups can take along with exactly ``x`` wild
    cards (−1: the wild cards do not fit)."""
    for m in range(n, -1, -1):
        if fam(groups, m, x, nwo) >= 0:
            return m
    return -1


def seq_rem(cnt: tuple[int, ...], seqs: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """What :func:`seq_pool` leaves of one suit for groups."""
    if not _held(cnt) or (not seqs and no_run(cnt)):
        return cnt
    return _unpack(_most_in_sequences(_pack(cnt), seqs) >> _SM)
