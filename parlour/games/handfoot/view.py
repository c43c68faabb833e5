"""What each seat may know in Samba Hand and Foot, and states consistent with it.

Public: every meld (with its clean/dirty/samba/7s/wilds flags), red 3s, the whole discard pile
(every card was discarded face up), how many cards were set aside from a pile taken this turn
(seed 004: taken "without looking" and kept face down; their faces only with the house rule
``pile_cards_face_up``), how many cards are in the stock, each hand and foot, and the cards publicly known to sit in a hand (taken
from the pile, or melds taken back), the score sheet and the turn's progress toward the meld
requirement.  Private: your own hand.  Hidden from everyone: the feet not yet picked up (your own
too — it is face down until you pick it up), other hands, the order of the stock.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from parlour.core.cards import NUM_KINDS, Card, card_str, counts, expand, shoe
from parlour.core.codec import card_field, cards_field, to_json
from parlour.core.game import HandResult
from parlour.games.handfoot.parts.melds import Meld, cards_value
from parlour.games.handfoot.rules import HandFootRules
from parlour.games.handfoot.scoring import book_counts, missing_books, red_three_score
from parlour.games.handfoot.state import State


@dataclass(frozen=True, slots=True)
class MeldView:
    index: int
    kind: str  # "book" | "run" | "wilds"
    key: int  # rank of a book, suit (0 ♣ 1 ♦ 2 ♥ 3 ♠) of a run
    label: str
    cards: tuple[Card, ...] = cards_field()
    complete: bool = False
    clean: bool = False  # finished book of one rank 4–6/8–A without wilds
    dirty: bool = False  # finished book with wilds
    samba: bool = False
    sevens: bool = False
    wilds: bool = False  # finished book of wild cards
    wild_count: int = 0
    this_turn: bool = False  # melded this turn by the player to act (taken back by Retract)


@dataclass(frozen=True, slots=True)
class SideView:
    side: int
    seats: tuple[int, ...]
    melds: tuple[MeldView, ...]
    red_threes: tuple[Card, ...] = cards_field()
    opened: bool = False
    books: tuple[tuple[str, int], ...] = ()  # finished books by kind
    missing: tuple[str, ...] = ()  # what the side still needs to go out
    can_go_out: bool = False
    board_points: int = 0  # the public part of the round score so far


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int
    side: int
    hand_size: int
    foot_size: int
    foot_taken: bool
    down: bool  # met the meld requirement this round
    cut: int  # cards grabbed in the cut (exactly 30 scores the exact-cut bonus)
    known: tuple[Card, ...] = cards_field()  # cards known to be in this hand


@dataclass(frozen=True, slots=True)
class CutView:
    seat: int
    card: Card = card_field()  # noqa: RUF009


@dataclass(frozen=True, slots=True)
class HandFootView:
    seat: int | None
    to_act: int | None
    phase: str  # "draw" | "play" | "over"
    rules: HandFootRules
    round: int  # 0-based
    rounds: int
    opening_minimum: int
    order: tuple[int, ...]
    first: int
    first_cuts: tuple[CutView, ...]
    players: tuple[PlayerView, ...]
    sides: tuple[SideView, ...]
    stock_size: int
    pile_size: int
    pile_top: Card = card_field()  # noqa: RUF009
    pile: tuple[Card, ...] = cards_field()
    hand: tuple[Card, ...] = cards_field()
    #: pile cards joining the hand after the discard: face down (empty) unless the house rule
    #: ``pile_cards_face_up``; ``pending_size`` says how many there are
    pending: tuple[Card, ...] = cards_field()
    taken_top: Card = card_field()  # noqa: RUF009
    pending_size: int = 0
    turn_start_melds: int = 0
    turn_value: int = 0
    provisional: bool = False
    took_pile: bool = False
    pile_refused: bool = False
    melds_refused: bool = False
    score_units: tuple[tuple[int, ...], ...] = ()
    scores: tuple[int, ...] = ()
    results: tuple[HandResult, ...] = ()
    went_out: int = -1
    termination: str = ""


#: meld views already built, by (index, this turn, meld): melds are immutable and most of a
#: side's melds are the same from one state to the next (cleared when it grows large)
_MELD_VIEWS: dict[tuple[int, bool, Meld], MeldView] = {}
_MELD_VIEWS_MAX = 50_000
#: the same by the meld object's identity (states share their meld objects; hashing a meld
#: hashes its cards): (index, this turn, id) -> (the meld, its view); the entry keeps the meld
#: alive, so its id is not reused while the entry exists
_MELD_VIEWS_BY_ID: dict[tuple[int, bool, int], tuple[Meld, MeldView]] = {}


def _cards_of(count_vector: list[int]) -> tuple[Card, ...]:
    """The cards of a count vector in kind order (nothing to do for an empty one)."""
    return tuple(expand(count_vector)) if any(count_vector) else ()


def _meld_view(i: int, m: Meld, this_turn: bool) -> MeldView:
    by_id = (i, this_turn, id(m))
    same = _MELD_VIEWS_BY_ID.get(by_id)
    if same is not None and same[0] is m:
        return same[1]
    key = (i, this_turn, m)
    found = _MELD_VIEWS.get(key)
    if found is None:
        if len(_MELD_VIEWS) >= _MELD_VIEWS_MAX:
            _MELD_VIEWS.clear()
        found = _MELD_VIEWS[key] = _new_meld_view(i, m, this_turn)
    if len(_MELD_VIEWS_BY_ID) >= _MELD_VIEWS_MAX:
        _MELD_VIEWS_BY_ID.clear()
    _MELD_VIEWS_BY_ID[by_id] = (m, found)
    return found


def _new_meld_view(i: int, m: Meld, this_turn: bool) -> MeldView:
    return MeldView(
        index=i,
        kind=m.kind,
        key=m.key,
        label=m.label(),
        cards=m.cards,
        complete=m.complete,
        clean=m.is_clean,
        dirty=m.is_dirty,
        samba=m.is_samba,
        sevens=m.is_sevens,
        wilds=m.is_wild_book,
        wild_count=m.wild_count,
        this_turn=this_turn,
    )


def _board_points(state: State, side: int, books: dict[str, int]) -> int:
    rules = state.rules
    seats = state.side_seats(side)
    return (
        books["sambas"] * rules.samba_bonus
        + books["sevens"] * rules.sevens_bonus
        + books["wilds"] * rules.wilds_bonus
        + books["clean"] * rules.clean_bonus
        + books["dirty"] * rules.dirty_bonus
        + sum(cards_value(m.cards) for m in state.melds[side])
        + red_three_score(rules, len(state.red_threes[side]))
        + sum(rules.exact_cut_bonus for s in seats if state.cuts[s] == 2 * rules.stack_size)
    )


def observe_state(state: State, seat: int | None) -> HandFootView:
    rules = state.rules
    over = state.phase == "over"
    acting_side = state.side_of[state.to_act]
    sides = []
    for side in (0, 1):
        melds = state.melds[side]
        books = book_counts(melds)
        missing = missing_books(rules, melds, books)
        sides.append(
            SideView(
                side=side,
                seats=state.side_seats(side),
                melds=tuple(
                    _meld_view(
                        i, m, not over and side == acting_side and i >= state.turn_start_melds
                    )
                    for i, m in enumerate(melds)
                ),
                red_threes=tuple(state.red_threes[side]),
                opened=state.opened[side],
                books=tuple(books.items()),
                missing=tuple(missing),
                can_go_out=not missing,
                board_points=_board_points(state, side, books),
            )
        )
    players = tuple(
        PlayerView(
            seat=s,
            side=state.side_of[s],
            hand_size=sum(state.hands[s]),
            foot_size=len(state.feet[s]),
            foot_taken=state.foot_taken[s],
            down=state.down[s],
            cut=state.cuts[s],
            known=_cards_of(state.known[s]),
        )
        for s in range(rules.players)
    )
    units = tuple((s,) for s in range(rules.players)) if rules.rotate_partners else ((0, 2), (1, 3))
    return HandFootView(
        seat=seat,
        to_act=None if over else state.to_act,
        phase=state.phase,
        rules=rules,
        round=state.round,
        rounds=rules.rounds,
        opening_minimum=state.opening_minimum(),
        order=tuple(state.order),
        first=state.first,
        first_cuts=tuple(CutView(s, c) for s, c in state.first_cuts),
        players=players,
        sides=tuple(sides),
        stock_size=len(state.stock),
        pile_size=len(state.pile),
        pile_top=state.pile[-1] if state.pile else -1,
        pile=tuple(state.pile),
        hand=_cards_of(state.hands[seat]) if seat is not None else (),
        pending=tuple(state.pending) if rules.pile_cards_face_up else (),
        pending_size=len(state.pending),
        taken_top=state.taken_top,
        turn_start_melds=state.turn_start_melds,
        turn_value=state.turn_value,
        provisional=state.provisional,
        took_pile=state.took_pile,
        pile_refused=state.pile_refused,
        melds_refused=state.melds_refused,
        score_units=units,
        scores=tuple(state.scores),
        results=tuple(state.results),
        went_out=state.went_out,
        termination=state.termination,
    )


def determinize_view(view: HandFootView, rng: random.Random) -> State:
    """A full state consistent with ``view``: hidden hands, feet and stock dealt at random from
    the cards the viewer cannot see."""
    rules = view.rules
    n = rules.players
    unseen = list(_pack_counts(rules.decks, rules.decks * rules.jokers_per_deck))
    seen: list[Card] = [*view.pile, *view.pending]
    for sv in view.sides:
        seen.extend(sv.red_threes)
        for mv in sv.melds:
            seen.extend(mv.cards)
    hands = [[0] * NUM_KINDS for _ in range(n)]
    for p in view.players:
        if p.seat == view.seat:
            for c in view.hand:
                hands[p.seat][c] += 1
            seen.extend(view.hand)
        else:
            for c in p.known:
                hands[p.seat][c] += 1
            seen.extend(p.known)
    for c in seen:
        unseen[c] -= 1
    if min(unseen) < 0:
        raise ValueError("the view shows more cards than the pack holds")
    pool = expand(unseen)
    rng.shuffle(pool)
    # cards set aside face down from a taken pile are dealt like any unseen card
    pending = list(view.pending) + [
        pool.pop() for _ in range(view.pending_size - len(view.pending))
    ]
    feet: list[list[Card]] = [[] for _ in range(n)]
    for p in view.players:
        if p.seat != view.seat:
            for _ in range(p.hand_size - len(p.known)):
                hands[p.seat][pool.pop()] += 1
        feet[p.seat] = [pool.pop() for _ in range(p.foot_size)]
    if len(pool) != view.stock_size:
        raise ValueError(
            f"the view does not add up: {len(pool)} unseen cards left for a stock of "
            f"{view.stock_size}"
        )
    state = State(
        rules=rules,
        seed=rng.getrandbits(63),
        round=view.round,
        hand_seed=rng.getrandbits(63),
        order=list(view.order),
        side_of=[p.side for p in view.players],
        first=view.first,
        hands=hands,
        feet=feet,
        foot_taken=[p.foot_taken for p in view.players],
        stock=pool,
        pile=list(view.pile),
        melds=[[_table_meld(m) for m in sv.melds] for sv in view.sides],
        red_threes=[list(sv.red_threes) for sv in view.sides],
        down=[p.down for p in view.players],
        opened=[sv.opened for sv in view.sides],
        known=[counts(p.known) for p in view.players],
        cuts=[p.cut for p in view.players],
        first_cuts=[(c.seat, c.card) for c in view.first_cuts],
        to_act=view.to_act if view.to_act is not None else view.order[0],
        phase=view.phase,
        turn_start_melds=view.turn_start_melds,
        turn_value=view.turn_value,
        provisional=view.provisional,
        took_pile=view.took_pile,
        taken_top=view.taken_top,
        pending=pending,
        pile_refused=view.pile_refused,
        melds_refused=view.melds_refused,
        scores=list(view.scores),
        results=list(view.results),
        termination=view.termination,
        went_out=view.went_out,
    )
    return state


#: melds already rebuilt from their views, by (kind, key, cards) (cleared when it grows large)
_MELDS: dict[tuple[str, int, tuple[Card, ...]], Meld] = {}


def _table_meld(m: MeldView) -> Meld:
    key = (m.kind, m.key, m.cards)
    found = _MELDS.get(key)
    if found is None:
        if len(_MELDS) >= _MELD_VIEWS_MAX:
            _MELDS.clear()
        found = _MELDS[key] = Meld(m.kind, m.key, m.cards)
    return found


_PACKS: dict[tuple[int, int], tuple[int, ...]] = {}


def _pack_counts(decks: int, jokers: int) -> tuple[int, ...]:
    """The count vector of the whole pack (computed once per size)."""
    found = _PACKS.get((decks, jokers))
    if found is None:
        found = _PACKS[(decks, jokers)] = tuple(counts(shoe(decks, jokers)))
    return found


# --- fast JSON (the same shape as parlour.core.codec.to_json, ~10× quicker) ----------------------

_CARD_TEXT = tuple(card_str(c) for c in range(NUM_KINDS))


def _cs(cards: tuple[Card, ...]) -> list[str]:
    return [_CARD_TEXT[c] for c in cards]


def _c(card: Card) -> str | None:
    return None if card < 0 else _CARD_TEXT[card]


def _meld_json(m: MeldView) -> dict[str, Any]:
    return {
        "type": "MeldView",
        "index": m.index,
        "kind": m.kind,
        "key": m.key,
        "label": m.label,
        "cards": _cs(m.cards),
        "complete": m.complete,
        "clean": m.clean,
        "dirty": m.dirty,
        "samba": m.samba,
        "sevens": m.sevens,
        "wilds": m.wilds,
        "wild_count": m.wild_count,
        "this_turn": m.this_turn,
    }


def view_json(view: HandFootView) -> dict[str, Any]:
    """The view as JSON-ready data (what ``codec.to_json(view)`` gives, built directly)."""
    return {
        "type": "HandFootView",
        "seat": view.seat,
        "to_act": view.to_act,
        "phase": view.phase,
        "rules": to_json(view.rules),
        "round": view.round,
        "rounds": view.rounds,
        "opening_minimum": view.opening_minimum,
        "order": list(view.order),
        "first": view.first,
        "first_cuts": [
            {"type": "CutView", "seat": c.seat, "card": _c(c.card)} for c in view.first_cuts
        ],
        "players": [
            {
                "type": "PlayerView",
                "seat": p.seat,
                "side": p.side,
                "hand_size": p.hand_size,
                "foot_size": p.foot_size,
                "foot_taken": p.foot_taken,
                "down": p.down,
                "cut": p.cut,
                "known": _cs(p.known),
            }
            for p in view.players
        ],
        "sides": [
            {
                "type": "SideView",
                "side": s.side,
                "seats": list(s.seats),
                "melds": [_meld_json(m) for m in s.melds],
                "red_threes": _cs(s.red_threes),
                "opened": s.opened,
                "books": [[k, n] for k, n in s.books],
                "missing": list(s.missing),
                "can_go_out": s.can_go_out,
                "board_points": s.board_points,
            }
            for s in view.sides
        ],
        "stock_size": view.stock_size,
        "pile_size": view.pile_size,
        "pile_top": _c(view.pile_top),
        "pile": _cs(view.pile),
        "hand": _cs(view.hand),
        "pending": _cs(view.pending),
        "taken_top": _c(view.taken_top),
        "pending_size": view.pending_size,
        "turn_start_melds": view.turn_start_melds,
        "turn_value": view.turn_value,
        "provisional": view.provisional,
        "took_pile": view.took_pile,
        "pile_refused": view.pile_refused,
        "melds_refused": view.melds_refused,
        "score_units": [list(u) for u in view.score_units],
        "scores": list(view.scores),
        "results": [to_json(r) for r in view.results],
        "went_out": view.went_out,
        "termination": view.termination,
    }
