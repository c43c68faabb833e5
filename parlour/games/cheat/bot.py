"""The ``basic`` Cheat bot: rules of thumb a club player uses, from its own view only.

- Tells the truth when it can (all its cards of the best allowed rank, up to the limit; jokers
  only when they finish the hand or nothing else is true).
- When it must lie, it puts down one card — the least useful one (a rank it holds few of, far
  from its next turn in the sequence), claiming one card of the required rank.
- Challenges for certain when the claim is impossible given its own cards (in its hand and in
  its own plays in the pile); otherwise estimates P(lie | claim) from the chance the player held
  exactly that many cards of the rank (hypergeometric over the cards it cannot see), the
  player's record of honesty in exposed plays, and how many cards liars put down; challenges
  when a lie is likely — with a much lower bar when the play would empty the player's hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import Any

from parlour.core.bot import Bot
from parlour.core.cards import JOKER, rank_of
from parlour.games.cheat.actions import Challenge, ChooseFirst, Claim, Pass, Pick
from parlour.games.cheat.state import CHOOSE_FIRST, LATE, WINDOW, CheatView

#: how often a liar puts down 1, 2, 3, 4+ cards (the bot's model of a lie's size)
LIE_SIZES = {1: 0.7, 2: 0.2, 3: 0.07}


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


class BasicCheatBot(Bot):
    name = "basic"

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
        best: tuple[int, int] | None = None
        for r in view.allowed_ranks:
            naturals = [c for c in full if c != JOKER and rank_of(c) == r]
            if must >= 0 and must not in naturals:
                continue
            if naturals and (best is None or len(naturals) > best[0]):
                best = (len(naturals), r)
        if best is not None:
            r = best[1]
            cards = [c for c in full if c != JOKER and rank_of(c) == r][:limit]
            if len(cards) + len(jokers) == len(full) and len(full) <= limit:
                cards = full  # the whole hand, truthfully: go out
            return cards, len(cards), r
        if must >= 0:  # the opening 2♣ cannot be claimed truthfully: a lie with it alone
            return [must], 1, view.allowed_ranks[0]
        if jokers:
            return [JOKER], 1, view.allowed_ranks[0]
        # a lie: the least useful single card, claimed as one of the required rank
        card = min(full, key=lambda c: self._usefulness(view, full, c))
        return [card], 1, view.allowed_ranks[0]

    def _usefulness(self, view: CheatView, full: list[int], card: int) -> tuple[int, int, int]:
        r = rank_of(card)
        held = sum(1 for c in full if c != JOKER and rank_of(c) == r)
        rule = view.rules.rank_rule
        current = view.allowed_ranks[0]
        if rule in ("ascending", "bullshit"):
            distance = (r - current) % 13
        elif rule == "descending":
            distance = (current - r) % 13
        else:
            distance = min((r - current) % 13, (current - r) % 13)
        # fewer held first, then the rank needed last (largest distance), then lowest card
        return (held, -distance, card)

    # --- challenging ---------------------------------------------------------------------

    @staticmethod
    def honesty(view: CheatView, seat: int) -> float:
        """How often ``seat`` told the truth when it could, estimated from its exposed plays
        (a Beta(3, 1) prior: players are assumed mostly honest until caught)."""
        shown = [r for r in view.challenges if r.player == seat]
        truthful = sum(1 for r in shown if r.truthful)
        return (truthful + 3) / (len(shown) + 4)

    def lie_probability(
        self, view: CheatView, seat: int, unseen: int, possible: int, before: int, count: int
    ) -> float:
        """P(lie | the claim): a truthful player puts down all its cards of the rank (up to
        the limit), a liar a few cards; X = its cards of the rank (hypergeometric)."""
        limit = view.rules.max_cards
        h = self.honesty(view, seat)
        p_exact = p_at_least(unseen, possible, before, count)
        if limit is None or count < limit:
            p_exact -= p_at_least(unseen, possible, before, count + 1)
        p_any = p_at_least(unseen, possible, before, 1)
        truth = h * p_exact
        lie = (1.0 - h * p_any) * LIE_SIZES.get(count, 0.03)
        return lie / (lie + truth) if lie + truth > 0 else 1.0

    def should_challenge(self, view: CheatView) -> bool:
        if not view.pile:
            return False
        last = view.pile[-1]
        claimant = last.seat
        if claimant == self.seat:
            return False
        rules = view.rules
        r, c = last.rank, last.count
        mine = list(view.hand)
        for p in view.pile:
            if p.seat == self.seat:
                mine.extend(p.cards)
        my_r = sum(1 for x in mine if x == JOKER or rank_of(x) == r)
        possible = 4 * rules.packs + rules.jokers - my_r
        if c > possible:
            return True  # impossible claim: certain lie
        total = 52 * rules.packs + rules.jokers
        unseen = total - len(mine)
        before = view.hand_sizes[claimant] + c
        p_lie = self.lie_probability(view, claimant, unseen, possible, before, c)
        final = view.hand_sizes[claimant] == 0
        if final:
            threshold = 0.05
        elif view.hand_sizes[claimant] <= 2:
            threshold = 0.4
        else:
            pile = view.pile_size
            threshold = 0.55 if pile <= 3 else 0.65 if pile <= 8 else 0.75
        return p_lie > threshold
