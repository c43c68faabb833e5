"""Hand and Foot's observation tensor, written into a float32 buffer (the layout of
:class:`parlour.rl.encoding.handfoot.HandFootEncoding`; compiled)."""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Final

from parlour.core.cards import NUM_KINDS
from parlour.games.handfoot.actions import AddToMeld, Discard, Draw, Meld, Retract, TakePile
from parlour.games.handfoot.parts.melds import RUN, WILDS, cards_value
from parlour.games.handfoot.parts.melds import Meld as TableMeld
from parlour.games.handfoot.rules import HandFootRules
from parlour.games.handfoot.scoring import red_three_score
from parlour.games.handfoot.state import State
from parlour.games.handfoot.view import HandFootView, MeldView
from parlour.rl.fill.common import (
    BLOCK_FROM,
    CardBlocks,
    SeatSizes,
    Slow,
    block,
    float_block,
    put_counts,
)

PHASES: Final = ("draw", "play", "over")
#: meld targets: books of 4 … A, runs of each suit, the wild book
TARGETS: Final = 16
#: a side's ``open`` (3 per target) and ``books`` (2 per target) segments, one after the other
MELD_BLOCK: Final = 5 * TARGETS


def target_index(kind: str, key: int) -> int:
    """The index of a meld's target in ``TARGETS``: books of 4 … A, runs of each suit, the
    wild book."""
    if kind == "book" and 4 <= key <= 14:
        return key - 4
    if kind == "run" and 0 <= key <= 3:
        return 11 + key
    if kind == "wilds" and key == 0:
        return 15
    raise KeyError((kind, key))


BOOK_BASE: Final = 3 * TARGETS


class SideEntry:
    """What the tensor takes from a side's list of melds (``HandFootFill._side``)."""

    def __init__(self, melds: list[TableMeld], first: int, block: array[float]) -> None:
        self.melds = melds
        #: melds from this index on were made this turn (-1: none)
        self.first = first
        #: the ``open`` and ``books`` segments
        self.block = block
        #: finished books: sambas, sevens, wilds, clean, dirty (scoring.book_counts' order)
        self.books = [0, 0, 0, 0, 0]
        #: the card values of every meld
        self.card_points = 0
        self.missing = 0
        self.points = 0

    def finish(self, rules: HandFootRules) -> None:
        """The books still missing and the board points, from the books and card values
        (scoring.missing_books and the view's board points, without their dict and texts)."""
        books = self.books
        missing = 0
        if books[0] < rules.required_sambas:
            missing += 1
        if books[1] < rules.required_sevens:
            missing += 1
        if books[2] < rules.required_wilds:
            missing += 1
        if books[3] < rules.required_clean:
            missing += 1
        if books[4] < rules.required_dirty:
            missing += 1
        self.missing = missing
        self.points = self.card_points + (
            books[0] * rules.samba_bonus
            + books[1] * rules.sevens_bonus
            + books[2] * rules.wilds_bonus
            + books[3] * rules.clean_bonus
            + books[4] * rules.dirty_bonus
        )


def _book_kind(m: TableMeld) -> int:
    """A finished meld's index in ``SideEntry.books``."""
    if m.kind == RUN:
        return 0
    if m.kind == WILDS:
        return 2
    if m.key == 7:
        return 1
    return 4 if m.wild_count else 3


def _side_entry(melds: list[TableMeld], first: int) -> SideEntry:
    """A side's entry read from every meld."""
    values = [0.0] * MELD_BLOCK
    books = [0, 0, 0, 0, 0]
    card_points = 0
    for i, m in enumerate(melds):
        t = target_index(m.kind, m.key)
        if m.complete:
            values[BOOK_BASE + 2 * t + (1 if m.wild_count else 0)] += 1.0
            books[_book_kind(m)] += 1
        else:
            j = 3 * t
            values[j] = float(len(m.cards))
            values[j + 1] = float(m.wild_count)
            values[j + 2] = 1.0 if 0 <= first <= i else 0.0
        card_points += cards_value(m.cards)
    entry = SideEntry(melds, first, float_block(values))
    entry.books = books
    entry.card_points = card_points
    return entry


def _marks_from(first: int, n: int) -> int:
    """The index from which melds among the first ``n`` are marked made this turn (``n``:
    none)."""
    return first if 0 <= first < n else n


def _patched(prev: SideEntry, melds: list[TableMeld], first: int) -> SideEntry | None:
    """The entry of ``melds`` made from ``prev``'s when the lists differ by one meld (one
    added at the end, or one replaced) and mark the same melds made this turn; ``None``
    otherwise."""
    old = prev.melds
    n = len(old)
    if len(melds) == n + 1:
        for i in range(n):
            if melds[i] is not old[i]:
                return None
        changed = n
    elif len(melds) == n:
        changed = -1
        for i in range(n):
            if melds[i] is not old[i]:
                if changed >= 0:
                    return None
                changed = i
        if changed < 0:
            return None
    else:
        return None
    if _marks_from(prev.first, n) != _marks_from(first, n):
        return None
    block = array("f", prev.block)
    books = list(prev.books)
    card_points = prev.card_points
    if changed < n:  # the meld replaced: its entries out
        m = old[changed]
        t = target_index(m.kind, m.key)
        if m.complete:
            j = BOOK_BASE + 2 * t + (1 if m.wild_count else 0)
            block[j] = block[j] - 1.0
            books[_book_kind(m)] -= 1
        else:
            j = 3 * t
            block[j] = 0.0
            block[j + 1] = 0.0
            block[j + 2] = 0.0
        card_points -= cards_value(m.cards)
    m = melds[changed]
    t = target_index(m.kind, m.key)
    if m.complete:
        j = BOOK_BASE + 2 * t + (1 if m.wild_count else 0)
        block[j] = block[j] + 1.0
        books[_book_kind(m)] += 1
    else:
        j = 3 * t
        block[j] = float(len(m.cards))
        block[j + 1] = float(m.wild_count)
        block[j + 2] = 1.0 if 0 <= first <= changed else 0.0
    card_points += cards_value(m.cards)
    entry = SideEntry(melds, first, block)
    entry.books = books
    entry.card_points = card_points
    return entry


class HandFootFill:
    def __init__(self, start: dict[str, int], players: int, kept: int = 4096) -> None:
        #: the layout, for :meth:`fresh`
        self.start = start
        #: entries each cache of the state's lists keeps (then it starts again)
        self.kept = kept
        self.n = players
        self.cards = CardBlocks()
        self.phase = start["phase"]
        self.to_act = start["to_act"]
        self.round = start["round"]
        self.hand = start["hand"]
        self.pending = start["pending"]
        self.taken_top = start["taken_top"]
        self.pile_top = start["pile_top"]
        self.pile = start["pile"]
        self.sizes = start["sizes"]
        self.turn = start["turn"]
        self.seat_status = [start[f"seat+{k}.status"] for k in range(players)]
        self.known = [start[f"seat+{k}.known"] for k in range(players)]
        self.side_status = [start[f"side+{k}.status"] for k in range(2)]
        self.open = [start[f"side+{k}.open"] for k in range(2)]
        self.books = [start[f"side+{k}.books"] for k in range(2)]
        for k in range(2):
            assert self.books[k] == self.open[k] + 3 * TARGETS, "open and books adjacent"
        self.meld_cache: dict[tuple[int, ...], tuple[tuple[MeldView, ...], memoryview[float]]] = {}
        #: by a side's list of melds in a state (its identity; copy-on-write states never
        #: change a list they hold): the list, its books still missing, the points its melds
        #: make on the board (book bonuses and card values)
        self.rules: HandFootRules | None = None
        #: the card totals of each seat's hand and known cards (the vectors last seen)
        self.hand_sizes = SeatSizes()
        self.known_sizes = SeatSizes()
        self.piles: dict[int, tuple[list[int], array[float]]] = {}
        self.cut_bonus: tuple[list[int], list[int], list[int], list[int]] | None = None
        self.rounds = 0
        #: by a side's list of melds and the first meld made this turn (``_side``)
        self.side_cache: dict[int, SideEntry] = {}
        #: each side's entry made last (the next list of that side mostly differs by a meld)
        self.last_side: list[SideEntry | None] = [None, None]

    def fresh(self) -> HandFootFill:
        """A filler of the same layout with caches of its own (32 entries): one per match
        played side by side (``BatchEnv``), whose last-seen entries (each seat's hand, each
        side's melds, the cuts) are then its match's, not the match filled before it."""
        return HandFootFill(self.start, self.n, 32)

    def fill(self, view: HandFootView, buf: memoryview[float], base: int) -> None:
        seat = view.seat
        assert seat is not None
        me: int = seat
        n = self.n
        buf[base + self.phase + PHASES.index(view.phase)] = 1.0
        to_act = view.to_act
        if to_act is not None:
            buf[base + self.to_act + (to_act - me) % n] = 1.0
        b = base + self.round
        buf[b] = float(view.round)
        buf[b + 1] = float(view.rounds)
        buf[b + 2] = view.opening_minimum / 10.0
        self.cards.put(buf, base + self.hand, view.hand)
        self.cards.put(buf, base + self.pending, view.pending)
        if view.taken_top >= 0:
            buf[base + self.taken_top + view.taken_top] = 1.0
        if view.pile_top >= 0:
            buf[base + self.pile_top + view.pile_top] = 1.0
        self.cards.put(buf, base + self.pile, view.pile)
        b = base + self.sizes
        buf[b] = float(view.pile_size)
        buf[b + 1] = float(view.stock_size)
        buf[b + 2] = float(view.pending_size)
        b = base + self.turn
        buf[b] = float(view.turn_start_melds)
        buf[b + 1] = view.turn_value / 10.0
        if view.provisional:
            buf[b + 2] = 1.0
        if view.took_pile:
            buf[b + 3] = 1.0
        if view.pile_refused:
            buf[b + 4] = 1.0
        if view.melds_refused:
            buf[b + 5] = 1.0
        players = view.players
        my_side = players[me].side
        scores = view.scores
        unit_of = [0] * n
        for u, unit in enumerate(view.score_units):
            for s in unit:
                unit_of[s] = u
        for p in players:
            k = (p.seat - me) % n
            b = base + self.seat_status[k]
            buf[b] = float(p.hand_size)
            buf[b + 1] = float(p.foot_size)
            if p.foot_taken:
                buf[b + 2] = 1.0
            if p.down:
                buf[b + 3] = 1.0
            if p.side == my_side and p.seat != me:
                buf[b + 4] = 1.0
            if scores:
                buf[b + 5] = scores[unit_of[p.seat]] / 1000.0
            self.cards.put(buf, base + self.known[k], p.known)
        for sv in view.sides:
            k = 0 if sv.side == my_side else 1
            b = base + self.side_status[k]
            if sv.opened:
                buf[b] = 1.0
            if sv.can_go_out:
                buf[b + 1] = 1.0
            buf[b + 2] = float(len(sv.red_threes))
            buf[b + 3] = sv.board_points / 1000.0
            buf[b + 4] = float(len(sv.missing))
            if sv.melds:
                b = base + self.open[k]
                buf[b : b + MELD_BLOCK] = self._meld_block(sv.side, sv.melds)

    def fill_state(self, state: State, seat: int, buf: memoryview[float], base: int) -> None:
        """What :meth:`fill` writes for ``observe_state(state, seat)``, read from the state
        without building the view (the same fields the view takes: what ``seat`` may know;
        ``tests/rl/test_fill.py`` keeps the two byte-identical)."""
        me = seat
        n = self.n
        rules = state.rules
        phase = state.phase
        over = phase == "over"
        buf[base + self.phase + PHASES.index(phase)] = 1.0
        if not over:
            buf[base + self.to_act + (state.to_act - me) % n] = 1.0
        b = base + self.round
        buf[b] = float(state.round)
        if rules is not self.rules:
            self.rules = rules
            self.rounds = rules.rounds  # a property of the (interpreted) rules
        buf[b + 1] = float(self.rounds)
        buf[b + 2] = state.opening_minimum() / 10.0
        put_counts(buf, base + self.hand, state.hands[me])
        if rules.pile_cards_face_up:
            self.cards.put(buf, base + self.pending, tuple(state.pending))
        if state.taken_top >= 0:
            buf[base + self.taken_top + state.taken_top] = 1.0
        pile = state.pile
        if pile:
            buf[base + self.pile_top + pile[-1]] = 1.0
            b = base + self.pile
            if len(pile) < BLOCK_FROM:
                for c in pile:
                    buf[b + c] = buf[b + c] + 1.0
            else:
                buf[b : b + NUM_KINDS] = self._pile_block(pile)
        b = base + self.sizes
        buf[b] = float(len(pile))
        buf[b + 1] = float(len(state.stock))
        buf[b + 2] = float(len(state.pending))
        b = base + self.turn
        buf[b] = float(state.turn_start_melds)
        buf[b + 1] = state.turn_value / 10.0
        if state.provisional:
            buf[b + 2] = 1.0
        if state.took_pile:
            buf[b + 3] = 1.0
        if state.pile_refused:
            buf[b + 4] = 1.0
        if state.melds_refused:
            buf[b + 5] = 1.0
        side_of = state.side_of
        my_side = side_of[me]
        scores = state.scores
        rotate = rules.rotate_partners
        for s in range(rules.players):
            k = (s - me) % n
            b = base + self.seat_status[k]
            buf[b] = float(self.hand_sizes.of(s, state.hands[s]))
            buf[b + 1] = float(len(state.feet[s]))
            if state.foot_taken[s]:
                buf[b + 2] = 1.0
            if state.down[s]:
                buf[b + 3] = 1.0
            if side_of[s] == my_side and s != me:
                buf[b + 4] = 1.0
            if scores:
                # score units: each seat when partners rotate, else the partnerships (0, 2), (1, 3)
                buf[b + 5] = scores[s if rotate else s % 2] / 1000.0
            known = state.known[s]
            if self.known_sizes.of(s, known):
                put_counts(buf, base + self.known[k], known)
        acting_side = side_of[state.to_act]
        for side in range(2):
            k = 0 if side == my_side else 1
            b = base + self.side_status[k]
            melds = state.melds[side]
            first = state.turn_start_melds if not over and side == acting_side else -1
            entry = self._side(state, side, melds, first)
            missing = entry.missing
            points = entry.points
            blk = entry.block
            if state.opened[side]:
                buf[b] = 1.0
            if missing == 0:
                buf[b + 1] = 1.0
            threes = len(state.red_threes[side])
            buf[b + 2] = float(threes)
            points += red_three_score(rules, threes)
            points += self._cut_bonus(state, side)
            buf[b + 3] = points / 1000.0
            buf[b + 4] = float(missing)
            if melds:
                b = base + self.open[k]
                buf[b : b + MELD_BLOCK] = blk

    def _pile_block(self, pile: list[int]) -> array[float]:
        """The pile's card counts as one block, once per pile list (a new list each discard
        or take; the entry keeps the list alive, so its id is not reused while it exists)."""
        hit = self.piles.get(id(pile))
        if hit is not None and hit[0] is pile:
            return hit[1]
        counts = [0.0] * NUM_KINDS
        for c in pile:
            counts[c] += 1.0
        found = float_block(counts)
        if len(self.piles) >= self.kept:
            self.piles.clear()
        self.piles[id(pile)] = (pile, found)
        return found

    def _cut_bonus(self, state: State, side: int) -> int:
        """The exact-cut bonuses of a side's two seats (``view._board_points``), once per deal
        (the cuts, the order and the sides are new lists each round)."""
        cuts = state.cuts
        hit = self.cut_bonus
        if (
            hit is None
            or hit[0] is not cuts
            or hit[1] is not state.order
            or hit[2] is not state.side_of
        ):
            rules = state.rules
            exact = 2 * rules.stack_size
            bonus = [0, 0]
            for k in range(2):
                seats = [s for s in state.order if state.side_of[s] == k]
                for s in seats[:2]:
                    if cuts[s] == exact:
                        bonus[k] += rules.exact_cut_bonus
            hit = self.cut_bonus = (cuts, state.order, state.side_of, bonus)
        return hit[3][side]

    def _side(self, state: State, side: int, melds: list[TableMeld], first: int) -> SideEntry:
        """A side's melds in the state as the tensor takes them, once per list and ``first``
        (melds from index ``first`` on made this turn; ``-1``: none): its books still
        missing, the points its melds make on the board (book bonuses and card values) and
        its ``open`` and ``books`` segments as one block.  One entry per list and ``first``,
        keyed by an int (the list's identity; the entry keeps the list alive, so its id is not
        reused while the entry exists): one object and one untracked array for the garbage
        collector.  A list that differs from the side's last one by one meld (added, or
        replaced by a meld with one card more) is patched from it, not read whole."""
        if first >= len(melds):
            first = -1  # no meld made this turn: the same entries as for the other side
        # the list's id plus 0 … len(melds): distinct for each ``first`` of one list, and the
        # entry's list is checked (two lists' ids lie further apart than any two ``first``)
        key = id(melds) + first + 1
        hit = self.side_cache.get(key)
        if hit is not None and hit.melds is melds:
            return hit
        prev = self.last_side[side]
        found: SideEntry | None = None
        if prev is not None:
            found = _patched(prev, melds, first)
        if found is None:
            found = _side_entry(melds, first)
        found.finish(state.rules)
        self.last_side[side] = found
        if len(self.side_cache) >= self.kept:
            self.side_cache.clear()
        self.side_cache[key] = found
        return found

    def _meld_block(self, side: int, melds: tuple[MeldView, ...]) -> memoryview[float]:
        """A side's ``open`` and ``books`` segments (adjacent) as one block, made once per
        list of meld views (from one step to the next a side's melds are mostly the very same
        meld views; keyed by their identities: the entry keeps them alive, so the ids are not
        reused while the entry exists)."""
        key = tuple([id(m) for m in melds])
        hit = self.meld_cache.get(key)
        if hit is not None:
            return hit[1]
        values = [0.0] * MELD_BLOCK
        books = 3 * TARGETS
        for m in melds:
            t = target_index(m.kind, m.key)
            if m.complete:
                values[books + 2 * t + (1 if m.wild_count else 0)] += 1.0
            else:
                j = 3 * t
                values[j] = float(len(m.cards))
                values[j + 1] = float(m.wild_count)
                values[j + 2] = 1.0 if m.this_turn else 0.0
        found = block(values)
        if len(self.meld_cache) >= 4096:
            self.meld_cache.clear()
        self.meld_cache[key] = (melds, found)
        return found


class HandFootIds:
    """The ids of discards, additions, new melds (cached per card triple), draws and
    take-backs (compiled); a pile take by the encoding's ``_action_to_id`` (``slow``).

    ``discard[card]`` is a discard's id; ``add[16 × 53 ... ]``: ``add[target × 53 + card]`` an
    addition's id (``-1``: none, ``slow`` says why)."""

    def __init__(
        self,
        draw: int,
        retract: int,
        discard: list[int],
        add: list[int],
        pile: dict[int, int] | None = None,
        rep: list[int] | None = None,
    ) -> None:
        self.draw = draw
        self.retract = retract
        self.discard = discard
        self.add = add
        self.meld: dict[tuple[int, ...], int] = {}
        #: a pile take's id by ``(target × 53 + class) × 53 + class`` (the classes of its two
        #: hand cards, lower first), with ``rep`` each card's class; empty: every take by ``slow``
        self.pile: dict[int, int] = {} if pile is None else pile
        self.rep: list[int] = [] if rep is None else rep

    def _take(self, state: State, a: TakePile) -> int:
        """A pile take's id (``-1``: ask ``slow``): its target is the meld it joins or the new
        meld the top card makes with its two cards (``encoding.handfoot._target_of``)."""
        cards = a.cards
        rep = self.rep
        if len(cards) != 2 or not rep:
            return -1
        if a.meld >= 0:
            m = state.melds[state.side_of[state.to_act]][a.meld]
            t = target_index(m.kind, m.key)
        else:
            if not state.pile:
                return -1
            top = state.pile[-1]
            natural = -1  # the first card, top first, that is no wild
            rank = -1
            same = True
            for c in (top, cards[0], cards[1]):
                r = rep[c]
                if r == 0 or r == NUM_KINDS - 1:  # a 2 or a joker
                    continue
                if natural < 0:
                    natural = c
                    rank = c % 13 + 2
                elif c % 13 + 2 != rank:
                    same = False
            if natural < 0:
                t = 15
            elif same:
                if not 4 <= rank <= 14:
                    return -1
                t = rank - 4
            else:
                t = 11 + natural // 13
        r0 = rep[cards[0]]
        r1 = rep[cards[1]]
        if r1 < r0:
            r0, r1 = r1, r0
        return self.pile.get((t * NUM_KINDS + r0) * NUM_KINDS + r1, -1)

    def ids(self, state: State, actions: Sequence[object], slow: Slow) -> list[int]:
        out: list[int] = []
        melds: list[TableMeld] | None = None  # the acting side's, read at the first addition
        for a in actions:
            if isinstance(a, Discard):
                out.append(self.discard[a.card])
            elif isinstance(a, AddToMeld):
                if melds is None:
                    melds = state.melds[state.side_of[state.to_act]]
                m = melds[a.meld]
                i = self.add[target_index(m.kind, m.key) * NUM_KINDS + a.card]
                out.append(i if i >= 0 else int(slow(state, a)))
            elif isinstance(a, Meld):
                found = self.meld.get(a.cards, -1)
                if found < 0:
                    found = self.meld[a.cards] = int(slow(state, a))
                out.append(found)
            elif isinstance(a, Draw):
                out.append(self.draw)
            elif isinstance(a, Retract):
                out.append(self.retract)
            elif isinstance(a, TakePile):
                i = self._take(state, a)
                out.append(i if i >= 0 else int(slow(state, a)))
            else:
                out.append(int(slow(state, a)))
        return out
