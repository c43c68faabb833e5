"""Which moves the rules allow now (enumeration in a fixed order) and why others are illegal.

Seed ``004_bae80ddcdedd4514.txt`` rules enforced here: draw 4 or take the pile (≥ 8 cards, top card
melded with two hand cards); new melds of ≥ 3 cards; wilds only in books 4–6 and 8–A with more
naturals than wilds, never in a samba or the book of 7s; black 3s never melded; the meld
requirement (one partner meets the round's minimum, the other plays a card on a partner's meld or
meets it too); keep a card to discard; go out only with every required book.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core.cards import JOKER, NUM_KINDS, Card, card_str, make_card, rank_of, suit_of
from parlour.games.handfoot.actions import (
    Action,
    AddToMeld,
    Discard,
    Draw,
    Meld,
    Retract,
    TakePile,
)
from parlour.games.handfoot.melds import (
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
from parlour.games.handfoot.melds import Meld as TableMeld
from parlour.games.handfoot.scoring import missing_books
from parlour.games.handfoot.state import PHASE_DRAW, PHASE_PLAY, State

BOOK_RANKS = tuple(range(4, 15))
RANK_KINDS = {r: tuple(make_card(r, s) for s in range(4)) for r in range(2, 15)}


def _representative(kind: Card) -> Card:
    """Cards no rule of this game tells apart share a representative: the suits of 2s (wild,
    20 points), of 4s–7s (books only — sambas run 8–A) and of black 3s never matter; the suit
    of an 8–A does (sambas are one suit)."""
    if kind == JOKER:
        return JOKER
    r = rank_of(kind)
    if r == 2 or 4 <= r <= 7:
        return make_card(r, 0)
    if r == 3:
        return make_card(3, 0) if suit_of(kind) in (0, 3) else kind
    return kind


REP = tuple(_representative(k) for k in range(NUM_KINDS))
CLASS_MEMBERS = {rep: tuple(k for k in range(NUM_KINDS) if REP[k] == rep) for rep in set(REP)}
WILD_REPS = (make_card(2, 0), JOKER)
RANK_REPS = {r: tuple(sorted({REP[k] for k in RANK_KINDS[r]})) for r in range(2, 15)}


RUN_STARTS = tuple(
    tuple(tuple(make_card(r, s) for r in range(low, low + 3)) for low in range(SAMBA_LOW, 13))
    for s in range(4)
)


def class_hand(hand: Sequence[int]) -> list[int]:
    """The hand counted by class of interchangeable cards (at each class's representative)."""
    v = [0] * NUM_KINDS
    for k, n in enumerate(hand):
        if n:
            v[REP[k]] += n
    return v


def first_held(hand: Sequence[int], rep: Card) -> Card:
    """The lowest-suited card held of the class ``rep``."""
    if hand[rep]:
        return rep
    for k in CLASS_MEMBERS[rep]:
        if hand[k]:
            return k
    raise ValueError("the hand does not hold that card")


def concrete(hand: Sequence[int], reps: Sequence[Card]) -> tuple[Card, ...]:
    """The actual cards a move of these classes uses: always the lowest suit held of each class
    (so equivalent moves are listed once)."""
    out: list[Card] = []
    for rep in reps:
        members = CLASS_MEMBERS[rep]
        if len(members) == 1:
            if hand[rep] <= out.count(rep):
                raise ValueError("the hand does not hold those cards")
            out.append(rep)
            continue
        for k in members:
            if hand[k] > out.count(k):
                out.append(k)
                break
        else:
            raise ValueError("the hand does not hold those cards")
    return tuple(out)


def canonical_cards(hand: Sequence[int], cards: Sequence[Card]) -> tuple[Card, ...]:
    """The cards a legal move uses in place of ``cards`` (same classes, lowest suits held)."""
    return concrete(hand, sorted(REP[c] for c in cards))


def multisets(kinds: Sequence[Card], hand: Sequence[int], k: int) -> list[tuple[Card, ...]]:
    """Every multiset of ``k`` cards drawn from ``kinds`` that the hand can supply (kind order)."""
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


def relevant_reps(kind: str, key: int) -> tuple[Card, ...]:
    if kind == WILDS:
        return WILD_REPS
    if kind == RUN:
        return tuple(make_card(r, key) for r in range(SAMBA_LOW, 15))
    return RANK_REPS[key] + (WILD_REPS if wilds_allowed(key) else ())


def addable_reps(m: TableMeld, chand: Sequence[int]) -> list[Card]:
    """Classes of cards held that may be added to the unfinished meld ``m`` (fast path of
    :func:`meld_problem` for one card)."""
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


def open_keys(melds: Sequence[TableMeld]) -> set[tuple[str, int]]:
    return {(m.kind, m.key) for m in melds if not m.complete}


def can_go_out_with(state: State, melds: Sequence[TableMeld]) -> bool:
    return not missing_books(state.rules, melds)


def leaves_a_discard(state: State, seat: int, remaining: int, melds: Sequence[TableMeld]) -> bool:
    """A player must keep a card to discard; the last card may be discarded only if it does not
    leave the player with nothing (pile cards or the foot still to come) or it goes out."""
    if remaining >= 2:
        return True
    if remaining < 1:
        return False
    return bool(state.pending) or not state.foot_taken[seat] or can_go_out_with(state, melds)


def _with_meld(melds: Sequence[TableMeld], index: int, meld: TableMeld) -> list[TableMeld]:
    out = list(melds)
    if index < 0:
        out.append(meld)
    else:
        out[index] = meld
    return out


# --- enumeration -------------------------------------------------------------------------------


def legal_actions(state: State) -> list[Action]:
    """The legal actions (cached on the state: states are never changed once handed out)."""
    if state.legal_cache is not None:
        return state.legal_cache
    out: list[Action] = []
    if state.phase == PHASE_DRAW:
        out = draw_actions(state)
    elif state.phase == PHASE_PLAY:
        out = play_actions(state)
    state.legal_cache = out
    return out


def draw_actions(state: State) -> list[Action]:
    out: list[Action] = [Draw()]
    out.extend(pile_actions(state))
    return out


def pile_actions(state: State) -> list[TakePile]:
    rules = state.rules
    if state.pile_refused or len(state.pile) < rules.pile_take:
        return []
    seat = state.to_move
    hand = state.hands[seat]
    if sum(hand) < 3:  # two cards go to the meld and one must stay to discard
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


def play_actions(state: State) -> list[Action]:
    seat = state.to_move
    hand = state.hands[seat]
    size = sum(hand)
    melds = state.melds[state.side_of[seat]]
    out: list[Action] = []
    chand = class_hand(hand)
    if state.melds_refused:
        size = 0  # melds taken back this turn: only a discard is left
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


def _meld_of(cards: tuple[Card, ...]) -> TableMeld:
    kk = classify(cards)
    assert kk is not None
    return TableMeld(kk[0], kk[1], tuple(sorted(cards)))


def new_meld_candidates(chand: Sequence[int], melds: Sequence[TableMeld]) -> list[tuple[Card, ...]]:
    """Three-card starts of new melds (as classes) the hand can make; one unfinished meld per
    rank / suit / wilds."""
    hand = chand
    opened = open_keys(melds)
    out: list[tuple[Card, ...]] = []
    wilds_held = [w for w in WILD_REPS if hand[w]]
    for r in BOOK_RANKS:
        kinds = RANK_REPS[r]
        n = 0
        for c in kinds:
            n += hand[c]
        if n < 2 or (BOOK, r) in opened:
            continue
        if n >= 3:
            out.extend(multisets(kinds, hand, 3))
        if n >= 2 and wilds_held and wilds_allowed(r):
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


def discard_ok(state: State, card: Card) -> bool:
    return discard_problem(state, card) is None


def discard_problem(state: State, card: Card) -> str | None:
    seat = state.to_move
    hand = state.hands[seat]
    if not hand[card]:
        return f"you do not hold {card_str(card)}"
    if state.provisional:
        return (
            f"your melds this turn ({state.turn_value} points) do not meet the requirement: meld "
            f"{state.opening_minimum()} points or play a card on a meld your partner put down, or "
            "take back this turn's melds"
        )
    if sum(hand) == 1 and not state.pending and state.foot_taken[seat]:
        missing = missing_books(state.rules, state.melds[state.side_of[seat]])
        if missing:
            return (
                "discarding your last card would go out, and your side may go out only with every "
                f"required book (still missing: {', '.join(missing)})"
            )
    return None


# --- explanations --------------------------------------------------------------------------------


def explain(state: State, action: object) -> str | None:
    """Why ``action`` is illegal now (None if legal).  Legal means: listed by legal_actions."""
    if state.phase not in (PHASE_DRAW, PHASE_PLAY):
        return "the match is over"
    if not isinstance(action, (Draw, TakePile, Meld, AddToMeld, Discard, Retract)):
        return f"{action!r} is not a Hand and Foot action"
    legal = legal_actions(state)
    if action in legal:
        return None
    return (
        _interchangeable_reason(state, action, legal)
        or _reason(state, action)
        or f"{action} is not a legal move now"
    )


def canonical_action(state: State, action: Action) -> Action:
    """The listed legal action equivalent to ``action`` when it names interchangeable cards of
    other suits (2s, 4s–7s, black 3s); ``action`` itself otherwise.  Front ends call this so a
    player may pick any of several identical cards."""
    hand = state.hands[state.to_move]
    try:
        if isinstance(action, Meld):
            return Meld(canonical_cards(hand, action.cards))
        if isinstance(action, TakePile):
            return TakePile(canonical_cards(hand, action.cards), action.meld)
        if isinstance(action, AddToMeld):
            return AddToMeld(action.meld, canonical_cards(hand, (action.card,))[0])
        if isinstance(action, Discard):
            return Discard(canonical_cards(hand, (action.card,))[0])
    except (ValueError, KeyError, IndexError):
        return action
    return action


def _interchangeable_reason(state: State, action: Action, legal: Sequence[Action]) -> str | None:
    canon = canonical_action(state, action)
    if canon != action and canon in legal:
        return (
            f"no rule tells those cards apart from others of the same rank in your hand (the "
            f"suits of 2s, 4s–7s and black 3s never matter): the table plays the lowest suit you "
            f"hold — {canon}"
        )
    return None


def _reason(state: State, action: Action) -> str | None:
    seat = state.to_move
    hand = state.hands[seat]
    side = state.side_of[seat]
    melds = state.melds[side]
    rules = state.rules
    if state.phase == PHASE_DRAW and not isinstance(action, (Draw, TakePile)):
        return f"begin your turn by drawing {rules.draw_count} cards or taking the pile"
    if state.phase == PHASE_PLAY and isinstance(action, (Draw, TakePile)):
        return "you have already drawn this turn"
    if isinstance(action, (Meld, AddToMeld)) and state.melds_refused:
        return "you took back your melds this turn: now you must discard"
    if isinstance(action, TakePile):
        if state.pile_refused:
            return "you took back the pile this turn: now you must draw"
        if len(state.pile) < rules.pile_take:
            return (
                f"the pile may be taken only when it holds at least {rules.pile_take} cards "
                f"(it holds {len(state.pile)})"
            )
        if len(action.cards) != 2:
            return "the top card of the pile must be melded with exactly two cards from your hand"
        missing = _missing(hand, action.cards)
        if missing:
            return missing
        top = state.pile[-1]
        if is_black_three(top):
            return "a black 3 on the pile can never be melded, so the pile cannot be taken"
        if sum(hand) < 3:
            return "you must keep a card to discard after melding two with the top card"
        if action.meld >= len(melds) or action.meld < -1:
            return f"your side has no meld {action.meld}"
        cards = (top, *action.cards)
        return _meld_reason(melds, action.meld, cards, "the top card with those two cards")
    if isinstance(action, Meld):
        if len(action.cards) != MIN_MELD:
            return "start a new meld with exactly three cards (then add cards one at a time)"
        missing = _missing(hand, action.cards)
        if missing:
            return missing
        if sum(hand) - MIN_MELD < 1:
            return "you must keep a card to discard"
        reason = _meld_reason(melds, -1, action.cards, "those cards")
        if reason:
            return reason
        return _last_card_reason(state)
    if isinstance(action, AddToMeld):
        if not 0 <= action.meld < len(melds):
            return f"your side has no meld {action.meld}"
        missing = _missing(hand, (action.card,))
        if missing:
            return missing
        if sum(hand) < 2:
            return "you must keep a card to discard"
        reason = _meld_reason(melds, action.meld, (action.card,), card_str(action.card))
        if reason:
            return reason
        return _last_card_reason(state)
    if isinstance(action, Discard):
        return discard_problem(state, action.card)
    if isinstance(action, Retract):
        return (
            "there is nothing to take back: take-backs are only for melds that miss the requirement"
        )
    return None


def _last_card_reason(state: State) -> str:
    return (
        "that would leave you one card after picking up your foot without every required book: "
        "you could not discard it"
    )


def _missing(hand: Sequence[int], cards: Sequence[Card]) -> str | None:
    need: dict[Card, int] = {}
    for c in cards:
        if not 0 <= c < len(hand):
            return f"{c} is not a card"
        need[c] = need.get(c, 0) + 1
    for c, n in need.items():
        if hand[c] < n:
            return f"you do not hold {'that many ' if hand[c] else ''}{card_str(c)}"
    return None


def _meld_reason(
    melds: Sequence[TableMeld], index: int, cards: Sequence[Card], what: str
) -> str | None:
    for c in cards:
        if is_black_three(c):
            return "black 3s are never played to the board"
    if index < 0:
        kk = classify(cards)
        if kk is None:
            return (
                f"{what} do not form a meld: a book is one rank (with fewer wilds than "
                "naturals), a samba run is consecutive cards 8–A of one suit, a book of wilds "
                "is 2s and jokers"
            )
        kind, key = kk
        if (kind, key) in open_keys(melds):
            return (
                f"your side already has an unfinished {TableMeld(kind, key, ()).label()}: "
                "add to it instead of starting another"
            )
        return meld_problem(kind, key, cards)
    m = melds[index]
    if m.complete:
        return f"meld {index} is a finished book of {BOOK_SIZE} cards: nothing more can be added"
    return meld_problem(m.kind, m.key, (*m.cards, *cards))
