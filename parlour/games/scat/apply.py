"""Applying Scat's actions: the deal, a turn's draw and discard, knocks and showdowns, 31s, and
the end of a hand (lives lost or points scored, eliminations, the next deal — inside the same
``apply``, so every state is a decision or the end of the match)."""

from __future__ import annotations

import random
from typing import Any

from parlour.core.cards import shuffled_shoe
from parlour.core.errors import RulesError
from parlour.core.game import Event, HandResult
from parlour.core.rng import derive_seed
from parlour.games.scat.actions import (
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
from parlour.games.scat.parts.values import Value, hand_value, is_declarable, rank_key
from parlour.games.scat.rules import ScatRules
from parlour.games.scat.scoring import declared_changes, showdown_changes
from parlour.games.scat.state import (
    DEALT31,
    DISCARD,
    DRAW,
    OVER,
    THROW_DOWN,
    LastHand,
    ScatState,
    SeatCards,
)
from parlour.games.scat.view import counted_value


def _remove(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def _add(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    return tuple(sorted((*hand, card)))


def _set(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*items[:i], value, *items[i + 1 :])


def hand_seed(state: ScatState) -> int:
    return derive_seed(state.seed, "deal", state.hand_no)


def new_match(rules: ScatRules, seed: int) -> ScatState:
    if not isinstance(rules, ScatRules):
        raise RulesError(f"scat needs ScatRules, not {type(rules).__name__}")
    n = rules.players
    start = 0 if rules.plays_for_points else rules.starting_lives
    empty: tuple[tuple[int, ...], ...] = ((),) * n
    base = ScatState(
        rules=rules,
        seed=seed,
        players=n,
        hand_no=0,
        # "Determine the first dealer in any manner you desire": drawn from the match seed
        dealer=derive_seed(seed, "first_dealer") % n,
        lives=(start,) * n,
        out=(False,) * n,
        out_order=(-1,) * n,
        phase=DRAW,
        to_act=0,
        hands=empty,
        stock=(),
        pile=(),
        taken=-1,
        knocker=-1,
        turn_no=0,
        known=empty,
        silent=empty,
        history=(),
        last=None,
        termination="",
    )
    return deal(base, hand_seed(base))


def active_seats(state: ScatState, start: int | None = None) -> list[int]:
    """Seats still in the match, clockwise from ``start`` (default: dealer's left)."""
    n = state.players
    first = (state.dealer + 1) % n if start is None else start
    return [s for s in ((first + i) % n for i in range(n)) if not state.out[s]]


def _nextactive(out: tuple[bool, ...], seat: int) -> int:
    n = len(out)
    for i in range(1, n + 1):
        s = (seat + i) % n
        if not out[s]:
            return s
    return seat


def deal(state: ScatState, deck_seed: int) -> ScatState:
    """Deal three cards each, one at a time from the dealer's left, then the upcard."""
    rules = state.rules
    deck = shuffled_shoe(random.Random(deck_seed), rules.decks)
    order = active_seats(state)
    hands: list[list[int]] = [[] for _ in range(state.players)]
    i = 0
    for _round in range(3):
        for s in order:
            hands[s].append(deck[i])
            i += 1
    upcard = deck[i]
    dealt = tuple(tuple(sorted(h)) for h in hands)
    holders = [s for s in order if is_declarable(dealt[s], rules)]
    if holders:
        phase, to_act = DEALT31, holders[0]
    else:
        phase, to_act = (THROW_DOWN if rules.throw_down else DRAW), order[0]
    empty: tuple[tuple[int, ...], ...] = ((),) * state.players
    new = state.clone()
    new.hands = dealt
    new.stock = tuple(deck[i + 1 :])
    new.pile = (upcard,)
    new.taken = -1
    new.knocker = -1
    new.turn_no = 0
    new.known = empty
    new.silent = empty
    new.phase = phase
    new.to_act = to_act
    return new


def apply(state: ScatState, action: Action, ev: list[Event] | None) -> ScatState:
    """The state after ``action`` (known to be legal); its events are appended to ``ev``, or
    none are built when it is ``None`` (the quiet apply of play-outs and simulations)."""
    p = state.to_act
    if isinstance(action, Declare31):
        return _dealt31(state, ev)
    if isinstance(action, ThrowDown):
        if action.call:
            if ev is not None:
                ev.append(Event("throw_down", {"seat": p}))
            return _showdown(state, p, "throw_down", ev)
        if ev is not None:
            ev.append(Event("play_on", {"seat": p}))
        new = state.clone()
        new.phase = DRAW
        return new
    if isinstance(action, DrawStock):
        card = state.stock[-1]
        if ev is not None:
            ev.append(Event("draw", {"seat": p}))
            ev.append(Event("drawn", {"seat": p, "card": card}, frozenset({p})))
        new = state.clone()
        new.hands = _set(state.hands, p, _add(state.hands[p], card))
        new.stock = state.stock[:-1]
        new.phase = DISCARD
        new.taken = -1
        new.turn_no = state.turn_no + 1
        return new
    if isinstance(action, TakeDiscard):
        card = state.pile[-1]
        if ev is not None:
            ev.append(Event("take", {"seat": p, "card": card}))
        new = state.clone()
        new.hands = _set(state.hands, p, _add(state.hands[p], card))
        new.known = _set(state.known, p, _add(state.known[p], card))
        new.pile = state.pile[:-1]
        new.phase = DISCARD
        new.taken = card
        new.turn_no = state.turn_no + 1
        return new
    if isinstance(action, Knock):
        if ev is not None:
            ev.append(Event("knock", {"seat": p}))
        new = state.clone()
        new.knocker = p
        new.turn_no = state.turn_no + 1
        new.to_act = _nextactive(state.out, p)
        return new
    if isinstance(action, Hammer):
        if ev is not None:
            ev.append(Event("hammer", {"seat": p}))
        return _showdown(state, p, "hammer", ev)
    if isinstance(action, EndHand):
        if ev is not None:
            ev.append(Event("end_hand", {"seat": p}))
        return _showdown(
            state, state.knocker if state.knocker >= 0 else None, "stock_exhausted", ev
        )
    assert isinstance(action, Discard)
    card = action.card
    rest = _remove(state.hands[p], card)
    known = state.known
    if card in known[p]:
        known = _set(known, p, _remove(known[p], card))
    if ev is not None:
        ev.append(Event("discard", {"seat": p, "card": card}))
    new = state.clone()
    new.hands = _set(state.hands, p, rest)
    new.pile = (*state.pile, card)
    new.known = known
    new.taken = -1
    if action.declare:
        return _declared(new, p, ev)
    silent = rest if is_declarable(rest, state.rules) else ()
    if silent != state.silent[p]:
        new.silent = _set(state.silent, p, silent)  # ``new`` is our own fresh copy
    nxt = _nextactive(state.out, p)
    if state.knocker >= 0 and nxt == state.knocker:
        return _showdown(new, state.knocker, "knock", ev)
    new.phase = DRAW
    new.to_act = nxt
    return new


def apply_quiet(state: ScatState, action: Action) -> ScatState:
    """:meth:`ScatGame.apply_quiet` (the engine's method is this function itself)."""
    return apply(state, action, None)


def _showdown(
    state: ScatState, knocker: int | None, reason: str, ev: list[Event] | None
) -> ScatState:
    active = active_seats(state)
    values = {s: counted_value(state, s) for s in active}
    keys = {s: rank_key(state.hands[s], state.rules) for s in active}
    changes = showdown_changes(values, knocker, state.rules, keys, state.players)
    shown = tuple(SeatCards(s, state.hands[s]) for s in sorted(active))
    return _end_hand(state, changes, reason, knocker, shown, values, ev)


def _declared(state: ScatState, seat: int, ev: list[Event] | None) -> ScatState:
    knocker = state.knocker if state.knocker >= 0 else None
    changes = declared_changes({seat}, active_seats(state), knocker, state.rules, state.players)
    shown = (SeatCards(seat, state.hands[seat]),)
    values = {seat: hand_value(state.hands[seat], state.rules)}
    if ev is not None:
        ev.append(Event("declare", {"seat": seat, "cards": state.hands[seat]}))
    return _end_hand(state, changes, "declared_31", knocker, shown, values, ev)


def _dealt31(state: ScatState, ev: list[Event] | None) -> ScatState:
    active = active_seats(state)
    holders = [s for s in active if is_declarable(state.hands[s], state.rules)]
    changes = declared_changes(set(holders), active, None, state.rules, state.players)
    shown = tuple(SeatCards(s, state.hands[s]) for s in sorted(holders))
    values = {s: hand_value(state.hands[s], state.rules) for s in holders}
    if ev is not None:
        ev.append(
            Event(
                "dealt_31",
                {"seats": tuple(holders), "hands": tuple(state.hands[s] for s in holders)},
            )
        )
    return _end_hand(state, changes, "dealt_31", None, shown, values, ev)


def _end_hand(
    state: ScatState,
    changes: list[int],
    reason: str,
    knocker: int | None,
    shown: tuple[SeatCards, ...],
    values: dict[int, Value],
    ev: list[Event] | None,
) -> ScatState:
    rules = state.rules
    n = state.players
    lives = list(state.lives)
    out = list(state.out)
    out_order = list(state.out_order)
    notes: list[str] = []
    if rules.plays_for_points:
        for s in range(n):
            lives[s] += changes[s]
    else:
        floor = 0 if rules.on_the_county else 1
        active = [s for s in range(n) if not out[s]]
        new = [lives[s] + changes[s] for s in range(n)]
        going = [s for s in active if new[s] < floor]
        if going and len(going) == len(active):
            # "it is possible for all the remaining players to lose their last life
            # simultaneously, in which case those players play another hand"
            for s in going:
                new[s] = floor
            notes.append("every remaining player would be out: they play another hand")
            going = []
        for s in going:
            out[s] = True
            out_order[s] = state.hand_no
            new[s] = 0
        lives = new
    gone = tuple(s for s in range(n) if out[s] and not state.out[s])
    last = LastHand(
        number=state.hand_no,
        reason=reason,
        knocker=knocker,
        shown=shown,
        values=tuple(values.get(s) for s in range(n)),
        changes=tuple(changes),
        replay=bool(notes),
        out=gone,
    )
    result = HandResult(
        state.hand_no,
        tuple(float(c) for c in changes),
        note="hand_over",
        note_data={
            "hand": state.hand_no,
            "reason": reason,
            "changes": tuple(changes),
            "replay": bool(notes),
            "out": gone,
        },
    )
    if ev is not None:
        ev.append(
            Event(
                "hand_over",
                {
                    "hand": state.hand_no,
                    "reason": reason,
                    "changes": tuple(changes),
                    "replay": bool(notes),
                    "out": tuple(gone),
                    "shown": tuple(x.seat for x in shown),
                    "hands": tuple(x.cards for x in shown),
                },
            )
        )
    new_state = state.clone()
    new_state.lives = tuple(lives)
    new_state.out = tuple(out)
    new_state.out_order = tuple(out_order)
    new_state.history = (*state.history, result)
    new_state.last = last
    termination = ""
    remaining = [s for s in range(n) if not out[s]]
    if rules.plays_for_points:
        top = max(lives)
        if top >= rules.target_points and lives.count(top) == 1:
            termination = "target_points"
    elif len(remaining) <= 1:
        termination = "last_player"
    if not termination and rules.max_hands is not None and state.hand_no + 1 >= rules.max_hands:
        termination = "max_hands"
    if termination:
        if ev is not None:
            ev.append(Event("match_over", {"termination": termination}))
        new_state.phase = OVER
        new_state.to_act = -1
        new_state.termination = termination
        return new_state
    # ``new_state`` is our own copy, handed to nobody: the next hand's number and dealer are
    # set in it, and ``deal`` copies it again
    new_state.hand_no = state.hand_no + 1
    new_state.dealer = _nextactive(new_state.out, state.dealer)
    dealt = deal(new_state, hand_seed(new_state))
    if ev is not None:
        ev.append(Event("deal", {"hand": dealt.hand_no, "dealer": dealt.dealer}))
    return dealt
