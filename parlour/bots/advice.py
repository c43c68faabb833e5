"""Hints and post-hand reviews (issue 19): what the search bot would do from one seat's view.

:func:`advise` runs the generic search (:meth:`IsmctsBot.estimate`) on determinizations of the
seat's **view** only — it is never given the real hidden cards — and returns the suggested move,
the alternatives the search compared with their estimated values, and a one-line reason in words
derived from simple features of each move (:func:`reason`).  :func:`review` compares a player's
past decisions with the search's own choice from the view the player had at that moment.

Values are the search's mean reward for the seat's side, in [0, 1] (0.5: level with the other
sides; see :mod:`parlour.bots.ismcts`); ``points`` turns it back into an estimated score margin
when the game declares a ``score_scale``.

**Noise.**  Every compared move is played out on the same determinizations with the same
play-out seeds (common random numbers), so two moves differ by the mean of their per-round
differences, whose standard error the rounds themselves give.  A move is *within the search's
noise* of a better one when its shortfall is at most :data:`NOISE_Z` of those standard errors
(or when fewer than two rounds were played: no spread to judge by).  The options are put in
tiers (``Option.rank``): rank 1 is the best move and every move within the noise of it, rank 2
the best of the rest and the moves within its noise, and so on — moves of one rank are shown as
equal, not ordered.  A review remarks on a decision only when the search's choice beats the
player's beyond the noise.

**Reasons agree with the values.**  A reason that compares (draws "rather than taking the
pile", lets a claim stand "rather than challenging") is given only when the values bear it
out: :func:`reason` is told the other options and their ranks (:func:`_consistent`).
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
from parlour.core.said import N_, Card, Cards, Rank, Said

#: standard errors of the paired difference within which two moves count as equal (about a
#: 95 % two-sided band; the paired search's own ``z`` for overruling its policy is the same)
NOISE_Z = 2.0


@dataclass
class Option:
    """One compared move: its mean reward for the seat's side, its estimated score margin,
    why in words, its tier (``rank``: 1 = the best and every move within the search's noise of
    it), ``noise`` (:data:`NOISE_Z` standard errors of its difference with the best move, in
    reward units; 0 for the best itself) and ``text``, the move in the hint's own words when
    they say more than the game's (Samba: a staged card named as the meld it starts)."""

    action: Any
    value: float
    points: float | None
    reason: str
    rank: int = 1
    noise: float = 0.0
    text: str | None = None

    @property
    def equal_to_best(self) -> bool:
        return self.rank == 1


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

    @property
    def noise(self) -> float:
        """The band within which the difference would be the search's noise (the chosen
        move's :attr:`Option.noise`)."""
        return self.chosen.noise


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


def _paired_se(a: Sequence[float], b: Sequence[float]) -> float | None:
    """The standard error of the mean of ``a[r] − b[r]`` (None with fewer than two rounds)."""
    n = len(a)
    if n < 2:
        return None
    d = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return math.sqrt(var / n)


def tiers(
    samples: Sequence[Sequence[float]], order: Sequence[int], z: float = NOISE_Z
) -> tuple[list[int], list[float]]:
    """``(rank, noise)`` per move of ``order`` (indices into ``samples``, best first by mean):
    a move joins the tier of the tier's best move when its shortfall from it is at most ``z``
    paired standard errors; ``noise`` is ``z`` standard errors of its difference with the very
    best move (``inf`` with fewer than two rounds: nothing can be told apart).

    >>> ranks, noise = tiers([[1, 1, 1], [0.9, 1.0, 0.95], [0, 0, 0.1]], [0, 1, 2])
    >>> ranks, [round(n, 3) for n in noise]
    ([1, 1, 2], [0.0, 0.058, 0.067])
    """
    ranks: list[int] = []
    noises: list[float] = []
    head = -1  # the best move of the current tier
    for pos, i in enumerate(order):
        top = order[0]
        se_top = _paired_se(samples[top], samples[i]) if pos else 0.0
        noises.append(math.inf if se_top is None else z * se_top)
        if pos == 0:
            ranks.append(1)
            head = i
            continue
        se = _paired_se(samples[head], samples[i])
        gap = (sum(samples[head]) - sum(samples[i])) / max(len(samples[i]), 1)
        if se is None or gap <= z * se + 1e-12:
            ranks.append(ranks[-1])
        else:
            ranks.append(ranks[-1] + 1)
            head = i
    return ranks, noises


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
    ``limit`` plus anything in ``include``), in tiers of moves within the search's noise of
    each other (see the module's docstring).  ``budget`` as for ``strong`` (``"200it"``: a
    number of play-outs, deterministic for a seed; a float: seconds)."""
    import time

    started = time.perf_counter()
    bot = _search(variant, seat, seed, budget)
    if len(legal) == 1:
        moves, samples = [legal[0]], [[0.5]]
        rounds = 0
    else:
        moves, samples = bot.estimate_samples(view, legal, include)
        rounds = len(samples[0]) if samples else 0
    means = [sum(v) / max(len(v), 1) for v in samples]
    # best first; equal values keep the search's order (the policy's own move first)
    order = sorted(range(len(moves)), key=lambda i: (-means[i], i))
    ranks, noises = tiers(samples, order)
    rank_of_move = {moves[i]: r for i, r in zip(order, ranks, strict=True)}
    noise_of_move = {moves[i]: n for i, n in zip(order, noises, strict=True)}
    keep = order[:limit] + [i for i in order[limit:] if moves[i] in include]
    world = variant.game.determinize(view, random.Random(seed)) if len(legal) > 1 else None
    compared = [(moves[i], means[i], rank_of_move[moves[i]]) for i in order]
    options = [
        Option(
            moves[i],
            means[i],
            _points(means[i], bot.score_scale),
            reason(variant, view, moves[i], world, seat, compared=compared, legal=legal),
            rank_of_move[moves[i]],
            noise_of_move[moves[i]],
            move_text(variant, view, moves[i], world, seat),
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
    ``threshold`` (in reward units) and by more than the search's noise, checking at most ``most`` decisions (those with the most
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
        # and beyond the search's noise: a move of the best's own tier is as good as it
        if advice.best.action != d.action and gain > threshold and mine.rank > 1:
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


#: the moves that take from the discard pile, by class name (Samba, Hand and Foot, Scat)
_TAKES = ("TakePile", "TakeDiscard", "TakeTop", "Take")
_DRAWS = ("DrawStock", "Draw")

#: (move, mean value, rank) of every move compared, best first
Compared = Sequence[tuple[Any, float, int]]


def _versus(action: Any, compared: Compared | None, names: Sequence[str]) -> str | None:
    """How ``action`` stands against the best compared move whose class is one of ``names``:
    ``"better"`` (a better rank), ``"equal"`` (the same rank: within the search's noise),
    ``"worse"``, or None (no such move was compared)."""
    if compared is None:
        return None
    mine = next((r for a, _, r in compared if a == action), None)
    theirs = [r for a, _, r in compared if type(a).__name__ in names and a != action]
    if mine is None or not theirs:
        return None
    best = min(theirs)
    return "better" if mine < best else "equal" if mine == best else "worse"


def _rank(action: Any, compared: Compared | None) -> int | None:
    if compared is None:
        return None
    return next((r for a, _, r in compared if a == action), None)


def _value(action: Any, compared: Compared | None) -> float | None:
    if compared is None:
        return None
    return next((v for a, v, _ in compared if a == action), None)


def reason(
    variant: Variant,
    view: Any,
    action: Any,
    world: Any,
    seat: int,
    *,
    compared: Compared | None = None,
    legal: Sequence[Any] | None = None,
) -> str:
    """One line on what the move does, from simple features of the view before and after it
    (``world``: a determinization of ``view``, used only to see the seat's own view after).

    A reason that compares the move with another (the pile "not worth taking", a challenge
    "too risky") is given only when ``compared`` (every move compared, with its value and
    rank) bears it out: a move ranked below the alternative says so instead, one within the
    search's noise of it says they are about as good, and without ``compared`` no comparison
    is claimed."""
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
                return N_("goes out: the hand ends on your terms")
        (s0, c0), (s1, c1) = _counts(view, seat), _counts(after, seat)
        if s1 > s0:
            return N_("completes a samba")
        if c1 > c0:
            return N_("completes a canasta")
        side0, side1 = _own_side(view, seat), _own_side(after, seat)
        if (
            side0 is not None
            and side1 is not None
            and not getattr(side0, "opened", True)
            and getattr(side1, "opened", False)
        ):
            return N_("opens the side's melds")
    card = getattr(action, "card", None)
    if name in _TAKES:
        size = int(getattr(view, "pile_size", 0) or 0)
        if name == "TakeDiscard":
            return N_("takes the discard: it improves the hand")
        if size > 1:
            return N_("takes the pile ({count} cards) to build melds", count=size)
        return N_("takes the pile")
    if name == "Discard" and isinstance(card, int):
        if card == JOKER or rank_of(card) == 2:
            return N_("discards a wild card: keeps the pile frozen for the opponents")
        if variant.name == "scat":
            return _scat_discard(view, card)
        if rank_of(card) not in _opponent_ranks(view, seat):
            return N_("discards a safe card: no opponent meld can use it")
        return N_("discards the least useful card")
    if name in ("Knock",):
        value, rank = _value(action, compared), _rank(action, compared)
        if rank is not None and rank > 1:
            return N_("knocks, though another move is rated higher")
        if value is not None and value < 0.5:
            return N_("knocks: the hand is likely to end behind, but waiting is rated no better")
        return N_("knocks: the hand is likely to beat the others")
    if name in ("Declare31", "Hammer", "ThrowDown"):
        return N_("shows the hand now, while it is strong")
    if name in _DRAWS:
        takes = legal is not None and any(type(a).__name__ in _TAKES for a in legal)
        if legal is not None and not takes:
            return N_("draws from the stock: the pile cannot be taken now")
        vs = _versus(action, compared, _TAKES)
        if vs == "better":
            return N_("draws from the stock: the pile is not worth taking")
        if vs == "equal":
            return N_("draws from the stock: about as good as taking the pile")
        if vs == "worse":
            return N_("draws from the stock, though taking the pile is rated higher")
        return N_("draws from the stock")
    if name == "Challenge":
        vs = _versus(action, compared, ("Pass",))
        if vs == "better":
            return N_("challenges a likely lie")
        if vs == "equal":
            return N_("challenges: about as good as letting the claim stand")
        if vs == "worse":
            return N_("challenges, though letting the claim stand is rated higher")
        return N_("challenges the claim")
    if name == "Claim":
        sel = getattr(view, "selection", ()) or ()
        rank = getattr(action, "rank", None)
        if sel and any(rank_of(c) != rank for c in sel):
            return N_("bluffs: the claim is unlikely to be challenged")
        return N_("claims truthfully: a challenge would cost the challenger")
    if name == "Pick":
        return N_("puts this card into the play")
    if name == "Pass" and variant.name == "cheat":
        vs = _versus(action, compared, ("Challenge",))
        if vs == "better":
            return N_("lets the claim stand: a challenge looks too risky")
        if vs == "equal":
            return N_("lets the claim stand: about as good as challenging")
        if vs == "worse":
            return N_("lets the claim stand, though a challenge is rated higher")
        return N_("lets the claim stand")
    if name == "Stage" and variant.name == "samba" and world is not None:
        staged = _samba_stage(variant, view, action, world, seat)
        if staged is not None:
            cards, made = staged
            meld = _meld_words(made)
            if not getattr(view, "pending", ()):
                return N_("begins {cards}, {meld}", cards=Cards(cards), meld=meld)
            return N_("builds {cards}, {meld}", cards=Cards(cards), meld=meld)
    if name in ("Stage", "Meld", "MeldBlackThrees", "LayRedThree"):
        return N_("lays down cards that score")
    if name in ("AddToMeld", "MergeGroups"):
        return N_("builds a meld towards a canasta")
    if name == "AnswerGoOut":
        if getattr(action, "yes", False):
            return N_("agrees to go out")
        return N_("keeps the hand going")
    if name == "AskGoOut":
        value, rank = _value(action, compared), _rank(action, compared)
        if rank is not None and rank > 1:
            return N_("asks to go out, though another move is rated higher")
        if value is not None and value < 0.5:
            return N_("asks to go out: ending the hand now is rated no worse than playing on")
        return N_("asks to go out while ahead")
    rank = _rank(action, compared)
    if rank is not None and rank > 1:
        return N_("the search rates it below the suggestion")
    return N_("the search rates it best")


# --- the moves in the hint's words -------------------------------------------------------


def _meld_words(meld: Any, new: bool = False) -> Said:
    """A meld in words: "a meld of 7s", "a sequence of ♦ from 5 to 7", "a meld of wild cards"
    (``new``: "the new meld of 7s" …), one catalog message each (issue 34)."""
    from parlour.core.cards import SUIT_SYMBOLS

    kind = getattr(meld, "kind", "")
    if kind == "sequence":
        suit, low, high = (
            SUIT_SYMBOLS[meld.suit],
            getattr(meld, "rank", 0),
            getattr(meld, "high", 0),
        )
        if new:
            return N_(
                "the new sequence of {suit} from {low} to {high}",
                suit=suit,
                low=Rank(low),
                high=Rank(high),
            )
        return N_(
            "a sequence of {suit} from {low} to {high}", suit=suit, low=Rank(low), high=Rank(high)
        )
    if kind == "wild":
        return N_("the new meld of wild cards") if new else N_("a meld of wild cards")
    rank = getattr(meld, "rank", 0)
    if rank == 11:
        return N_("the new meld of jacks") if new else N_("a meld of jacks")
    if rank == 12:
        return N_("the new meld of queens") if new else N_("a meld of queens")
    if rank == 13:
        return N_("the new meld of kings") if new else N_("a meld of kings")
    if rank == 14:
        return N_("the new meld of aces") if new else N_("a meld of aces")
    if new:
        return N_("the new meld of {rank}s", rank=Rank(rank))
    return N_("a meld of {rank}s", rank=Rank(rank))


def _samba_stage(
    variant: Variant, view: Any, action: Any, world: Any, seat: int
) -> tuple[tuple[int, ...], Any] | None:
    """The new meld a Samba ``Stage`` builds: the staged cards and, for the rest, the cards the
    ``basic`` policy would stage next from the seat's own hand (it sees only the view), then
    the meld they make (:func:`_meld_words` says it).  None when the meld is not completed that way."""
    game = variant.game
    try:
        before = list(_melds(game.observe(world, seat), seat))
        state = game.apply_quiet(world, action)
        policy = bot_registry.make("basic", variant, seat, 0)
        for _ in range(3):
            if not getattr(state, "pending", ()):
                break
            legal = game.legal_actions(state)
            stages = [a for a in legal if type(a).__name__ == "Stage"]
            if not stages:
                return None
            choice = policy.act(game.observe(state, seat), legal)
            state = game.apply_quiet(state, choice if choice in stages else stages[0])
        made = list(_melds(game.observe(state, seat), seat))
        for m in before:  # the melds that were there already (equal melds counted apart)
            if m in made:
                made.remove(m)
    except Exception:  # words for a hint: never fail the hint for them
        return None
    if len(made) != 1:
        return None
    meld = made[0]
    return tuple(meld.cards), meld


def move_text(variant: Variant, view: Any, action: Any, world: Any, seat: int) -> str | None:
    """The move in the hint's words when they say more than the game's own text, else None:
    a Samba ``Stage`` ("meld 7♦") is named as the meld it builds ("start a meld of 7s with
    7♦", "add 7♣ to the new meld of 7s", "complete the new meld of 7s with 7♥")."""
    if variant.name != "samba" or type(action).__name__ != "Stage" or world is None:
        return None
    card = getattr(action, "card", None)
    if not isinstance(card, int):
        return None
    staged = _samba_stage(variant, view, action, world, seat)
    if staged is None:
        return None
    _, made = staged
    shown = Card(card)
    pending = len(getattr(view, "pending", ()) or ())
    if pending == 0:
        return N_("start {meld} with {card}", meld=_meld_words(made), card=shown)
    new = _meld_words(made, new=True)
    if pending == 1:
        return N_("add {card} to {meld}", card=shown, meld=new)
    return N_("complete {meld} with {card}", meld=new, card=shown)


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
        return N_("discards the card that helps the hand least")
    suit = max(totals, key=lambda s: totals[s])
    return N_(
        "discards the card that helps least: keeps {points} in {suit}",
        points=totals[suit],
        suit=SUIT_SYMBOLS[suit],
    )
