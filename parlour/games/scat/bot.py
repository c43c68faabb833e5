"""The ``basic`` Scat bot: the rules of thumb of a club player, using only its seat's view.

- always declares 31 (dealt, or with the discard that makes it), never throws down blind;
- takes the discard when keeping it makes the hand worth more, otherwise draws from the stock;
- discards the card that leaves the best hand (ties: keep more cards of one suit, then the
  higher cards), never the card it just took;
- knocks at the start of a turn when the hand reaches a threshold that depends on the number of
  players still in and on how a showdown is scored (lower with more players, higher when a
  knock promises the highest hand); the threshold eases a little as the hand goes on;
- calls a hammer (option ``hammer``) with a hand a few points under that threshold.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from parlour.core.bot import Bot
from parlour.core.game import Game, Seat
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
from parlour.games.scat.parts.values import hand_value, suit_totals
from parlour.games.scat.rules import ScatRules
from parlour.games.scat.state import DEALT31, DISCARD, THROW_DOWN
from parlour.games.scat.view import FastView, ScatView

#: knock thresholds by players still in, when the lowest hand loses
LOWEST_LOSES_THRESHOLD = {2: 24, 3: 22, 4: 21, 5: 20}


def knock_threshold(rules: ScatRules, players_in: int, rounds_done: int) -> float:
    """The hand value at which the basic bot knocks.

    >>> knock_threshold(ScatRules(), 4, 0), knock_threshold(ScatRules(), 2, 0)
    (21, 24)
    >>> knock_threshold(ScatRules(showdown="knocker_must_be_highest"), 4, 0)
    28
    """
    if rules.showdown == "knocker_must_be_highest":
        base = 26 + min(players_in, 4) // 2
    elif rules.showdown == "highest_scores_point":
        base = 25 + min(players_in, 4) // 2
    else:
        base = LOWEST_LOSES_THRESHOLD.get(players_in, 19)
    # as the hand goes on the others' hands improve less per turn than the risk of waiting
    return base - min(3, rounds_done // 3)


def _shape(cards: Sequence[int]) -> tuple[int, int]:
    """Tie-break between hands of equal value: most cards of one suit, then highest total."""
    by_suit = [0, 0, 0, 0]
    for c in cards:
        by_suit[c // 13] += 1
    return max(by_suit), sum(suit_totals(cards))


# a bot of one's own may subclass the compiled basic bot (docs/speed.md)
@mypyc_attr(allow_interpreted_subclasses=True)
class BasicScatBot(Bot):
    name = "basic"

    def __init__(self, game: Game[Any, Any, Any, Any], seat: Seat, seed: int = 0, **params: Any):
        super().__init__(game, seat, seed, **params)
        self.knock_offset = float(params.get("knock_offset", 0))

    def _best_discard(
        self, view: ScatView | FastView, hand: Sequence[int], forbidden: int
    ) -> float:
        best = -1.0
        for i, c in enumerate(hand):
            if c == forbidden:
                continue
            rest = [*hand[:i], *hand[i + 1 :]]
            best = max(best, hand_value(rest, view.rules))
        return best

    def act(self, view: ScatView | FastView, legal: Sequence[Any]) -> Any:
        if view.phase == DEALT31:
            return next(a for a in legal if isinstance(a, Declare31))
        if view.phase == THROW_DOWN:
            return ThrowDown(False) if ThrowDown(False) in legal else legal[0]
        rules = view.rules
        hand = list(view.hand)
        if view.phase == DISCARD:
            best: Any = None
            best_key: tuple[Any, ...] = ()
            for a in legal:
                if not isinstance(a, Discard):
                    continue
                rest = list(hand)
                rest.remove(a.card)
                key = (hand_value(rest, rules), a.declare, *_shape(rest))
                if best is None or key > best_key:
                    best, best_key = a, key
            return best if best is not None else legal[0]
        value = view.hand_value if view.hand_value is not None else hand_value(hand, rules)
        players_in = sum(1 for e in view.eliminated_in if e < 0)
        rounds = view.turn_in_hand // max(1, players_in)
        threshold = knock_threshold(rules, players_in, rounds) + self.knock_offset
        kinds = {type(a) for a in legal}
        if Knock in kinds and value >= threshold:
            return Knock()
        if Hammer in kinds and value >= threshold - 3:
            return Hammer()
        if TakeDiscard in kinds and view.pile_top >= 0:
            with_top = self._best_discard(view, [*hand, view.pile_top], view.pile_top)
            if with_top > value:
                return TakeDiscard()
        if DrawStock in kinds:
            return DrawStock()
        if EndHand in kinds:
            return EndHand()
        return legal[0]
