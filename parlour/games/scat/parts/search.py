"""What the ``strong`` bot knows of Scat beyond the Game protocol (its :class:`SearchHints`).

A Scat decision is one of at most four moves (draw, take the discard, knock; or which card to
discard), so the search is the *paired* one (docs/bots.md): every legal move is played out on the
same determinizations with the same play-out randomness, by the ``basic`` bot for every seat (the
opponent's own policy), to the end of the hand; the basic bot's move is kept unless another beats
it by two standard errors of the paired difference.  The knock is weighed like any other move:
its play-outs are short (the others' last turns, then the showdown), so the search reasons about
it from the cards the others may hold rather than from the basic bot's fixed threshold.

:func:`determinize` deals the hidden cards the way a hand that has been played looks: uniform
deals give the other players hands as weak as fresh ones (in heads-up ``basic`` play their mean
value is 13.6 where the real one is 18.9, 21–22 after the third round), which makes every knock
look safe.  Each other hand's unknown cards are dealt at random, then improved by two simulated
draws per turn that player has had this hand (its known cards, taken from the pile, count as
turns): draw a random unseen card, keep the best three (never discarding a card known to be
held), return the other to the unseen cards.  Over 795 heads-up positions the determinized mean
is then 18.7 against the real 18.9.

:func:`evaluate` scores a position where a play-out is cut short (the tree search's
``rollout_steps``): each seat's expected lives lost at a showdown now, from the hand values.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from parlour.games.scat.bot import BasicScatBot
from parlour.games.scat.parts.values import hand_value
from parlour.games.scat.rules import ScatRules
from parlour.games.scat.state import ScatState
from parlour.games.scat.view import ScatView, counted_value
from parlour.games.scat.view import determinize as uniform_deal

#: simulated draws per turn a hidden hand has had: a player also chooses between the stock and
#: the discard, so one real turn improves a hand about as much as two blind draws (calibrated on
#: heads-up ``basic`` hands: see the test)
DRAWS_PER_TURN = 2

#: hand-value points over which a lead turns a likely loss into a likely escape
VALUE_SPREAD = 3.0


def _showdown_value(state: ScatState, seat: int) -> float:
    """What a seat's hand would count for at a showdown now (with four cards: the best three)."""
    hand = state.hands[seat]
    if len(hand) <= 3:
        return counted_value(state, seat)
    return max(hand_value([*hand[:i], *hand[i + 1 :]], state.rules) for i in range(len(hand)))


def evaluate(game: Any, state: ScatState) -> tuple[float, ...]:
    """Each seat's expected change of lives (negative) were the hand shown down now: the chance
    of holding the lowest hand is a softmax of the negated values over the seats still in (a
    knocker who is lowest loses ``knocker_lowest_loses``); out seats score 0.  When playing for
    points, the chance of the highest hand instead, as points won."""
    rules = state.rules
    seats = [s for s in range(state.players) if not state.out[s]]
    values = {s: _showdown_value(state, s) for s in seats}
    sign = 1.0 if rules.plays_for_points else -1.0
    weights = {s: math.exp(sign * values[s] / VALUE_SPREAD) for s in seats}
    total = sum(weights.values()) or 1.0
    out = [0.0] * state.players
    for s in seats:
        p = weights[s] / total
        if rules.plays_for_points:
            out[s] = p
        else:
            out[s] = -p * (rules.knocker_lowest_loses if s == state.knocker else 1)
    return tuple(out)


def _improve(
    hand: list[int], keep: Sequence[int], stock: list[int], rules: ScatRules, rng: random.Random
) -> None:
    """One simulated draw from the unseen cards into ``hand`` (in place): the best three are kept
    (the cards of ``keep`` always), the fourth goes back among the unseen cards."""
    i = rng.randrange(len(stock))
    drawn = stock[i]
    four = [*hand, drawn]
    best, out = -1.0, drawn
    for c in four:
        if c in keep:
            continue
        rest = list(four)
        rest.remove(c)
        value = hand_value(rest, rules)
        if value > best:
            best, out = value, c
    four.remove(out)
    hand[:] = four
    stock[i] = out


def determinize(game: Any, view: ScatView, rng: random.Random) -> ScatState:
    """A state consistent with ``view`` whose hidden hands have had this hand's draws (see the
    module docstring); built from the view only."""
    state = uniform_deal(view, rng)
    own = view.seat
    seats = [s for s in range(state.players) if not state.out[s] and s != own]
    if own is None or not state.stock or not seats:
        return state
    draws = DRAWS_PER_TURN * view.turn_in_hand // (len(seats) + 1)
    known = {sc.seat: sc.cards for sc in view.known}
    hands = list(state.hands)
    stock = list(state.stock)
    for s in seats:
        keep = known.get(s, ())
        hand = list(hands[s])
        if len(hand) != 3:
            continue
        for _ in range(max(0, draws - len(keep))):
            _improve(hand, keep, stock, state.rules, rng)
        hands[s] = tuple(sorted(hand))
    out = state.clone()
    out.hands = tuple(hands)
    out.stock = tuple(stock)
    return out


def candidates(
    policy: BasicScatBot, view: Any, legal: Sequence[Any], favourite: Any, limit: int
) -> list[Any]:
    """The basic bot's move first, then every other legal move (at most ``limit``)."""
    return [favourite, *(a for a in legal if a != favourite)][:limit]
