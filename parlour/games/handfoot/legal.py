"""Which moves the rules allow now (enumeration in a fixed order) and why others are illegal.

Seed ``004_bae80ddcdedd4514.txt`` rules enforced here: draw 4 or take the pile (≥ 8 cards, top card
melded with two hand cards); new melds of ≥ 3 cards; wilds only in books 4–6 and 8–A with more
naturals than wilds, never in a samba or the book of 7s; black 3s never melded; the meld
requirement (one partner meets the round's minimum, the other plays a card on a partner's meld or
meets it too); keep a card to discard; go out only with every required book.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from parlour.core.cards import JOKER, NUM_KINDS, Card, make_card, rank_of, suit_of
from parlour.core.said import N_, Listed, Rank
from parlour.core.said import Card as CardValue
from parlour.games.handfoot.actions import (
    Action,
    AddToMeld,
    Discard,
    Draw,
    Meld,
    Retract,
    TakePile,
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
from parlour.games.handfoot.scoring import missing_book_words, missing_books
from parlour.games.handfoot.state import PHASE_DRAW, PHASE_PLAY, State

BOOK_RANKS: Final = tuple(range(4, 15))
RANK_KINDS: Final = {r: tuple(make_card(r, s) for s in range(4)) for r in range(2, 15)}


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


REP: Final = tuple(_representative(k) for k in range(NUM_KINDS))
CLASS_MEMBERS: Final = {
    rep: tuple(k for k in range(NUM_KINDS) if REP[k] == rep) for rep in set(REP)
}
WILD_REPS: Final = (make_card(2, 0), JOKER)
RANK_REPS: Final = {r: tuple(sorted({REP[k] for k in RANK_KINDS[r]})) for r in range(2, 15)}


#: representatives of every class, in order (a representative is its class's lowest kind)
CLASS_REPS: Final = tuple(sorted(CLASS_MEMBERS))
#: the classes of more than one kind (2s, 4s–7s, black 3s): (representative, members)
MULTI_CLASSES: Final = tuple(
    (rep, CLASS_MEMBERS[rep]) for rep in CLASS_REPS if len(CLASS_MEMBERS[rep]) > 1
)
#: the classes of one kind, in order (each comes after every class of several kinds)
SINGLE_REPS: Final = tuple(rep for rep in CLASS_REPS if len(CLASS_MEMBERS[rep]) == 1)
assert max(rep for rep, _ in MULTI_CLASSES) < min(SINGLE_REPS)
TWO_REP: Final = make_card(2, 0)

#: books of 4s–7s by rank: (the book's target bit, class, wilds allowed)
LOW_BOOKS: Final = tuple(
    (1 << (r - 4), RANK_REPS[r][0], wilds_allowed(r)) for r in BOOK_RANKS if r <= 7
)
#: books of 8s–As by rank (wilds allowed in every one): (the book's target bit, the four suits)
HIGH_BOOKS: Final = tuple((1 << (r - 4), RANK_REPS[r]) for r in BOOK_RANKS if r >= SAMBA_LOW)
assert all(wilds_allowed(r) and len(RANK_REPS[r]) == 4 for r in range(SAMBA_LOW, 15))

#: the cards of a samba of each suit, 8 to A
RUN_KINDS: Final = tuple(tuple(make_card(r, s) for r in range(SAMBA_LOW, 15)) for s in range(4))
RUN_STARTS: Final = tuple(
    tuple(tuple(make_card(r, s) for r in range(low, low + 3)) for low in range(SAMBA_LOW, 13))
    for s in range(4)
)


def class_hand(hand: list[int]) -> list[int]:
    """The hand counted by class of interchangeable cards (at each class's representative)."""
    v = list(hand)
    for rep, members in MULTI_CLASSES:
        n = 0
        for k in members:
            n += v[k]
            v[k] = 0
        v[rep] = n
    return v


def lowest(hand: list[int], rep: Card, count: int) -> list[Card]:
    """The ``count`` lowest cards held of the class ``rep`` (fewer if the hand holds fewer),
    each as often as held: what :func:`concrete` plays for that many cards of the class."""
    out: list[Card] = []
    for k in CLASS_MEMBERS[rep]:
        for _ in range(min(hand[k], count - len(out))):
            out.append(k)
        if len(out) == count:
            break
    return out


def first_held(hand: list[int], rep: Card) -> Card:
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


def relevant_reps(kind: str, key: int) -> tuple[Card, ...]:
    if kind == WILDS:
        return WILD_REPS
    if kind == RUN:
        return tuple(make_card(r, key) for r in range(SAMBA_LOW, 15))
    return RANK_REPS[key] + (WILD_REPS if wilds_allowed(key) else ())


def open_keys(melds: Sequence[TableMeld]) -> set[tuple[str, int]]:
    return {(m.kind, m.key) for m in melds if not m.complete}


def target_bit(kind: str, key: int) -> int:
    """A bit per meld target (books of 4–A, runs of each suit, the wild book): the same
    targets :func:`open_keys` names, as one int (no set of tuples to build each call)."""
    if kind == BOOK:
        return 1 << (key - 4) if 4 <= key <= 14 else 0
    if kind == RUN:
        return 1 << (11 + key)
    return 1 << 15


def open_bits(melds: Sequence[TableMeld]) -> int:
    """The targets of the unfinished melds as bits (:func:`target_bit`)."""
    bits = 0
    for m in melds:
        if not m.complete:
            bits |= target_bit(m.kind, m.key)
    return bits


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
#
# Legal actions are listed in a fixed order (seeded games and saved journals replay by it) and
# are interned: the same action is the same object every time it is listed.

DRAW: Final = Draw()
RETRACT: Final = Retract()
DISCARDS: Final = tuple(Discard(c) for c in range(NUM_KINDS))
_MELDS: Final[dict[tuple[Card, ...], Meld]] = {}
_ADDS: Final[list[tuple[AddToMeld, ...]]] = []
_TAKES: Final[dict[tuple[int, Card, Card], TakePile]] = {}
#: rep pairs that make a new meld of (kind, key) with a pile top, in listing order
_NEW_PILE_PAIRS: Final[dict[tuple[str, int, Card], tuple[tuple[Card, Card], ...]]] = {}


def meld_action(cards: tuple[Card, ...]) -> Meld:
    """The (interned) action starting a meld of ``cards``."""
    found = _MELDS.get(cards)
    if found is None:
        found = _MELDS[cards] = Meld(cards)
    return found


def add_actions(index: int) -> tuple[AddToMeld, ...]:
    """The (interned) actions adding a card to meld ``index``, by card."""
    while len(_ADDS) <= index:
        _ADDS.append(tuple(AddToMeld(len(_ADDS), c) for c in range(NUM_KINDS)))
    return _ADDS[index]


def take_action(pair: tuple[Card, Card], index: int) -> TakePile:
    """The (interned) action taking the pile with ``pair`` onto meld ``index``."""
    key = (index, pair[0], pair[1])
    found = _TAKES.get(key)
    if found is None:
        found = _TAKES[key] = TakePile(pair, index)
    return found


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
    out: list[Action] = [DRAW]
    out.extend(pile_actions(state))
    return out


def rep_pairs(reps: Sequence[Card]) -> list[tuple[Card, Card]]:
    """Every pair of ``reps`` (a class may pair with itself): (a, b) with a listed no later than
    b, in list order."""
    return [(a, b) for i, a in enumerate(reps) for b in reps[i:]]


def holds_pair(chand: list[int], a: Card, b: Card) -> bool:
    return chand[a] >= 2 if a == b else bool(chand[a] and chand[b])


def concrete_pair(hand: list[int], a: Card, b: Card) -> tuple[Card, Card]:
    """:func:`concrete` of two classes."""
    if a == b:
        low = lowest(hand, a, 2)
        return low[0], low[1]
    return first_held(hand, a), first_held(hand, b)


def may_hold(kind: str, key: int, card: Card) -> bool:
    """Whether a meld of (kind, key) may hold ``card`` at all (:func:`meld_problem` refuses
    every meld with a card for which this is false)."""
    if kind == WILDS:
        return is_wild(card)
    if kind == RUN:
        return not is_wild(card) and suit_of(card) == key and rank_of(card) >= SAMBA_LOW
    if is_wild(card):
        return wilds_allowed(key)
    return rank_of(card) == key and 4 <= key <= 14


def new_pile_pairs(kind: str, key: int, top: Card) -> tuple[tuple[Card, Card], ...]:
    """The class pairs (in :func:`rep_pairs` order) that start a meld of (kind, key) with
    ``top``, computed once: no rule tells the cards of a class apart, so its representative
    stands for each."""
    found = _NEW_PILE_PAIRS.get((kind, key, top))
    if found is None:
        found = tuple(
            (a, b)
            for a, b in rep_pairs(relevant_reps(kind, key))
            if meld_problem(kind, key, (top, a, b)) is None and classify((top, a, b)) == (kind, key)
        )
        _NEW_PILE_PAIRS[(kind, key, top)] = found
    return found


def pile_actions(state: State) -> list[TakePile]:
    rules = state.rules
    if state.pile_refused or len(state.pile) < rules.pile_take:
        return []
    seat = state.to_act
    hand = state.hands[seat]
    if sum(hand) < 3:  # two cards go to the meld and one must stay to discard
        return []
    top = state.pile[-1]
    if is_black_three(top):
        return []
    melds = state.melds[state.side_of[seat]]
    chand = class_hand(hand)
    out: list[TakePile] = []
    for i, m in enumerate(melds):
        if m.complete or len(m.cards) + 3 > BOOK_SIZE or not may_hold(m.kind, m.key, top):
            continue
        for a, b in rep_pairs(relevant_reps(m.kind, m.key)):
            if (
                holds_pair(chand, a, b)
                and meld_problem(m.kind, m.key, (*m.cards, top, a, b)) is None
            ):
                out.append(take_action(concrete_pair(hand, a, b), i))
    opened = open_bits(melds)
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
        if opened & target_bit(kind, key):
            continue
        for a, b in new_pile_pairs(kind, key, top):
            if holds_pair(chand, a, b):
                out.append(take_action(concrete_pair(hand, a, b), -1))
    return out


def play_actions(state: State) -> list[Action]:
    seat = state.to_act
    hand = state.hands[seat]
    size = held = sum(hand)
    melds = state.melds[state.side_of[seat]]
    out: list[Action] = []
    chand = class_hand(hand)
    if state.melds_refused:
        size = 0  # melds taken back this turn: only a discard is left
    if size - MIN_MELD >= 2:
        out.extend(new_meld_actions(hand, chand, melds))
    elif size - MIN_MELD == 1:  # the meld would leave one card: it must still be discardable
        for cards in new_meld_cards(hand, chand, melds):
            if leaves_a_discard(state, seat, 1, _with_meld(melds, -1, _meld_of(cards))):
                out.append(meld_action(cards))
    if size >= 2:
        for i, m in enumerate(melds):
            if m.complete:
                continue
            adds = add_actions(i)
            for rep in m.addable:
                if not chand[rep]:
                    continue
                c = rep if hand[rep] else first_held(hand, rep)
                if size >= 3 or leaves_a_discard(  # else keep a card to discard
                    state, seat, 1, _with_meld(melds, i, TableMeld(m.kind, m.key, (*m.cards, c)))
                ):
                    out.append(adds[c])
    if state.provisional:
        out.append(RETRACT)
    elif held <= 1 and not state.pending and state.foot_taken[seat]:  # the last card
        out.extend([DISCARDS[c] for c in discardable(hand, chand) if discard_ok(state, c)])
    else:
        out.extend([DISCARDS[c] for c in discardable(hand, chand)])
    return out


def discardable(hand: list[int], chand: list[int]) -> list[Card]:
    """One card of each class held (the lowest suit), in class order."""
    out = [first_held(hand, rep) for rep, _ in MULTI_CLASSES if chand[rep]]
    out.extend([c for c in SINGLE_REPS if hand[c]])
    return out


def _meld_of(cards: tuple[Card, ...]) -> TableMeld:
    kk = classify(cards)
    assert kk is not None
    return TableMeld(kk[0], kk[1], tuple(sorted(cards)))


def held_pairs(kinds: tuple[Card, ...], hand: list[int]) -> list[tuple[Card, Card]]:
    """Every pair of cards of ``kinds`` the hand can supply (a kind twice only if held twice):
    (a, b) with a listed no later than b, in list order."""
    held = [c for c in kinds if hand[c]]
    out: list[tuple[Card, Card]] = []
    for i, a in enumerate(held):
        if hand[a] >= 2:
            out.append((a, a))
        for b in held[i + 1 :]:
            out.append((a, b))
    return out


def held_triples(kinds: tuple[Card, ...], hand: list[int]) -> list[tuple[Card, Card, Card]]:
    """Every three cards of ``kinds`` the hand can supply (a kind as often as held), each
    listed no later than the next, in list order."""
    held = [c for c in kinds if hand[c]]
    out: list[tuple[Card, Card, Card]] = []
    for i, a in enumerate(held):
        for j in range(i, len(held)):
            b = held[j]
            if j == i and hand[a] < 2:
                continue
            for c in held[j:]:
                if hand[c] > (c == a) + (c == b):
                    out.append((a, b, c))
    return out


def meld_key(a: Card, b: Card, c: Card) -> int:
    """Three cards, in order, as one int (``(a × 53 + b) × 53 + c``): what
    :func:`new_meld_keys` lists, with no tuple to build or hash."""
    return (a * NUM_KINDS + b) * NUM_KINDS + c


def key_cards(key: int) -> tuple[Card, Card, Card]:
    """The three cards of a :func:`meld_key`, in order."""
    return key // (NUM_KINDS * NUM_KINDS), key // NUM_KINDS % NUM_KINDS, key % NUM_KINDS


#: the runs of three of each suit by their lowest card, as meld keys
RUN_START_KEYS: Final = tuple(tuple(meld_key(*cards) for cards in suit) for suit in RUN_STARTS)
#: the (interned) action starting a meld, by the meld key of its cards in listing order
_MELD_KEYS: Final[dict[int, Meld]] = {}


def new_meld_cards(
    hand: list[int], chand: list[int], melds: Sequence[TableMeld]
) -> list[tuple[Card, ...]]:
    """The cards of every three-card start of a new meld the hand can make, one per choice of
    classes (played as the lowest suits held); one unfinished meld per rank / suit / wilds.

    Order: books 4–A (three naturals, then two naturals with a 2, then with a joker), the runs
    of each suit, the wild book."""
    return [key_cards(k) for k in new_meld_keys(hand, chand, melds)]


def new_meld_actions(hand: list[int], chand: list[int], melds: Sequence[TableMeld]) -> list[Meld]:
    """The (interned) actions of :func:`new_meld_cards`, looked up by an int per meld."""
    out: list[Meld] = []
    for key in new_meld_keys(hand, chand, melds):
        found = _MELD_KEYS.get(key)
        if found is None:
            found = _MELD_KEYS[key] = meld_action(key_cards(key))
        out.append(found)
    return out


def new_meld_keys(hand: list[int], chand: list[int], melds: Sequence[TableMeld]) -> list[int]:
    """:func:`new_meld_cards` as meld keys (:func:`meld_key`), in the same order."""
    opened = open_bits(melds)
    out: list[int] = []
    wild_cards: list[Card] = []  # the wilds a book may take: the lowest 2 held, a joker
    if chand[TWO_REP]:
        wild_cards.append(first_held(hand, TWO_REP))
    if hand[JOKER]:
        wild_cards.append(JOKER)
    for bit, rep, wilds_ok in LOW_BOOKS:  # 4s–7s: one class, played lowest suits first
        n = chand[rep]
        if n < 2 or opened & bit:
            continue
        low: list[Card] = []
        for k in CLASS_MEMBERS[rep]:
            if hand[k]:
                low.extend([k] * hand[k])
                if len(low) >= 3:
                    break
        if n >= 3:
            out.append(meld_key(low[0], low[1], low[2]))
        if wilds_ok:
            for w in wild_cards:
                out.append(meld_key(low[0], low[1], w))
    for bit, kinds in HIGH_BOOKS:  # 8s–As: one class per suit
        k0, k1, k2, k3 = kinds
        n = hand[k0] + hand[k1] + hand[k2] + hand[k3]
        if n < 2 or opened & bit:
            continue
        held = [c for c in kinds if hand[c]]
        if n >= 3:  # held_triples(kinds, hand)
            for x, a in enumerate(held):
                for y in range(x, len(held)):
                    b = held[y]
                    if y == x and hand[a] < 2:
                        continue
                    for c in held[y:]:
                        if hand[c] > (c == a) + (c == b):
                            out.append(meld_key(a, b, c))
        if wild_cards:  # held_pairs(kinds, hand), each with each wild
            for x, a in enumerate(held):
                if hand[a] >= 2:
                    for w in wild_cards:
                        out.append(meld_key(a, a, w))
                for b in held[x + 1 :]:
                    for w in wild_cards:
                        out.append(meld_key(a, b, w))
    for s in range(4):  # runs of three, lowest first
        if opened & (1 << (11 + s)):
            continue
        streak = 0
        starts = RUN_START_KEYS[s]
        for i, k in enumerate(RUN_KINDS[s]):
            if not hand[k]:
                streak = 0
                continue
            streak += 1
            if streak >= 3:
                out.append(starts[i - 2])
    if not opened & (1 << 15) and chand[TWO_REP] + chand[JOKER] >= 3:
        twos = lowest(hand, TWO_REP, 3)
        for triple in held_triples(WILD_REPS, chand):
            n2 = triple.count(TWO_REP)
            cards = (*twos[:n2], *(JOKER,) * (3 - n2))
            out.append(meld_key(cards[0], cards[1], cards[2]))
    return out


def discard_ok(state: State, card: Card) -> bool:
    return discard_problem(state, card) is None


def discard_problem(state: State, card: Card) -> str | None:
    seat = state.to_act
    hand = state.hands[seat]
    if not hand[card]:
        return N_("you do not hold {card}", card=CardValue(card))
    if state.provisional:
        return N_(
            "your melds this turn ({value} points) do not meet the requirement: meld {minimum} "
            "points or play a card on a meld your partner put down, or take back this turn's "
            "melds",
            value=state.turn_value,
            minimum=state.opening_minimum(),
        )
    if sum(hand) == 1 and not state.pending and state.foot_taken[seat]:
        missing = missing_book_words(state.rules, state.melds[state.side_of[seat]])
        if missing:
            return N_(
                "discarding your last card would go out, and your side may go out only with every "
                "required book (still missing: {missing})",
                missing=Listed(missing),
            )
    return None


# --- explanations --------------------------------------------------------------------------------


def explain(state: State, action: object) -> str | None:
    """Why ``action`` is illegal now (None if legal).  Legal means: listed by legal_actions."""
    if state.phase not in (PHASE_DRAW, PHASE_PLAY):
        return N_("the match is over")
    if not isinstance(action, (Draw, TakePile, Meld, AddToMeld, Discard, Retract)):
        return N_("{action} is not a Hand and Foot action", action=repr(action))
    legal = legal_actions(state)
    if action in legal:
        return None
    return (
        _interchangeable_reason(state, action, legal)
        or _reason(state, action)
        or N_("{action} is not a legal move now", action=str(action))
    )


def canonical_action(state: State, action: Action) -> Action:
    """The listed legal action equivalent to ``action`` when it names interchangeable cards of
    other suits (2s, 4s–7s, black 3s); ``action`` itself otherwise.  Front ends call this so a
    player may pick any of several identical cards."""
    hand = state.hands[state.to_act]
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
        return N_(
            "no rule tells those cards apart from others of the same rank in your hand (the "
            "suits of 2s, 4s–7s and black 3s never matter): the table plays the lowest suit you "
            "hold — {action}",
            action=str(canon),
        )
    return None


def _reason(state: State, action: Action) -> str | None:
    seat = state.to_act
    hand = state.hands[seat]
    side = state.side_of[seat]
    melds = state.melds[side]
    rules = state.rules
    if state.phase == PHASE_DRAW and not isinstance(action, (Draw, TakePile)):
        return N_(
            "begin your turn by drawing {count} cards or taking the pile", count=rules.draw_count
        )
    if state.phase == PHASE_PLAY and isinstance(action, (Draw, TakePile)):
        return N_("you have already drawn this turn")
    if isinstance(action, (Meld, AddToMeld)) and state.melds_refused:
        return N_("you took back your melds this turn: now you must discard")
    if isinstance(action, TakePile):
        if state.pile_refused:
            return N_("you took back the pile this turn: now you must draw")
        if len(state.pile) < rules.pile_take:
            return N_(
                "the pile may be taken only when it holds at least {least} cards (it holds "
                "{count})",
                least=rules.pile_take,
                count=len(state.pile),
            )
        if len(action.cards) != 2:
            return N_(
                "the top card of the pile must be melded with exactly two cards from your hand"
            )
        missing = _missing(hand, action.cards)
        if missing:
            return missing
        top = state.pile[-1]
        if is_black_three(top):
            return N_("a black 3 on the pile can never be melded, so the pile cannot be taken")
        if sum(hand) < 3:
            return N_("you must keep a card to discard after melding two with the top card")
        if action.meld >= len(melds) or action.meld < -1:
            return N_("your side has no meld {meld}", meld=str(action.meld))
        cards = (top, *action.cards)
        return _meld_reason(melds, action.meld, cards, N_("the top card with those two cards"))
    if isinstance(action, Meld):
        if len(action.cards) != MIN_MELD:
            return N_("start a new meld with exactly three cards (then add cards one at a time)")
        missing = _missing(hand, action.cards)
        if missing:
            return missing
        if sum(hand) - MIN_MELD < 1:
            return N_("you must keep a card to discard")
        reason = _meld_reason(melds, -1, action.cards, N_("those cards"))
        if reason:
            return reason
        return _last_card_reason(state)
    if isinstance(action, AddToMeld):
        if not 0 <= action.meld < len(melds):
            return N_("your side has no meld {meld}", meld=str(action.meld))
        missing = _missing(hand, (action.card,))
        if missing:
            return missing
        if sum(hand) < 2:
            return N_("you must keep a card to discard")
        reason = _meld_reason(melds, action.meld, (action.card,), CardValue(action.card))
        if reason:
            return reason
        return _last_card_reason(state)
    if isinstance(action, Discard):
        return discard_problem(state, action.card)
    if isinstance(action, Retract):
        return N_(
            "there is nothing to take back: take-backs are only for melds that miss the requirement"
        )
    return None


def _last_card_reason(state: State) -> str:
    return N_(
        "that would leave you one card after picking up your foot without every required book: "
        "you could not discard it"
    )


def _missing(hand: Sequence[int], cards: Sequence[Card]) -> str | None:
    need: dict[Card, int] = {}
    for c in cards:
        if not 0 <= c < len(hand):
            return N_("{card} is not a card", card=str(c))
        need[c] = need.get(c, 0) + 1
    for c, n in need.items():
        if hand[c] < n:
            if hand[c]:
                return N_("you do not hold that many {card}", card=CardValue(c))
            return N_("you do not hold {card}", card=CardValue(c))
    return None


def _meld_reason(
    melds: Sequence[TableMeld], index: int, cards: Sequence[Card], what: object
) -> str | None:
    for c in cards:
        if is_black_three(c):
            return N_("black 3s are never played to the board")
    if index < 0:
        kk = classify(cards)
        if kk is None:
            return N_(
                "{what} do not form a meld: a book is one rank (with fewer wilds than naturals), "
                "a samba run is consecutive cards 8–A of one suit, a book of wilds is 2s and "
                "jokers",
                what=what,
            )
        kind, key = kk
        if (kind, key) in open_keys(melds):
            return _unfinished(kind, key)
        return meld_problem(kind, key, cards)
    m = melds[index]
    if m.complete:
        return N_(
            "meld {meld} is a finished book of {count} cards: nothing more can be added",
            meld=str(index),
            count=BOOK_SIZE,
        )
    return meld_problem(m.kind, m.key, (*m.cards, *cards))


def _unfinished(kind: str, key: int) -> str:
    """Your side already has an unfinished meld of this kind (one message a kind and suit)."""
    if kind == RUN:
        by_suit = (
            N_(
                "your side already has an unfinished clubs run: add to it instead of starting another"
            ),
            N_(
                "your side already has an unfinished diamonds run: add to it instead of starting another"
            ),
            N_(
                "your side already has an unfinished hearts run: add to it instead of starting another"
            ),
            N_(
                "your side already has an unfinished spades run: add to it instead of starting another"
            ),
        )
        return by_suit[key]
    if kind == WILDS:
        return N_(
            "your side already has an unfinished wild book: add to it instead of starting another"
        )
    return N_(
        "your side already has an unfinished book of {rank}s: add to it instead of starting another",
        rank=Rank(key),
    )
