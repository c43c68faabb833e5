"""Samba's ``basic`` with one rule of thumb changed, against ``basic`` itself, without any search
(issue 36: is there a better play-out policy for ``strong``, as there was in Hand and Foot —
bench/handfoot_policy.py?).  The ladder's setup: one hand, 4 players in partnerships, duplicate
deals (each deal twice, sides swapped).  A hand of four ``basic`` bots takes about 3 ms of CPU
(compiled build), so 2,000 hands a variant take seconds.

    uv run python bench/samba_policy.py --deals 1000 --seed 4242            # every variant
    uv run python bench/samba_policy.py --deals 1000 wild_min=4 pair_w=80   # some of them

A variant is ``knob=value`` on :class:`Knobs` (``basic``'s own values are the defaults: the
variant ``same`` must give exactly 50 % and a difference of 0).  Prints one JSON line per variant:
hands won by the variant's side (a tie counts half), the 95 % Wilson interval and the mean hand
score difference.  Results (2026-12-07): docs/bots.md, "Samba `strong:0.3`, fourth pass" and
docs/history/bots-2026-12.md, "fifth pass" (the structural rule ``hold_out``).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from typing import Any

from parlour.core.canasta import BLACK_THREES, RED_THREES
from parlour.games.samba import actions as A
from parlour.games.samba.bot import SambaBasicBot, _counts, _mark_fits, _meld_value, plan_melds
from parlour.games.samba.parts.melds import GROUP, IS_WILD, RANK, SEQUENCE, SUIT, VALUE
from parlour.games.samba.scoring import (
    ALL_RED_THREES,
    GOING_OUT_BONUS,
    MIXED_BONUS,
    PURE_BONUS,
    RED_THREE,
    SAMBA_BONUS,
)
from parlour.sim.duel import duel as policy_duel
from parlour.sim.duel import hand as policy_hand


class Knobs(SambaBasicBot):
    """``basic`` with its thresholds and weights as class attributes (the defaults are
    ``basic``'s): the meld step once the side has opened, the discard ranking, asking and
    answering "may I go out?" re-written with them."""

    wild_min = 5  # a wild onto a group of this many cards while the side cannot go out
    out_wilds_n = 5  # wilds in new melds when the side may go out and holds at most this many
    out_add_n = 4  # wilds onto melds when the side may go out and holds at most this many
    ask_over = 6  # ask the partner when the partner holds more than this many cards
    answer_cost = 150  # answer "no" when the hand's card points exceed this
    big_pile = 8  # the pile is worth blocking from this many cards
    pair_w = 40.0  # keeping a natural pair (it takes the pile)
    near_w = 12.0  # keeping a card next to another of its suit (runs)
    seq_danger = 300.0  # discarding a card that fits an opponent's sequence
    known_w = 40.0  # discarding a rank the next player is known to hold
    value_w = 0.2  # shedding card points (1.0 when the opponents may go out)
    # structural (0 = off, as basic): hold back the meld step that would leave the player at most
    # one card (going out next) while the side would be behind after going out, its partner's
    # and the opponents' hands counted at ``card_est`` points a card
    hold_out = 0
    card_est = 10.0

    def _meld_step(self, view: Any, legal: Sequence[Any], named: Any) -> Any:
        choice = self._knob_meld_step(view, legal, named)
        if self.hold_out and holds_back(view, choice, self._meld_plan, self.card_est):
            self._meld_plan = []
            return None
        return choice

    def _knob_meld_step(self, view: Any, legal: Sequence[Any], named: Any) -> Any:
        seat = view.seat or 0
        side = view.players[seat].side
        me = view.sides[side]
        hand = list(view.hand)
        n = len(hand)
        if not me.opened or view.pending:
            return super()._meld_step(view, legal, named)
        for k in RED_THREES:
            if k in named.red3:
                return A.LAY_RED3[k]
        for a in legal:
            if isinstance(a, A.MergeGroups):
                return a
        wild_adds = []
        for a in legal:
            if isinstance(a, A.AddToMeld):
                if not IS_WILD[a.card]:
                    return a
                wild_adds.append(a)
        opponents_out = any(sv.can_go_out for sv in view.sides if sv.side != side)
        may_out = me.can_go_out
        for a in wild_adds:
            m = me.melds[a.meld]
            canasta = m.kind == GROUP and len(m.cards) == 6
            needs = not may_out and m.kind == GROUP and len(m.cards) >= self.wild_min
            if canasta or needs or opponents_out or (may_out and n <= self.out_add_n):
                return a
        plan = plan_melds(hand, use_wilds=opponents_out or (may_out and n <= self.out_wilds_n))
        if self._undone == (view.hand_number, view.stock_size):
            plan = []
        for meld in plan:
            if len(meld) == n and not may_out:
                continue
            if named.stage[meld[0]]:
                self._meld_plan = meld
                return A.STAGE[meld[0]]
        return None

    def _discard(self, view: Any, legal: Sequence[Any], named: Any) -> Any:
        seat = view.seat or 0
        side = view.players[seat].side
        if named.ask and len(view.hand) == 1:
            partner = next(p for p in view.players if p.side == side and p.seat != seat)
            if partner.hand_size > self.ask_over and not view.asked:
                return A.ASK
        discards = [a for a in legal if isinstance(a, A.Discard)]
        if not discards:
            return next((a for a in legal if isinstance(a, A.Pass)), legal[0])
        return self.ranked_discards(view, discards)[0]

    def _answer(self, view: Any, named: Any) -> Any:
        if any(c in RED_THREES for c in view.hand):
            return A.NO if named.no else A.YES
        return A.NO if _meld_value(view.hand) > self.answer_cost and named.no else A.YES

    def ranked_discards(self, view: Any, discards: Sequence[Any]) -> list[Any]:
        seat = view.seat or 0
        side = view.players[seat].side
        h = _counts(view.hand)
        left = view.players[(seat + 1) % len(view.players)]
        opp_sides = [sv for sv in view.sides if sv.side != side]
        opponents_out = any(sv.can_go_out for sv in opp_sides)
        own_fits = [0] * 53
        for m in view.sides[side].melds:
            _mark_fits(m, own_fits)
        sequence_fits = [0] * 53
        groups_of_rank = [0] * 15
        for sv in opp_sides:
            for m in sv.melds:
                if m.kind == SEQUENCE:
                    _mark_fits(m, sequence_fits)
                elif m.kind == GROUP and 0 <= m.rank <= 14:
                    groups_of_rank[m.rank] += 1
        known_ranks = {RANK[k] for k in left.known}
        pile = view.pile_size
        big = pile >= self.big_pile

        def cost(card: int) -> float:
            if card in RED_THREES:
                return 1e6
            if card in BLACK_THREES:
                return -50.0 if big or opponents_out else -5.0
            if IS_WILD[card]:
                keep = 60.0 + VALUE[card]
                if opponents_out:
                    keep -= 2 * VALUE[card]
                if big:
                    keep -= 40.0 + pile
                return keep
            r, s = RANK[card], SUIT[card]
            base = s * 13 - 2
            same = h[r - 2] + h[r + 11] + h[r + 24] + h[r + 37]
            keep = self.pair_w + 10 * same if same >= 2 else 0.0
            near = sum(1 for d in (-2, -1, 1, 2) if 4 <= r + d <= 14 and h[base + r + d])
            keep += self.near_w * near + (6.0 if 8 <= r <= 10 else 0.0)
            keep += 100.0 * own_fits[card]
            danger = self.seq_danger * sequence_fits[card]
            danger += (10.0 + 3 * pile) * groups_of_rank[r] + pile * 1.5
            if r in known_ranks:
                danger += self.known_w + 5 * pile
            keep -= VALUE[card] * (1.0 if opponents_out else self.value_w)
            return keep + danger

        return sorted(discards, key=lambda a: (cost(a.card), a.card))


def side_points(sv: Any) -> float:
    """What a side's melds and red 3s score as they lie (a ``SideView``): card values, the
    bonuses of sambas and canastas, the red 3s (counted against it without the going-out
    requirement)."""
    total = 0.0
    for m in sv.melds:
        total += m.value
        if m.samba:
            total += SAMBA_BONUS
        elif m.canasta == "pure":
            total += PURE_BONUS
        elif m.canasta == "mixed":
            total += MIXED_BONUS
    red = getattr(sv, "red_threes", None)  # the search's FastView reads them off its state
    reds = len(red) if red is not None else len(sv._state.red3[sv.side])
    if sv.can_go_out:
        total += ALL_RED_THREES if reds == 6 else RED_THREE * reds
    else:
        total -= RED_THREE * reds
    return total


def behind_after_going_out(view: Any, card_est: float) -> bool:
    """Whether the seat's side would lose the hand if the seat went out now: its table, red 3s
    and the going-out bonus less its partner's cards, against each other side's table and red
    3s less its cards (every card in another hand counted at ``card_est`` points)."""
    seat = view.seat or 0
    side = view.players[seat].side
    ours = side_points(view.sides[side]) + GOING_OUT_BONUS
    theirs = {sv.side: side_points(sv) for sv in view.sides if sv.side != side}
    for p in view.players:
        if p.side == side:
            if p.seat != seat:
                ours -= card_est * p.hand_size
        else:
            theirs[p.side] -= card_est * p.hand_size
    return any(ours < t for t in theirs.values())


def holds_back(view: Any, choice: Any, plan: Sequence[Any], card_est: float) -> bool:
    """The ``hold_out`` rule: whether to hold back the meld step ``choice`` (``plan``: the cards
    of the meld being staged), because it leaves the seat at most one card (going out next)
    while its side, able to go out, would lose the hand by going out."""
    if choice is None or view.pending:
        return False
    seat = view.seat or 0
    me = view.sides[view.players[seat].side]
    if not me.opened or not me.can_go_out:
        return False
    if isinstance(choice, A.AddToMeld):
        left = len(view.hand) - 1
    elif isinstance(choice, A.Stage):
        left = len(view.hand) - len(plan)
    else:
        return False
    return left <= 1 and behind_after_going_out(view, card_est)


#: the variants run when none is named: each knob moved both ways (``same``: none moved)
DEFAULT_VARIANTS = (
    "same",
    "wild_min=4",
    "wild_min=3",
    "wild_min=6",
    "out_wilds_n=9,out_add_n=9",
    "out_wilds_n=3,out_add_n=2",
    "ask_over=3",
    "ask_over=99",
    "answer_cost=300",
    "answer_cost=80",
    "big_pile=5",
    "big_pile=12",
    "pair_w=80",
    "pair_w=10",
    "near_w=25",
    "near_w=5",
    "known_w=100",
    "value_w=1",
    "value_w=0",
    "hold_out=1",
)


def make_variant(spec: str) -> type[Knobs]:
    """``"wild_min=4,pair_w=80"`` -> a subclass of :class:`Knobs` with those values."""
    attrs: dict[str, Any] = {}
    if spec != "same":
        for item in spec.split(","):
            key, _, value = item.partition("=")
            default = getattr(Knobs, key)
            attrs[key] = type(default)(float(value)) if isinstance(default, float) else int(value)
    return type("Variant", (Knobs,), attrs)


def hand(seed: int, bots: Sequence[type]) -> tuple[float, float]:
    """Side 0's and side 1's score of one hand with ``bots`` at seats 0–3."""
    return policy_hand("samba", seed, bots)


def duel(new: type, deals: int, seed: int) -> dict[str, Any]:
    return policy_duel("samba", new, SambaBasicBot, deals, seed)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("variants", nargs="*", help="knob=value[,knob=value] or 'same'")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=4242)
    args = ap.parse_args()
    for spec in args.variants or DEFAULT_VARIANTS:
        started = time.process_time()
        out = duel(make_variant(spec), args.deals, args.seed)
        out["cpu_s"] = round(time.process_time() - started, 1)
        print(json.dumps({"variant": spec, **out}), flush=True)


if __name__ == "__main__":
    main()
