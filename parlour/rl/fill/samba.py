"""Samba's (and Bolivia's) observation tensor, written into a float32 buffer (the layout of
:class:`parlour.rl.encoding.samba.SambaEncoding`; compiled)."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core.cards import JOKER
from parlour.games.samba.actions import AddToMeld, Discard, Draw, Pass, Stage, TakeTop
from parlour.games.samba.parts.melds import Meld, meets_going_out
from parlour.games.samba.state import State
from parlour.games.samba.view import SambaView
from parlour.rl.fill.common import CardBlocks, Sizes, Slow, block, put_counts

PHASES = ("draw", "meld", "pile_open", "answer", "over")
#: features per meld slot (``MELD_FEATURES`` of the encoding)
MELD_WIDTH = 17
#: slots per meld of the ``add_to_meld`` ids: naturals of each suit (a sequence: low, high
#: end), then the wild cards 2♣ 2♦ 2♥ 2♠ and the joker
ADD_SLOTS = 9


def kind_index(kind: str) -> int:
    if kind == "group":
        return 1
    if kind == "sequence":
        return 2
    if kind == "wild":
        return 3
    if kind == "black3":
        return 4
    raise KeyError(kind)


class SambaFill:
    def __init__(self, start: dict[str, int], players: int, sides: int) -> None:
        self.n = players
        self.cards = CardBlocks()
        self.phase = start["phase"]
        self.to_act = start["to_act"]
        self.dealer = start["dealer"]
        self.hand_number = start["hand_number"]
        self.hand = start["hand"]
        self.pending = start["pending"]
        self.taken_top = start["taken_top"]
        self.pile_top = start["pile_top"]
        self.pile = start["pile"]
        self.pile_size = start["pile_size"]
        self.stock_size = start["stock_size"]
        self.turn = start["turn"]
        self.hand_size = [start[f"seat+{k}.hand_size"] for k in range(players)]
        self.known = [start[f"seat+{k}.known"] for k in range(players)]
        self.status = [start[f"side+{k}.status"] for k in range(sides)]
        self.melds = [start[f"side+{k}.melds"] for k in range(sides)]
        self.meld_cache: dict[int, tuple[tuple[Meld, ...], memoryview[float]]] = {}
        #: whether a side's melds let it go out, by the melds tuple's identity (kept alive)
        self.minimums: dict[int, int] = {}
        self.sizes_of = Sizes()
        self.out_cache: dict[int, tuple[tuple[Meld, ...], bool]] = {}

    def fill(self, view: SambaView, buf: memoryview[float], base: int) -> None:
        seat = view.seat
        assert seat is not None
        me: int = seat
        n = self.n
        buf[base + self.phase + PHASES.index(view.phase)] = 1.0
        to_act = view.to_act
        if to_act is not None:
            buf[base + self.to_act + (to_act - me) % n] = 1.0
        buf[base + self.dealer + (view.dealer - me) % n] = 1.0
        buf[base + self.hand_number] = float(view.hand_number)
        self.cards.put(buf, base + self.hand, view.hand)
        self.cards.put(buf, base + self.pending, view.pending)
        if view.taken_top >= 0:
            buf[base + self.taken_top + view.taken_top] = 1.0
        if view.pile_top >= 0:
            buf[base + self.pile_top + view.pile_top] = 1.0
        self.cards.put(buf, base + self.pile, view.pile)
        buf[base + self.pile_size] = float(view.pile_size)
        buf[base + self.stock_size] = float(view.stock_size)
        b = base + self.turn
        if view.asked:
            buf[b] = 1.0
        if view.permission == "yes":
            buf[b + 1] = 1.0
        elif view.permission == "no":
            buf[b + 2] = 1.0
        buf[b + 3] = float(view.takebacks)
        for p in view.players:
            k = (p.seat - me) % n
            buf[base + self.hand_size[k]] = float(p.hand_size)
            self.cards.put(buf, base + self.known[k], p.known)
        own = view.players[me].side
        sides = view.sides
        ns = len(sides)
        for sv in sides:
            k = (sv.side - own) % ns
            b = base + self.status[k]
            buf[b] = sv.score / 1000.0
            if sv.opened:
                buf[b + 1] = 1.0
            buf[b + 2] = sv.opening_minimum / 10.0
            if sv.can_go_out:
                buf[b + 3] = 1.0
            buf[b + 4] = float(len(sv.red_threes))
            melds = sv.melds
            if melds:
                b = base + self.melds[k]
                blk = self._meld_block(sv.side, melds)
                buf[b : b + len(melds) * MELD_WIDTH] = blk

    def fill_state(self, s: State, seat: int, buf: memoryview[float], base: int) -> None:
        """What :meth:`fill` writes for ``observe(s, seat)``, read from the state without
        building the view (the fields the view takes: what ``seat`` may know;
        ``tests/rl/test_fill.py`` keeps the two byte-identical)."""
        me = seat
        n = self.n
        buf[base + self.phase + PHASES.index(s.phase)] = 1.0
        if not s.finished:
            buf[base + self.to_act + (s.to_act - me) % n] = 1.0
        buf[base + self.dealer + (s.dealer - me) % n] = 1.0
        buf[base + self.hand_number] = float(s.hand_no)
        put_counts(buf, base + self.hand, s.hands[me])
        self.cards.put(buf, base + self.pending, s.pending)
        if s.taken_top >= 0:
            buf[base + self.taken_top + s.taken_top] = 1.0
        pile = s.pile
        if pile:
            buf[base + self.pile_top + pile[-1]] = 1.0
            self.cards.put(buf, base + self.pile, pile)
        buf[base + self.pile_size] = float(len(pile))
        buf[base + self.stock_size] = float(s.stock_len)
        b = base + self.turn
        if s.asked:
            buf[b] = 1.0
        if s.permission == 1:
            buf[b + 1] = 1.0
        elif s.permission == -1:
            buf[b + 2] = 1.0
        buf[b + 3] = float(s.takebacks)
        sizes = s.sizes
        known = s.known
        for i in range(s.players):
            k = (i - me) % n
            buf[base + self.hand_size[k]] = float(sizes[i])
            seen = known[i]
            if self.sizes_of.of(seen):
                put_counts(buf, base + self.known[k], seen)
        own = s.side_of[me]
        ns = len(s.sides)
        rules = s.rules
        for side in range(ns):
            k = (side - own) % ns
            b = base + self.status[k]
            score = s.scores[side]
            buf[b] = score / 1000.0
            if s.opened[side]:
                buf[b + 1] = 1.0
            minimum = self.minimums.get(score)
            if minimum is None:
                # the rules' table (interpreted), once per score (one filler: one set of rules)
                minimum = self.minimums[score] = rules.opening_minimum(score)
            buf[b + 2] = minimum / 10.0
            melds = s.melds[side]
            if self._can_go_out(melds, rules.going_out):
                buf[b + 3] = 1.0
            buf[b + 4] = float(len(s.red3[side]))
            if melds:
                b = base + self.melds[k]
                buf[b : b + len(melds) * MELD_WIDTH] = self._meld_block(side, melds)

    def _can_go_out(self, melds: tuple[Meld, ...], going_out: str) -> bool:
        hit = self.out_cache.get(id(melds))
        if hit is not None and hit[0] is melds:
            return hit[1]
        found = meets_going_out(melds, going_out)
        if len(self.out_cache) >= 4096:
            self.out_cache.clear()
        self.out_cache[id(melds)] = (melds, found)
        return found

    def _meld_block(self, k: int, melds: tuple[Meld, ...]) -> memoryview[float]:
        """A side's melds as one block (the same whoever views them), made once per melds
        tuple: the engine keeps a side's tuple while its melds do not change, so most steps
        find it here (by the tuple's identity: the entry keeps the tuple alive, so its id is
        not reused while the entry exists; a batch's matches each find their own)."""
        hit = self.meld_cache.get(id(melds))
        if hit is not None and hit[0] is melds:
            return hit[1]
        values = [0.0] * (len(melds) * MELD_WIDTH)
        b = 0
        for m in melds:
            meld_entries(values, b, m)
            b += MELD_WIDTH
        found = block(values)
        if len(self.meld_cache) >= 4096:
            self.meld_cache.clear()
        self.meld_cache[id(melds)] = (melds, found)
        return found


def meld_entries(buf: list[float], b: int, m: Meld) -> None:
    buf[b] = 1.0
    buf[b + kind_index(m.kind)] = 1.0
    buf[b + 5] = float(m.rank)
    buf[b + 6] = float(m.high)
    if m.suit >= 0:
        buf[b + 7 + m.suit] = 1.0
    buf[b + 11] = float(len(m.cards))
    buf[b + 12] = float(m.wilds)
    if m.canasta == "pure":
        buf[b + 13] = 1.0
    elif m.canasta == "mixed":
        buf[b + 14] = 1.0
    if m.samba:
        buf[b + 15] = 1.0
    if m.bolivia:
        buf[b + 16] = 1.0


class SambaIds:
    """The ids of the frequent actions (discard, stage, add to a meld, draw, take the top,
    pass) computed here; the others by the encoding's ``_action_to_id`` (``slow``)."""

    def __init__(self, draw: int, take_top: int, stage: int, add: int, discard: int, pas: int):
        self.draw = draw
        self.take_top = take_top
        self.stage = stage
        self.add = add
        self.discard = discard
        self.pas = pas

    def ids(self, state: State, actions: Sequence[object], slow: Slow) -> list[int]:
        out: list[int] = []
        for a in actions:
            if isinstance(a, Discard):
                out.append(self.discard + a.card)
            elif isinstance(a, Stage):
                out.append(self.stage + a.card)
            elif isinstance(a, AddToMeld):
                meld = state.melds[state.side_of[state.to_act]][a.meld]
                card = a.card
                if card == 0 or card == 13 or card == 26 or card == 39:
                    slot = 4 + card // 13
                elif card == JOKER:
                    slot = 8
                elif meld.kind == "sequence":
                    slot = 0 if card % 13 + 2 < meld.rank else 1
                else:
                    slot = card // 13
                out.append(self.add + a.meld * ADD_SLOTS + slot)
            elif isinstance(a, Draw):
                out.append(self.draw)
            elif isinstance(a, TakeTop):
                out.append(self.take_top + a.meld)
            elif isinstance(a, Pass):
                out.append(self.pas)
            else:
                out.append(int(slow(state, a)))
        return out
