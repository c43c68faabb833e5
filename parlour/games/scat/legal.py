"""Legal actions of Scat and why others are illegal (RULES.md §4): drawing, taking the discard,
knocking (and its options), hammer and throw-down, discarding (never the card just taken) and
declaring 31."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from parlour.core.said import N_, Card, Cards
from parlour.games.scat.actions import (
    ACTION_TYPES,
    Action,
    Declare31,
    Discard,
    DrawStock,
    EndHand,
    Hammer,
    Knock,
    TakeDiscard,
    ThrowDown,
)
from parlour.games.scat.apply import _remove, active_seats
from parlour.games.scat.parts.values import is_declarable, is_one_suit
from parlour.games.scat.state import (
    DEALT31,
    DRAW,
    OVER,
    THROW_DOWN,
    ScatState,
)
from parlour.games.scat.view import counted_value

# why a knock is refused (``knock_refusal``): each has its message in ``may_knock``
KNOCK_OK: Final = 0
KNOCKED_SELF: Final = 1
KNOCKED_OTHER: Final = 2
FIRST_ROUND: Final = 3
BELOW_MIN: Final = 4
NOT_ONE_SUIT: Final = 5


def knock_refusal(state: ScatState, seat: int) -> int:
    """Which rule stops ``seat`` knocking now (``KNOCK_OK``: none).  The legal actions ask this
    (a number, no message made at every turn); :func:`may_knock` words it."""
    rules = state.rules
    if state.knocker >= 0:
        return KNOCKED_SELF if state.knocker == seat else KNOCKED_OTHER
    if not rules.knock_first_round and state.turn_no < len(active_seats(state)):
        return FIRST_ROUND
    if rules.min_knock is not None and counted_value(state, seat) < rules.min_knock:
        return BELOW_MIN
    if rules.knock_needs_one_suit and not is_one_suit(state.hands[seat]):
        return NOT_ONE_SUIT
    return KNOCK_OK


def may_knock(state: ScatState, seat: int) -> str | None:
    """Why ``seat`` may not knock now (``None``: it may)."""
    refusal = knock_refusal(state, seat)
    if refusal == KNOCK_OK:
        return None
    if refusal == KNOCKED_SELF:
        return N_(
            "you have already knocked: each other player has just one last turn to draw and discard"
        )
    if refusal == KNOCKED_OTHER:
        return N_(
            "another player has already knocked: each other player has just one last turn to "
            "draw and discard"
        )
    if refusal == FIRST_ROUND:
        return N_("no knocking in the first round of turns (option knock_first_round is off)")
    if refusal == BELOW_MIN:
        return N_(
            "a knock needs a hand worth at least {least} (option min_knock); yours is worth "
            "{worth}",
            least=state.rules.min_knock,
            worth=counted_value(state, seat),
        )
    return N_(
        "a knock is only allowed with three cards of the same suit (option knock_needs_one_suit)"
    )


def _can_declare(state: ScatState, seat: int, rest: tuple[int, ...]) -> bool:
    return is_declarable(rest, state.rules) and rest != state.silent[seat]


# the actions, made once (they are immutable and compare by value)
_DECLARE31 = Declare31()
_THROW = ThrowDown(True)
_PLAY_ON = ThrowDown(False)
_DRAW_STOCK = DrawStock()
_TAKE = TakeDiscard()
_KNOCK = Knock()
_HAMMER = Hammer()
_END = EndHand()
_DISCARD = tuple(Discard(c) for c in range(52))
_DISCARD_DECLARE = tuple(Discard(c, True) for c in range(52))


def legal_actions(state: ScatState) -> Sequence[Action]:
    phase = state.phase
    if phase == OVER:
        return []
    if phase == DEALT31:
        return [_DECLARE31]
    if phase == THROW_DOWN:
        return [_THROW, _PLAY_ON]
    p = state.to_act
    if phase == DRAW:
        acts: list[Action] = []
        if state.stock:
            acts.append(_DRAW_STOCK)
        if state.pile:
            acts.append(_TAKE)
        if knock_refusal(state, p) == KNOCK_OK:
            acts.append(_KNOCK)
        if state.rules.hammer and state.turn_no == 0:
            acts.append(_HAMMER)
        if not state.stock:
            acts.append(_END)
        return acts
    hand = state.hands[p]
    out: list[Action] = []
    for c in sorted(set(hand)):
        if c == state.taken:
            continue
        out.append(_DISCARD[c])
        if _can_declare(state, p, _remove(hand, c)):
            out.append(_DISCARD_DECLARE[c])
    return out


def explain(state: ScatState, action: Action) -> str | None:
    reason = _explain(state, action)
    if reason is None and action not in legal_actions(state):
        return N_("{action} is not a legal move now", action=str(action))
    return reason


def _explain(state: ScatState, action: Action) -> str | None:
    phase = state.phase
    if phase == OVER:
        return N_("the match is over")
    if type(action) not in ACTION_TYPES.values():
        return N_("{action} is not a Scat action", action=repr(action))
    if phase == DEALT31:
        if isinstance(action, Declare31):
            return None
        return N_("a player was dealt 31: it is shown at once and there is no play")
    if isinstance(action, Declare31):
        return N_(
            "only a 31 that was dealt is declared on its own; a 31 made in play is declared with the discard that makes it"
        )
    if phase == THROW_DOWN:
        if isinstance(action, ThrowDown):
            return None
        return N_("the first player must first decide, without looking, whether to throw down")
    if isinstance(action, ThrowDown):
        return N_("a throw-down is only called by the first player before looking at the cards")
    p = state.to_act
    if phase == DRAW:
        if isinstance(action, Discard):
            return N_("draw a card (from the stock or the discard pile) or knock before discarding")
        if isinstance(action, DrawStock) and not state.stock:
            return N_("the stock is empty: take the discard or end the hand")
        if isinstance(action, TakeDiscard) and not state.pile:
            return N_("the discard pile is empty")
        if isinstance(action, Knock):
            return may_knock(state, p)
        if isinstance(action, Hammer):
            if not state.rules.hammer:
                return N_("hammer is not played (option hammer is off)")
            if state.turn_no != 0:
                return N_(
                    "only the first player, instead of the first draw of the hand, may call a hammer"
                )
        if isinstance(action, EndHand) and state.stock:
            return N_("the hand ends this way only when the stock is exhausted")
        return None
    # DISCARD: four cards held
    if not isinstance(action, Discard):
        return N_("you hold four cards: discard one")
    if not isinstance(action.card, int) or not 0 <= action.card < 52:
        return N_("{card} is not a card", card=repr(action.card))
    hand = state.hands[p]
    if action.card not in hand:
        return N_("you do not hold {card}", card=Card(action.card))
    if action.card == state.taken:
        return N_(
            "a card just taken from the discard pile may not be discarded in the same turn "
            "(keep it and discard one of your other cards)"
        )
    if action.declare:
        rest = _remove(hand, action.card)
        if not is_declarable(rest, state.rules):
            return N_("{cards} is not 31: there is nothing to declare", cards=Cards(rest))
        if rest == state.silent[p]:
            return N_("a 31 that was not declared as soon as it was made cannot be claimed later")
    return None
