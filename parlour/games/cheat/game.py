"""The Cheat engine: the Game protocol over :mod:`legal`, :mod:`apply`, :mod:`view` and
:mod:`scoring` (RULES.md §3; ``docs/games/cheat.md`` lists every decision made where the rules are
silent)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from parlour.core.game import Event, Game, HandResult, Outcome, Seat
from parlour.core.outcome import Termination, TieRule, decide
from parlour.core.rng import derive_seed
from parlour.core.text import Names
from parlour.games.cheat import apply, legal, text
from parlour.games.cheat.actions import ACTION_TYPES, Action
from parlour.games.cheat.rules import CheatRules
from parlour.games.cheat.scoring import cards_held, finish_order
from parlour.games.cheat.state import OVER, CheatView, State, hand_number_of, to_act_of
from parlour.games.cheat.view import determinize_view, observe_state, view_json


class CheatGame(Game[State, Action, CheatView, CheatRules]):
    name = "cheat"
    title = "Cheat / I Doubt It / Bullshit"
    #: 2 (issue 16): one pack for any number of players by default (was two from 6 players up)
    version = 2
    rules_type = CheatRules
    action_types: ClassVar[dict[str, type]] = ACTION_TYPES

    # --- deal ------------------------------------------------------------------------------

    def new_game(self, rules: CheatRules, seed: int) -> State:
        return apply.deal(rules, seed, derive_seed(seed, "deal", 0))

    def hand_seed(self, state: State) -> int:
        return derive_seed(state.seed, "deal", 0)

    def redeal(self, state: State, seed: int) -> State:
        return apply.deal(state.rules, state.seed, seed)

    # --- whose turn, what is legal, what happens -------------------------------------------

    # the calls of every decision of a play loop are the compiled functions themselves: a
    # forwarding method here would run an interpreted frame per call (this class subclasses the
    # interpreted ``Game`` and is not compiled; docs/speed.md)
    hand_number = staticmethod(hand_number_of)
    to_act = staticmethod(to_act_of)
    legal_actions = staticmethod(legal.legal_actions)
    apply_quiet = staticmethod(apply.apply_quiet)

    def explain(self, state: State, action: Action) -> str | None:
        return legal.explain(state, action)

    def apply_unchecked(self, state: State, action: Action) -> tuple[State, list[Event]]:
        events: list[Event] = []
        return apply.apply(state, action, events), events

    # --- views -----------------------------------------------------------------------------

    def observe(self, state: State, seat: Seat | None) -> CheatView:
        return observe_state(state, seat)

    def determinize(self, view: CheatView, rng: random.Random) -> State:
        return determinize_view(view, rng)

    def view_to_json(self, view: CheatView) -> dict[str, Any]:
        return view_json(view)

    # --- the end ---------------------------------------------------------------------------

    def outcome(self, state: State) -> Outcome:
        n = state.rules.players
        sides = tuple((s,) for s in range(n))
        finished = state.phase == OVER
        held = cards_held(state, finished)
        scores = tuple(float(-held[s]) for s in range(n))
        ranking = finish_order(state, held)
        # the first player out wins (loser mode: everyone but those holding the most); at the
        # safety cap, with nobody out, the fewest cards win (a tie for the fewest is a draw)
        if state.rules.loser_mode:
            tie_rule = TieRule.ALL_BUT_LOWEST
        else:
            tie_rule = TieRule.FIRST_PLACE if state.out else TieRule.DRAW
        capped = state.termination == "max_turns"
        hands = (HandResult(0, scores, note=state.termination),) if finished else ()
        return decide(
            sides,
            scores,
            finished=finished,
            termination=state.termination,
            kind=Termination.CAPPED if capped else Termination.FINISHED,
            tie_rule=tie_rule,
            hands=hands,
            ranking=ranking,
            places=state.out,
        )

    def all_cards(self, state: State) -> list[int]:
        out: list[int] = []
        for h in state.hands:
            for kind, k in enumerate(h):
                if k:
                    out.extend([kind] * k)
        out.extend(state.selection)
        for p in state.pile:
            out.extend(p.cards)
        return out

    def describe(self, event: Event, viewer: Seat | None, names: Names) -> str:
        return text.describe(event, viewer, names)

    def action_text(self, state: State, action: Action) -> str:
        return str(action)

    def action_words(self, state: State, action: Action) -> str:
        return text.action_words(action)

    def words_key(self, state: State, action: Action) -> object:
        return action
