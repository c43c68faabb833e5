"""Samba (and Bolivia): action ids and observation tensors.

The one module of ``parlour.rl`` that imports Samba's action classes.

Samba builds a new meld card by card: ``Stage(card)`` puts one card of the hand into the meld
being built (the third card completes it), so a staged meld is a sequence of ``stage`` ids, one
per card, with ``unstage`` to take the unfinished meld back.  Melds on the table are named by
their index in the side's list (``M`` = 52 slots: 150 cards that are not 3s make at most 50
melds of three, plus two melds of black 3s).  A group of black 3s is one id: its black 3s
(``meld_black_threes``), and with ``black_three_wilds`` its wild cards too
(``meld_black_threes_wild``, after every other range so the ids before it do not move).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parlour.core.cards import JOKER, NUM_KINDS
from parlour.games.samba.actions import (
    AddToMeld,
    AnswerGoOut,
    AskGoOut,
    Discard,
    Draw,
    LayRedThree,
    MeldBlackThrees,
    MergeGroups,
    Pass,
    Stage,
    TakePile,
    TakeTop,
    UndoOpening,
    Unstage,
)
from parlour.rl.encoding.base import Encoding, Writer, rel
from parlour.rl.fill.samba import ADD_SLOTS as fill_add_slots
from parlour.rl.fill.samba import MELD_WIDTH, SambaFill, SambaIds

#: meld slots per side
MAX_MELDS = 52
WILD_KINDS = (0, 13, 26, 39, JOKER)
#: the unordered suit pairs of a pile take (suit a ≤ suit b), in id order
SUIT_PAIRS = tuple((a, b) for a in range(4) for b in range(a, 4))
#: per meld: 0-3 natural of that suit (group) / 0 low end, 1 high end (sequence); 4-8 wilds
ADD_SLOTS = 9
#: per merge: the other group (a later index) and which earlier group of that rank (0-4)
MERGE_SLOTS = 5
PHASES = ("draw", "meld", "pile_open", "answer", "over")
MELD_FEATURES = (
    "present",
    "group",
    "sequence",
    "wild",
    "black3",
    "rank",
    "high",
    "clubs",
    "diamonds",
    "hearts",
    "spades",
    "cards",
    "wilds",
    "pure canasta",
    "mixed canasta",
    "samba",
    "bolivia",
)
_KIND_INDEX = {"group": 1, "sequence": 2, "wild": 3, "black3": 4}
#: the one or two wild cards of a group of black 3s (black_three_wilds), kinds in order
BLACK3_WILDS = tuple(
    [(w,) for w in WILD_KINDS] + [(a, b) for i, a in enumerate(WILD_KINDS) for b in WILD_KINDS[i:]]
)


def _rank(kind: int) -> int:
    return 0 if kind == JOKER else kind % 13 + 2


class SambaEncoding(Encoding):
    game_name = "samba"

    def _build_actions(self) -> None:
        sp = self.space
        m = MAX_MELDS
        self.DRAW = sp.add("draw", 1, "draw from the stock")
        self.TAKE_PILE = sp.add(
            "take_pile",
            len(SUIT_PAIRS),
            "take the pile with a natural pair of the top card's rank; index = suit pair "
            "(♣♣ ♣♦ ♣♥ ♣♠ ♦♦ ♦♥ ♦♠ ♥♥ ♥♠ ♠♠)",
        )
        self.TAKE_TOP = sp.add("take_top", m, "take the top discard onto sequence meld i")
        self.STAGE = sp.add("stage", NUM_KINDS, "put this card kind into the meld being built")
        self.UNSTAGE = sp.add("unstage", 1, "take the unfinished new meld back")
        self.ADD = sp.add(
            "add_to_meld",
            m * ADD_SLOTS,
            "meld i × 9 slots: a group's natural of suit ♣♦♥♠ (0-3) or a sequence's low (0) "
            "or high (1) end; wilds 2♣ 2♦ 2♥ 2♠ Jk (4-8)",
        )
        self.MERGE = sp.add(
            "merge_groups",
            m * MERGE_SLOTS,
            "group j × 5: merge j into the k-th earlier group of its rank (k = 0-4)",
        )
        self.RED3 = sp.add("lay_red_three", 2, "lay out 3♦ / 3♥")
        self.BLACK3 = sp.add(
            "meld_black_threes", 16, "meld black 3s: index = 4 × (3♣ count) + (3♠ count)"
        )
        self.UNDO = sp.add("undo_opening", 1, "take back this turn's opening melds")
        self.DISCARD = sp.add("discard", NUM_KINDS, "discard this card kind")
        self.PASS = sp.add("pass", 1, "end the turn keeping the last card")
        self.ASK = sp.add("ask_go_out", 1, "ask 'partner, may I go out?'")
        self.ANSWER = sp.add("answer", 2, "the partner's answer: 0 = no, 1 = yes")
        # last, so that the ids before stay those of the rules without it
        self.BLACK3_WILD = -1
        if self.rules.black_three_wilds:
            self.BLACK3_WILD = sp.add(
                "meld_black_threes_wild",
                16 * len(BLACK3_WILDS),
                "meld black 3s with wild cards: index = 20 × (4 × (3♣ count) + (3♠ count)) + "
                "wilds (0-4: 2♣ 2♦ 2♥ 2♠ Jk; 5-19: two of them, in that order: 2♣2♣ 2♣2♦ … JkJk)",
            )

    # --- ids --------------------------------------------------------------------------------

    def _action_to_id(self, state: Any, action: Any) -> Any:
        t = type(action)
        if t is Discard:
            return self.DISCARD + action.card
        if t is Stage:
            return self.STAGE + action.card
        if t is AddToMeld:
            side = state.side_of[state.to_act]
            meld = state.melds[side][action.meld]
            card = action.card
            if card in WILD_KINDS:
                slot = 4 + WILD_KINDS.index(card)
            elif meld.kind == "sequence":
                slot = 0 if _rank(card) < meld.rank else 1
            else:
                slot = card // 13
            return self.ADD + action.meld * ADD_SLOTS + slot
        if t is Draw:
            return self.DRAW
        if t is TakePile:
            a, b = action.pair
            return self.TAKE_PILE + SUIT_PAIRS.index((a // 13, b // 13))
        if t is TakeTop:
            return self.TAKE_TOP + action.meld
        if t is Unstage:
            return self.UNSTAGE
        if t is MergeGroups:
            side = state.side_of[state.to_act]
            melds = state.melds[side]
            rank = melds[action.other].rank
            earlier = [
                i for i in range(action.other) if melds[i].kind == "group" and melds[i].rank == rank
            ]
            return self.MERGE + action.other * MERGE_SLOTS + earlier.index(action.meld)
        if t is LayRedThree:
            return self.RED3 + (0 if action.card == 14 else 1)
        if t is MeldBlackThrees:
            x = action.cards.count(1)
            y = action.cards.count(40)
            wilds = tuple(sorted(c for c in action.cards if c in WILD_KINDS))
            if wilds:
                if self.BLACK3_WILD < 0:
                    raise ValueError("black 3s take no wild cards under these rules")
                return (
                    self.BLACK3_WILD + len(BLACK3_WILDS) * (4 * x + y) + BLACK3_WILDS.index(wilds)
                )
            return self.BLACK3 + 4 * x + y
        if t is UndoOpening:
            return self.UNDO
        if t is Pass:
            return self.PASS
        if t is AskGoOut:
            return self.ASK
        if t is AnswerGoOut:
            return self.ANSWER + int(action.yes)
        raise ValueError(f"not a Samba action: {action!r}")

    def id_to_action(self, state: Any, action_id: int) -> Any:
        r = self.space.range_of(action_id)
        i = action_id - r.start
        name = r.name
        if name == "discard":
            return Discard(i)
        if name == "stage":
            return Stage(i)
        if name == "draw":
            return Draw()
        if name == "take_pile":
            if not state.pile:
                raise ValueError("no pile to take")
            top = state.pile[-1]
            rank = _rank(top)
            sa, sb = SUIT_PAIRS[i]
            return TakePile((sa * 13 + rank - 2, sb * 13 + rank - 2))
        if name == "take_top":
            return TakeTop(i)
        if name == "unstage":
            return Unstage()
        if name == "add_to_meld":
            index, slot = divmod(i, ADD_SLOTS)
            side = state.side_of[state.to_act]
            melds = state.melds[side]
            if index >= len(melds):
                raise ValueError(f"the side has no meld {index}")
            meld = melds[index]
            if slot >= 4:
                return AddToMeld(index, WILD_KINDS[slot - 4])
            if meld.kind == "group":
                return AddToMeld(index, slot * 13 + meld.rank - 2)
            if meld.kind == "sequence" and slot < 2:
                rank = meld.rank - 1 if slot == 0 else meld.high + 1
                if not 4 <= rank <= 14:
                    raise ValueError("the sequence cannot be extended that way")
                return AddToMeld(index, meld.suit * 13 + rank - 2)
            raise ValueError(f"slot {slot} names no card for a {meld.kind} meld")
        if name == "merge_groups":
            other, k = divmod(i, MERGE_SLOTS)
            side = state.side_of[state.to_act]
            melds = state.melds[side]
            if other >= len(melds) or melds[other].kind != "group":
                raise ValueError(f"meld {other} is not a group")
            rank = melds[other].rank
            earlier = [
                j for j in range(other) if melds[j].kind == "group" and melds[j].rank == rank
            ]
            if k >= len(earlier):
                raise ValueError("no such earlier group")
            return MergeGroups(earlier[k], other)
        if name == "lay_red_three":
            return LayRedThree(14 if i == 0 else 27)
        if name == "meld_black_threes":
            x, y = divmod(i, 4)
            return MeldBlackThrees((1,) * x + (40,) * y)
        if name == "meld_black_threes_wild":
            xy, w = divmod(i, len(BLACK3_WILDS))
            x, y = divmod(xy, 4)
            return MeldBlackThrees((1,) * x + (40,) * y + BLACK3_WILDS[w])
        if name == "undo_opening":
            return UndoOpening()
        if name == "pass":
            return Pass()
        if name == "ask_go_out":
            return AskGoOut()
        if name == "answer":
            return AnswerGoOut(bool(i))
        raise AssertionError(name)  # pragma: no cover

    # --- observations -----------------------------------------------------------------------

    def _build_layout(self) -> None:
        lay = self.layout
        n = self.players
        self.sides = len(self._sides())
        self._melds_seen: dict[tuple[int, int], tuple[Any, np.ndarray, np.ndarray]] = {}
        seats = [f"seat+{k}" for k in range(n)]
        lay.add("phase", len(PHASES), "onehot", "phase of the turn", PHASES)
        lay.add("to_act", n, "onehot", "seat to act, numbered from the viewer", seats)
        lay.add("dealer", n, "onehot", "dealer, numbered from the viewer", seats)
        lay.add("hand_number", 1, "numbers", "hands played before this one")
        lay.cards("hand", "the viewer's hand (count per card kind)")
        lay.cards("pending", "cards of the new meld being built (staged)")
        lay.cards("taken_top", "the pile top taken for an opening still being staged")
        lay.cards("pile_top", "top card of the discard pile")
        lay.cards("pile", "every card in the discard pile (all were seen)")
        lay.add("pile_size", 1, "numbers", "cards in the discard pile")
        lay.add("stock_size", 1, "numbers", "cards in the stock")
        lay.add(
            "turn",
            4,
            "flags",
            "asked partner / answer yes / answer no / take-backs made this turn",
            ("asked", "yes", "no", "takebacks"),
        )
        for k in range(n):
            lay.add(f"seat+{k}.hand_size", 1, "numbers", f"hand size of seat viewer+{k}")
            lay.cards(
                f"seat+{k}.known", f"cards known to be in seat viewer+{k}'s hand (from the pile)"
            )
        for k in range(self.sides):
            who = "the viewer's side" if k == 0 else f"side viewer+{k}"
            lay.add(
                f"side+{k}.status",
                5,
                "numbers",
                f"{who}: score/1000, opened, opening minimum/10, meets going out, red 3s",
                ("score/1000", "opened", "minimum/10", "can go out", "red threes"),
            )
            lay.add(
                f"side+{k}.melds",
                MAX_MELDS * len(MELD_FEATURES),
                "numbers",
                f"{who}: 52 meld slots in meld order × {len(MELD_FEATURES)} features ("
                + ", ".join(MELD_FEATURES)
                + ")",
                tuple(f"{i}.{f}" for i in range(MAX_MELDS) for f in MELD_FEATURES),
            )

    def _sides(self) -> tuple[tuple[int, ...], ...]:
        n = self.players
        if n == 4:
            return ((0, 2), (1, 3))
        if n == 6:
            return ((0, 3), (1, 4), (2, 5))
        return tuple((s,) for s in range(n))

    def _make_ids(self) -> Any:
        assert fill_add_slots == ADD_SLOTS
        return SambaIds(self.DRAW, self.TAKE_TOP, self.STAGE, self.ADD, self.DISCARD, self.PASS)

    def _make_filler(self) -> Any:
        assert len(MELD_FEATURES) == MELD_WIDTH
        return SambaFill(self.layout.start_of, self.players, self.sides)

    def _write(self, view: Any, w: Writer) -> None:
        me = view.seat
        n = self.players
        w.onehot("phase", PHASES.index(view.phase))
        w.onehot("to_act", None if view.to_act is None else rel(view.to_act, me, n))
        w.onehot("dealer", rel(view.dealer, me, n))
        w.set("hand_number", view.hand_number)
        w.cards("hand", view.hand)
        w.cards("pending", view.pending)
        w.onehot("taken_top", view.taken_top)
        w.onehot("pile_top", view.pile_top)
        w.cards("pile", view.pile)
        w.set("pile_size", view.pile_size)
        w.set("stock_size", view.stock_size)
        w.values(
            "turn",
            (
                float(view.asked),
                float(view.permission == "yes"),
                float(view.permission == "no"),
                float(view.takebacks),
            ),
        )
        for p in view.players:
            k = rel(p.seat, me, n)
            w.set(f"seat+{k}.hand_size", p.hand_size)
            w.cards(f"seat+{k}.known", p.known)
        own = view.players[me].side
        ns = len(view.sides)
        for sv in view.sides:
            k = (sv.side - own) % ns
            w.values(
                f"side+{k}.status",
                (
                    sv.score / 1000.0,
                    float(sv.opened),
                    sv.opening_minimum / 10.0,
                    float(sv.can_go_out),
                    float(len(sv.red_threes)),
                ),
            )
            if sv.melds:
                w.extend(*self._meld_block(k, sv.melds))

    def _meld_block(self, k: int, melds: tuple[Any, ...]) -> tuple[np.ndarray, np.ndarray]:
        """The entries (indices, values) of side ``k``'s meld segment, made once per melds
        tuple (immutable; the engine keeps a side's tuple while its melds do not change, so
        most steps find it here)."""
        key = (id(melds), k)
        hit = self._melds_seen.get(key)
        if hit is not None and hit[0] is melds:
            return hit[1], hit[2]
        start = self.layout[f"side+{k}.melds"].start
        nf = len(MELD_FEATURES)
        idx: list[int] = []
        val: list[float] = []
        for i, m in enumerate(melds):
            b = start + i * nf
            entries = [
                (b, 1.0),
                (b + _KIND_INDEX[m.kind], 1.0),
                (b + 5, float(m.rank)),
                (b + 6, float(m.high)),
                (b + 11, float(len(m.cards))),
                (b + 12, float(m.wilds)),
                (b + 13, float(m.canasta == "pure")),
                (b + 14, float(m.canasta == "mixed")),
                (b + 15, float(m.samba)),
                (b + 16, float(m.bolivia)),
            ]
            if m.suit >= 0:
                entries.append((b + 7 + m.suit, 1.0))
            for j, v in entries:
                if v:
                    idx.append(j)
                    val.append(v)
        if len(self._melds_seen) >= 1024:
            self._melds_seen.clear()
        out = (np.asarray(idx, dtype=np.intp), np.asarray(val, dtype=np.float32))
        self._melds_seen[key] = (melds, *out)
        return out
