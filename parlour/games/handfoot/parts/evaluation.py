"""A learned estimate of how a Hand and Foot round ends, for the ``strong`` bot's truncated
play-outs (the counterpart of Samba's ``parts/evaluation``).

``evaluate(state)`` predicts each partnership's final score of the round from a full
(determinized) state: the points it has already earned (finished books, red 3s, exact cuts,
going out, the card points on the table — exactly the scoring module's items) plus a linear
function of the features below, with weights fitted by least squares on ``basic``-vs-``basic``
rounds (``scripts/fit_handfoot_eval.py`` writes ``WEIGHTS``; it prints the fit's R² on held-out
rounds).  Only differences between the partnerships matter to the search, so there is no
constant term.  Unlike the score "if the round ended now", cards in a hand are not only a debt:
early in the round they are the material of books (a taken pile is worth having), late they
cost their points — the stage of the round ``p`` is the fraction of the stock still to be drawn.
"""

from __future__ import annotations

from parlour.core.cards import JOKER, NUM_KINDS
from parlour.games.handfoot.parts.melds import BOOK, BOOK_SIZE, card_value
from parlour.games.handfoot.scoring import book_counts, missing_books, red_three_score
from parlour.games.handfoot.state import State

FEATURES = (
    "points earned (books, red 3s, exact cuts, going out, table card points)",
    "cards beyond two in unfinished books",
    "cards beyond two in unfinished special melds (sambas, 7s, wilds)",
    "cards in the hands",
    "cards in the hands x p",
    "card points in the hands",
    "card points in the hands x p",
    "black 3s in the hands",
    "wild cards in the hands",
    "cards in the hands of a rank the side is booking",
    "ranks held two or more times by one partner",
    "feet not picked up",
    "feet not picked up x p",
    "card points of the feet not picked up",
    "books still missing to go out",
    "side may go out (every required book made)",
    "may go out x fewest cards held by a partner who has the foot",
    "pile size, the side's player draws next",
)

# --- fitted by scripts/fit_handfoot_eval.py (do not edit by hand) ---
WEIGHTS: tuple[float, ...] = (
    0.996,
    69.600,
    374.456,
    10.812,
    135.089,
    -3.647,
    0.939,
    -21.667,
    124.499,
    -11.855,
    59.737,
    5591.531,
    -4869.542,
    2.038,
    -129.341,
    679.699,
    -136.680,
    8.655,
)
FIT = "400 basic-vs-basic hands, 16431 positions; held-out R2 0.481 (points earned alone: 0.292)"
# --- end of fitted weights ---

#: card points of each card kind (index = kind)
_VALUE = tuple(card_value(c) for c in range(NUM_KINDS))
#: the card kinds of each rank 2..14 (jokers apart)
_KINDS_OF_RANK = {r: tuple(s * 13 + r - 2 for s in range(4)) for r in range(2, 15)}


def _earned(state: State, side: int) -> float:
    """Points the side holds whatever happens next (the scoring module's positive items)."""
    rules = state.rules
    books = book_counts(state.melds[side])
    seats = state.side_seats(side)
    return float(
        rules.going_out_bonus * (state.went_out in seats)
        + red_three_score(rules, len(state.red_threes[side]))
        + sum(rules.exact_cut_bonus for s in seats if state.cuts[s] == 2 * rules.stack_size)
        + books["sambas"] * rules.samba_bonus
        + books["sevens"] * rules.sevens_bonus
        + books["wilds"] * rules.wilds_bonus
        + books["clean"] * rules.clean_bonus
        + books["dirty"] * rules.dirty_bonus
        + sum(_VALUE[c] for m in state.melds[side] for c in m.cards)
    )


def stage(state: State) -> float:
    """The fraction of the stock still to be drawn (1 right after the deal, 0 when it is out)."""
    rules = state.rules
    dealt = rules.players * 2 * rules.stack_size
    initial = rules.decks * (52 + rules.jokers_per_deck) - dealt
    return min(1.0, len(state.stock) / max(1, initial))


def features(state: State, side: int) -> list[float]:
    """The feature vector of ``side`` (see ``FEATURES``)."""
    rules = state.rules
    p = stage(state)
    melds = state.melds[side]
    book_extra = special_extra = 0
    booking: set[int] = set()
    for m in melds:
        if m.complete:
            continue
        if m.kind == BOOK and m.key != 7:
            book_extra += len(m.cards) - 2
            booking.add(m.key)
        else:
            special_extra += len(m.cards) - 2
    cards = points = black = wilds = matching = pairs = 0
    feet = foot_points = 0
    fewest = 99
    for seat in state.side_seats(side):
        h = state.hands[seat]
        n = sum(h) + (len(state.pending) if seat == state.to_act else 0)
        cards += n
        for kind in range(NUM_KINDS):
            x = h[kind]
            if x:
                points += _VALUE[kind] * x
        wilds += h[JOKER] + sum(h[k] for k in _KINDS_OF_RANK[2])
        black += h[1] + h[40]  # 3♣, 3♠
        for rank in range(4, 15):
            held = sum(h[k] for k in _KINDS_OF_RANK[rank])
            if held >= 2:
                pairs += 1
            if rank in booking:
                matching += held
        if state.foot_taken[seat]:
            fewest = min(fewest, n)
        else:
            feet += 1
            foot_points += sum(_VALUE[c] for c in state.feet[seat])
    missing = len(missing_books(rules, melds))
    goes = missing == 0
    mine_next = state.side_of[state.to_act] == side and state.phase == "draw"
    return [
        _earned(state, side),
        book_extra,
        special_extra,
        cards,
        cards * p,
        points,
        points * p,
        black,
        wilds,
        matching,
        pairs,
        feet,
        feet * p,
        foot_points,
        missing,
        1.0 if goes else 0.0,
        (fewest if fewest < 99 else BOOK_SIZE) if goes else 0.0,
        len(state.pile) if mine_next else 0.0,
    ]


def evaluate(state: State) -> tuple[float, ...]:
    """Predicted final round score per partnership (up to a constant common to both); with
    ``rotate_partners``, per seat (each seat scores its partnership's total)."""
    per_side = [
        sum(w * x for w, x in zip(WEIGHTS, features(state, s), strict=True)) for s in (0, 1)
    ]
    if state.rules.rotate_partners:
        return tuple(per_side[state.side_of[seat]] for seat in range(state.rules.players))
    return (per_side[0], per_side[1])
