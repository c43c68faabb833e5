"""Scoring a hand of Samba (RULES.md §1 "Scoring a hand"; seed 002 "Scoring").

Each side: + its melded cards − the cards in its players' hands, + 1,500 per samba, + 500 per pure
canasta, + 300 per mixed canasta, + 200 for going out, red 3s + 100 each (+ 1,000 for all six)
with the going-out requirement, − 100 each without it (option ``six_red_threes_penalty``: − 1,000
for six), − 750 per player still holding red 3s."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core.game import HandResult
from parlour.games.samba.parts.melds import VALUE, Meld, meets_going_out
from parlour.games.samba.rules import SambaRules

SAMBA_BONUS = 1500
PURE_BONUS = 500
MIXED_BONUS = 300
GOING_OUT_BONUS = 200
RED_THREE = 100
ALL_RED_THREES = 1000
RED_THREE_HELD = 750

BREAKDOWN_KEYS = (
    "cards_melded",
    "cards_in_hand",
    "sambas",
    "pure_canastas",
    "mixed_canastas",
    "bolivias",
    "red_threes",
    "going_out",
    "red_three_penalty",
    "black_three_penalty",
)


def side_score(
    rules: SambaRules,
    melds: Sequence[Meld],
    red_threes: int,
    hands: Sequence[Sequence[int]],
    went_out: bool,
) -> dict[str, int]:
    """The breakdown of one side's score for a hand (``hands``: its players' count vectors)."""
    melded = sum(m.value for m in melds)
    in_hand = 0
    black_pen = 0
    held_red = 0
    for h in hands:
        v = 0
        for k, n in enumerate(h):
            if n:
                v += VALUE[k] * n
        if rules.black_three_penalty:
            black = h[1] + h[40]
            v -= 5 * black
            black_pen -= rules.black_three_penalty * black
        in_hand -= v
        if h[14] or h[27]:
            held_red += 1
    sambas = sum(1 for m in melds if m.samba)
    pure = sum(1 for m in melds if m.canasta == "pure")
    mixed = sum(1 for m in melds if m.canasta == "mixed")
    bolivias = sum(1 for m in melds if m.bolivia)
    if meets_going_out(melds, rules.going_out):
        red = ALL_RED_THREES if red_threes == 6 else RED_THREE * red_threes
    else:
        red = -(rules.six_red_threes_penalty if red_threes == 6 else RED_THREE * red_threes)
    return {
        "cards_melded": melded,
        "cards_in_hand": in_hand,
        "sambas": SAMBA_BONUS * sambas,
        "pure_canastas": PURE_BONUS * pure,
        "mixed_canastas": MIXED_BONUS * mixed,
        "bolivias": rules.bolivia_bonus * bolivias,
        "red_threes": red,
        "going_out": GOING_OUT_BONUS if went_out else 0,
        "red_three_penalty": -RED_THREE_HELD * held_red,
        "black_three_penalty": black_pen,
    }


def hand_result(
    number: int,
    rules: SambaRules,
    sides: Sequence[Sequence[int]],
    melds: Sequence[Sequence[Meld]],
    red3: Sequence[Sequence[int]],
    hands: Sequence[Sequence[int]],
    went_out: int | None,
    note: str = "",
) -> HandResult:
    """Score every side of a finished hand (``went_out``: the seat that went out, if any).

    The result's note is ``went_out`` (with the seat) or ``stock_out``, unless ``note`` says
    otherwise."""
    breakdowns = []
    totals = []
    for side, seats in enumerate(sides):
        b = side_score(
            rules,
            melds[side],
            len(red3[side]),
            [hands[s] for s in seats],
            went_out is not None and went_out in seats,
        )
        breakdowns.append(b)
        totals.append(sum(b.values()))
    if note:
        return HandResult(number, tuple(totals), tuple(breakdowns), note)
    if went_out is None:
        return HandResult(number, tuple(totals), tuple(breakdowns), "stock_out")
    return HandResult(number, tuple(totals), tuple(breakdowns), "went_out", {"seat": went_out})
