"""What Cheat's ``strong`` bot knows beyond the rules (its :class:`SearchHints`).

- **Determinizations** from the seat's belief (:mod:`parlour.games.cheat.parts.belief`), not uniform
  deals.
- **The paired search**: the policy's move against a few alternatives on shared determinizations
  (``candidates``): at a challenge window both answers, unless the claim is certainly true or
  certainly a lie; at a play the next step of a few whole plays — the truth, the truth padded with
  one of the two most expendable other cards (a bluff: "three 7s" for two 7s and a King), the
  forced lie with another card.  Other decisions (a play being finished as planned) are not
  searched.
- **Play-outs** by :class:`SearchPolicy`: the basic bot (which challenges from the counts), which
  here also bluffs at a realistic rate (``BLUFF_RATE`` of its truthful plays padded with one
  expendable card, when the claim stays possible) and finishes a play another policy began.
- **Bounded play-outs**: ``ROLLOUT_STEPS`` decisions, then ``evaluate`` scores the race to go out.
- **Early stop** (``STOP_Z``): the search ends once every alternative clearly trails the policy's
  move, so a budget of ``NNNit`` play-outs is an upper bound.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.core.cards import JOKER, rank_of
from parlour.core.registry import SearchHints
from parlour.games.cheat.actions import Challenge, Claim, Pass, Pick
from parlour.games.cheat.bot import CYCLIC, DOWNWARD, BasicCheatBot
from parlour.games.cheat.legal import successors
from parlour.games.cheat.parts.belief import determinize
from parlour.games.cheat.state import LATE, OVER, PLAY, WINDOW, CheatView, State

#: the share of truthful plays the play-out policy pads with one card of another rank
BLUFF_RATE = 0.05
#: decisions played out before the position is scored
ROLLOUT_STEPS = 24
#: plays a lie costs in the race to go out (the risk of taking the pile)
LIE_PLAYS = 2.0
#: plays before the safety cap (``max_turns``) from which a stalled game is searched again:
#: the fewest cards at the cap win
ENDGAME_PLAYS = 24
#: plays that make a clear difference (rewards are tanh(difference / scale))
SCORE_SCALE = 3.0
#: the paired search stops once every alternative trails the policy's move by this many
#: standard errors (the same moves as the full budget for about half the play-outs)
STOP_Z = 2.0

Plan = tuple[list[int], int, int]


class SearchPolicy(BasicCheatBot):
    """The basic bot as the search's play-out policy: it bluffs now and then and finishes a
    play that the search began otherwise than it would have."""

    name = "basic"

    def __init__(self, game: Any, seat: int, seed: int = 0, **params: Any) -> None:
        super().__init__(game, seat, seed, **params)
        self.bluffing = False  # on in play-outs: the search resets its play-out bots
        self.confused = 0  # decisions where the counting failed on a sampled world (``act``)

    def reset(self, seed: int) -> None:
        super().reset(seed)
        self.bluffing = True

    def plan(self, view: CheatView) -> Plan:
        cards, count, rank = super().plan(view)
        if not self.bluffing or not _honest((cards, count, rank)):
            return cards, count, rank
        draw = self._draw(view, "bluff").random()
        if draw >= BLUFF_RATE:
            return cards, count, rank
        padded = self.bluffs(view, (cards, count, rank), 1)
        return padded[0] if padded else (cards, count, rank)

    def truthful_plan(self, view: CheatView) -> Plan:
        """The basic bot's own plan (truthful when it can be)."""
        return BasicCheatBot.plan(self, view)

    def bluffs(self, view: CheatView, truth: Plan, limit: int) -> list[Plan]:
        """Up to ``limit`` bluffs on a truthful plan: the same cards and one of the most
        expendable cards of another rank, claimed as one card more — only if that many cards of
        the rank can exist, the play stays within ``max_cards`` and the hand is not emptied by
        it (going out on a bluff is a gamble the truth does not need)."""
        cards, count, rank = truth
        rules = view.rules
        full = sorted((*view.hand, *view.selection))
        others = [c for c in full if c != JOKER and rank_of(c) != rank]
        if count + 1 > 4 * rules.packs + rules.jokers or not others:
            return []
        if rules.max_cards is not None and count + 1 > rules.max_cards:
            return []
        if len(cards) + 1 >= len(full):
            return []
        spare = sorted(set(others), key=lambda c: self._expendability(view, full, c), reverse=True)
        return [(sorted((*cards, c)), count + 1, rank) for c in spare[:limit]]

    def other_lies(self, view: CheatView, lie: Plan, limit: int) -> list[Plan]:
        """One-card lies with other cards than ``lie``'s: the most expendable ones."""
        full = sorted((*view.hand, *view.selection))
        spare = sorted(set(full), key=lambda c: self._expendability(view, full, c), reverse=True)
        return [([c], 1, lie[2]) for c in spare[: limit + 1] if [c] != lie[0]][:limit]

    def act(self, view: CheatView, legal: Sequence[Any]) -> Any:
        try:
            return self._act(view, legal)
        except ValueError:
            # a sampled world whose hidden cards contradict what this seat's counting follows
            # of the cards shown at challenges (seen in play-outs of games with many challenges,
            # e.g. against ``random``): the counting fails, so the seat lets the claim stand
            # or plays its first legal step; the play-out goes on
            self.confused += 1
            return Pass() if Pass() in legal else legal[0]

    def _act(self, view: CheatView, legal: Sequence[Any]) -> Any:
        sel = view.selection
        if view.phase != PLAY or not sel:
            return super().act(view, legal)
        cards, _count, rank = self.plan(view)
        if tuple(cards[: len(sel)]) == tuple(sel):
            return super().act(view, legal)
        # a play begun otherwise (by the search): add the cards of the rank it may still pick
        # (cards are picked in order), then claim what lies there as that rank
        more = [c for c in view.hand if c >= sel[-1] and c != JOKER and rank_of(c) == rank]
        limit = view.rules.max_cards
        if more and (limit is None or len(sel) < limit) and Pick(min(more)) in legal:
            return Pick(min(more))
        claim = Claim(len(sel), rank)
        if claim in legal:
            return claim
        claims = [a for a in legal if isinstance(a, Claim)]
        return claims[0] if claims else legal[0]


def _honest(plan: Plan) -> bool:
    """All the cards of the claimed rank (jokers wild), as many as claimed."""
    cards, count, rank = plan
    return len(cards) == count and all(c == JOKER or rank_of(c) == rank for c in cards)


def _next_step(view: CheatView, plan: Plan) -> Any:
    """The action that moves the play being built towards ``plan`` (None: it cannot)."""
    cards, count, rank = plan
    sel = list(view.selection)
    if cards[: len(sel)] != sel:
        return None
    if len(sel) < len(cards):
        return Pick(cards[len(sel)])
    return Claim(count, rank)


def candidates(
    policy: SearchPolicy, view: CheatView, legal: Sequence[Any], favourite: Any, limit: int
) -> list[Any]:
    """The moves the paired search compares (the policy's own first; see the module text)."""
    out = [favourite]
    cap = view.rules.max_turns
    endgame = cap is not None and cap - view.turns <= ENDGAME_PLAYS
    if policy.stalled(view) and not endgame:
        return out  # a game going round in circles: the policy's own moves break the cycle
    if view.phase in (WINDOW, LATE):
        last = view.pile[-1] if view.pile else None
        if last is not None and last.seat != view.seat:
            p_lie = policy.lie_probability(view)
            if 0.0 < p_lie < 1.0:
                out.append(Pass() if favourite == Challenge() else Challenge())
        return out
    if view.phase != PLAY:
        return [*out, *[a for a in legal if a != favourite][: limit - 1]]
    truth = policy.truthful_plan(view)
    others = policy.bluffs(view, truth, 2) if _honest(truth) else policy.other_lies(view, truth, 2)
    plans = [truth, *others]
    for plan in plans:
        step = _next_step(view, plan)
        if step is not None and step in legal and step not in out:
            out.append(step)
    return out[:limit]


def evaluate(game: Any, state: State) -> list[float]:
    """Each seat's standing in the race to go out, in plays (higher is better): minus the plays
    until it goes out if it puts down all its cards of the rank due at each of its turns (one
    card when it has none: a lie, which also costs ``LIE_PLAYS``).  Rank rules that do not fix
    the next rank count one turn per rank held."""
    rules = state.rules
    n = rules.players
    live = [s for s in range(n) if s not in state.out]
    if state.phase == OVER or not live:
        return [-float(sum(h)) for h in state.hands]
    if state.phase == PLAY:
        first, rank = state.turn_seat, state.allowed[0]
    else:
        first = _left_of(state.turn_seat, live, n)
        rank = successors(rules.rank_rule, state.pile[-1].rank)[0]
    cyclic = rules.rank_rule in CYCLIC
    step = -1 if rules.rank_rule in DOWNWARD else 1
    order = sorted(live, key=lambda s: (s - first) % n)
    scores = [0.0] * n
    limit = rules.max_cards or 999
    for k, s in enumerate(order):
        held = [0] * 16  # by rank, jokers at 15
        for kind, c in enumerate(state.hands[s]):
            if c:
                held[15 if kind == JOKER else rank_of(kind)] += c
        if s == state.turn_seat and state.phase == PLAY:
            for c in state.selection:
                held[15 if c == JOKER else rank_of(c)] += 1
        if cyclic:
            turns, lies = _race(held, rank, step * len(live), k * step, limit)
        else:
            turns, lies = max(1, sum(1 for r in range(2, 16) if held[r])), 0
        scores[s] = -(k + (turns - 1) * len(live) + LIE_PLAYS * lies)
    cap = rules.max_turns
    if cap is not None and state.turns - max(scores) >= cap:
        # nobody goes out before the safety cap: the fewest cards at the cap win
        return [-float(sum(state.hands[s])) for s in range(n)]
    return scores


def _left_of(seat: int, live: list[int], n: int) -> int:
    for i in range(1, n + 1):
        if (seat + i) % n in live:
            return (seat + i) % n
    return seat


def _race(held: list[int], rank: int, stride: int, offset: int, limit: int) -> tuple[int, int]:
    """(own turns to empty the hand, lies on the way) for a seat asked for ``rank + offset``,
    then every ``stride`` ranks; ``held`` counts by rank (jokers, wild, at index 15)."""
    left = list(held[:15])
    jokers = held[15]
    turns = lies = 0
    r = (rank - 2 + offset) % 13
    while sum(left) + jokers > 0 and turns < 60:
        turns += 1
        rr = r + 2
        n = min(left[rr], limit)
        if n:
            left[rr] -= n
        elif sum(left) == 0:
            break  # only jokers left: one last play
        elif jokers:
            jokers -= 1
        else:
            lies += 1
            far = max((x for x in range(2, 15) if left[x]), key=lambda x: (x - rr) % 13)
            left[far] -= 1
        r = (r + stride) % 13
    return max(turns, 1), lies


HINTS = SearchHints(
    score_scale=SCORE_SCALE,
    rollout_steps=ROLLOUT_STEPS,
    search="paired",
    paired_rollout_steps=ROLLOUT_STEPS,
    search_candidates=candidates,
    search_candidates_limit=4,
    evaluate_state=evaluate,
    rollout_bot=SearchPolicy,
    determinize=determinize,
    paired_stop_z=STOP_Z,
)
