"""Per-seat views of Scat (what a seat may know) and determinization for search bots.

The discard pile is kept squared up, so only its top card is visible (``pile_top``) and the
view holds how many cards are under it (``pile_size``); with the house rule ``open_pile`` the
whole pile is spread and listed (``pile``).  Cards taken from the pile are publicly known to sit
in the taker's hand until discarded.  Nothing else of another hand, and nothing of the stock, is
ever in a view.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from parlour.core.cards import shoe
from parlour.core.codec import card_field, cards_field
from parlour.core.game import HandResult
from parlour.games.scat.parts.values import Value, hand_value
from parlour.games.scat.rules import ScatRules
from parlour.games.scat.state import OVER, THROW_DOWN, LastHand, ScatState, SeatCards


@dataclass(frozen=True, slots=True)
class ScatView:
    """What one seat may see.  The discard pile is squared up: only its top card shows
    (``pile_top``) and ``pile_size`` says how many cards it holds; ``pile`` lists it, bottom →
    top, only with the house rule ``open_pile`` (else it is empty).  Cards taken from the pile
    are publicly known to sit in the taker's hand (``known``) until discarded.  Never another
    hand, never the stock."""

    seat: int | None
    to_act: int | None
    phase: str
    rules: ScatRules
    hand_number: int
    dealer: int
    hand: tuple[int, ...] = cards_field()
    hand_value: Value | None = None
    undeclared_31: tuple[int, ...] = cards_field(default=())
    pile_top: int = card_field(default=-1)
    pile_size: int = 0
    pile: tuple[int, ...] = cards_field(default=())
    stock_size: int = 0
    hand_sizes: tuple[int, ...] = ()
    known: tuple[SeatCards, ...] = ()
    taken: int = card_field(default=-1)
    knocker: int | None = None
    turn_in_hand: int = 0
    lives: tuple[int, ...] = ()
    eliminated_in: tuple[int, ...] = ()  # hand number each seat went out in (-1: still in)
    status: tuple[str, ...] = ()
    last_hand: LastHand | None = None
    termination: str = ""
    #: the finished hands' results (public: everyone saw each showdown)
    score_sheet: tuple[HandResult, ...] = ()


BUS_LEVELS = (
    "seated at the back",
    "standing at the back",
    "in the middle of the bus",
    "at the front of the bus",
    "on the stairs",
    "on the second step",
    "asking the driver to stop",
)


def status_label(rules: ScatRules, lives: int, out: bool) -> str:
    """How a seat's standing is said at the table ("2 pennies", "on the county", "G-I" …)."""
    if rules.plays_for_points:
        return f"{lives} point" + ("" if lives == 1 else "s")
    losses = rules.starting_lives - lives
    if rules.tokens == "bus":
        if out:
            return "off the bus"
        if rules.lives == 4 and 0 <= losses < len(BUS_LEVELS) and losses <= 4 + rules.extra_levels:
            return BUS_LEVELS[losses]
        return f"step {losses}" if lives > 0 or not rules.on_the_county else "on the last step"
    if rules.tokens == "letters":
        word = "-".join("GIN"[: min(3, losses)]) if losses > 0 else "no letters"
        if out:
            return "out (G-I-N)"
        return word + (" (on the county)" if lives == 0 else "")
    if out:
        return "out"
    if lives == 0:
        return "on poverty" if rules.tokens == "nickels" else "on the county"
    if rules.tokens == "nickels":
        return f"{lives} nickel" + ("" if lives == 1 else "s")
    return f"{lives} penn" + ("y" if lives == 1 else "ies")


def counted_value(state: ScatState, seat: int) -> Value:
    """The value a hand counts for: an undeclared 31 "effectively counts as 30"."""
    hand = state.hands[seat]
    if state.silent[seat] and state.silent[seat] == hand:
        return 30
    return hand_value(hand, state.rules)


def observe(state: ScatState, seat: int | None) -> ScatView:
    """What ``seat`` may know (see :class:`ScatView`); ``None`` = a spectator."""
    blind = state.phase == THROW_DOWN and seat == state.to_act
    if seat is None or blind:
        hand: tuple[int, ...] = ()
        value: Value | None = None
        silent: tuple[int, ...] = ()
    else:
        hand = state.hands[seat]
        value = counted_value(state, seat) if len(hand) == 3 else None
        silent = state.silent[seat]
    rules = state.rules
    return ScatView(
        seat=seat,
        to_act=None if state.phase == OVER else state.to_act,
        phase=state.phase,
        rules=rules,
        hand_number=state.hand_no,
        dealer=state.dealer,
        hand=hand,
        hand_value=value,
        undeclared_31=silent,
        pile_top=state.pile[-1] if state.pile else -1,
        pile_size=len(state.pile),
        pile=state.pile if rules.open_pile else (),
        stock_size=len(state.stock),
        hand_sizes=tuple(len(h) for h in state.hands),
        known=tuple(SeatCards(s, k) for s, k in enumerate(state.known) if k),
        taken=state.taken,
        knocker=state.knocker if state.knocker >= 0 else None,
        turn_in_hand=state.turn_no,
        lives=state.lives,
        eliminated_in=state.out_order,
        status=tuple(
            status_label(rules, state.lives[s], state.out[s]) for s in range(state.players)
        ),
        last_hand=state.last,
        termination=state.termination,
        score_sheet=state.history,
    )


def determinize(view: ScatView, rng: random.Random) -> ScatState:
    """A full state consistent with ``view``: unseen cards dealt at random to the other hands
    (after the cards known to be there) and the stock."""
    rules = view.rules
    n = rules.players
    own = view.seat
    # the first player deciding a throw-down has not looked at the cards
    sees_hand = own is not None and not (view.phase == THROW_DOWN and view.to_act == own)
    unseen = Counter(shoe(rules.decks))
    # a squared-up pile shows only its top card: the cards under it are dealt with the unseen
    pile_seen = view.pile if rules.open_pile else (view.pile_top,) if view.pile_size else ()
    unseen.subtract(pile_seen)
    known: list[tuple[int, ...]] = [() for _ in range(n)]
    for sc in view.known:
        known[sc.seat] = sc.cards
    hands: list[tuple[int, ...]] = [() for _ in range(n)]
    if own is not None and sees_hand:
        hands[own] = view.hand
        unseen.subtract(view.hand)
    for s in range(n):
        if not (own is not None and sees_hand and s == own):
            unseen.subtract(known[s])
    pool = list(unseen.elements())
    rng.shuffle(pool)
    i = 0
    for s in range(n):
        if own is not None and sees_hand and s == own:
            continue
        need = view.hand_sizes[s] - len(known[s])
        hands[s] = tuple(sorted((*known[s], *pool[i : i + need])))
        i += need
    under = view.pile_size - len(pile_seen)
    pile = (*pool[i : i + under], *pile_seen)
    i += under
    stock = tuple(pool[i:])
    silent: list[tuple[int, ...]] = [() for _ in range(n)]
    if own is not None:
        silent[own] = view.undeclared_31
    out = tuple(o >= 0 for o in view.eliminated_in)
    return ScatState(
        rules=rules,
        seed=rng.getrandbits(63),
        players=n,
        hand_no=view.hand_number,
        dealer=view.dealer,
        lives=view.lives,
        out=out,
        out_order=view.eliminated_in,
        phase=view.phase,
        to_act=-1 if view.to_act is None else view.to_act,
        hands=tuple(hands),
        stock=stock,
        pile=pile,
        taken=view.taken,
        knocker=-1 if view.knocker is None else view.knocker,
        turn_no=view.turn_in_hand,
        known=tuple(known),
        silent=tuple(silent),
        history=view.score_sheet,
        last=view.last_hand,
        termination=view.termination,
    )


class FastView:
    """What :class:`BasicScatBot` reads of a seat's view, straight from a state: a cheap stand-in
    for ``observe`` in play-outs (the same information: the seat's own hand and public facts)."""

    __slots__ = (
        "eliminated_in",
        "hand",
        "hand_value",
        "phase",
        "pile_top",
        "rules",
        "turn_in_hand",
    )

    def __init__(self, state: ScatState, seat: int) -> None:
        self.phase = state.phase
        self.rules: ScatRules = state.rules
        self.hand = state.hands[seat]
        self.hand_value = counted_value(state, seat) if len(self.hand) == 3 else None
        self.pile_top = state.pile[-1] if state.pile else -1
        self.eliminated_in = state.out_order
        self.turn_in_hand = state.turn_no


def rollout_view(game: object, state: ScatState, seat: int) -> FastView:
    return FastView(state, seat)
