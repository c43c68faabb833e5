"""Applying Samba Hand and Foot's actions: drawing (and the reshuffle), taking the pile, melding
and the meld requirement, taking melds back, discarding, picking up the foot, going out, the end
of a round and the next deal.  ``apply`` clones the state and changes only the copy."""

from __future__ import annotations

import random

from parlour.core.cards import Card, expand
from parlour.core.game import Event, HandResult
from parlour.core.rng import derive_seed
from parlour.games.handfoot import legal
from parlour.games.handfoot.actions import (
    Action,
    AddToMeld,
    Discard,
    Draw,
    Meld,
    Retract,
    TakePile,
)
from parlour.games.handfoot.parts.melds import Meld as TableMeld
from parlour.games.handfoot.parts.melds import cards_value, classify
from parlour.games.handfoot.scoring import side_score
from parlour.games.handfoot.state import (
    PHASE_DRAW,
    PHASE_OVER,
    PHASE_PLAY,
    State,
    deal_round,
    draw_cards,
    lay_out_red_threes,
)


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    events: list[Event] = []
    return apply_to(state, action, events), events


def apply_quiet(state: State, action: Action) -> State:
    """The state ``apply`` reaches, without building any event."""
    return apply_to(state, action, None)


def apply_to(state: State, action: Action, events: list[Event] | None) -> State:
    """The state after ``action``; events go to ``events`` (none are built when it is None).

    The state is cloned (sharing its containers) and every container that changes is replaced
    by a copy first (copy-on-write), so ``state`` itself never changes."""
    s = state.clone()
    if isinstance(action, Draw):
        _draw(s, events)
    elif isinstance(action, TakePile):
        _take_pile(s, action, events)
    elif isinstance(action, Meld):
        _place(s, -1, action.cards, action.cards, events)
    elif isinstance(action, AddToMeld):
        _place(s, action.meld, (action.card,), (action.card,), events)
    elif isinstance(action, Discard):
        _discard(s, action.card, events)
    elif isinstance(action, Retract):
        _retract(s, events)
    else:  # pragma: no cover - guarded by explain
        raise TypeError(f"not a Hand and Foot action: {action!r}")
    return s


def _own_hand(s: State, seat: int) -> list[int]:
    """The seat's hand, copied into ``s`` first (copy-on-write)."""
    hands = s.hands = list(s.hands)
    hand = hands[seat] = list(hands[seat])
    return hand


def _own_known(s: State, seat: int) -> list[int]:
    """The cards known in the seat's hand, copied into ``s`` first (copy-on-write)."""
    known = s.known = list(s.known)
    row = known[seat] = list(known[seat])
    return row


def _draw(s: State, events: list[Event] | None) -> None:
    seat = s.to_act
    if not s.stock and s.rules.stock_out == "reshuffle" and len(s.pile) > 1:
        rest, top = s.pile[:-1], s.pile[-1]
        random.Random(derive_seed(s.hand_seed, "reshuffle", s.reshuffles)).shuffle(rest)
        s.stock, s.pile = rest, [top]
        s.reshuffles += 1
        if events is not None:
            events.append(Event("reshuffle", {"count": len(rest)}))
    if not s.stock:
        if events is not None:
            events.append(Event("stock_out", {"seat": seat, "drew_last": False}))
        _end_round(s, events)
        return
    _own_hand(s, seat)
    s.stock = list(s.stock)
    kept, laid = draw_cards(s, seat, s.rules.draw_count)
    if events is not None:
        events.append(Event("draw", {"seat": seat, "count": len(kept) + len(laid)}))
        events.append(
            Event("draw_private", {"seat": seat, "cards": tuple(kept)}, frozenset({seat}))
        )
        _red_three_event(seat, laid, events)
    s.phase = PHASE_PLAY
    if not s.stock and not legal.play_actions(s):
        # the last cards of the stock were red 3s that could not be replaced: the player is
        # left with a lone card they may not discard (or none) — the stock has run out
        if events is not None:
            events.append(Event("stock_out", {"seat": seat, "drew_last": True}))
        _end_round(s, events)


def _red_three_event(seat: int, laid: list[Card], events: list[Event]) -> None:
    if laid:
        events.append(Event("red_threes", {"seat": seat, "cards": tuple(laid)}))


def _take_pile(s: State, action: TakePile, events: list[Event] | None) -> None:
    seat = s.to_act
    take = s.rules.pile_take
    top = s.pile[-1]
    s.pending = s.pile[-take:-1]
    s.pile = s.pile[:-take]
    s.took_pile = True
    s.taken_top = top
    s.phase = PHASE_PLAY
    if events is not None:
        events.append(
            Event(
                "take_pile",
                {
                    "seat": seat,
                    "top": top,
                    "cards": tuple(action.cards),
                    # set aside face down (seed 004) unless the house rule shows them
                    "pending": tuple(s.pending) if s.rules.pile_cards_face_up else (),
                    "count": len(s.pending),
                },
            )
        )
    _place(s, action.meld, (top, *action.cards), action.cards, events)


def _place(
    s: State,
    index: int,
    cards: tuple[Card, ...],
    from_hand: tuple[Card, ...],
    events: list[Event] | None,
) -> None:
    seat = s.to_act
    side = s.side_of[seat]
    hand = _own_hand(s, seat)
    for c in from_hand:
        hand[c] -= 1
    if any(s.known[seat][c] for c in from_hand):
        known = _own_known(s, seat)
        for c in from_hand:
            if known[c]:
                known[c] -= 1
    all_melds = s.melds = list(s.melds)
    melds = all_melds[side] = list(all_melds[side])
    if index < 0:
        kk = classify(cards)
        assert kk is not None
        meld = TableMeld(kk[0], kk[1], tuple(sorted(cards)))
        melds.append(meld)
    else:
        old = melds[index]
        meld = TableMeld(old.kind, old.key, tuple(sorted((*old.cards, *cards))))
        melds[index] = meld
    if events is not None:
        events.append(
            Event(
                "meld",
                {
                    "seat": seat,
                    "meld": index if index >= 0 else len(melds) - 1,
                    "new": index < 0,
                    "meld_kind": meld.kind,
                    "key": meld.key,
                    "complete": meld.complete,
                    "cards": cards,
                },
            )
        )
    if s.down[seat]:
        return
    s.turn_value += cards_value(cards)
    on_partner = 0 <= index < s.turn_start_melds
    if on_partner or s.turn_value >= s.opening_minimum():
        s.down = list(s.down)
        s.down[seat] = True
        s.opened = list(s.opened)
        s.opened[side] = True
        s.provisional = False
        if events is not None:
            events.append(
                Event(
                    "requirement_met",
                    {
                        "seat": seat,
                        "on_partner": on_partner,
                        "points": s.turn_value,
                        "minimum": s.opening_minimum(),
                    },
                )
            )
    else:
        s.provisional = True


def _retract(s: State, events: list[Event] | None) -> None:
    seat = s.to_act
    side = s.side_of[seat]
    hand = _own_hand(s, seat)
    known = _own_known(s, seat)
    back: list[Card] = []
    for m in s.melds[side][s.turn_start_melds :]:
        back.extend(m.cards)
    all_melds = s.melds = list(s.melds)
    all_melds[side] = all_melds[side][: s.turn_start_melds]
    if s.took_pile:
        back.remove(s.taken_top)
        s.pile = [*s.pile, *s.pending, s.taken_top]
        s.pending = []
        s.took_pile = False
        s.taken_top = -1
        s.pile_refused = True
        s.phase = PHASE_DRAW
    else:
        s.melds_refused = True
    for c in back:
        hand[c] += 1
        known[c] += 1
    s.turn_value = 0
    s.provisional = False
    if events is not None:
        events.append(
            Event(
                "retract",
                {"seat": seat, "cards": tuple(sorted(back)), "pile": s.phase == PHASE_DRAW},
            )
        )


def _discard(s: State, card: Card, events: list[Event] | None) -> None:
    seat = s.to_act
    hand = _own_hand(s, seat)
    hand[card] -= 1
    pending = s.pending
    if s.known[seat][card] or pending:
        known = _own_known(s, seat)
        if known[card]:
            known[card] -= 1
        for c in pending:
            hand[c] += 1
            known[c] += 1
    s.pile = [*s.pile, card]
    if events is not None:
        events.append(Event("discard", {"seat": seat, "card": card}))
        if pending:
            events.append(Event("pending_joins", {"seat": seat, "count": len(pending)}))
    if pending:
        s.pending = []
    if s.down[seat] and not s.foot_taken[seat]:
        foot = s.feet[seat]
        for c in foot:
            hand[c] += 1
        s.feet = list(s.feet)
        s.feet[seat] = []
        s.foot_taken = list(s.foot_taken)
        s.foot_taken[seat] = True
        laid = lay_out_red_threes(s, seat)
        if events is not None:
            events.append(Event("foot", {"seat": seat, "count": len(foot)}))
            events.append(
                Event(
                    "foot_private",
                    {"seat": seat, "cards": tuple(sorted(foot))},
                    frozenset({seat}),
                )
            )
            _red_three_event(seat, laid, events)
    elif s.foot_taken[seat] and not any(hand):
        s.went_out = seat
        if events is not None:
            events.append(Event("out", {"seat": seat}))
        _end_round(s, events)
        return
    _next_turn(s)


def _next_turn(s: State) -> None:
    nxt = s.next_seat(s.to_act)
    s.to_act = nxt
    s.phase = PHASE_DRAW
    s.turn_start_melds = len(s.melds[s.side_of[nxt]])
    s.turn_value = 0
    s.provisional = False
    s.took_pile = False
    s.taken_top = -1
    s.pending = []
    s.pile_refused = False
    s.melds_refused = False


def round_breakdown(s: State) -> list[dict[str, int]]:
    """Each partnership's score for the round as it stands (the final one at round end)."""
    rules = s.rules
    out = []
    for side in (0, 1):
        seats = s.side_seats(side)
        left: list[Card] = []
        for seat in seats:
            left.extend(expand(s.hands[seat]))
            left.extend(s.pending if seat == s.to_act else [])
            if rules.foot_counts_against and not s.foot_taken[seat]:
                left.extend(s.feet[seat])
        out.append(
            side_score(
                rules,
                melds=s.melds[side],
                red_threes=len(s.red_threes[side]),
                exact_cuts=sum(1 for seat in seats if s.cuts[seat] == 2 * rules.stack_size),
                went_out=s.went_out in seats,
                left_in_hand=left,
            )
        )
    return out


def _end_round(s: State, events: list[Event] | None) -> None:
    rules = s.rules
    per_side = round_breakdown(s)
    if rules.rotate_partners:
        unit_scores = tuple(per_side[s.side_of[seat]]["total"] for seat in range(rules.players))
        breakdown = tuple(dict(per_side[s.side_of[seat]]) for seat in range(rules.players))
    else:
        unit_scores = (per_side[0]["total"], per_side[1]["total"])
        breakdown = (dict(per_side[0]), dict(per_side[1]))
    s.results = [
        *s.results,
        HandResult(
            s.round,
            tuple(float(x) for x in unit_scores),
            tuple({k: float(v) for k, v in b.items()} for b in breakdown),
            "went_out" if s.went_out >= 0 else "stock_out",
            {"seat": s.went_out} if s.went_out >= 0 else {},
        ),
    ]
    s.scores = [a + b for a, b in zip(s.scores, unit_scores, strict=True)]
    if events is not None:
        events.append(
            Event(
                "round_over",
                {
                    "round": s.round,
                    "went_out": s.went_out if s.went_out >= 0 else None,
                    "scores": tuple(unit_scores),
                    "totals": tuple(s.scores),
                },
            )
        )
    if s.round + 1 >= rules.rounds:
        s.phase = PHASE_OVER
        s.termination = "rounds" if rules.rounds == len(rules.opening_minimums) else "max_hands"
        if events is not None:
            events.append(Event("match_over"))
        return
    deal_next(s, events)


def deal_next(s: State, events: list[Event] | None) -> None:
    """Deal the next round into ``s`` (every container of the round is replaced)."""
    rnd = s.round + 1
    notes = deal_round(s, rnd, derive_seed(s.seed, "deal", rnd))
    if events is None:
        return
    events.append(
        Event(
            "deal",
            {
                "round": rnd,
                "minimum": s.opening_minimum(),
                "first": s.first,
                "cuts": tuple(s.cuts),
            },
        )
    )
    for _kind, seat, laid in notes:
        _red_three_event(seat, laid, events)
