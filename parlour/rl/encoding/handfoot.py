"""Samba Hand and Foot: action ids and observation tensors.

The one module of ``parlour.rl`` that imports Hand and Foot's action classes.

The engine lists one move per class of interchangeable cards (the suits of 2s, of 4s-7s and
of black 3s never matter; it plays the lowest suit held), so ids name card *classes*: 37 of
them (2, black 3, 3♦, 3♥, 4, 5, 6, 7, each 8-A of each suit, joker).  A side has at most one
unfinished meld per *target* (a book of each rank 4-A, a run of each suit, the wild book), so
moves onto a meld name the target, not the meld's index: 16 targets.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from parlour.core.cards import JOKER, NUM_KINDS, card_str, rank_str
from parlour.games.handfoot.actions import AddToMeld, Discard, Draw, Meld, Retract, TakePile
from parlour.rl.encoding.base import Encoding, Writer, rel
from parlour.rl.fill.handfoot import HandFootFill, HandFootIds, target_index


def _rep(kind: int) -> int:
    if kind == JOKER:
        return JOKER
    r = kind % 13 + 2
    if r == 2 or 4 <= r <= 7:
        return r - 2
    if r == 3:
        return 1 if kind in (1, 40) else kind
    return kind


REP = tuple(_rep(k) for k in range(NUM_KINDS))
#: the 37 classes, by their representative (the lowest kind of the class)
CLASSES = tuple(sorted(set(REP)))
CLASS_INDEX = {c: i for i, c in enumerate(CLASSES)}
MEMBERS = {c: tuple(k for k in range(NUM_KINDS) if REP[k] == c) for c in CLASSES}
WILD_REPS = (0, JOKER)
RANK_REPS = {r: tuple(sorted({REP[s * 13 + r - 2] for s in range(4)})) for r in range(4, 15)}
SUIT_NAMES = ("♣", "♦", "♥", "♠")
#: meld targets: books of 4..A, runs of each suit, the wild book
TARGETS: tuple[tuple[str, int], ...] = (
    *(("book", r) for r in range(4, 15)),
    *(("run", s) for s in range(4)),
    ("wilds", 0),
)
TARGET_INDEX = {t: i for i, t in enumerate(TARGETS)}


def _target_name(t: tuple[str, int]) -> str:
    kind, key = t
    if kind == "book":
        return f"book of {rank_str(key)}s"
    if kind == "run":
        return f"{SUIT_NAMES[key]} run"
    return "wild book"


def _wilds_allowed(rank: int) -> bool:
    return 4 <= rank <= 14 and rank != 7


def _relevant(t: tuple[str, int]) -> tuple[int, ...]:
    kind, key = t
    if kind == "wilds":
        return WILD_REPS
    if kind == "run":
        return tuple(key * 13 + r - 2 for r in range(8, 15))
    return RANK_REPS[key] + (WILD_REPS if _wilds_allowed(key) else ())


def _new_melds() -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for r in range(4, 15):
        reps = RANK_REPS[r]
        out.extend(combinations_with_replacement(reps, 3))
        if _wilds_allowed(r):
            for pair in combinations_with_replacement(reps, 2):
                out.extend((*pair, w) for w in WILD_REPS)
    for s in range(4):
        for low in range(8, 13):
            out.append(tuple(s * 13 + r - 2 for r in range(low, low + 3)))
    out.extend(combinations_with_replacement(WILD_REPS, 3))
    return [tuple(sorted(m)) for m in out]


NEW_MELDS = tuple(_new_melds())
NEW_MELD_INDEX = {m: i for i, m in enumerate(NEW_MELDS)}
ADDS = tuple((t, c) for t in TARGETS for c in _relevant(t))
ADD_INDEX = {a: i for i, a in enumerate(ADDS)}
PILE_TAKES = tuple(
    (t, tuple(sorted(p))) for t in TARGETS for p in combinations_with_replacement(_relevant(t), 2)
)
PILE_INDEX = {a: i for i, a in enumerate(PILE_TAKES)}
PHASES = ("draw", "play", "over")
#: the index among NEW_MELDS of the three cards of a new meld (a few hundred card triples)
_MELD_IDS: dict[tuple[int, ...], int] = {}


def _target_of(cards: Sequence[int]) -> tuple[str, int]:
    """The target a new meld of these cards makes (top card included)."""
    nats = [c for c in cards if REP[c] not in WILD_REPS]
    if not nats:
        return ("wilds", 0)
    ranks = {c % 13 + 2 for c in nats}
    if len(ranks) == 1:
        return ("book", ranks.pop())
    return ("run", nats[0] // 13)


def _concrete(hand: Sequence[int], reps: Sequence[int]) -> tuple[int, ...]:
    """The cards a move of these classes plays: the lowest suit held of each class."""
    out: list[int] = []
    for rep in reps:
        for k in MEMBERS[rep]:
            if hand[k] > out.count(k):
                out.append(k)
                break
        else:
            raise ValueError("the hand does not hold those cards")
    return tuple(sorted(out))


class HandFootEncoding(Encoding):
    game_name = "handfoot"

    def _build_actions(self) -> None:
        sp = self.space
        self.DRAW = sp.add("draw", 1, "draw from the stock")
        self.RETRACT = sp.add("retract", 1, "take back this turn's melds")
        self.DISCARD = sp.add("discard", len(CLASSES), "discard a card of this class")
        self.MELD = sp.add("meld", len(NEW_MELDS), "start a new meld with these three card classes")
        self.ADD = sp.add("add_to_meld", len(ADDS), "add a card of this class to this target")
        self.PILE = sp.add(
            "take_pile",
            len(PILE_TAKES),
            "take the pile: the top card with these two card classes onto this target",
        )

    def _side_melds(self, state: Any) -> Any:
        return state.melds[state.side_of[state.to_act]]

    def _open_index(self, state: Any, target: tuple[str, int]) -> int:
        for i, m in enumerate(self._side_melds(state)):
            if not m.complete and (m.kind, m.key) == target:
                return i
        return -1

    def _action_to_id(self, state: Any, action: Any) -> Any:
        t = type(action)
        if t is Discard:
            return self.DISCARD + CLASS_INDEX[REP[action.card]]
        if t is AddToMeld:
            m = self._side_melds(state)[action.meld]
            return self.ADD + ADD_INDEX[((m.kind, m.key), REP[action.card])]
        if t is Meld:
            cards = action.cards
            found = _MELD_IDS.get(cards)
            if found is None:
                found = _MELD_IDS[cards] = NEW_MELD_INDEX[tuple(sorted(REP[c] for c in cards))]
            return self.MELD + found
        if t is Draw:
            return self.DRAW
        if t is Retract:
            return self.RETRACT
        if t is TakePile:
            if action.meld >= 0:
                m = self._side_melds(state)[action.meld]
                target = (m.kind, m.key)
            else:
                target = _target_of((state.pile[-1], *action.cards))
            pair = tuple(sorted(REP[c] for c in action.cards))
            return self.PILE + PILE_INDEX[(target, pair)]
        raise ValueError(f"not a Hand and Foot action: {action!r}")

    def id_to_action(self, state: Any, action_id: int) -> Any:
        r = self.space.range_of(action_id)
        i = action_id - r.start
        hand = state.hands[state.to_act]
        if r.name == "draw":
            return Draw()
        if r.name == "retract":
            return Retract()
        if r.name == "discard":
            return Discard(_concrete(hand, (CLASSES[i],))[0])
        if r.name == "meld":
            return Meld(_concrete(hand, NEW_MELDS[i]))
        if r.name == "add_to_meld":
            target, rep = ADDS[i]
            index = self._open_index(state, target)
            if index < 0:
                raise ValueError(f"the side has no unfinished {_target_name(target)}")
            return AddToMeld(index, _concrete(hand, (rep,))[0])
        if r.name == "take_pile":
            target, pair = PILE_TAKES[i]
            return TakePile(_concrete(hand, pair), self._open_index(state, target))
        raise AssertionError(r.name)  # pragma: no cover

    # --- observations -----------------------------------------------------------------------

    def _build_layout(self) -> None:
        self._melds_seen: dict[int, tuple[tuple[Any, ...], np.ndarray, np.ndarray]] = {}
        lay = self.layout
        n = self.players
        seats = [f"seat+{k}" for k in range(n)]
        targets = [_target_name(t) for t in TARGETS]
        lay.add("phase", len(PHASES), "onehot", "phase of the turn", PHASES)
        lay.add("to_act", n, "onehot", "seat to act, numbered from the viewer", seats)
        lay.add(
            "round",
            3,
            "numbers",
            "round (0-based), rounds in the match, this round's meld minimum / 10",
            ("round", "rounds", "minimum/10"),
        )
        lay.cards("hand", "the viewer's hand (count per card kind)")
        lay.cards(
            "pending",
            "pile cards joining the taker's hand after the discard, with the pile_cards_face_up "
            "house rule (empty by default: they are set aside face down)",
        )
        lay.cards("taken_top", "the pile's top card taken this turn")
        lay.cards("pile_top", "top card of the discard pile")
        lay.cards("pile", "every card in the discard pile (all were seen)")
        lay.add(
            "sizes",
            3,
            "numbers",
            "cards in the pile, in the stock, set aside from a pile taken this turn",
            ("pile", "stock", "set aside"),
        )
        lay.add(
            "turn",
            6,
            "numbers",
            "this turn: melds at its start, points melded / 10, provisional, took the pile, "
            "pile taken back, melds taken back",
            ("start melds", "value/10", "provisional", "took pile", "pile refused", "refused"),
        )
        for k in range(n):
            lay.add(
                f"seat+{k}.status",
                6,
                "numbers",
                f"seat viewer+{k}: hand size, foot size, foot picked up, down, partner of the "
                "viewer, score of its scoring unit / 1000",
                ("hand", "foot", "foot taken", "down", "partner", "score/1000"),
            )
            lay.cards(f"seat+{k}.known", f"cards known to be in seat viewer+{k}'s hand")
        for k in range(2):
            who = "the viewer's side" if k == 0 else "the other side"
            lay.add(
                f"side+{k}.status",
                5,
                "numbers",
                f"{who}: opened, can go out, red 3s, board points / 1000, books still missing",
                ("opened", "can go out", "red threes", "board/1000", "missing"),
            )
            lay.add(
                f"side+{k}.open",
                len(TARGETS) * 3,
                "numbers",
                f"{who}: per target, the unfinished meld's cards, wilds, melded this turn",
                tuple(f"{t}.{f}" for t in targets for f in ("cards", "wilds", "this turn")),
            )
            lay.add(
                f"side+{k}.books",
                len(TARGETS) * 2,
                "numbers",
                f"{who}: per target, finished books without and with wilds",
                tuple(f"{t}.{f}" for t in targets for f in ("clean", "dirty")),
            )

    def _make_ids(self) -> Any:
        discard = [self.DISCARD + CLASS_INDEX[REP[k]] for k in range(NUM_KINDS)]
        add = [-1] * (len(TARGETS) * NUM_KINDS)
        for t, target in enumerate(TARGETS):
            for k in range(NUM_KINDS):
                i = ADD_INDEX.get((target, REP[k]))
                if i is not None:
                    add[t * NUM_KINDS + k] = self.ADD + i
        pile: dict[int, int] = {}
        for i, (target, pair) in enumerate(PILE_TAKES):
            t = TARGET_INDEX[target]
            pile[(t * NUM_KINDS + pair[0]) * NUM_KINDS + pair[1]] = self.PILE + i
        return HandFootIds(self.DRAW, self.RETRACT, discard, add, pile, list(REP))

    def _make_filler(self) -> Any:
        assert all(target_index(*t) == i for i, t in enumerate(TARGETS))
        return HandFootFill(self.layout.start_of, self.players)

    def _write(self, view: Any, w: Writer) -> None:
        me = view.seat
        n = self.players
        w.onehot("phase", PHASES.index(view.phase))
        w.onehot("to_act", None if view.to_act is None else rel(view.to_act, me, n))
        w.values("round", (view.round, view.rounds, view.opening_minimum / 10.0))
        w.cards("hand", view.hand)
        w.cards("pending", view.pending)
        w.onehot("taken_top", view.taken_top)
        w.onehot("pile_top", view.pile_top)
        w.cards("pile", view.pile)
        w.values("sizes", (view.pile_size, view.stock_size, view.pending_size))
        w.values(
            "turn",
            (
                view.turn_start_melds,
                view.turn_value / 10.0,
                float(view.provisional),
                float(view.took_pile),
                float(view.pile_refused),
                float(view.melds_refused),
            ),
        )
        my_side = view.players[me].side
        unit_of = {s: u for u, seats in enumerate(view.score_units) for s in seats}
        for p in view.players:
            k = rel(p.seat, me, n)
            score = view.scores[unit_of[p.seat]] if view.scores else 0
            w.values(
                f"seat+{k}.status",
                (
                    p.hand_size,
                    p.foot_size,
                    float(p.foot_taken),
                    float(p.down),
                    float(p.side == my_side and p.seat != me),
                    score / 1000.0,
                ),
            )
            w.cards(f"seat+{k}.known", p.known)
        for sv in view.sides:
            k = 0 if sv.side == my_side else 1
            w.values(
                f"side+{k}.status",
                (
                    float(sv.opened),
                    float(sv.can_go_out),
                    float(len(sv.red_threes)),
                    sv.board_points / 1000.0,
                    float(len(sv.missing)),
                ),
            )
            if sv.melds:
                w.extend(*self._meld_block(k, sv.melds))

    def _meld_block(self, k: int, melds: tuple[Any, ...]) -> tuple[np.ndarray, np.ndarray]:
        """The entries of side ``k``'s melds (the last block of each side and viewer is kept:
        from one step to the next a side's melds are mostly the very same meld views)."""
        hit = self._melds_seen.get(k)
        if hit is not None and hit[0] == melds:
            return hit[1], hit[2]
        open_start = self.layout[f"side+{k}.open"].start
        books_start = self.layout[f"side+{k}.books"].start
        entries: dict[int, float] = {}  # finished books of one target add up
        for m in melds:
            t = TARGET_INDEX[(m.kind, m.key)]
            if m.complete:
                j = books_start + 2 * t + (1 if m.wild_count else 0)
                entries[j] = entries.get(j, 0.0) + 1.0
            else:
                b = open_start + 3 * t
                entries[b] = float(len(m.cards))
                entries[b + 1] = float(m.wild_count)
                entries[b + 2] = float(m.this_turn)
        idx = np.fromiter(entries.keys(), dtype=np.intp, count=len(entries))
        val = np.fromiter(entries.values(), dtype=np.float32, count=len(entries))
        self._melds_seen[k] = (melds, idx, val)
        return idx, val


def describe_class(rep: int) -> str:
    """How a card class is written (``2``, ``black 3``, ``7``, ``9♥``, ``Jk``)."""
    if rep == JOKER:
        return "Jk"
    r = rep % 13 + 2
    if r == 2 or 4 <= r <= 7:
        return rank_str(r)
    if rep == 1:
        return "black 3"
    return card_str(rep)
