"""The Samba Hand and Foot engine (seed ``004_bae80ddcdedd4514.txt``): the Game protocol."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from parlour.core.cards import Card, card_str, cards_str, expand
from parlour.core.game import Event, Game, Outcome, Seat
from parlour.core.outcome import Termination, TieRule, decide
from parlour.core.rng import derive_seed
from parlour.core.text import Names
from parlour.games.handfoot import apply, legal, text
from parlour.games.handfoot.actions import (
    ACTION_TYPES,
    Action,
    Discard,
    TakePile,
)
from parlour.games.handfoot.parts.melds import card_value
from parlour.games.handfoot.rules import HandFootRules
from parlour.games.handfoot.state import (
    PHASE_OVER,
    State,
    deal_round,
)
from parlour.games.handfoot.text import SEAT_NAMES
from parlour.games.handfoot.view import HandFootView, determinize_view, observe_state, view_json
from parlour.i18n import Messages


class HandFootGame(Game[State, Action, HandFootView, HandFootRules]):
    """Samba Hand and Foot: 4 players in partnerships, 7 decks, hand and foot, four rounds."""

    name = "handfoot"
    title = "Samba Hand and Foot"
    version = 1
    rules_type = HandFootRules
    action_types = ACTION_TYPES

    seat_names: ClassVar[tuple[str, ...]] = SEAT_NAMES

    # --- setup ---------------------------------------------------------------------------------

    def new_game(self, rules: HandFootRules, seed: int) -> State:
        state = State(rules=rules, seed=seed)
        n = rules.players
        state.scores = [0] * (n if rules.rotate_partners else 2)
        deal_round(state, 0, derive_seed(seed, "deal", 0))
        return state

    def hand_number(self, state: State) -> int:
        return state.round

    def hand_seed(self, state: State) -> int:
        return state.hand_seed

    def redeal(self, state: State, seed: int) -> State:
        new = state.clone()
        if state.round > 0 and not state.rules.cut_each_round:
            # the first player passed left from the previous round's first player
            new.first = (state.first - 1) % state.rules.players
        deal_round(new, state.round, seed)
        return new

    # --- protocol ------------------------------------------------------------------------------

    def to_act(self, state: State) -> Seat | None:
        return None if state.phase == PHASE_OVER else state.to_act

    def legal_actions(self, state: State) -> Sequence[Action]:
        return legal.legal_actions(state)

    def explain(self, state: State, action: Action) -> str | None:
        return legal.explain(state, action)

    def num_seats(self, state: State) -> int:
        return state.rules.players

    def all_cards(self, state: State) -> list[Card]:
        out: list[Card] = []
        for h in state.hands:
            out.extend(expand(h))
        for f in state.feet:
            out.extend(f)
        out.extend(state.stock)
        out.extend(state.pile)
        out.extend(state.pending)
        for side in state.melds:
            for m in side:
                out.extend(m.cards)
        for r in state.red_threes:
            out.extend(r)
        return out

    def observe(self, state: State, seat: Seat | None) -> HandFootView:
        return observe_state(state, seat)

    def determinize(self, view: HandFootView, rng: random.Random) -> State:
        return determinize_view(view, rng)

    def view_to_json(self, view: HandFootView) -> dict[str, Any]:
        return view_json(view)

    # --- applying actions --------------------------------------------------------------------

    def apply_unchecked(self, state: State, action: Action) -> tuple[State, list[Event]]:
        return apply.apply(state, action)

    def apply_quiet(self, state: State, action: Action) -> State:
        return apply.apply_quiet(state, action)

    def round_breakdown(self, state: State) -> list[dict[str, int]]:
        """Each partnership's score of the round so far, item by item."""
        return apply.round_breakdown(state)

    # --- end of a round ------------------------------------------------------------------------

    # --- outcome -------------------------------------------------------------------------------

    def sides(self, rules: HandFootRules) -> tuple[tuple[int, ...], ...]:
        if rules.rotate_partners:
            return tuple((seat,) for seat in range(rules.players))
        return ((0, 2), (1, 3))

    def outcome(self, state: State) -> Outcome:
        # the higher total wins; sides tied for the top share the win, all tied is a draw
        if state.termination == "max_hands":
            kind = Termination.CAPPED
        elif state.went_out < 0:  # the last round ended on an empty stock
            kind = Termination.STOCK_OUT
        else:
            kind = Termination.FINISHED
        return decide(
            self.sides(state.rules),
            state.scores,
            finished=state.phase == PHASE_OVER,
            termination=state.termination,
            kind=kind,
            tie_rule=TieRule.SHARE,
            hands=state.results,
        )

    def action_text(self, state: State, action: Action) -> str:
        if isinstance(action, TakePile) and state.pile:
            return f"take the pile ({card_str(state.pile[-1])} with {cards_str(action.cards)})"
        if isinstance(action, Discard):
            return f"discard {card_str(action.card)} ({card_value(action.card)})"
        return str(action)

    def action_words(self, state: State, action: Action) -> str:
        top = state.pile[-1] if isinstance(action, TakePile) and state.pile else None
        return text.action_words(action, top)

    def words_key(self, state: State, action: Action) -> object:
        return action, state.pile[-1] if isinstance(action, TakePile) and state.pile else None

    def tell_view(self, state: State, data: dict[str, Any], t: Messages) -> dict[str, Any]:
        return text.tell_view(state, data, t)

    def describe(self, event: Event, viewer: Seat | None, names: Names) -> str:
        return text.describe(event, viewer, names)

    def sides_of(self, state: State) -> tuple[tuple[Seat, ...], ...]:
        """This round's partnerships (they change each round with ``rotate_partners``)."""
        if not state.side_of:
            return tuple((s,) for s in range(state.rules.players))
        return tuple(
            tuple(s for s in range(len(state.side_of)) if state.side_of[s] == side)
            for side in sorted(set(state.side_of))
        )
