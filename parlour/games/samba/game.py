"""The Samba engine: the Game protocol over :mod:`state`, :mod:`apply` and :mod:`view`."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from parlour.core.cards import Card
from parlour.core.game import Event, Game, HandResult, Outcome, Seat
from parlour.core.outcome import Termination, TieRule, decide
from parlour.core.rng import derive_seed
from parlour.core.text import Names
from parlour.games.samba import actions as A
from parlour.games.samba import apply, legal, text
from parlour.games.samba.parts.melds import (
    expand_counts,
)
from parlour.games.samba.rules import SambaRules
from parlour.games.samba.scoring import hand_result
from parlour.games.samba.state import State, deal, new_match, to_act_of
from parlour.games.samba.view import SambaView, determinize, observe, view_json

SambaAction = A.SambaAction


class SambaGame(Game[State, SambaAction, SambaView, SambaRules]):
    """Samba (seeds 002, 000, 003) and its variants, Bolivia among them."""

    name: ClassVar[str] = "samba"
    title: ClassVar[str] = "Samba"
    #: 2: take-backs limited to three a turn.  3 (issue 16): six red 3s without the requirement
    #: −600 by default, red 3s before drawing, exact legal actions (pile and first meld only when
    #: the minimum can be met, the question whenever going out is possible), take-backs not
    #: repeated from a position instead of limited.  4: black 3s melded on going out take wild
    #: cards under the normal group rules by default (``black_three_wilds``)
    version: ClassVar[int] = 4
    rules_type: ClassVar[type[SambaRules]] = SambaRules
    action_types: ClassVar[dict[str, type]] = A.ACTION_TYPES

    def new_game(self, rules: SambaRules, seed: int) -> State:
        return new_match(rules, seed)

    # the three calls of every decision of a play loop are the compiled functions themselves:
    # a forwarding method here would run an interpreted frame per call (this class subclasses
    # the interpreted ``Game`` and is not compiled; docs/speed.md).  mypy does not see that a
    # staticmethod with the method's parameters after ``self`` overrides it, hence the ignores
    to_act = staticmethod(to_act_of)  # type: ignore[assignment]
    legal_actions = staticmethod(legal.cached_legal_actions)  # type: ignore[assignment]

    def apply_unchecked(self, state: State, action: SambaAction) -> tuple[State, list[Event]]:
        events: list[Event] = []
        return apply.apply(state, action, events), events

    apply_quiet = staticmethod(apply.apply_quiet)  # type: ignore[assignment]

    def explain(self, state: State, action: SambaAction) -> str | None:
        if state.finished:
            return "the match is over"
        return legal.explain(state, self.legal_actions(state), action)

    def observe(self, state: State, seat: int | None) -> SambaView:
        return observe(state, seat)

    def view_to_json(self, view: SambaView) -> dict[str, Any]:
        return view_json(view)

    def determinize(self, view: SambaView, rng: random.Random) -> State:
        return determinize(view, rng)

    def outcome(self, state: State) -> Outcome:
        # RULES.md §1 "Game": the higher score wins; equal = draw
        capped = state.termination == "max_hands"
        return decide(
            state.sides,
            state.scores,
            finished=state.finished,
            termination=state.termination,
            kind=Termination.CAPPED if capped else Termination.FINISHED,
            tie_rule=TieRule.DRAW,
            hands=state.history,
        )

    def all_cards(self, state: State) -> list[Card]:
        out: list[Card] = list(state.stock[: state.stock_len])
        for h in state.hands:
            out.extend(expand_counts(h))
        out.extend(state.pile)
        out.extend(state.pending)
        for melds in state.melds:
            for m in melds:
                out.extend(m.cards)
        for r in state.red3:
            out.extend(r)
        return out

    def num_seats(self, state: State) -> int:
        return state.players

    def hand_number(self, state: State) -> int:
        return state.hand_no

    def hand_seed(self, state: State) -> int:
        return derive_seed(state.seed, "deal", state.hand_no)

    def redeal(self, state: State, seed: int) -> State:
        s = state.clone()
        deal(s, seed)
        return s

    def action_text(self, state: State, action: SambaAction) -> str:
        return f"seat {state.to_act}: {action}"

    def action_words(self, state: State, action: SambaAction) -> str:
        return text.action_words(action)

    def words_key(self, state: State, action: SambaAction) -> object:
        return action

    def describe(self, event: Event, viewer: Seat | None, names: Names) -> str:
        return text.describe(event, viewer, names)

    def sides_of(self, state: State) -> tuple[tuple[Seat, ...], ...]:
        return tuple(state.sides)

    def hand_breakdown(self, state: State) -> HandResult:
        """Every side's score for the hand as it stands — as if it ended now with nobody going
        out (:func:`parlour.games.samba.scoring.hand_result`: cards melded and in hand, bonuses,
        red 3s).  A finished hand's result is ``state.history[-1]`` (the view's
        ``score_sheet``)."""
        return hand_result(
            state.hand_no,
            state.rules,
            state.sides,
            state.melds,
            state.red3,
            state.hands,
            None,
            "the hand as it stands",
        )
