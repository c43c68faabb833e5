"""The ``basic`` Cheat bot: rules of thumb a club player uses, from its own view only.

Playing:

- Tells the truth when it can (all its cards of the best allowed rank, up to the limit; jokers
  only when they finish the hand or nothing else is true).  Free to choose the rank, it weighs
  the cards put down against the chance the next player cannot follow (and, two players left,
  searches a few restarts ahead: ``duel_value``).
- When it must lie, it puts down one card, claimed as one card of the required rank (the least
  suspicious claim): the card whose rank it will be asked for last (its own future turns follow
  the rank cycle), then one of a rank it holds few of.  Keeping the cards of its coming ranks
  is what lets it go out with a truthful last play.  When several ranks may be claimed (up or
  down), the lie names the one that steers the claims towards ranks it holds at its own coming
  turns (``steer_value``).

Challenging (``should_challenge``):

- It tracks the cards it can place: its hand, its own plays in the pile, and every card exposed
  by a challenge with the seats that may hold it now (the taker, plus whoever took a pile the
  holder may have put it into since).  A claim needing more cards of the rank (jokers are wild)
  than can be in the claimant's hand is a certain lie.
- Otherwise P(lie | claim) = L / (L + T) with X = the claimant's cards of the rank (jokers
  included) before the play: the exposed ones it certainly holds plus a hypergeometric draw of
  the rest of its hand from the cards the bot cannot place.  T = (1 − v) · P(X = count) (``≥``
  when the count is the limit): a truthful player puts down all it has; L = (P(X = 0) +
  v · P(0 < X < hand)) · q(count): forced lies plus voluntary ones (rate ``v``: posterior mean
  over an honest-when-it-can and a loose type of player, ``voluntary_rate``), ``q`` the size of
  its lies (Dirichlet prior 1 card 70 %, 2: 20 %, 3: 7 %, more: 3 %, updated by its exposed
  lies).  When the claimant could choose among several ranks, both sides are divided
  accordingly.  If every card it can hold counts as the rank, the claim is certainly true.
- It challenges when the expected gain is positive: each outcome (pass; caught lie: the
  claimant takes the pile; wrong call: the bot takes it) is valued by ``utility`` — its chance
  to win, with a hand of ``h`` cards weighted exp(−h / 4) against the others' (to be first out;
  in ``play_on_for_places`` the share of opponents it should beat; in ``loser_mode`` the chance
  of not holding the most), less 0.01 a card held.  So the cost of being wrong grows with the
  pile, the gain with how close the claimant is to winning, and a final play (passing lets the
  claimant go out) is called once P(lie) beats a threshold that rises when another player is
  close to winning anyway (then catching this one gains little).
- It also calls a claim that is **unlikely** from what it holds and has seen — P(lie) at least
  ``UNLIKELY`` (0.8) — whatever the race says, when a wrong call would cost it at most
  ``UNLIKELY_PILE`` (4) cards and the claim is not a last card (that call is weighed as
  below): a player learns that bluffs get checked.  Still 160 of 160 games won against
  ``random``; lower thresholds cost strength against the bot without the rule (measures in
  docs/games/cheat.md, ``bench/cheat_calls.py``).
  Parameters ``unlikely`` (``None`` turns the rule off) and ``unlikely_pile``.
- When nobody has gone out for ``STALL`` plays, free choices are drawn (seeded by the play
  number) and uncertain calls made half the time, to break cycles between bots.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from math import comb, exp
from typing import Any

from mypy_extensions import mypyc_attr

from parlour.core.bot import Bot
from parlour.core.cards import JOKER, rank_of
from parlour.core.rng import derive_seed
from parlour.games.cheat.actions import Challenge, ChooseFirst, Claim, Pass, Pick
from parlour.games.cheat.legal import opening_ranks, successors
from parlour.games.cheat.state import ALL_RANKS, CHOOSE_FIRST, LATE, WINDOW, CheatView

#: prior of how many cards a liar puts down: 1, 2, 3, 4+ (Dirichlet weights)
LIE_SIZES = (0.7, 0.2, 0.07, 0.03)
LIE_SIZE_PRIOR = 5.0
#: voluntary lies (lying while holding the rank): two types of player, honest when it can
#: (lies voluntarily 5 % of the time) or loose (80 %), prior 80 : 20; an exposed play is a lie
#: with probability FORCED + (1 − FORCED) · v, FORCED the usual chance of holding none
HONEST_V, LOOSE_V, P_HONEST, FORCED = 0.05, 0.8, 0.8, 0.35
#: a hand of h cards has strength exp(−h / TAU) in the race to go out
TAU = 4.0
#: when choosing the rank: cards put down + FOLLOW_WEIGHT × P(the next player cannot follow)
FOLLOW_WEIGHT = 3.0
#: restarts searched ahead when two players are left (``duel_value``)
DUEL_DEPTH = 3
#: plays without anybody going out after which the bot breaks cycles with random choices
STALL = 100
#: the value of one card fewer in hand, besides the race (scores are −cards held)
CARD_VALUE = 0.01
#: a claim at least this likely to be a lie is called whatever the race says, when the pile
#: the bot would take for a wrong call holds at most UNLIKELY_PILE cards
UNLIKELY = 0.8
UNLIKELY_PILE = 4
#: own coming turns a lie's claimed rank is chosen for (``steer_value``)
STEER_TURNS = 8
#: rank rules with one fixed next rank (the claims go round the cycle), and those going down
CYCLIC = ("ascending", "bullshit", "descending", "descending_from_twos")
DOWNWARD = ("descending", "descending_from_twos")


def p_at_least(population: int, successes: int, draws: int, need: int) -> float:
    """P(X ≥ need) for X hypergeometric: ``draws`` cards from ``population`` holding
    ``successes`` good ones.

    >>> round(p_at_least(52, 4, 13, 1), 3)
    0.696
    """
    draws = min(draws, population)
    if need <= 0:
        return 1.0
    total = comb(population, draws)
    if total == 0:
        return 0.0
    hit = 0
    for k in range(need, min(successes, draws) + 1):
        hit += comb(successes, k) * comb(population - successes, draws - k)
    return hit / total


def p_exactly(population: int, successes: int, draws: int, k: int) -> float:
    """P(X = k) for the same hypergeometric X.

    >>> round(p_exactly(4, 2, 2, 1), 6)
    0.666667
    """
    return p_at_least(population, successes, draws, k) - p_at_least(
        population, successes, draws, k + 1
    )


Hands = tuple[tuple[int, ...], tuple[int, ...]]


def duel_value(hands: Hands, mover: int, rank: int, step: int, limit: int, depth: int) -> int:
    """Two players who see each other's hands (seat 0 = the bot): ``mover`` starts a round
    with rank index ``rank`` (0 = 2 … 12 = A), then both put down all they hold of the rank
    due (up to ``limit``) until one goes out (±1000) or must lie — it is caught, takes the pile
    back and the other starts again (searched ``depth`` restarts deep, each side choosing its
    best rank).  Returns the other hand's size less the bot's at the end of the search.

    >>> duel_value(((0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), (0,) * 13), 0, 2, 1, 4, 1)
    1000
    """
    cur = [list(hands[0]), list(hands[1])]
    pile = [0] * 13
    turn = mover
    for _ in range(64):
        n = min(cur[turn][rank], limit)
        if n == 0:  # must lie, is caught and takes the pile
            cur[turn] = [a + b for a, b in zip(cur[turn], pile, strict=True)]
            after: Hands = (tuple(cur[0]), tuple(cur[1]))
            nxt = 1 - turn
            if depth <= 1:
                return sum(after[1]) - sum(after[0])
            values = [
                duel_value(after, nxt, r, step, limit, depth - 1)
                for r in range(13)
                if after[nxt][r]
            ]
            if not values:
                return sum(after[1]) - sum(after[0])
            return max(values) if nxt == 0 else min(values)
        cur[turn][rank] -= n
        pile[rank] += n
        if not any(cur[turn]):
            return 1000 if turn == 0 else -1000
        turn = 1 - turn
        rank = (rank + step) % 13
    return sum(cur[1]) - sum(cur[0])


def steer_value(rule: str, claim: int, held: frozenset[int], live: int) -> float:
    """How well a claim of ``claim`` serves the claimant's own coming turns: the chance that the
    rank sequence lets it claim a rank it holds (``held``) at each of its next ``STEER_TURNS``
    turns (weights 1, ½, ¼ …), when every claim in between names one of the allowed ranks at
    random (``live`` players in the game).  With an even number of players and up-or-down
    claims a seat meets ranks of one parity only until the sequence passes A–2, so a seat
    holding only ranks of the other parity must steer towards that wrap.

    >>> steer_value("up_or_down", 3, frozenset({5}), 2) > steer_value("up_or_down", 3, frozenset({6}), 2)
    True
    >>> steer_value("ascending", 3, frozenset({7}), 4)
    1.0
    """
    dist = {claim: 1.0}
    value = 0.0
    weight = 1.0
    for _ in range(STEER_TURNS):
        for _ in range(live - 1):
            dist = _walk(rule, dist)
        value += weight * sum(
            w for rank, w in dist.items() if any(s in held for s in successors(rule, rank))
        )
        weight /= 2
        dist = _walk(rule, dist)
    return value


def _walk(rule: str, dist: dict[int, float]) -> dict[int, float]:
    """The next claim's rank distribution, each allowed rank equally likely."""
    out: dict[int, float] = {}
    for rank, w in dist.items():
        nxt = successors(rule, rank)
        for s in nxt:
            out[s] = out.get(s, 0.0) + w / len(nxt)
    return out


def voluntary_rate(lies: int, truths: int) -> float:
    """The chance a player lies while holding the claimed rank, after seeing ``lies`` and
    ``truths`` of its plays exposed (posterior mean over the two types of player).

    >>> round(voluntary_rate(0, 0), 2), round(voluntary_rate(9, 1), 2)
    (0.2, 0.79)
    """
    like_h = FORCED + (1 - FORCED) * HONEST_V
    like_l = FORCED + (1 - FORCED) * LOOSE_V
    w_h = P_HONEST * like_h**lies * (1 - like_h) ** truths
    w_l = (1 - P_HONEST) * like_l**lies * (1 - like_l) ** truths
    return (w_h * HONEST_V + w_l * LOOSE_V) / (w_h + w_l)


@dataclass
class _Known:
    """An exposed card and the seats that may hold it now (``in_pile``: it may be in the
    current pile, put there by one of them)."""

    card: int
    holders: set[int]
    in_pile: bool = False


def exposed_whereabouts(
    view: CheatView, cache: dict[str, Any] | None = None
) -> list[tuple[int, int, bool]]:
    """Every card exposed by a challenge, with the seats that may hold it before the last
    claim, as ``(card, bitmask of seats, may be in the pile)``.

    A card goes to the seat ``exposed_to`` names; when a seat that may hold it makes a play the
    card may be in the pile, and when that pile is taken its takers may hold it too.  A card
    exposed again (same kind, from a seat that may hold an earlier copy) replaces the earlier
    record — conservative with several packs.  ``cache`` (the bot's own) lets a later view of
    the same game continue from where the last call stopped; the result is the same."""
    claims = view.claims
    if view.phase in (WINDOW, LATE) and claims:
        claims = claims[:-1]  # the play being judged: whereabouts before it
    done = 0
    known: list[_Known] = []
    if cache is not None:
        seen: tuple[Any, ...] = cache.get("claims", ())
        shown: tuple[Any, ...] = cache.get("challenges", ())
        if (
            seen
            and len(seen) <= len(claims)
            and claims[: len(seen)] == seen
            and view.challenges[: len(shown)] == shown
        ):
            done = len(seen)
            known = [_Known(k.card, set(k.holders), k.in_pile) for k in cache["known"]]
    by_turn = {c.turn: c for c in view.challenges}
    for claim in claims[done:]:
        for k in known:
            if claim.seat in k.holders:
                k.in_pile = True
        rec = by_turn.get(claim.turn)
        if rec is None:
            continue
        for k in known:
            if k.in_pile:
                k.holders |= set(rec.takers)
                k.in_pile = False
        for card, seat in zip(rec.cards, rec.exposed_to, strict=False):
            known = [k for k in known if not (k.card == card and rec.player in k.holders)]
            known.append(_Known(card, {seat}))
    if cache is not None:
        last = claims[-1].turn if claims else 0
        cache["claims"] = claims
        cache["challenges"] = tuple(c for c in view.challenges if c.turn <= last)
        cache["known"] = [_Known(k.card, set(k.holders), k.in_pile) for k in known]
    return [(k.card, sum(1 << s for s in k.holders), k.in_pile) for k in known]


def _turn_distance(view: CheatView, rank: int) -> int:
    """How many of its own turns until the bot is asked for ``rank`` (larger: needed later)."""
    rule = view.rules.rank_rule
    current = view.allowed_ranks[0]
    n = max(1, view.rules.players - len(view.out))
    if rule in CYCLIC:
        step = -n if rule in DOWNWARD else n
        for k in range(1, 14):
            if (current - 2 + k * step) % 13 == rank - 2:
                return k
        return 14
    return min((rank - current) % 13, (current - rank) % 13)


@dataclass
class _Stats:
    exposed: int = 0
    lies: int = 0
    lie_sizes: list[int] = field(default_factory=lambda: [0, 0, 0, 0])


# a bot of one's own may subclass the compiled basic bot (docs/speed.md)
@mypyc_attr(allow_interpreted_subclasses=True)
class BasicCheatBot(Bot):
    name = "basic"

    def __init__(self, game: Any, seat: int, seed: int = 0, **params: Any) -> None:
        super().__init__(game, seat, seed, **params)
        self._cache: dict[str, Any] = {}  # exposed_whereabouts, recomputable from the view
        unlikely = params.get("unlikely", UNLIKELY)
        self._unlikely: float = 2.0 if unlikely is None else float(unlikely)
        self._unlikely_pile: int = int(params.get("unlikely_pile", UNLIKELY_PILE))

    def reset(self, seed: int) -> None:
        super().reset(seed)
        self._cache = {}

    @property
    def whereabouts(self) -> dict[str, Any]:
        """The bot's cache of :func:`exposed_whereabouts` (for callers tracking the same
        seat's view: the record is extended claim by claim instead of rebuilt)."""
        return self._cache

    def act(self, view: CheatView, legal: Sequence[Any]) -> Any:
        if view.phase in (WINDOW, LATE):
            return Challenge() if self.should_challenge(view) else Pass()
        if view.phase == CHOOSE_FIRST:
            choice = ChooseFirst(self.seat)
            return choice if choice in legal else legal[0]
        plan, count, rank = self.plan(view)
        sel = view.selection
        if len(sel) < len(plan) and tuple(plan[: len(sel)]) == tuple(sel):
            pick = Pick(plan[len(sel)])
            if pick in legal:
                return pick
        claim = Claim(count, rank)
        if claim in legal:
            return claim
        claims = [a for a in legal if isinstance(a, Claim)]
        return claims[0] if claims else legal[0]

    # --- playing -------------------------------------------------------------------------

    def plan(self, view: CheatView) -> tuple[list[int], int, int]:
        """The cards to put down (sorted), and the claim (count, rank)."""
        full = sorted((*view.hand, *view.selection))
        limit = view.rules.max_cards or len(full)
        jokers = [c for c in full if c == JOKER]
        must = view.must_include
        options: list[tuple[int, int]] = []  # (cards of the rank held, rank)
        for r in view.allowed_ranks:
            naturals = sum(1 for c in full if c != JOKER and rank_of(c) == r)
            if must >= 0 and rank_of(must) != r:
                continue
            if naturals:
                options.append((naturals, r))
        if options:
            r = self._choose_rank(view, options, len(full) - len(jokers), limit)
            cards = [c for c in full if c != JOKER and rank_of(c) == r][:limit]
            if must >= 0 and must not in cards:
                cards = [must, *cards[: limit - 1]]
            if len(cards) + len(jokers) == len(full) and len(full) <= limit:
                cards = full  # the whole hand, truthfully: go out
            return sorted(cards), len(cards), r
        lie_rank = self._lie_rank(view, full)
        if must >= 0:  # the opening 2♣ cannot be claimed truthfully: a lie with it alone
            return [must], 1, lie_rank
        if jokers:
            return [JOKER], 1, lie_rank
        # a lie: the least useful single card, claimed as one of the required rank
        if self.stalled(view):
            card = self._draw(view, "lie").choice(full)
        else:
            card = max(full, key=lambda c: self._expendability(view, full, c))
        return [card], 1, lie_rank

    def _lie_rank(self, view: CheatView, full: list[int]) -> int:
        """The rank to claim for a lie when several are allowed (up-or-down rules): the one from
        which its own coming turns most likely reach a rank it holds (``steer_value``); ties are
        drawn, and in a stalled game half the choices (a fixed choice can repeat a cycle).

        Always claiming the first allowed rank (as the bot did before) locks up-or-down games:
        the claims bounce between two ranks (3, 2, 3, 2 …), every seat is always offered the
        same pair, and with an even number of players each seat meets one parity of ranks only,
        so seats that hold none of theirs lie, are caught and take back the same card for
        ever."""
        ranks = view.allowed_ranks
        if len(ranks) == 1:
            return ranks[0]
        draw = self._draw(view, "lie_rank")
        if self.stalled(view) and draw.random() < 0.5:
            return draw.choice(ranks)
        held = frozenset(rank_of(c) for c in full if c != JOKER)
        live = view.rules.players - len(view.out)
        values = {r: steer_value(view.rules.rank_rule, r, held, live) for r in ranks}
        top = max(values.values())
        return draw.choice([r for r in ranks if values[r] >= top - 1e-9])

    def _choose_rank(
        self, view: CheatView, options: list[tuple[int, int]], naturals: int, limit: int
    ) -> int:
        """The rank to claim truthfully: one that empties the hand if any; else, when free to
        pick among several ranks (after a Bullshit restart, up-or-down …), the most cards put
        down plus ``FOLLOW_WEIGHT`` × P(the next player holds none of the ranks it may then
        claim) — making it lie where it can be caught (always dumping the biggest block lets
        two bots pass the same blocks to and fro)."""
        for n, r in options:
            if n == naturals and n <= limit:
                return r
        if len(options) == 1:
            return options[0][1]
        duel = self._duel_choice(view, options, limit)
        if duel is not None:
            return duel
        if self.stalled(view):
            return self._draw(view, "rank").choice(options)[1]
        n_seat = self._next_seat(view)
        rule = view.rules.rank_rule

        def score(option: tuple[int, int]) -> tuple[float, int]:
            n, r = option
            follow = self.p_holds(view, n_seat, successors(rule, r))
            return (min(n, limit) + FOLLOW_WEIGHT * (1.0 - follow), -r)

        return max(options, key=score)[1]

    @staticmethod
    def stalled(view: CheatView) -> bool:
        """No player has gone out for ``STALL`` plays (from the claims: the last play of the
        last seat out).  Bots that know where the cards are can pass the same blocks round
        for ever (four of a rank to one player, who lies and takes them back, …); then the
        bot draws its free choices at random to break the cycle."""
        last = 0
        if view.out:
            gone = view.out[-1]
            last = max((c.turn for c in view.claims if c.seat == gone), default=0)
        return view.turns - last > STALL

    def _draw(self, view: CheatView, what: str) -> random.Random:
        """A generator for one decision, from the bot's seed and the play number (the same
        view always gives the same draw)."""
        return random.Random(derive_seed(self.seed, what, self.seat, view.turns))

    def _duel_choice(
        self, view: CheatView, options: list[tuple[int, int]], limit: int
    ) -> int | None:
        """Two players left, the pile empty, no jokers: the bot knows the other hand exactly
        (every card it cannot see), and a lie is then always caught.  Search the restarts
        ahead (``duel_value``) and take the best line; when none is better than even, draw."""
        rules = view.rules
        live = [s for s in range(rules.players) if s not in view.out]
        if len(live) != 2 or view.pile or rules.jokers or rules.rank_rule not in CYCLIC:
            return None
        other = live[0] if live[1] == self.seat else live[1]
        unseen = [0] * 15
        for _ in range(rules.packs):
            for r in range(2, 15):
                unseen[r] += 4
        mine = [0] * 15
        for c in (*view.hand, *view.selection):
            mine[rank_of(c)] += 1
            unseen[rank_of(c)] -= 1
        if sum(unseen) != view.hand_sizes[other]:
            return None  # (overplay: the counted sizes are not the true ones)
        step = -1 if rules.rank_rule in DOWNWARD else 1
        hands = (tuple(mine[2:]), tuple(unseen[2:]))  # by rank index 0..12 (2 … A)
        scored = [(duel_value(hands, 0, r - 2, step, limit, DUEL_DEPTH), n, -r) for n, r in options]
        best = max(scored)
        if best[0] > 0:
            return -best[2]
        # no line ahead is better than even: a fixed choice can repeat a cycle of positions
        # for ever, so draw one (from the seed and the play number: same view, same choice)
        return self._draw(view, "duel").choice(options)[1]

    def _next_seat(self, view: CheatView) -> int:
        n = view.rules.players
        for step in range(1, n):
            s = (self.seat + step) % n
            if s not in view.out:
                return s
        return self.seat

    def _expendability(self, view: CheatView, full: list[int], card: int) -> tuple[int, int, int]:
        """Larger = better to lie with: the rank its own turns reach last (beyond the number of
        cards held all are alike: it will have to lie before then anyway), then a rank held
        few of, then the lowest card."""
        r = rank_of(card)
        held = sum(1 for c in full if c != JOKER and rank_of(c) == r)
        return (min(_turn_distance(view, r), len(full)), -held, -card)

    # --- challenging ---------------------------------------------------------------------

    @staticmethod
    def record(view: CheatView, seat: int) -> _Stats:
        """The exposed plays of ``seat``: how many, how many lies, the sizes of its lies."""
        stats = _Stats()
        for rec in view.challenges:
            if rec.player != seat:
                continue
            stats.exposed += 1
            if not rec.truthful:
                stats.lies += 1
                stats.lie_sizes[min(rec.count, 4) - 1] += 1
        return stats

    @staticmethod
    def claim_choices(view: CheatView) -> int:
        """How many ranks the claimant of the last play could choose from."""
        rules = view.rules
        if len(view.pile) >= 2:
            return len(successors(rules.rank_rule, view.pile[-2].rank))
        if not view.challenges:  # the opening play
            return len(opening_ranks(rules.rank_rule))
        if rules.after_challenge == "restart":
            return len(ALL_RANKS)
        return len(successors(rules.rank_rule, view.challenges[-1].rank))

    def placed(self, view: CheatView, seat: int) -> tuple[list[int], list[int], list[int]]:
        """The cards the bot can place with respect to ``seat``'s hand (before the play being
        judged, if any): its own (hand, picks, plays in the pile), exposed cards certainly
        elsewhere, and exposed cards certainly in that hand (taken, not played since)."""
        mine = [*view.hand, *view.selection]
        for p in view.pile:
            if p.seat == self.seat:
                mine.extend(p.cards)
        blind = (1 << seat) | (1 << self.seat)
        elsewhere: list[int] = []
        held: list[int] = []
        for card, holders, in_pile in exposed_whereabouts(view, self._cache):
            if not holders & blind:
                elsewhere.append(card)
            elif holders == 1 << seat and not in_pile:
                held.append(card)
        return mine, elsewhere, held

    def p_holds(self, view: CheatView, seat: int, ranks: Sequence[int]) -> float:
        """P(``seat``'s hand now holds a card of one of ``ranks`` (or a joker))."""
        rules = view.rules
        mine, elsewhere, held = self.placed(view, seat)

        def good(card: int) -> bool:
            return card == JOKER or rank_of(card) in ranks

        if any(good(x) for x in held):
            return 1.0
        size = view.hand_sizes[seat] - len(held)
        total = 52 * rules.packs + rules.jokers
        population = total - len(mine) - len(elsewhere) - len(held)
        successes = (
            4 * rules.packs * len(set(ranks))
            + rules.jokers
            - sum(1 for x in (*mine, *elsewhere) if good(x))
        )
        return p_at_least(population, successes, max(0, min(size, population)), 1)

    def lie_probability(self, view: CheatView) -> float:
        """P(the last claim is a lie), from the bot's view (1.0: certain, 0.0: certainly true)."""
        last = view.pile[-1]
        claimant, r, c = last.seat, last.rank, last.count
        rules = view.rules
        total = 52 * rules.packs + rules.jokers

        def counts_as(card: int) -> bool:
            return card == JOKER or rank_of(card) == r

        mine, elsewhere, held = self.placed(view, claimant)
        before = view.hand_sizes[claimant] + c
        held_good = sum(1 for x in held if counts_as(x))
        held = held[:before]  # (overplay: counted sizes can be short)
        population = total - len(mine) - len(elsewhere) - len(held)
        good = (
            4 * rules.packs
            + rules.jokers
            - sum(1 for x in (*mine, *elsewhere) if counts_as(x))
            - held_good
        )
        if c > good + held_good:
            return 1.0  # impossible claim
        draws = max(0, min(before - len(held), population))
        # X = held_good + Y, Y hypergeometric: the rest of its hand from the unplaced cards
        pmf = [0.0] * (before + 1)
        for y in range(draws + 1):
            x = held_good + y
            if x <= before:
                pmf[x] = p_exactly(population, good, draws, y)
        limit = rules.max_cards
        at_limit = (limit is not None and c >= limit) or c >= before
        p_true_size = sum(pmf[c:]) if at_limit else pmf[c] if c <= before else 0.0
        p_none = pmf[0]
        p_mixed = sum(pmf[1:before])  # 0 < X < hand: it could lie and keep some
        if p_none + p_mixed <= 1e-12:
            return 0.0  # every card it can hold counts as the rank: the claim is true
        stats = self.record(view, claimant)
        v = voluntary_rate(stats.lies, stats.exposed - stats.lies)
        q_weights = [
            LIE_SIZE_PRIOR * w + n for w, n in zip(LIE_SIZES, stats.lie_sizes, strict=True)
        ]
        q = q_weights[min(c, 4) - 1] / sum(q_weights)
        choices = self.claim_choices(view)
        held_ranks = max(1.0, choices * (1.0 - p_none))
        truth = (1.0 - v) * p_true_size / held_ranks
        lie = (p_none**choices + v * p_mixed) * q / choices
        return lie / (lie + truth) if lie + truth > 0 else 1.0

    def utility(self, view: CheatView, sizes: Sequence[int], gone: int | None) -> float:
        """What a position is worth to the bot: its chance in the race (see the module text),
        less ``CARD_VALUE`` a card held.  ``gone``: a seat that goes out in this outcome."""
        rules = view.rules
        me = self.seat
        out = set(view.out)
        own = -CARD_VALUE * sizes[me]
        if rules.loser_mode:
            live = [s for s in range(rules.players) if s not in out]
            if gone is not None:
                most = max(sizes[s] for s in live)
                return own + (0.0 if sizes[me] == most else 1.0)
            weight = {s: exp((sizes[s] - sizes[me]) / TAU) for s in live}
            return own + 1.0 - 1.0 / sum(weight.values())
        if gone is not None:
            out.add(gone)
        strength = exp(-sizes[me] / TAU)
        rivals = [s for s in range(rules.players) if s != me and s not in out]
        if not rules.play_on_for_places:
            if gone is not None:
                return own
            return own + strength / (strength + sum(exp(-sizes[s] / TAU) for s in rivals))
        beaten = sum(strength / (strength + exp(-sizes[s] / TAU)) for s in rivals)
        return own + beaten / max(1, rules.players - 1)

    def should_challenge(self, view: CheatView) -> bool:
        if not view.pile:
            return False
        last = view.pile[-1]
        claimant = last.seat
        if claimant == self.seat:
            return False
        p_lie = self.lie_probability(view)
        if p_lie >= 1.0:
            return True
        if p_lie <= 0.0:
            return False
        sizes = list(view.hand_sizes)
        pile = view.pile_size
        final = sizes[claimant] == 0
        if p_lie >= self._unlikely and pile <= self._unlikely_pile and not final:
            return True  # an unlikely claim is checked (a bluff does not always pass)
        passed = self.utility(view, sizes, claimant if final else None)
        caught = list(sizes)
        caught[claimant] += pile
        right = self.utility(view, caught, None)
        wrong_sizes = list(sizes)
        wrong_sizes[self.seat] += pile
        wrong = self.utility(view, wrong_sizes, claimant if final else None)
        gain = p_lie * (right - passed) + (1.0 - p_lie) * (wrong - passed)
        if gain > 0.0 and self.stalled(view):
            # an uncertain call in a stalled game: only every other time (drawn), so that
            # the same position does not come round again and again
            return self._draw(view, "call").random() < 0.5
        return gain > 0.0
