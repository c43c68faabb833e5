"""Who loses lives (or scores points) when a Scat hand ends (seed ``001_e8630c614840283e.txt``:
"Knocking", "Declaring 31", "Draw pile exhausted", "Scoring", "Variations").

Each function returns one change per seat: ``-n`` = loses ``n`` lives, ``+n`` = scores ``n``
points (French Canadian), ``0`` = nothing.  Seats not in the hand (eliminated) get 0.

>>> from parlour.games.scat.rules import ScatRules
>>> showdown_changes({0: 20, 1: 15, 2: 25}, knocker=2, rules=ScatRules())
[0, -1, 0]
>>> showdown_changes({0: 20, 1: 25, 2: 15}, knocker=2, rules=ScatRules())
[0, 0, -2]
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from parlour.games.scat.parts.values import Value
from parlour.games.scat.rules import ScatRules


def _n(values: Mapping[int, object]) -> int:
    return max(values) + 1 if values else 0


def showdown_changes(
    values: Mapping[int, Value],
    knocker: int | None,
    rules: ScatRules,
    keys: Mapping[int, Sequence[int]] | None = None,
    players: int | None = None,
) -> list[int]:
    """Changes after everyone shows (a knock, hammer, throw-down, or the stock running out
    with ``knocker=None``).  ``values`` holds the counted value of each seat still in the hand;
    ``keys`` the poker-style tie-break keys (French Canadian with ``poker_tiebreak``)."""
    out = [0] * (players if players is not None else _n(values))
    if rules.showdown == "highest_scores_point":
        hi = max(values.values())
        best = [s for s, v in values.items() if v == hi]
        if rules.poker_tiebreak and len(best) > 1 and keys is not None:
            top = max(tuple(keys[s]) for s in best)
            best = [s for s in best if tuple(keys[s]) == top]
        if knocker is not None and knocker in best and len(best) > 1:
            # "If there is a tie the player who did not knock wins it."
            best = [s for s in best if s != knocker]
        for s in best:
            out[s] = 1
        return out
    if rules.showdown == "knocker_must_be_highest" and knocker is not None:
        # GIN: "if after this the knocker's hand is highest or equal highest, everyone except
        # the knocker gets a letter.  If another player beats the knocker, the knocker gets one."
        if all(values[knocker] >= v for v in values.values()):
            for s in values:
                if s != knocker:
                    out[s] = -1
        else:
            out[knocker] = -1
        return out
    lo = min(values.values())
    lowest = [s for s, v in values.items() if v == lo]
    if knocker is None or knocker not in lowest:
        for s in lowest:
            out[s] = -1
        return out
    if lowest == [knocker]:
        out[knocker] = -rules.knocker_lowest_loses
        return out
    others = [s for s in lowest if s != knocker]
    tie = rules.knock_tie
    if tie == "knocker_safe":
        for s in others:
            out[s] = -1
    elif tie == "knocker_loses_two_others_one":
        out[knocker] = -2
        for s in others:
            out[s] = -1
    elif tie == "only_knocker_loses":
        out[knocker] = -1
    else:  # knocker_loses_two_others_safe (Cadillac)
        out[knocker] = -2
    return out


def declared_changes(
    declarers: Collection[int],
    in_hand: Collection[int],
    knocker: int | None,
    rules: ScatRules,
    players: int,
) -> list[int]:
    """Changes when 31 is declared (after a discard, or dealt to one or more players): every
    other player loses a life, the knocker included; for points, each declarer scores one."""
    out = [0] * players
    if rules.plays_for_points:
        for s in declarers:
            out[s] = 1
        return out
    for s in in_hand:
        if s not in declarers:
            out[s] = -1
    if (
        rules.knock_tie == "knocker_loses_two_others_one"
        and knocker is not None
        and knocker not in declarers
    ):
        # "If a player declares 31 after a knock, the player with 31 is safe, knocker loses two
        # lives and the other players each lose one life."
        out[knocker] = -2
    return out
