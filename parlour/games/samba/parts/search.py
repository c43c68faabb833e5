"""The moves Samba's ``strong`` bot compares (issue 36): :func:`candidates`, the
``search_candidates`` hint of :data:`parlour.games.samba.HINTS` (and of hints and reviews).

:func:`candidates` takes the policy's move, the three least harmful discards and then the first
other legal moves in their order, so at a meld step the alternatives are often the same move
again: "meld 8♥" and "meld 8♠" next to the policy's "meld 8♦" start the same group of 8s, "add 7♦ to meld 2"
and "add 7♣ to meld 2" do the same.  With ``grouped`` (:func:`grouped_candidates`, an option of
``scripts/tune_samba.py``; not shipped: it did not measure better) a move whose group
(:func:`group`) is already among the candidates is skipped, so the places of the comparison go
to moves that differ — another meld to start, another meld to extend, a merge, stopping to
discard.  Not compiled: it runs once per searched decision, never in a play-out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.games.samba import actions as A
from parlour.games.samba.parts.melds import IS_WILD, RANK


def group(action: Any) -> tuple[Any, ...]:
    """Moves of one group do the same for the comparison: a card of a rank (or a wild card)
    staged into the new meld, or added to one meld; anything else is a group of its own.

    >>> from parlour.core.cards import parse_card as c
    >>> group(A.Stage(c("8♦"))) == group(A.Stage(c("8♠"))), group(A.Stage(c("2♣")))
    (True, ('stage', 'wild'))
    >>> group(A.AddToMeld(2, c("7♦"))) == group(A.AddToMeld(2, c("7♣")))
    True
    """
    if isinstance(action, A.Stage):
        card = action.card
        return ("stage", "wild" if IS_WILD[card] else RANK[card])
    if isinstance(action, A.AddToMeld):
        card = action.card
        return ("add", action.meld, "wild" if IS_WILD[card] else RANK[card])
    return ("move", action)


def candidates(
    policy: Any,
    view: Any,
    legal: Sequence[Any],
    favourite: Any,
    limit: int,
    *,
    grouped: bool = False,
) -> list[Any]:
    """The policy's ``favourite`` first, then the alternatives the paired search weighs against
    it: every way to draw; at a discard the three least harmful discards by the policy's own
    ranking; other meld steps (start or extend another meld, merge, ask) in their legal order,
    up to ``limit`` — with ``grouped``, only moves of a group (:func:`group`) not yet among
    them.  While a new meld is being staged the policy finishes it unsearched."""
    if view.pending:
        return [favourite]
    out = [favourite]
    seen = {group(favourite)}
    discards = [a for a in legal if isinstance(a, A.Discard)]
    if discards:
        for a in policy.ranked_discards(view, discards)[:3]:
            if a not in out:
                out.append(a)
    for a in legal:
        if len(out) >= limit:
            break
        if isinstance(a, A.Discard) or a in out:
            continue
        if grouped:
            key = group(a)
            if key in seen:
                continue
            seen.add(key)
        out.append(a)
    return out[:limit]


def grouped_candidates(
    policy: Any, view: Any, legal: Sequence[Any], favourite: Any, limit: int
) -> list[Any]:
    """:func:`candidates` with ``grouped``: no two meld steps of one group."""
    return candidates(policy, view, legal, favourite, limit, grouped=True)
