"""The Scat / 31 / Blitz engine (seed ``001_e8630c614840283e.txt``; RULES.md §4).

A match is a series of hands; a hand that ends deals the next one inside the same ``apply``, so
every state is either a decision or the end of the match.
"""

from __future__ import annotations

import random
from typing import Any

from parlour.core.cards import Card
from parlour.core.game import Event, Game, HandResult, Outcome, Seat
from parlour.core.outcome import Termination, TieRule, decide
from parlour.core.rng import derive_seed
from parlour.core.text import Names
from parlour.games.scat import apply, legal, text
from parlour.games.scat.actions import (
    ACTION_TYPES,
    Action,
)
from parlour.games.scat.rules import ScatRules
from parlour.games.scat.state import (
    OVER,
    ScatState,
    hand_number_of,
    to_act_of,
)
from parlour.games.scat.view import ScatView, counted_value, determinize, observe
from parlour.i18n import Messages


class ScatGame(Game[ScatState, Action, ScatView, ScatRules]):
    """Scat / 31 / Blitz with lives (or points) and the seed's variants."""

    name = "scat"
    title = "Scat / 31 / Blitz"
    version = 1
    rules_type = ScatRules
    action_types = ACTION_TYPES

    # --- setting up -----------------------------------------------------------------------

    def new_game(self, rules: ScatRules, seed: int) -> ScatState:
        return apply.new_match(rules, seed)

    # --- values -----------------------------------------------------------------------------

    def counted_value(self, state: ScatState, seat: int) -> float:
        """The value a hand counts for: an undeclared 31 "effectively counts as 30"."""
        return counted_value(state, seat)

    # --- the protocol -----------------------------------------------------------------------

    # the calls of every decision of a play loop are the compiled functions themselves: a
    # forwarding method here would run an interpreted frame per call (this class subclasses the
    # interpreted ``Game`` and is not compiled; docs/speed.md)
    legal_actions = staticmethod(legal.legal_actions)
    apply_quiet = staticmethod(apply.apply_quiet)
    to_act = staticmethod(to_act_of)
    hand_number = staticmethod(hand_number_of)

    def explain(self, state: ScatState, action: Action) -> str | None:
        return legal.explain(state, action)

    def apply_unchecked(self, state: ScatState, action: Action) -> tuple[ScatState, list[Event]]:
        events: list[Event] = []
        return apply.apply(state, action, events), events

    # --- applying ---------------------------------------------------------------------------

    # --- ending a hand ------------------------------------------------------------------------

    # --- views --------------------------------------------------------------------------------

    def observe(self, state: ScatState, seat: Seat | None) -> ScatView:
        return observe(state, seat)

    def determinize(self, view: ScatView, rng: random.Random) -> ScatState:
        return determinize(view, rng)

    # --- results ------------------------------------------------------------------------------

    def outcome(self, state: ScatState) -> Outcome:
        n = state.players
        rules = state.rules
        scores = tuple(
            float(state.lives[s]) if rules.plays_for_points or not state.out[s] else -1.0
            for s in range(n)
        )
        ranking = tuple(
            sorted(
                range(n),
                key=lambda s: (not state.out[s], scores[s], state.out_order[s]),
                reverse=True,
            )
        )
        # most lives (points) wins; players tied for the most share the win, all tied is a draw
        capped = state.termination == "max_hands"
        return decide(
            tuple((s,) for s in range(n)),
            scores,
            finished=state.phase == OVER,
            termination=state.termination,
            kind=Termination.CAPPED if capped else Termination.FINISHED,
            tie_rule=TieRule.SHARE,
            hands=state.history,
            ranking=ranking,
        )

    def hand_results(
        self, state: ScatState
    ) -> tuple[tuple[tuple[Seat, ...], ...], tuple[HandResult, ...]]:
        """:meth:`outcome`'s sides and hands without the rest of it (every seat alone)."""
        return tuple((s,) for s in range(state.players)), state.history

    def all_cards(self, state: ScatState) -> list[Card]:
        cards = [c for h in state.hands for c in h]
        cards.extend(state.stock)
        cards.extend(state.pile)
        return cards

    def hand_seed(self, state: ScatState) -> int:
        return derive_seed(state.seed, "deal", state.hand_no)

    def describe(self, event: Event, viewer: Seat | None, names: Names) -> str:
        return text.describe(event, viewer, names)

    def action_words(self, state: ScatState, action: Action) -> str:
        return text.action_words(action)

    def words_key(self, state: ScatState, action: Action) -> object:
        return action

    def tell_view(self, state: ScatState, data: dict[str, Any], t: Messages) -> dict[str, Any]:
        return text.tell_view(state, data, t)

    def redeal(self, state: ScatState, seed: int) -> ScatState:
        return apply.deal(state, seed)
