"""The legal-action enumeration of Samba Hand and Foot written the plain way (the engine's code
before it was made fast): every class multiset tried, made concrete and checked with the meld
rules, a fresh action object for each.  ``tests/games/handfoot/test_fast_paths.py`` checks the
engine lists exactly these actions in exactly this order (seeded games and journals replay by
the order).  Rule source: seed 004_bae80ddcdedd4514.txt, as in ``parlour.games.handfoot.legal``.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core.cards import NUM_KINDS, Card, make_card, rank_of, suit_of
from parlour.games.handfoot.actions import Action, AddToMeld, Discard, Draw, Meld, Retract, TakePile
from parlour.games.handfoot.legal import (
    BOOK_RANKS,
    CLASS_MEMBERS,
    RANK_REPS,
    REP,
    RUN_STARTS,
    WILD_REPS,
    discard_ok,
    leaves_a_discard,
    open_keys,
    relevant_reps,
)
from parlour.games.handfoot.parts.melds import (
    BOOK,
    BOOK_SIZE,
    MIN_MELD,
    RUN,
    SAMBA_LOW,
    WILDS,
    classify,
    is_black_three,
    is_wild,
    meld_problem,
    wilds_allowed,
)
from parlour.games.handfoot.parts.melds import Meld as TableMeld
from parlour.games.handfoot.state import PHASE_DRAW, PHASE_PLAY, State


def legal_actions(state: State) -> list[Action]:
    if state.phase == PHASE_DRAW:
        return [Draw(), *pile_actions(state)]
    if state.phase == PHASE_PLAY:
        return play_actions(state)
    return []


def class_hand(hand: Sequence[int]) -> list[int]:
    v = [0] * NUM_KINDS
    for k, n in enumerate(hand):
        if n:
            v[REP[k]] += n
    return v


def first_held(hand: Sequence[int], rep: Card) -> Card:
    if hand[rep]:
        return rep
    for k in CLASS_MEMBERS[rep]:
        if hand[k]:
            return k
    raise ValueError("the hand does not hold that card")


def concrete(hand: Sequence[int], reps: Sequence[Card]) -> tuple[Card, ...]:
    out: list[Card] = []
    for rep in reps:
        for k in CLASS_MEMBERS[rep]:
            if hand[k] > out.count(k):
                out.append(k)
                break
        else:
            raise ValueError("the hand does not hold those cards")
    return tuple(out)


def multisets(kinds: Sequence[Card], hand: Sequence[int], k: int) -> list[tuple[Card, ...]]:
    out: list[tuple[Card, ...]] = []
    held = [c for c in kinds if hand[c]]

    def rec(start: int, left: int, acc: list[Card]) -> None:
        if left == 0:
            out.append(tuple(acc))
            return
        for i in range(start, len(held)):
            kd = held[i]
            if hand[kd] > acc.count(kd):
                acc.append(kd)
                rec(i, left - 1, acc)
                acc.pop()

    rec(0, k, [])
    return out


def addable_reps(m: TableMeld, chand: Sequence[int]) -> list[Card]:
    if m.kind == WILDS:
        return [w for w in WILD_REPS if chand[w]]
    if m.kind == RUN:
        ranks = [rank_of(c) for c in m.cards]
        out = []
        lo, hi = min(ranks), max(ranks)
        if lo - 1 >= SAMBA_LOW and chand[make_card(lo - 1, m.key)]:
            out.append(make_card(lo - 1, m.key))
        if hi + 1 <= 14 and chand[make_card(hi + 1, m.key)]:
            out.append(make_card(hi + 1, m.key))
        return out
    out = [c for c in RANK_REPS[m.key] if chand[c]]
    if wilds_allowed(m.key):
        wild = m.wild_count
        if len(m.cards) - wild > wild + 1:
            out.extend(w for w in WILD_REPS if chand[w])
    return out


def pile_actions(state: State) -> list[TakePile]:
    if state.pile_refused or len(state.pile) < state.rules.pile_take:
        return []
    seat = state.to_act
    hand = state.hands[seat]
    if sum(hand) < 3:
        return []
    top = state.pile[-1]
    if is_black_three(top):
        return []
    melds = state.melds[state.side_of[seat]]
    targets: list[tuple[int, str, int, tuple[Card, ...]]] = []
    for i, m in enumerate(melds):
        if not m.complete and len(m.cards) + 3 <= BOOK_SIZE:
            targets.append((i, m.kind, m.key, m.cards))
    opened = open_keys(melds)
    new_keys: list[tuple[str, int]] = []
    if is_wild(top):
        new_keys.append((WILDS, 0))
        new_keys.extend((BOOK, r) for r in BOOK_RANKS if wilds_allowed(r))
    else:
        r = rank_of(top)
        new_keys.append((BOOK, r))
        if r >= SAMBA_LOW:
            new_keys.append((RUN, suit_of(top)))
    for kind, key in new_keys:
        if (kind, key) not in opened:
            targets.append((-1, kind, key, ()))
    out: list[TakePile] = []
    chand = class_hand(hand)
    for index, kind, key, cards in targets:
        for reps in multisets(relevant_reps(kind, key), chand, 2):
            pair = concrete(hand, reps)
            new_cards = (*cards, top, *pair)
            if meld_problem(kind, key, new_cards) is not None:
                continue
            if index < 0 and classify(new_cards) != (kind, key):
                continue
            out.append(TakePile(pair, index))
    return out


def _with_meld(melds: Sequence[TableMeld], index: int, meld: TableMeld) -> list[TableMeld]:
    out = list(melds)
    if index < 0:
        out.append(meld)
    else:
        out[index] = meld
    return out


def _meld_of(cards: tuple[Card, ...]) -> TableMeld:
    kk = classify(cards)
    assert kk is not None
    return TableMeld(kk[0], kk[1], tuple(sorted(cards)))


def play_actions(state: State) -> list[Action]:
    seat = state.to_act
    hand = state.hands[seat]
    size = sum(hand)
    melds = state.melds[state.side_of[seat]]
    out: list[Action] = []
    chand = class_hand(hand)
    if state.melds_refused:
        size = 0
    if size - MIN_MELD >= 1:
        for reps in new_meld_candidates(chand, melds):
            cards = concrete(hand, reps)
            if size - MIN_MELD >= 2 or leaves_a_discard(
                state, seat, size - MIN_MELD, _with_meld(melds, -1, _meld_of(cards))
            ):
                out.append(Meld(cards))
    if size >= 2:
        for i, m in enumerate(melds):
            if m.complete:
                continue
            for rep in addable_reps(m, chand):
                c = first_held(hand, rep)
                if size >= 3 or leaves_a_discard(
                    state,
                    seat,
                    size - 1,
                    _with_meld(melds, i, TableMeld(m.kind, m.key, (*m.cards, c))),
                ):
                    out.append(AddToMeld(i, c))
    if state.provisional:
        out.append(Retract())
    elif sum(hand) > 1 or state.pending or not state.foot_taken[seat]:
        out.extend(Discard(first_held(hand, rep)) for rep in range(NUM_KINDS) if chand[rep])
    else:
        out.extend(
            Discard(first_held(hand, rep))
            for rep in range(NUM_KINDS)
            if chand[rep] and discard_ok(state, first_held(hand, rep))
        )
    return out


def new_meld_candidates(chand: Sequence[int], melds: Sequence[TableMeld]) -> list[tuple[Card, ...]]:
    hand = chand
    opened = open_keys(melds)
    out: list[tuple[Card, ...]] = []
    wilds_held = [w for w in WILD_REPS if hand[w]]
    for r in BOOK_RANKS:
        kinds = RANK_REPS[r]
        n = sum(hand[c] for c in kinds)
        if n < 2 or (BOOK, r) in opened:
            continue
        if n >= 3:
            out.extend(multisets(kinds, hand, 3))
        if wilds_held and wilds_allowed(r):
            for pair in multisets(kinds, hand, 2):
                out.extend((*pair, w) for w in wilds_held)
    for s in range(4):
        if (RUN, s) in opened:
            continue
        for run in RUN_STARTS[s]:
            if hand[run[0]] and hand[run[1]] and hand[run[2]]:
                out.append(run)
    if (WILDS, 0) not in opened:
        out.extend(multisets(WILD_REPS, hand, 3))
    return out
