"""What a seat may know in Cheat (``observe``) and states consistent with it (``determinize``).

A seat sees its own hand and the cards it is picking, every claim, the pile (its own plays with
their cards, the others' as claims only), hand sizes, every card exposed by a challenge and which
hand it went to, the cards it picked up itself, and its own answer in the open challenge window.
It never sees the others' face-down cards or their answers before the window closes.
"""

from __future__ import annotations

import random
from typing import Any

from parlour.core.cards import NUM_KINDS, card_str, shoe
from parlour.games.cheat.state import (
    LATE,
    OVER,
    WINDOW,
    ChallengeRecord,
    CheatView,
    ClaimRecord,
    PickupRecord,
    PileEntry,
    Play,
    State,
)


def _expand(counts: tuple[int, ...]) -> tuple[int, ...]:
    out: list[int] = []
    for kind, k in enumerate(counts):
        if k:
            out.extend([kind] * k)
    return tuple(out)


def observe_state(state: State, seat: int | None) -> CheatView:
    mine = seat is not None
    pile = tuple(
        PileEntry(p.seat, p.count, p.rank, p.cards if mine and p.seat == seat else ())
        for p in state.pile
    )
    decision = ""
    if mine and state.phase == WINDOW and seat in state.askers[: state.ask_index]:
        decision = "challenge" if seat in state.challengers else "pass"
    own_turn = mine and seat == state.turn_seat
    return CheatView(
        seat=seat,
        to_act=None if state.phase == OVER else state.to_act,
        phase=state.phase,
        rules=state.rules,
        hand=_expand(state.hands[seat]) if seat is not None else (),
        selection=state.selection if own_turn else (),
        hand_sizes=state.shown,
        pile=pile,
        pile_size=sum(p.count for p in state.pile),
        turn_seat=state.turn_seat,
        allowed_ranks=state.allowed,
        must_include=state.must_include,
        claims=state.claims,
        challenges=state.challenges,
        picked_up=state.pickups[seat] if seat is not None else (),
        out=state.out,
        turns=state.turns,
        first_player=state.first_player,
        my_decision=decision,
        late_passed=state.late_passed,
        termination=state.termination,
    )


def determinize_view(view: CheatView, rng: random.Random) -> State:
    """A full state consistent with ``view``: the hidden cards (others' hands, their plays in
    the pile) dealt at random from the cards the seat cannot place; other seats' pending answers
    in the challenge window taken as passes."""

    rules = view.rules
    n = rules.players
    if view.seat is None:
        raise ValueError("determinize needs a seat's view, not a spectator's")
    me = view.seat
    pool = [0] * NUM_KINDS
    for c in shoe(rules.packs, rules.jokers):
        pool[c] += 1
    for c in (*view.hand, *view.selection):
        pool[c] -= 1
    for p in view.pile:
        if p.seat == me:
            for c in p.cards:
                pool[c] -= 1
    unknown = [kind for kind, k in enumerate(pool) for _ in range(k)]
    rng.shuffle(unknown)
    # others' plays in the pile: as many cards as claimed
    # others' plays in the pile: as many cards as claimed (with overclaim possibly fewer)
    want = [len(p.cards) if p.seat == me else p.count for p in view.pile]
    others = [s for s in range(n) if s != me]
    sizes = {s: view.hand_sizes[s] for s in others}
    surplus = (
        len(unknown)
        - sum(sizes.values())
        - sum(w for w, p in zip(want, view.pile, strict=True) if p.seat != me)
    )
    # only with overplay/overclaim can counted sizes differ from true ones: spread the difference
    live = [s for s in others if s not in view.out]
    i = 0
    while surplus > 0 and live:
        sizes[live[i % len(live)]] += 1
        surplus -= 1
        i += 1
    while surplus < 0:
        floor = {
            s: (0 if s == view.turn_seat and view.phase in (WINDOW, LATE) else 1) for s in live
        }
        cand = [s for s in live if sizes[s] > floor[s]]
        if cand:
            sizes[cand[i % len(cand)]] -= 1
        else:
            # an over-claimed play holds fewer cards than claimed (at least one)
            short = [
                k
                for k, p in enumerate(view.pile)
                if p.seat != me and want[k] > 1 and rules.overclaim
            ]
            if not short:
                raise ValueError("view is inconsistent: not enough hidden cards")
            want[short[i % len(short)]] -= 1
        surplus += 1
        i += 1
    plays: list[tuple[int, ...]] = []
    for k, p in enumerate(view.pile):
        if p.seat == me:
            plays.append(p.cards)
        else:
            cards, unknown = unknown[: want[k]], unknown[want[k] :]
            plays.append(tuple(sorted(cards)))
    hands: list[tuple[int, ...]] = []
    for s in range(n):
        hand = [0] * NUM_KINDS
        take = view.hand
        if s != me:
            take, unknown = tuple(unknown[: sizes[s]]), unknown[sizes[s] :]
        for c in take:
            hand[c] += 1
        hands.append(tuple(hand))
    return world_of(view, plays, hands)


def world_of(view: CheatView, plays: list[tuple[int, ...]], hands: list[tuple[int, ...]]) -> State:
    """The full state ``view`` shows with the hidden cards placed: ``plays`` (the true cards of
    each play in the pile, in order) and ``hands`` (count vectors, the viewer's own included);
    other seats' pending answers in the challenge window taken as passes."""
    from parlour.games.cheat.apply import askers_for

    assert view.seat is not None
    me = view.seat
    n = view.rules.players
    phase = view.phase
    askers: tuple[int, ...] = ()
    ask_index = 0
    challengers: tuple[int, ...] = ()
    if phase in (WINDOW, LATE):
        askers = askers_for(n, view.turn_seat, view.out)
        ask_index = askers.index(view.to_act) if view.to_act in askers else 0
        if view.my_decision == "challenge":
            challengers = (me,)
    return State(
        rules=view.rules,
        seed=0,
        phase=phase,
        hands=tuple(hands),
        shown=view.hand_sizes,
        pile=tuple(
            Play(p.seat, cards, p.count, p.rank) for p, cards in zip(view.pile, plays, strict=True)
        ),
        turn_seat=view.turn_seat,
        to_act=-1 if view.to_act is None else view.to_act,
        selection=view.selection,
        allowed=view.allowed_ranks,
        must_include=view.must_include,
        askers=askers,
        ask_index=ask_index,
        challengers=challengers,
        late_passed=view.late_passed,
        out=view.out,
        turns=view.turns,
        first_player=view.first_player,
        claims=view.claims,
        challenges=view.challenges,
        pickups=tuple(view.picked_up if s == me else () for s in range(n)),
        termination=view.termination,
    )


_CARD_TEXT = tuple(card_str(c) for c in range(NUM_KINDS))


def _cards(cards: tuple[int, ...]) -> list[str]:
    return [_CARD_TEXT[c] for c in cards]


def _claim_json(c: ClaimRecord) -> dict[str, Any]:
    return {"type": "ClaimRecord", "turn": c.turn, "seat": c.seat, "count": c.count, "rank": c.rank}


def _challenge_json(c: ChallengeRecord) -> dict[str, Any]:
    return {
        "type": "ChallengeRecord",
        "turn": c.turn,
        "player": c.player,
        "count": c.count,
        "rank": c.rank,
        "challengers": list(c.challengers),
        "cards": _cards(c.cards),
        "truthful": c.truthful,
        "takers": list(c.takers),
        "shares": list(c.shares),
        "exposed_to": list(c.exposed_to),
        "late": c.late,
    }


def _pickup_json(p: PickupRecord) -> dict[str, Any]:
    return {"type": "PickupRecord", "turn": p.turn, "cards": _cards(p.cards)}


def view_json(view: CheatView) -> dict[str, Any]:
    """The view as JSON — the same shape ``parlour.core.codec.to_json`` gives, built directly
    because views carry the whole claim history and are serialised often."""
    return {
        "type": "CheatView",
        "seat": view.seat,
        "to_act": view.to_act,
        "phase": view.phase,
        "rules": {"type": "CheatRules", **view.rules.to_json()},
        "hand": _cards(view.hand),
        "selection": _cards(view.selection),
        "hand_sizes": list(view.hand_sizes),
        "pile": [
            {
                "type": "PileEntry",
                "seat": p.seat,
                "count": p.count,
                "rank": p.rank,
                "cards": _cards(p.cards),
            }
            for p in view.pile
        ],
        "pile_size": view.pile_size,
        "turn_seat": view.turn_seat,
        "allowed_ranks": list(view.allowed_ranks),
        "must_include": None if view.must_include < 0 else _CARD_TEXT[view.must_include],
        "claims": [_claim_json(c) for c in view.claims],
        "challenges": [_challenge_json(c) for c in view.challenges],
        "picked_up": [_pickup_json(p) for p in view.picked_up],
        "out": list(view.out),
        "turns": view.turns,
        "first_player": view.first_player,
        "my_decision": view.my_decision,
        "late_passed": list(view.late_passed),
        "termination": view.termination,
    }
