"""A learned estimate of how a Samba hand ends, for the ``strong`` bot's truncated play-outs.

``evaluate(state)`` predicts each side's final score for the hand from a full (determinized)
state: a linear function of the features below, with weights fitted by least squares on
``basic``-vs-``basic`` hands (``scripts/fit_samba_eval.py`` writes ``WEIGHTS``; it prints the
fit's R² on held-out hands).  Only differences between sides matter to the search, so there is
no constant term.

The features of a side (partners' hands pooled) — the stage of the hand ``p`` is the fraction of
the stock still to be drawn, so that a card in the hand can be worth points early in the hand
and cost points late:
"""

from __future__ import annotations

from parlour.games.samba.parts.melds import (
    GROUP,
    IS_NATURAL,
    IS_WILD,
    SEQUENCE,
    VALUE,
    meets_going_out,
)
from parlour.games.samba.state import State

FEATURES = (
    "table points (card values of the melds)",
    "sambas",
    "pure canastas",
    "mixed canastas",
    "cards beyond three in unfinished sequences",
    "cards beyond three in unfinished groups",
    "red 3s laid out, side has melded",
    "red 3s laid out, side has not melded",
    "red 3s held in the hands",
    "cards in the hands",
    "cards in the hands x p",
    "card points in the hands",
    "card points in the hands x p",
    "natural pairs in the hands (ranks held twice or more by one partner)",
    "natural pairs x p",
    "wild cards in the hands",
    "side has opened",
    "side may go out (its melds meet the requirement)",
    "may go out x fewest cards held by a partner",
    "pile size, the side's player draws next",
    "pile size, the side's player draws next x opened",
    "sequences on the table that can still grow",
    "unfinished sequences of 4 cards",
    "unfinished sequences of 5 cards",
    "unfinished sequences of 6 cards",
    "unfinished groups of 4 cards",
    "unfinished groups of 5 cards",
    "unfinished groups of 6 cards",
    "unfinished sequences of 5 cards x p",
    "unfinished sequences of 6 cards x p",
    "unfinished groups of 5 cards x p",
    "unfinished groups of 6 cards x p",
    "natural cards in the hands that fit the side's melds",
    "natural cards in the hands that fit the side's melds x p",
    "seven-card melds, up to the two going out needs",
    "seven-card melds x p",
)

# --- fitted by scripts/fit_samba_eval.py (do not edit by hand) ---
WEIGHTS: tuple[float, ...] = (
    1.516,
    1544.732,
    529.646,
    369.498,
    -13.505,
    38.896,
    51.561,
    6.748,
    22.751,
    15.261,
    -26.226,
    -0.969,
    1.713,
    -45.592,
    95.205,
    53.975,
    -94.697,
    302.665,
    -39.455,
    22.412,
    -20.910,
    -63.207,
    36.580,
    -30.931,
    3.925,
    28.098,
    -28.990,
    22.926,
    259.360,
    700.344,
    84.184,
    36.306,
    127.656,
    -57.366,
    32.462,
    -205.323,
)
FIT = "20000 basic-vs-basic hands, 436711 positions; held-out R2 0.285 (table points alone: 0.048)"
# --- end of fitted weights ---


def features(state: State, side: int) -> list[float]:
    """The feature vector of ``side`` (see ``FEATURES``)."""
    melds = state.melds[side]
    rules = state.rules
    table = 0.0
    sambas = pure = mixed = 0
    seq_extra = group_extra = 0
    growing = 0
    seq_of = [0] * 8  # unfinished sequences by length
    group_of = [0] * 8  # unfinished groups by length
    fit = [0] * 53  # natural cards that extend one of the side's melds (wilds left out)
    for m in melds:
        table += m.value
        k = len(m.cards)
        if m.samba:
            sambas += 1
        elif m.canasta == "pure":
            pure += 1
        elif m.canasta == "mixed":
            mixed += 1
        elif m.kind == SEQUENCE:
            seq_extra += max(0, k - 3)
            growing += 1
            seq_of[min(k, 7)] += 1
            base = m.suit * 13 - 2
            if 5 <= m.rank <= 15:
                fit[base + m.rank - 1] = 1
            if 3 <= m.high <= 13:
                fit[base + m.high + 1] = 1
        elif m.kind == GROUP:
            group_extra += max(0, k - 3)
            group_of[min(k, 7)] += 1
        if m.kind == GROUP and 4 <= m.rank <= 14:
            for c in (m.rank - 2, m.rank + 11, m.rank + 24, m.rank + 37):
                fit[c] = 1
    sevens = sambas + pure + mixed
    opened = state.opened[side]
    laid = len(state.red3[side])
    held_red = 0
    cards = 0
    points = 0
    pairs = 0
    wilds = 0
    fits = 0
    fewest = 99
    for seat in state.sides[side]:
        h = state.hands[seat]
        n = state.sizes[seat]
        cards += n
        fewest = min(fewest, n)
        held_red += h[14] + h[27]
        for c in range(53):
            x = h[c]
            if x:
                points += VALUE[c] * x
                if IS_WILD[c]:
                    wilds += x
                elif fit[c]:
                    fits += x
        for rank in range(4, 15):
            if (
                h[rank - 2] + h[rank + 11] + h[rank + 24] + h[rank + 37] >= 2
                and IS_NATURAL[rank - 2]
            ):
                pairs += 1
    # the stock right after the deal (a determinized state's stock tuple is only what is left)
    p = state.stock_len / max(1, 161 - state.players * rules.cards_per_player())
    goes = meets_going_out(melds, rules.going_out)
    nxt = state.to_act
    mine_next = 1.0 if state.side_of[nxt] == side else 0.0
    pile = len(state.pile) * mine_next
    return [
        table,
        sambas,
        pure,
        mixed,
        seq_extra,
        group_extra,
        laid if opened else 0,
        0 if opened else laid,
        held_red,
        cards,
        cards * p,
        points,
        points * p,
        pairs,
        pairs * p,
        wilds,
        1.0 if opened else 0.0,
        1.0 if goes else 0.0,
        fewest if goes else 0.0,
        pile,
        pile if opened else 0.0,
        growing,
        seq_of[4],
        seq_of[5],
        seq_of[6],
        group_of[4],
        group_of[5],
        group_of[6],
        seq_of[5] * p,
        seq_of[6] * p,
        group_of[5] * p,
        group_of[6] * p,
        fits,
        fits * p,
        min(sevens, 2),
        sevens * p,
    ]


def evaluate(state: State) -> tuple[float, ...]:
    """Predicted final hand score per side (up to a constant common to all sides)."""
    out = []
    for side in range(len(state.sides)):
        f = features(state, side)
        out.append(sum(w * x for w, x in zip(WEIGHTS, f, strict=True)))
    return tuple(out)
