"""What a Cheat seat may believe of the cards it cannot see: the search's determinizations.

``game.determinize`` deals the hidden cards uniformly (every arrangement the view allows is as
likely).  The ``strong`` bot samples them from the public history instead (``determinize``, the
``determinize`` search hint):

- **Known cards stay where they are known to be.**  Every card exposed by a challenge went to a
  known hand (``exposed_to``); it is still there, or — if that seat has played since — possibly in
  one of its plays in the current pile (``exposed_whereabouts`` of the basic bot follows each card
  through later pile pick-ups).  The viewer's own pick-ups are in its own hand, already seen.
- **Claims are evidence.**  Each play of another seat in the pile is drawn as a lie or the truth:
  the last play, while it can still be challenged, with the basic bot's estimate
  (``lie_probability``: what the claimant can hold of the rank, its exposed record of lies and
  their sizes); earlier plays (nobody challenged them) with the same model from the cards the
  viewer cannot place.  A truthful play is filled with cards of the claimed rank (jokers when the
  naturals run out), a lie with cards of other ranks; so "three 7s" unchallenged puts 7s in the
  pile far more often than a uniform deal would.
- The rest is dealt uniformly to the other hands, by their counted sizes.

Rules where the counted sizes can differ from the true ones (``overplay``, ``overclaim``) and a
spectator's view fall back to the uniform deal, as does a view where the constraints cannot be
met (never seen in play; a few attempts are made first).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from parlour.core.cards import JOKER, NUM_KINDS, rank_of, shoe
from parlour.games.cheat.bot import (
    LIE_SIZE_PRIOR,
    LIE_SIZES,
    BasicCheatBot,
    exposed_whereabouts,
    p_exactly,
    voluntary_rate,
)
from parlour.games.cheat.state import LATE, WINDOW, CheatView, State
from parlour.games.cheat.view import determinize_view, world_of

#: attempts at a constrained sample before falling back to the uniform deal
ATTEMPTS = 4


@dataclass(frozen=True)
class OtherPlay:
    """A play of another seat in the current pile: its index, claim and chance of a lie."""

    index: int
    seat: int
    count: int
    rank: int
    p_lie: float


@dataclass(frozen=True)
class Belief:
    """The viewer's belief, computed once per view: the unplaced cards (counts by kind), the
    other seats' hand sizes, their plays in the pile (newest first) and the known cards with the
    seats that may hold them."""

    view: CheatView
    pool: tuple[int, ...]
    sizes: tuple[int, ...]
    plays: tuple[OtherPlay, ...]
    known: tuple[tuple[int, frozenset[int]], ...]

    def sample(self, rng: random.Random) -> State | None:
        """One world drawn from the belief, or ``None`` when the draw met a dead end."""
        view = self.view
        me = view.seat
        assert me is not None
        left = list(self.pool)
        hand_room = list(self.sizes)
        placed: dict[int, list[int]] = {p.index: [] for p in self.plays}
        truthful = {p.index: rng.random() >= p.p_lie for p in self.plays}
        by_index = {p.index: p for p in self.plays}
        held: list[list[int]] = [[] for _ in self.sizes]
        for card, seats in self.known:
            if left[card] <= 0:
                continue
            slots: list[tuple[str, int]] = [("hand", s) for s in seats if hand_room[s] > 0]
            for p in self.plays:
                fits = not truthful[p.index] or _counts_as(card, p.rank)
                if p.seat in seats and fits and len(placed[p.index]) < p.count:
                    slots.append(("play", p.index))
            if not slots:
                return None
            kind, where = slots[rng.randrange(len(slots))]
            left[card] -= 1
            if kind == "hand":
                held[where].append(card)
                hand_room[where] -= 1
            else:
                placed[where].append(card)
        for p in self.plays:  # newest first: the play being judged gets its own estimate
            cards = placed[p.index]
            need = p.count - len(cards)
            if truthful[p.index] and not _fill(left, cards, need, p.rank, True, rng):
                truthful[p.index] = False
            if not truthful[p.index]:
                honest = [c for c in cards if _counts_as(c, p.rank)]
                if len(honest) == len(cards) and need == 0:
                    return None  # a lie with no room left for a card of another rank
                if not _fill(left, cards, need, p.rank, False, rng):
                    return None
        rest = [kind for kind, k in enumerate(left) for _ in range(k)]
        if len(rest) != sum(hand_room):
            return None
        rng.shuffle(rest)
        hands: list[tuple[int, ...]] = []
        for s, room in enumerate(hand_room):
            counts = [0] * NUM_KINDS
            take = view.hand if s == me else (*held[s], *rest[:room])
            if s != me:
                rest = rest[room:]
            for c in take:
                counts[c] += 1
            hands.append(tuple(counts))
        pile = [
            tuple(sorted(placed[k])) if k in by_index else entry.cards
            for k, entry in enumerate(view.pile)
        ]
        return world_of(view, pile, hands)


def _counts_as(card: int, rank: int) -> bool:
    return card == JOKER or rank_of(card) == rank


def _fill(
    left: list[int], cards: list[int], need: int, rank: int, matching: bool, rng: random.Random
) -> bool:
    """Add ``need`` cards from ``left`` to ``cards``: of ``rank`` (naturals before jokers) when
    ``matching``, else of other ranks; ``False`` (nothing taken) when too few are left."""
    if need <= 0:
        return True
    if matching:
        naturals = [k for k in range(NUM_KINDS) if k != JOKER and rank_of(k) == rank]
        pool = [k for k in naturals for _ in range(left[k])]
        rng.shuffle(pool)
        pool += [JOKER] * left[JOKER]
    else:
        pool = [
            k for k in range(NUM_KINDS) if k != JOKER and rank_of(k) != rank for _ in range(left[k])
        ]
        rng.shuffle(pool)
    if len(pool) < need:
        return False
    for k in pool[:need]:
        left[k] -= 1
        cards.append(k)
    return True


def belief_of(game: Any, view: CheatView) -> Belief:
    """The belief of ``view``'s seat (see the module docstring)."""
    me = view.seat
    assert me is not None
    rules = view.rules
    pool = [0] * NUM_KINDS
    for c in shoe(rules.packs, rules.jokers):
        pool[c] += 1
    copies = tuple(pool)
    for c in (*view.hand, *view.selection):
        pool[c] -= 1
    for p in view.pile:
        if p.seat == me:
            for c in p.cards:
                pool[c] -= 1
    sizes = tuple(0 if s == me else view.hand_sizes[s] for s in range(rules.players))
    judge = _judge(game, me)
    pending = view.phase in (WINDOW, LATE)
    plays: list[OtherPlay] = []
    for k in range(len(view.pile) - 1, -1, -1):
        entry = view.pile[k]
        if entry.seat == me:
            continue
        if pending and k == len(view.pile) - 1:
            p_lie = judge.lie_probability(view)
        else:
            p_lie = _prior_lie(view, pool, entry.seat, entry.count, entry.rank)
        plays.append(OtherPlay(k, entry.seat, entry.count, entry.rank, p_lie))
    known: list[tuple[int, frozenset[int]]] = []
    for card, mask, _in_pile in exposed_whereabouts(view, judge.whereabouts):
        seats = frozenset(s for s in range(rules.players) if mask >> s & 1 and s != me)
        # (a card that may also be the viewer's is elsewhere if the viewer holds no copy)
        if seats and (not mask >> me & 1 or pool[card] == copies[card]):
            known.append((card, seats))
    return Belief(view, tuple(pool), sizes, tuple(plays), tuple(known))


def _prior_lie(view: CheatView, pool: list[int], seat: int, count: int, rank: int) -> float:
    """P(an unchallenged earlier play of ``seat`` claiming ``count`` × ``rank`` was a lie): the
    basic bot's model (forced lies when the claimant holds none of the rank, voluntary ones at
    the rate its exposed record suggests, lies of that size) with the claimant's hand drawn from
    the cards the viewer cannot place."""
    population = sum(pool)
    good = sum(pool[k] for k in range(NUM_KINDS) if _counts_as(k, rank))
    draws = min(population, view.hand_sizes[seat] + count)
    pmf = [p_exactly(population, good, draws, x) for x in range(draws + 1)]
    stats = BasicCheatBot.record(view, seat)
    v = voluntary_rate(stats.lies, stats.exposed - stats.lies)
    weights = [LIE_SIZE_PRIOR * w + n for w, n in zip(LIE_SIZES, stats.lie_sizes, strict=True)]
    q = weights[min(count, 4) - 1] / sum(weights)
    truth = (1.0 - v) * sum(pmf[count:])
    lie = (pmf[0] + v * sum(pmf[1:])) * q
    return lie / (lie + truth) if lie + truth > 0 else 1.0


_judges: dict[int, BasicCheatBot] = {}


def _judge(game: Any, seat: int) -> BasicCheatBot:
    """A basic bot of the seat, kept so that its record of the exposed cards (extended
    claim by claim, checked against the history) is not rebuilt for every view."""
    judge = _judges.get(seat)
    if judge is None:
        judge = _judges[seat] = BasicCheatBot(game, seat)
    return judge


_cache: list[Any] = [None, None]  # the last view and its belief (a search asks for one view)


def determinize(game: Any, view: CheatView, rng: random.Random) -> State:
    """A world drawn from ``view``'s seat's belief (the ``determinize`` search hint)."""
    rules = view.rules
    if view.seat is None or rules.overplay or rules.overclaim:
        return determinize_view(view, rng)
    if _cache[0] is not view:
        _cache[0], _cache[1] = view, belief_of(game, view)
    belief: Belief = _cache[1]
    for _ in range(ATTEMPTS):
        world = belief.sample(rng)
        if world is not None:
            return world
    return determinize_view(view, rng)
