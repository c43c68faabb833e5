"""Hints and post-hand reviews (issue 19): what the search bot would do from one seat's view.

:func:`advise` runs the generic search (:meth:`IsmctsBot.estimate`) on determinizations of the
seat's **view** only — it is never given the real hidden cards — and returns the suggested move,
the alternatives the search compared with their estimated values, and a one-line reason in words
derived from simple features of each move (:func:`reason`).  :func:`review` compares a player's
past decisions with the search's own choice from the view the player had at that moment.

Values are the search's mean reward for the seat's side, in [0, 1] (0.5: level with the other
sides; see :mod:`parlour.bots.ismcts`); ``points`` turns it back into an estimated score margin
when the game declares a ``score_scale``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour import bots as bot_registry
from parlour.core.cards import JOKER, rank_of
from parlour.core.registry import Variant


@dataclass
class Option:
    action: Any
    value: float
    points: float | None
    reason: str


@dataclass
class Advice:
    """The suggested move first, then the alternatives compared (best first)."""

    options: list[Option]
    rounds: int
    seconds: float = 0.0

    @property
    def best(self) -> Option:
        return self.options[0]


@dataclass
class Decision:
    """One decision a player made: the view and legal moves then, and the move chosen."""

    hand: int
    version: int
    view: Any
    legal: Sequence[Any]
    action: Any


#: decimals of a remark's difference as the player is shown it (the server's review message)
DIFFERENCE_DIGITS = 3


@dataclass
class Remark:
    """A decision where the search's own choice was estimated better by ``difference``."""

    decision: Decision
    chosen: Option
    better: Option

    @property
    def difference(self) -> float:
        return self.better.value - self.chosen.value


@dataclass
class HandReview:
    hand: int
    checked: int
    decisions: int
    remarks: list[Remark] = field(default_factory=list)


def _points(value: float, scale: float | None) -> float | None:
    if not scale:
        return None
    v = min(max(2 * value - 1, -0.999), 0.999)
    return scale * math.atanh(v)


def _search(variant: Variant, seat: int, seed: int, budget: Any) -> Any:
    return bot_registry.make("strong", variant, seat, seed, budget=budget)


def advise(
    variant: Variant,
    view: Any,
    legal: Sequence[Any],
    seat: int,
    *,
    seed: int = 0,
    budget: Any = 1.0,
    include: Sequence[Any] = (),
    limit: int = 4,
) -> Advice:
    """The search's estimate of the moves it compares from ``view`` (best first, at most
    ``limit`` plus anything in ``include``).  ``budget`` as for ``strong`` (``"200it"``: a
    number of play-outs, deterministic for a seed; a float: seconds)."""
    import time

    started = time.perf_counter()
    bot = _search(variant, seat, seed, budget)
    if len(legal) == 1:
        ranked, rounds = [(legal[0], 0.5)], 0
    else:
        ranked, rounds = bot.estimate(view, legal, include)
    # best first; equal values keep the search's order (the policy's own move first)
    order = sorted(range(len(ranked)), key=lambda i: (-ranked[i][1], i))
    keep = order[:limit] + [i for i in order[limit:] if ranked[i][0] in include]
    world = variant.game.determinize(view, random.Random(seed)) if len(legal) > 1 else None
    options = [
        Option(
            ranked[i][0],
            ranked[i][1],
            _points(ranked[i][1], bot.score_scale),
            reason(variant, view, ranked[i][0], world, seat),
        )
        for i in keep
    ]
    return Advice(options, rounds, time.perf_counter() - started)


def review(
    variant: Variant,
    decisions: Sequence[Decision],
    seat: int,
    *,
    seed: int = 0,
    budget: Any = 0.3,
    most: int = 8,
    threshold: float = 0.05,
) -> HandReview:
    """The decisions of one hand where the search's own choice beats the player's by more than
    ``threshold`` (in reward units), checking at most ``most`` decisions (those with the most
    choice first: a forced move needs no review)."""
    real = [d for d in decisions if len(d.legal) > 1]
    chosen = sorted(range(len(real)), key=lambda i: -len(real[i].legal))[:most]
    hand = decisions[0].hand if decisions else 0
    out = HandReview(hand, len(chosen), len(decisions))
    for i in sorted(chosen):
        d = real[i]
        advice = advise(
            variant,
            d.view,
            d.legal,
            seat,
            seed=seed + d.version,
            budget=budget,
            include=(d.action,),
        )
        mine = next((o for o in advice.options if o.action == d.action), None)
        if mine is None:
            continue
        # "better by more than the threshold" as the player is shown it: a gain that rounds to
        # 0.000 is no remark ("better by 0" would be nonsense), whatever the threshold
        gain = round(advice.best.value - mine.value, DIFFERENCE_DIGITS)
        if advice.best.action != d.action and gain > threshold:
            out.remarks.append(Remark(d, mine, advice.best))
    return out


# --- reasons in words ---------------------------------------------------------------------


def _own_side(view: Any, seat: int) -> Any:
    sides = getattr(view, "sides", None)
    players = getattr(view, "players", None)
    if not sides or not players:
        return None
    try:
        side = players[seat].side
        return next(s for s in sides if getattr(s, "side", None) == side)
    except (AttributeError, IndexError, StopIteration):
        return None


def _melds(view: Any, seat: int) -> tuple[Any, ...]:
    side = _own_side(view, seat)
    return tuple(getattr(side, "melds", ()) or ()) if side is not None else ()


def _counts(view: Any, seat: int) -> tuple[int, int]:
    """(sambas, canastas) of the seat's side."""
    melds = _melds(view, seat)
    sambas = sum(1 for m in melds if getattr(m, "samba", False))
    canastas = sum(
        1
        for m in melds
        if getattr(m, "canasta", "")
        or getattr(m, "complete", False)
        or (not hasattr(m, "complete") and len(getattr(m, "cards", ())) >= 7)
    )
    return sambas, canastas


def _opponent_ranks(view: Any, seat: int) -> set[int]:
    own = _own_side(view, seat)
    out: set[int] = set()
    for s in getattr(view, "sides", ()) or ():
        if s is own:
            continue
        for m in getattr(s, "melds", ()) or ():
            for c in getattr(m, "cards", ()):
                if c != JOKER and rank_of(c) != 2:
                    out.add(rank_of(c))
    return out


def reason(variant: Variant, view: Any, action: Any, world: Any, seat: int) -> str:
    """One line on what the move does, from simple features of the view before and after it
    (``world``: a determinization of ``view``, used only to see the seat's own view after)."""
    game = variant.game
    name = type(action).__name__
    after = None
    if world is not None:
        try:
            after = game.observe(game.apply_quiet(world, action), seat)
        except Exception:  # a reason is a nicety: never fail a hint for it
            after = None
    if after is not None:
        hand_before = len(getattr(view, "hand", ()) or ())
        hand_after = getattr(after, "hand", None)
        if hand_before and hand_after is not None and not hand_after:
            foot = getattr(getattr(after, "players", [None] * (seat + 1))[seat], "foot_taken", 1)
            if foot:
                return "goes out: the hand ends on your terms"
        (s0, c0), (s1, c1) = _counts(view, seat), _counts(after, seat)
        if s1 > s0:
            return "completes a samba"
        if c1 > c0:
            return "completes a canasta"
        side0, side1 = _own_side(view, seat), _own_side(after, seat)
        if (
            side0 is not None
            and side1 is not None
            and not getattr(side0, "opened", True)
            and getattr(side1, "opened", False)
        ):
            return "opens the side's melds"
    card = getattr(action, "card", None)
    if name in ("TakePile", "TakeDiscard", "TakeTop", "Take"):
        size = int(getattr(view, "pile_size", 0) or 0)
        if name == "TakeDiscard":
            return "takes the discard: it improves the hand"
        return f"takes the pile ({size} cards) to build melds" if size > 1 else "takes the pile"
    if name == "Discard" and isinstance(card, int):
        if card == JOKER or rank_of(card) == 2:
            return "discards a wild card: keeps the pile frozen for the opponents"
        if variant.name == "scat":
            return _scat_discard(view, card)
        if rank_of(card) not in _opponent_ranks(view, seat):
            return "discards a safe card: no opponent meld can use it"
        return "discards the least useful card"
    if name in ("Knock",):
        return "knocks: the hand is likely to beat the others"
    if name in ("Declare31", "Hammer", "ThrowDown"):
        return "shows the hand now, while it is strong"
    if name == "DrawStock" or name == "Draw":
        return "draws from the stock: the pile is not worth taking"
    if name == "Challenge":
        return "challenges a likely lie"
    if name == "Claim":
        sel = getattr(view, "selection", ()) or ()
        rank = getattr(action, "rank", None)
        if sel and any(rank_of(c) != rank for c in sel):
            return "bluffs: the claim is unlikely to be challenged"
        return "claims truthfully: a challenge would cost the challenger"
    if name == "Pick":
        return "puts this card into the play"
    if name == "Pass" and variant.name == "cheat":
        return "lets the claim stand: a challenge looks too risky"
    if name in ("Stage", "Meld", "MeldBlackThrees", "LayRedThree"):
        return "lays down cards that score"
    if name in ("AddToMeld", "MergeGroups"):
        return "builds a meld towards a canasta"
    if name == "AnswerGoOut":
        return "agrees to go out" if getattr(action, "yes", False) else "keeps the hand going"
    if name == "AskGoOut":
        return "asks to go out while ahead"
    return "the search rates it best"


def _scat_discard(view: Any, card: int) -> str:
    """Scat: what the hand is worth in its best suit once ``card`` is gone."""
    from parlour.core.cards import SUIT_SYMBOLS, suit_of

    rest = list(getattr(view, "hand", ()) or ())
    if card in rest:
        rest.remove(card)
    totals: dict[int, int] = {}
    for c in rest:
        if c == JOKER:
            continue
        r = rank_of(c)
        totals[suit_of(c)] = totals.get(suit_of(c), 0) + (11 if r == 14 else min(r, 10))
    if not totals:
        return "discards the card that helps the hand least"
    suit = max(totals, key=lambda s: totals[s])
    return f"discards the card that helps least: keeps {totals[suit]} in {SUIT_SYMBOLS[suit]}"
