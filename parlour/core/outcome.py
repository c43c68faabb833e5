"""One meaning of the outcome: :func:`decide` builds an :class:`~parlour.core.game.Outcome` from
per-side scores with a declared tie rule, and says how the match ended (:class:`Termination`).

Every game builds its outcome here, so a win means the same in every game: a side wins when the
game's tie rule says so over the scores (or, for games decided by the order players go out, over
the places); a match cut short by a safety cap is decided by the scores at the cap, and says it
was capped (``Outcome.kind``), so simulations and tournaments can report it.

>>> out = decide(((0, 2), (1, 3)), (120.0, 120.0), finished=True, termination="target_score",
...              kind=Termination.FINISHED, tie_rule=TieRule.DRAW)
>>> out.winners, out.is_draw, out.kind
((), True, 'finished')
>>> decide(((0,), (1,), (2,)), (3.0, 3.0, 1.0), finished=True, termination="max_hands",
...        kind=Termination.CAPPED, tie_rule=TieRule.SHARE).winners
(0, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from parlour.core.game import HandResult, Outcome, Seat, Side


class Termination(StrEnum):
    """How a match ended (``Outcome.kind``; ``""`` while it goes on)."""

    #: the match ended by its rules: a target score, the last round, the last player standing
    FINISHED = "finished"
    #: the match ended because the stock ran out and nobody went out in the last hand
    STOCK_OUT = "stock_out"
    #: a safety cap (``max_hands``, ``max_turns``) cut the match short; the scores at the cap decide
    CAPPED = "capped"
    #: the players left the table before the end (nobody wins)
    ABANDONED = "abandoned"


class TieRule(StrEnum):
    """Who wins, from the per-side scores (higher is better)."""

    #: the highest score wins; a tie for the highest is a draw (nobody wins)
    DRAW = "draw"
    #: every side tied for the highest score wins; when every side is tied it is a draw
    SHARE = "share"
    #: every side above the lowest score wins (games with one loser); all tied is a draw
    ALL_BUT_LOWEST = "all_but_lowest"
    #: the first side of ``places`` wins (games decided by the order players go out)
    FIRST_PLACE = "first_place"


def winners(
    scores: Sequence[float], tie_rule: TieRule, places: Sequence[Side] = ()
) -> tuple[Side, ...]:
    """The winning sides under ``tie_rule``.

    >>> winners((5.0, 5.0), TieRule.SHARE), winners((5.0, 4.0, 5.0), TieRule.SHARE)
    ((), (0, 2))
    >>> winners((0.0, -3.0, -3.0), TieRule.ALL_BUT_LOWEST), winners((1.0, 9.0), TieRule.DRAW)
    ((0,), (1,))
    """
    n = len(scores)
    if not n:
        return ()
    if tie_rule is TieRule.FIRST_PLACE:
        if not places:
            raise ValueError("the first_place tie rule needs the places")
        return (places[0],)
    if tie_rule is TieRule.ALL_BUT_LOWEST:
        low = min(scores)
        return tuple(i for i, s in enumerate(scores) if s > low)
    best = max(scores)
    top = tuple(i for i, s in enumerate(scores) if s == best)
    if tie_rule is TieRule.DRAW:
        return top if len(top) == 1 else ()
    return top if len(top) < n else ()


def decide(
    sides: Sequence[Sequence[Seat]],
    scores: Sequence[float],
    *,
    finished: bool,
    termination: str,
    kind: Termination,
    tie_rule: TieRule,
    hands: Sequence[HandResult] = (),
    ranking: Sequence[Side] | None = None,
    places: Sequence[Side] = (),
) -> Outcome:
    """The outcome of a match that stands at ``scores`` (per side, higher is better).

    ``termination`` is the game's own reason (``"target_score"``, ``"max_hands"`` …) and
    ``kind`` its meaning for everyone; both are ``""`` while the match goes on.  ``ranking``
    defaults to the sides by score, best first (ties by side index); ``places`` (the order sides
    finished, best first) is what :attr:`TieRule.FIRST_PLACE` decides by.  An abandoned match
    has no winner."""
    values = tuple(float(s) for s in scores)
    order = (
        tuple(ranking)
        if ranking is not None
        else tuple(sorted(range(len(values)), key=lambda i: (-values[i], i)))
    )
    won: tuple[Side, ...] = ()
    if finished and kind is not Termination.ABANDONED:
        won = winners(values, tie_rule, places)
    return Outcome(
        finished=finished,
        termination=termination if finished else "",
        sides=tuple(tuple(s) for s in sides),
        scores=values,
        winners=won,
        hands=tuple(hands),
        ranking=order,
        kind=str(kind) if finished else "",
    )


__all__ = ["Termination", "TieRule", "decide", "winners"]
