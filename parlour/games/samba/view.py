"""What a seat may know (``observe``) and a full state consistent with it (``determinize``).

Public: every side's melds and red 3s, the whole discard pile (every discard was seen), the stock
size, every hand's size and the cards publicly known to sit in a hand (taken with the pile and not
played since), scores, the score sheet and the turn.  Private: the seat's own hand."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final

from parlour.core.canasta import RED_THREES
from parlour.core.cards import Card, card_str, shoe
from parlour.core.codec import card_field, cards_field
from parlour.core.game import HandResult
from parlour.games.samba.parts.melds import Meld, expand_counts, meets_going_out
from parlour.games.samba.rules import SambaRules
from parlour.games.samba.state import State, _clone, sides_for


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat as everyone sees it."""

    seat: int
    side: int
    hand_size: int
    known: tuple[Card, ...] = cards_field()


@dataclass(frozen=True, slots=True)
class SideView:
    """One side (partnership or solo player) as everyone sees it."""

    side: int
    seats: tuple[int, ...]
    score: int
    opened: bool
    opening_minimum: int
    can_go_out: bool
    melds: tuple[Meld, ...]
    red_threes: tuple[Card, ...] = cards_field()


@dataclass(frozen=True, slots=True)
class SambaView:
    """The view of one seat (``seat`` None: a spectator, who sees no hand)."""

    seat: int | None
    to_act: int | None
    phase: str
    rules: SambaRules
    hand_number: int
    dealer: int
    players: tuple[PlayerView, ...]
    sides: tuple[SideView, ...]
    stock_size: int
    pile_size: int
    asked: bool
    permission: str
    finished: bool
    termination: str
    score_sheet: tuple[HandResult, ...]
    hand: tuple[Card, ...] = cards_field()
    pile: tuple[Card, ...] = cards_field()
    pile_top: Card = card_field()  # noqa: RUF009
    pending: tuple[Card, ...] = cards_field()
    taken_top: Card = card_field()  # noqa: RUF009
    takebacks: int = 0
    taken_back: tuple[str, ...] = ()


_PERMISSION: Final = {0: "", 1: "yes", -1: "no"}


def observe(s: State, seat: int | None) -> SambaView:
    rules = s.rules
    known = s.known
    players = tuple(
        [
            PlayerView(i, s.side_of[i], s.sizes[i], tuple(expand_counts(known[i])))
            if known[i] != _NONE_KNOWN
            else _plain_player(i, s.side_of[i], s.sizes[i])
            for i in range(s.players)
        ]
    )
    sides = tuple([_side_view(s, i, seats) for i, seats in enumerate(s.sides)])
    over = s.finished
    return SambaView(
        seat=seat,
        to_act=None if over else s.to_act,
        phase=s.phase,
        rules=rules,
        hand_number=s.hand_no,
        dealer=s.dealer,
        players=players,
        sides=sides,
        stock_size=s.stock_len,
        pile_size=len(s.pile),
        asked=s.asked,
        takebacks=s.takebacks,
        taken_back=s.undone,
        permission=_PERMISSION[s.permission],
        finished=over,
        termination=s.termination,
        score_sheet=s.history,
        hand=tuple(expand_counts(s.hands[seat])) if seat is not None else (),
        pile=s.pile,
        pile_top=s.pile[-1] if s.pile else -1,
        pending=s.pending,
        taken_top=s.taken_top,
    )


_PLAIN_PLAYERS: Final[dict[tuple[int, int, int], PlayerView]] = {}
_NONE_KNOWN: Final[list[int]] = [0] * 53
#: the last view of each side and the rules it was made under (views are immutable: a side whose
#: melds and red 3s are the very same tuples, with the same score and opening, has the same view)
_SIDE_VIEWS: Final[dict[int, tuple[SambaRules, tuple[int, ...], SideView]]] = {}


def _side_view(s: State, i: int, seats: tuple[int, ...]) -> SideView:
    melds = s.melds[i]
    red3 = s.red3[i]
    score = s.scores[i]
    opened = s.opened[i]
    rules = s.rules
    hit = _SIDE_VIEWS.get(i)
    if hit is not None:
        found = hit[2]
        if (
            found.melds is melds
            and found.red_threes is red3
            and found.score == score
            and found.opened == opened
            and hit[0] is rules
            and hit[1] == seats
        ):
            return found
    view = SideView(
        i,
        seats,
        score,
        opened,
        rules.opening_minimum(score),
        meets_going_out(melds, rules.going_out),
        melds,
        red3,
    )
    _SIDE_VIEWS[i] = (rules, seats, view)
    return view


def _plain_player(seat: int, side: int, size: int) -> PlayerView:
    """A seat with no card publicly known in its hand (views are immutable: made once)."""
    key = (seat, side, size)
    found = _PLAIN_PLAYERS.get(key)
    if found is None:
        found = _PLAIN_PLAYERS[key] = PlayerView(seat, side, size, ())
    return found


def determinize(view: SambaView, rng: random.Random) -> State:
    """Deal the cards the viewer cannot see (other hands beyond their known cards, the stock) at
    random, consistently with the view: one shuffle of the unseen cards, the other hands' unknown
    cards dealt from its front, the stock the rest (its order as random as the shuffle).

    What does not depend on the shuffle is worked out once per view (the search determinizes
    one view hundreds of times); the states share the containers they do not change (the engine
    copies before it writes)."""
    deal = _deal_of(view)
    s = _clone(deal.base)
    s.seed = rng.getrandbits(63)
    pool = deal.pool[:]
    _shuffle(pool, rng)
    hands = deal.hands[:]
    pos = 0
    for seat, extra in deal.extras:
        h = hands[seat] = hands[seat][:]
        for c in pool[pos : pos + extra]:
            h[c] += 1
        pos += extra
    stock = pool[pos:] if pos else pool
    if deal.red_stock:
        stock.extend(deal.red_stock)
        _shuffle(stock, rng)
    s.hands = hands
    s.stock = tuple(stock)
    s.stock_len = len(stock)
    return s


class _Deal:
    """What every determinization of one view shares: the state without its hidden cards
    (``base``), the hands as far as they are known, the unseen cards to shuffle (``pool``; with
    ``red_threes_as_canasta`` the unseen red 3s go to the stock only) and how many of them each
    other hand gets."""

    __slots__ = ("base", "extras", "hands", "pool", "red_stock")

    def __init__(self, view: SambaView) -> None:
        seat = view.seat
        if seat is None:
            raise ValueError("determinize needs a seat's view (a spectator sees no hand)")
        rules = view.rules
        n = rules.players
        players = view.players
        sides = view.sides
        s = State.__new__(State)
        s.rules = rules
        s.seed = 0
        s.players = n
        s.sides = sides_for(n)
        s.side_of = tuple([p.side for p in players])
        s.hand_no = view.hand_number
        s.dealer = view.dealer
        s.scores = tuple([sv.score for sv in sides])
        s.history = view.score_sheet
        s.finished = view.finished
        s.termination = view.termination
        s.to_act = view.to_act if view.to_act is not None else 0
        s.phase = view.phase
        s.pending = view.pending
        s.taken_top = view.taken_top
        s.asked = view.asked
        s.takebacks = view.takebacks
        s.undone = view.taken_back
        s.permission = _PERMISSION_CODE[view.permission]
        s.melds = [sv.melds for sv in sides]
        s.red3 = [sv.red_threes for sv in sides]
        s.opened = tuple([sv.opened for sv in sides])
        s.pile = view.pile
        s._legal = None
        s._legal_set = None
        s._no_out = s._no_open = False
        s.sizes = [p.hand_size for p in players]
        unknown = _SHOE_COUNTS[:]
        hands = [[0] * 53 for _ in range(n)]
        known = [[0] * 53 for _ in range(n)]
        own = hands[seat]
        for c in view.hand:
            own[c] += 1
            unknown[c] -= 1
        for c in view.pile:
            unknown[c] -= 1
        for c in view.pending:
            unknown[c] -= 1
        for sv in sides:
            for c in sv.red_threes:
                unknown[c] -= 1
            for m in sv.melds:
                for c in m.cards:
                    unknown[c] -= 1
        extras: list[tuple[int, int]] = []
        for p in players:
            kv = known[p.seat]
            for c in p.known:
                kv[c] += 1
            if p.seat == seat:
                continue
            h = hands[p.seat]
            for c in p.known:
                h[c] += 1
                unknown[c] -= 1
            extra = p.hand_size - len(p.known)
            if extra:
                extras.append((p.seat, extra))
        if min(unknown) < 0:
            raise ValueError("the view shows more cards of a kind than the shoe holds")
        pool = expand_counts(unknown)
        red_stock: list[Card] = []
        if rules.red_threes_as_canasta:
            # with this option no hand ever holds a red 3: the unseen ones are in the stock
            red_stock = [c for c in pool if c in RED_THREES]
            if red_stock:
                pool = [c for c in pool if c not in RED_THREES]
        if len(pool) + len(red_stock) - sum([x for _, x in extras]) != view.stock_size:
            raise ValueError("the view's card counts do not add up to the shoe")
        s.known = known
        s.hands = hands
        s.stock = ()
        s.stock_len = 0
        self.base = s
        self.hands = hands
        self.pool = pool
        self.red_stock = red_stock
        self.extras = tuple(extras)


_DEALS: dict[int, tuple[SambaView, _Deal]] = {}


def _deal_of(view: SambaView) -> _Deal:
    """The :class:`_Deal` of a view, cached by identity (holding the view keeps its id)."""
    hit = _DEALS.get(id(view))
    if hit is not None and hit[0] is view:
        return hit[1]
    deal = _Deal(view)
    if len(_DEALS) >= 256:
        _DEALS.clear()
    _DEALS[id(view)] = (view, deal)
    return deal


#: how many cards of each kind the Samba shoe holds (three packs, six jokers)
def _count_vector(cards: list[Card]) -> list[int]:
    out = [0] * 53
    for c in cards:
        out[c] += 1
    return out


_SHOE_COUNTS: list[int] = _count_vector(shoe(3, 6))

_PERMISSION_CODE = {"": 0, "yes": 1, "no": -1}


def _shuffle(cards: list[Card], rng: random.Random) -> None:
    """Fisher–Yates in place, one ``rng.random()`` a card (``random.shuffle`` spends two calls
    a card in Python code; this loop compiles to C)."""
    rnd = rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = int(rnd() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


_CARD_TEXT = tuple(card_str(k) for k in range(53))


def _cards(cards: tuple[Card, ...]) -> list[str]:
    text = _CARD_TEXT
    return [text[c] for c in cards]


def _meld_json(m: Meld) -> dict[str, Any]:
    return {
        "type": "Meld",
        "kind": m.kind,
        "rank": m.rank,
        "suit": m.suit,
        "high": m.high,
        "cards": _cards(m.cards),
        "wilds": m.wilds,
        "value": m.value,
        "canasta": m.canasta,
        "samba": m.samba,
        "bolivia": m.bolivia,
    }


def view_json(v: SambaView) -> dict[str, Any]:
    """``codec.to_json(view)``, written out (views are encoded for every seat on every move)."""
    return {
        "type": "SambaView",
        "seat": v.seat,
        "to_act": v.to_act,
        "phase": v.phase,
        "rules": {"type": "SambaRules", **v.rules.to_json()},
        "hand_number": v.hand_number,
        "dealer": v.dealer,
        "players": [
            {
                "type": "PlayerView",
                "seat": p.seat,
                "side": p.side,
                "hand_size": p.hand_size,
                "known": _cards(p.known),
            }
            for p in v.players
        ],
        "sides": [
            {
                "type": "SideView",
                "side": sv.side,
                "seats": list(sv.seats),
                "score": sv.score,
                "opened": sv.opened,
                "opening_minimum": sv.opening_minimum,
                "can_go_out": sv.can_go_out,
                "melds": [_meld_json(m) for m in sv.melds],
                "red_threes": _cards(sv.red_threes),
            }
            for sv in v.sides
        ],
        "stock_size": v.stock_size,
        "pile_size": v.pile_size,
        "asked": v.asked,
        "permission": v.permission,
        "finished": v.finished,
        "termination": v.termination,
        "score_sheet": [
            {
                "type": "HandResult",
                "number": h.number,
                "scores": list(h.scores),
                "breakdown": [dict(b) for b in h.breakdown],
                "note": h.note,
            }
            for h in v.score_sheet
        ],
        "hand": _cards(v.hand),
        "pile": _cards(v.pile),
        "pile_top": None if v.pile_top < 0 else _CARD_TEXT[v.pile_top],
        "pending": _cards(v.pending),
        "taken_top": None if v.taken_top < 0 else _CARD_TEXT[v.taken_top],
        "takebacks": v.takebacks,
        "taken_back": list(v.taken_back),
    }
