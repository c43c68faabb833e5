"""Scat's observation tensor, written into a float32 buffer (the layout of
:class:`parlour.rl.encoding.scat.ScatEncoding`; compiled)."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.games.scat.actions import Discard, DrawStock, Knock, TakeDiscard
from parlour.games.scat.state import OVER, THROW_DOWN, ScatState
from parlour.games.scat.view import ScatView, counted_value
from parlour.rl.fill.common import CardBlocks, Slow, add_cards

PHASES = ("dealt31", "throw_down", "draw", "discard", "over")


class ScatFill:
    """The segment starts of one layout, and :meth:`fill`."""

    def __init__(self, start: dict[str, int], players: int) -> None:
        self.n = players
        self.cards = CardBlocks()
        self.phase = start["phase"]
        self.to_act = start["to_act"]
        self.dealer = start["dealer"]
        self.knocker = start["knocker"]
        self.hand = start["hand"]
        self.hand_value = start["hand_value"]
        self.pile_top = start["pile_top"]
        self.pile = start["pile"]
        self.taken = start["taken"]
        self.counts = start["counts"]
        self.hand_sizes = start["hand_sizes"]
        self.lives = start["lives"]
        self.eliminated = start["eliminated"]
        self.known = [start[f"seat+{k}.known"] for k in range(players)]

    def fill(self, view: ScatView, buf: memoryview[float], base: int) -> None:
        """Write ``view``'s entries at ``base`` + their index (``buf`` is zero there)."""
        seat = view.seat
        assert seat is not None
        me: int = seat
        n = self.n
        buf[base + self.phase + PHASES.index(view.phase)] = 1.0
        to_act = view.to_act
        if to_act is not None:
            buf[base + self.to_act + (to_act - me) % n] = 1.0
        buf[base + self.dealer + (view.dealer - me) % n] = 1.0
        knocker = view.knocker
        if knocker is not None:
            buf[base + self.knocker + (knocker - me) % n] = 1.0
        self.cards.put(buf, base + self.hand, view.hand)
        value = view.hand_value
        if value:
            buf[base + self.hand_value] = float(value)
        if view.undeclared_31:
            buf[base + self.hand_value + 1] = 1.0
        if view.pile_top >= 0:
            buf[base + self.pile_top + view.pile_top] = 1.0
        self.cards.put(buf, base + self.pile, view.pile)
        if view.taken >= 0:
            buf[base + self.taken + view.taken] = 1.0
        b = base + self.counts
        buf[b] = float(view.pile_size)
        buf[b + 1] = float(view.stock_size)
        buf[b + 2] = float(view.turn_in_hand)
        buf[b + 3] = float(view.hand_number)
        sizes = view.hand_sizes
        lives = view.lives
        b = base + self.hand_sizes
        for k in range(min(n, len(sizes))):
            buf[b + k] = float(sizes[(me + k) % n])
        b = base + self.lives
        for k in range(min(n, len(lives))):
            buf[b + k] = float(lives[(me + k) % n])
        b = base + self.eliminated
        for s, h in enumerate(view.eliminated_in):
            if h >= 0:
                buf[b + (s - me) % n] = 1.0
        for sc in view.known:
            add_cards(buf, base + self.known[(sc.seat - me) % n], sc.cards)

    def fill_state(self, state: ScatState, seat: int, buf: memoryview[float], base: int) -> None:
        """What :meth:`fill` writes for ``observe(state, seat)``, read from the state without
        building the view (the fields the view takes: what ``seat`` may know;
        ``tests/rl/test_fill.py`` keeps the two byte-identical)."""
        me = seat
        n = self.n
        phase = state.phase
        buf[base + self.phase + PHASES.index(phase)] = 1.0
        if phase != OVER:
            buf[base + self.to_act + (state.to_act - me) % n] = 1.0
        buf[base + self.dealer + (state.dealer - me) % n] = 1.0
        if state.knocker >= 0:
            buf[base + self.knocker + (state.knocker - me) % n] = 1.0
        # the first player deciding a throw-down has not looked at the cards
        if not (phase == THROW_DOWN and seat == state.to_act):
            hand = state.hands[me]
            self.cards.put(buf, base + self.hand, hand)
            if len(hand) == 3:
                value = counted_value(state, me)
                if value:
                    buf[base + self.hand_value] = float(value)
            if state.silent[me]:
                buf[base + self.hand_value + 1] = 1.0
        pile = state.pile
        if pile:
            buf[base + self.pile_top + pile[-1]] = 1.0
            if state.rules.open_pile:
                self.cards.put(buf, base + self.pile, pile)
        if state.taken >= 0:
            buf[base + self.taken + state.taken] = 1.0
        b = base + self.counts
        buf[b] = float(len(pile))
        buf[b + 1] = float(len(state.stock))
        buf[b + 2] = float(state.turn_no)
        buf[b + 3] = float(state.hand_no)
        hands = state.hands
        b = base + self.hand_sizes
        for k in range(min(n, len(hands))):
            buf[b + k] = float(len(hands[(me + k) % n]))
        lives = state.lives
        b = base + self.lives
        for k in range(min(n, len(lives))):
            buf[b + k] = float(lives[(me + k) % n])
        b = base + self.eliminated
        for s, h in enumerate(state.out_order):
            if h >= 0:
                buf[b + (s - me) % n] = 1.0
        for s, cards in enumerate(state.known):
            if cards:
                add_cards(buf, base + self.known[(s - me) % n], cards)


class ScatIds:
    """The ids of Scat's actions (the encoding's ``_action_to_id``, compiled)."""

    def __init__(self, start: dict[str, int]) -> None:
        self.draw = start["draw_stock"]
        self.take = start["take_discard"]
        self.knock = start["knock"]
        self.hammer = start["hammer"]
        self.throw = start["throw_down"]
        self.end = start["end_hand"]
        self.declare = start["declare_31"]
        self.discard = start["discard"]
        self.discard31 = start["discard_declare"]

    def ids(self, state: object, actions: Sequence[object], slow: Slow) -> list[int]:
        out: list[int] = []
        for a in actions:
            if isinstance(a, Discard):
                out.append((self.discard31 if a.declare else self.discard) + a.card)
            elif isinstance(a, DrawStock):
                out.append(self.draw)
            elif isinstance(a, TakeDiscard):
                out.append(self.take)
            elif isinstance(a, Knock):
                out.append(self.knock)
            else:
                out.append(int(slow(state, a)))
        return out
