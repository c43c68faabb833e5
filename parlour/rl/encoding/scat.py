"""Scat / 31 / Blitz: action ids and observation tensors.

The one module of ``parlour.rl`` that imports Scat's action classes (``parlour.games.scat.actions``
today).  Card kinds 0-51 (no jokers); with two packs two cards share a kind.
"""

from __future__ import annotations

from typing import Any

from parlour.games.scat.actions import (
    Declare31,
    Discard,
    DrawStock,
    EndHand,
    Hammer,
    Knock,
    TakeDiscard,
    ThrowDown,
)
from parlour.rl.encoding.base import Encoding, Writer, rel
from parlour.rl.fill.scat import ScatFill, ScatIds

PHASES = ("dealt31", "throw_down", "draw", "discard", "over")


class ScatEncoding(Encoding):
    game_name = "scat"

    def _build_actions(self) -> None:
        sp = self.space
        self.DRAW = sp.add("draw_stock", 1, "draw the top card of the stock")
        self.TAKE = sp.add("take_discard", 1, "take the top card of the discard pile")
        self.KNOCK = sp.add("knock", 1, "knock")
        self.HAMMER = sp.add("hammer", 1, "(hammer) call a showdown instead of drawing")
        self.THROW = sp.add("throw_down", 2, "(throw_down) 0 = play on, 1 = call a showdown")
        self.END = sp.add("end_hand", 1, "stock empty: end the hand")
        self.DECLARE = sp.add("declare_31", 1, "show the 31 you were dealt")
        self.DISCARD = sp.add("discard", 52, "discard this card kind")
        self.DISCARD31 = sp.add("discard_declare", 52, "discard this card kind and declare 31")

    def _action_to_id(self, state: Any, action: Any) -> Any:
        t = type(action)
        if t is Discard:
            return (self.DISCARD31 if action.declare else self.DISCARD) + action.card
        if t is DrawStock:
            return self.DRAW
        if t is TakeDiscard:
            return self.TAKE
        if t is Knock:
            return self.KNOCK
        if t is Hammer:
            return self.HAMMER
        if t is ThrowDown:
            return self.THROW + int(action.call)
        if t is EndHand:
            return self.END
        if t is Declare31:
            return self.DECLARE
        raise ValueError(f"not a Scat action: {action!r}")

    def id_to_action(self, state: Any, action_id: int) -> Any:
        r = self.space.range_of(action_id)
        i = action_id - r.start
        if r.name == "discard":
            return Discard(i)
        if r.name == "discard_declare":
            return Discard(i, True)
        if r.name == "throw_down":
            return ThrowDown(bool(i))
        simple: dict[str, Any] = {
            "draw_stock": DrawStock(),
            "take_discard": TakeDiscard(),
            "knock": Knock(),
            "hammer": Hammer(),
            "end_hand": EndHand(),
            "declare_31": Declare31(),
        }
        return simple[r.name]

    # --- observations -----------------------------------------------------------------------

    def _build_layout(self) -> None:
        lay = self.layout
        n = self.players
        seats = [f"seat+{k}" for k in range(n)]
        lay.add("phase", len(PHASES), "onehot", "phase", PHASES)
        lay.add("to_act", n, "onehot", "seat to act, numbered from the viewer", seats)
        lay.add("dealer", n, "onehot", "dealer, numbered from the viewer", seats)
        lay.add("knocker", n, "onehot", "seat that knocked", seats)
        lay.cards("hand", "the viewer's hand (empty while deciding a throw-down blind)")
        lay.add(
            "hand_value",
            2,
            "numbers",
            "value of the viewer's three cards (0 with four), holds an undeclared 31",
            ("value", "undeclared 31"),
        )
        lay.cards("pile_top", "top card of the discard pile")
        lay.cards(
            "pile",
            "every card in the discard pile with the open_pile house rule; empty when the pile "
            "is squared up (the default: only the top card is visible)",
        )
        lay.cards("taken", "the card taken from the pile this turn")
        lay.add(
            "counts",
            4,
            "numbers",
            "pile size, stock size, turns begun this hand, hands played",
            ("pile", "stock", "turn", "hand"),
        )
        lay.add("hand_sizes", n, "numbers", "cards held, by seat from the viewer", seats)
        lay.add("lives", n, "numbers", "lives (or points) by seat from the viewer", seats)
        lay.add("eliminated", n, "flags", "seats out of the match", seats)
        for k in range(n):
            lay.cards(f"seat+{k}.known", f"cards known to be in seat viewer+{k}'s hand")

    def _make_ids(self) -> Any:
        return ScatIds({r.name: r.start for r in self.space.ranges})

    def _make_filler(self) -> Any:
        return ScatFill(self.layout.start_of, self.players)

    def _write(self, view: Any, w: Writer) -> None:
        me = view.seat
        n = self.players
        w.onehot("phase", PHASES.index(view.phase))
        w.onehot("to_act", None if view.to_act is None else rel(view.to_act, me, n))
        w.onehot("dealer", rel(view.dealer, me, n))
        w.onehot("knocker", None if view.knocker is None else rel(view.knocker, me, n))
        w.cards("hand", view.hand)
        w.values(
            "hand_value",
            (float(view.hand_value or 0.0), float(bool(view.undeclared_31))),
        )
        w.onehot("pile_top", view.pile_top)
        w.cards("pile", view.pile)
        w.onehot("taken", view.taken)
        w.values("counts", (view.pile_size, view.stock_size, view.turn_in_hand, view.hand_number))
        w.values("hand_sizes", [view.hand_sizes[(me + k) % n] for k in range(n)])
        w.values("lives", [view.lives[(me + k) % n] for k in range(n)])
        for s, h in enumerate(view.eliminated_in):
            if h >= 0:
                w.set("eliminated", 1.0, rel(s, me, n))
        for sc in view.known:
            w.cards(f"seat+{rel(sc.seat, me, n)}.known", sc.cards)
