"""The Scat / 31 / Blitz engine (seed ``001_e8630c614840283e.txt``; RULES.md §4).

A match is a series of hands; a hand that ends deals the next one inside the same ``apply``, so
every state is either a decision or the end of the match.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from parlour.core.cards import Card, card_str, cards_str, shuffled_shoe
from parlour.core.errors import RulesError
from parlour.core.game import Event, Game, HandResult, Outcome, Seat
from parlour.core.outcome import Termination, TieRule, decide
from parlour.core.rng import derive_seed
from parlour.games.scat.observe import counted_value, determinize, observe
from parlour.games.scat.rules import ScatRules
from parlour.games.scat.scoring import declared_changes, showdown_changes
from parlour.games.scat.state import (
    ACTION_TYPES,
    DEALT31,
    DISCARD,
    DRAW,
    OVER,
    THROW_DOWN,
    Action,
    Declare31,
    Discard,
    DrawStock,
    EndHand,
    Hammer,
    Knock,
    LastHand,
    ScatState,
    ScatView,
    SeatCards,
    TakeDiscard,
    ThrowDown,
)
from parlour.games.scat.values import hand_value, is_declarable, is_one_suit, rank_key


def _remove(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def _add(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    return tuple(sorted((*hand, card)))


def _evolve(state: ScatState, **changes: Any) -> ScatState:
    """A changed copy (states handed out are never changed)."""
    new = state.copy()
    for name, value in changes.items():
        setattr(new, name, value)
    return new


def _set(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*items[:i], value, *items[i + 1 :])


class ScatGame(Game[ScatState, Action, ScatView, ScatRules]):
    """Scat / 31 / Blitz with lives (or points) and the seed's variants."""

    name = "scat"
    title = "Scat / 31 / Blitz"
    version = 1
    rules_type = ScatRules
    action_types = ACTION_TYPES

    # --- setting up -----------------------------------------------------------------------

    def new_game(self, rules: ScatRules, seed: int) -> ScatState:
        if not isinstance(rules, ScatRules):
            raise RulesError(f"scat needs ScatRules, not {type(rules).__name__}")
        n = rules.players
        start = 0 if rules.plays_for_points else rules.starting_lives
        empty: tuple[tuple[int, ...], ...] = ((),) * n
        base = ScatState(
            rules=rules,
            seed=seed,
            players=n,
            hand_no=0,
            # "Determine the first dealer in any manner you desire": drawn from the match seed
            dealer=derive_seed(seed, "first_dealer") % n,
            lives=(start,) * n,
            out=(False,) * n,
            out_order=(-1,) * n,
            phase=DRAW,
            to_act=0,
            hands=empty,
            stock=(),
            pile=(),
            taken=-1,
            knocker=-1,
            turn_no=0,
            known=empty,
            silent=empty,
            history=(),
            last=None,
            termination="",
        )
        return self._deal(base, self.hand_seed(base))

    def _active(self, state: ScatState, start: int | None = None) -> list[int]:
        """Seats still in the match, clockwise from ``start`` (default: dealer's left)."""
        n = state.players
        first = (state.dealer + 1) % n if start is None else start
        return [s for s in ((first + i) % n for i in range(n)) if not state.out[s]]

    def _next_active(self, out: tuple[bool, ...], seat: int) -> int:
        n = len(out)
        for i in range(1, n + 1):
            s = (seat + i) % n
            if not out[s]:
                return s
        return seat

    def _deal(self, state: ScatState, deck_seed: int) -> ScatState:
        """Deal three cards each, one at a time from the dealer's left, then the upcard."""
        rules = state.rules
        deck = shuffled_shoe(random.Random(deck_seed), rules.decks)
        order = self._active(state)
        hands: list[list[int]] = [[] for _ in range(state.players)]
        i = 0
        for _round in range(3):
            for s in order:
                hands[s].append(deck[i])
                i += 1
        upcard = deck[i]
        dealt = tuple(tuple(sorted(h)) for h in hands)
        holders = [s for s in order if is_declarable(dealt[s], rules)]
        if holders:
            phase, to_act = DEALT31, holders[0]
        else:
            phase, to_act = (THROW_DOWN if rules.throw_down else DRAW), order[0]
        empty: tuple[tuple[int, ...], ...] = ((),) * state.players
        return _evolve(
            state,
            hands=dealt,
            stock=tuple(deck[i + 1 :]),
            pile=(upcard,),
            taken=-1,
            knocker=-1,
            turn_no=0,
            known=empty,
            silent=empty,
            phase=phase,
            to_act=to_act,
        )

    # --- values -----------------------------------------------------------------------------

    def counted_value(self, state: ScatState, seat: int) -> float:
        """The value a hand counts for: an undeclared 31 "effectively counts as 30"."""
        return counted_value(state, seat)

    # --- the protocol -----------------------------------------------------------------------

    def to_act(self, state: ScatState) -> Seat | None:
        return None if state.phase == OVER else state.to_act

    def _may_knock(self, state: ScatState, seat: int) -> str | None:
        """Why ``seat`` may not knock now (``None``: it may)."""
        rules = state.rules
        if state.knocker >= 0:
            return (
                f"seat {state.knocker} has already knocked: each other player has just one last "
                "turn to draw and discard"
            )
        if not rules.knock_first_round and state.turn_no < len(self._active(state)):
            return "no knocking in the first round of turns (option knock_first_round is off)"
        hand = state.hands[seat]
        if rules.min_knock is not None and self.counted_value(state, seat) < rules.min_knock:
            return (
                f"a knock needs a hand worth at least {rules.min_knock} (option min_knock); "
                f"yours is worth {self.counted_value(state, seat)}"
            )
        if rules.knock_needs_one_suit and not is_one_suit(hand):
            return "a knock is only allowed with three cards of the same suit (option knock_needs_one_suit)"
        return None

    def _can_declare(self, state: ScatState, seat: int, rest: tuple[int, ...]) -> bool:
        return is_declarable(rest, state.rules) and rest != state.silent[seat]

    def legal_actions(self, state: ScatState) -> Sequence[Action]:
        phase = state.phase
        if phase == OVER:
            return []
        if phase == DEALT31:
            return [Declare31()]
        if phase == THROW_DOWN:
            return [ThrowDown(True), ThrowDown(False)]
        p = state.to_act
        if phase == DRAW:
            acts: list[Action] = []
            if state.stock:
                acts.append(DrawStock())
            if state.pile:
                acts.append(TakeDiscard())
            if self._may_knock(state, p) is None:
                acts.append(Knock())
            if state.rules.hammer and state.turn_no == 0:
                acts.append(Hammer())
            if not state.stock:
                acts.append(EndHand())
            return acts
        hand = state.hands[p]
        out: list[Action] = []
        for c in sorted(set(hand)):
            if c == state.taken:
                continue
            out.append(Discard(c))
            if self._can_declare(state, p, _remove(hand, c)):
                out.append(Discard(c, True))
        return out

    def explain(self, state: ScatState, action: Action) -> str | None:
        reason = self._explain(state, action)
        if reason is None and action not in self.legal_actions(state):
            return f"{action} is not a legal move now"
        return reason

    def _explain(self, state: ScatState, action: Action) -> str | None:
        phase = state.phase
        if phase == OVER:
            return "the match is over"
        if type(action) not in ACTION_TYPES.values():
            return f"{action!r} is not a Scat action"
        if phase == DEALT31:
            if isinstance(action, Declare31):
                return None
            return "a player was dealt 31: it is shown at once and there is no play"
        if isinstance(action, Declare31):
            return "only a 31 that was dealt is declared on its own; a 31 made in play is declared with the discard that makes it"
        if phase == THROW_DOWN:
            if isinstance(action, ThrowDown):
                return None
            return "the first player must first decide, without looking, whether to throw down"
        if isinstance(action, ThrowDown):
            return "a throw-down is only called by the first player before looking at the cards"
        p = state.to_act
        if phase == DRAW:
            if isinstance(action, Discard):
                return "draw a card (from the stock or the discard pile) or knock before discarding"
            if isinstance(action, DrawStock) and not state.stock:
                return "the stock is empty: take the discard or end the hand"
            if isinstance(action, TakeDiscard) and not state.pile:
                return "the discard pile is empty"
            if isinstance(action, Knock):
                return self._may_knock(state, p)
            if isinstance(action, Hammer):
                if not state.rules.hammer:
                    return "hammer is not played (option hammer is off)"
                if state.turn_no != 0:
                    return "only the first player, instead of the first draw of the hand, may call a hammer"
            if isinstance(action, EndHand) and state.stock:
                return "the hand ends this way only when the stock is exhausted"
            return None
        # DISCARD: four cards held
        if not isinstance(action, Discard):
            return "you hold four cards: discard one"
        if not isinstance(action.card, int) or not 0 <= action.card < 52:
            return f"{action.card!r} is not a card"
        hand = state.hands[p]
        if action.card not in hand:
            return f"you do not hold {card_str(action.card)}"
        if action.card == state.taken:
            return (
                "a card just taken from the discard pile may not be discarded in the same turn "
                "(keep it and discard one of your other cards)"
            )
        if action.declare:
            rest = _remove(hand, action.card)
            if not is_declarable(rest, state.rules):
                return f"{cards_str(rest)} is not 31: there is nothing to declare"
            if rest == state.silent[p]:
                return "a 31 that was not declared as soon as it was made cannot be claimed later"
        return None

    # --- applying ---------------------------------------------------------------------------

    def apply_unchecked(self, state: ScatState, action: Action) -> tuple[ScatState, list[Event]]:
        p = state.to_act
        ev: list[Event] = []
        if isinstance(action, Declare31):
            return self._dealt31(state, ev)
        if isinstance(action, ThrowDown):
            if action.call:
                ev.append(
                    Event("throw_down", f"seat {p} throws down: everyone shows", None, {"seat": p})
                )
                return self._showdown(state, p, "throw_down", ev)
            ev.append(Event("play_on", f"seat {p} plays on", None, {"seat": p}))
            return _evolve(state, phase=DRAW), ev
        if isinstance(action, DrawStock):
            card = state.stock[-1]
            ev.append(Event("draw", f"seat {p} draws from the stock", None, {"seat": p}))
            ev.append(
                Event(
                    "drawn",
                    f"you draw {card_str(card)}",
                    frozenset({p}),
                    {"seat": p, "card": card_str(card)},
                )
            )
            hands = _set(state.hands, p, _add(state.hands[p], card))
            new = _evolve(
                state,
                hands=hands,
                stock=state.stock[:-1],
                phase=DISCARD,
                taken=-1,
                turn_no=state.turn_no + 1,
            )
            return new, ev
        if isinstance(action, TakeDiscard):
            card = state.pile[-1]
            ev.append(
                Event(
                    "take",
                    f"seat {p} takes {card_str(card)} from the pile",
                    None,
                    {"seat": p, "card": card_str(card)},
                )
            )
            new = _evolve(
                state,
                hands=_set(state.hands, p, _add(state.hands[p], card)),
                known=_set(state.known, p, _add(state.known[p], card)),
                pile=state.pile[:-1],
                phase=DISCARD,
                taken=card,
                turn_no=state.turn_no + 1,
            )
            return new, ev
        if isinstance(action, Knock):
            ev.append(Event("knock", f"seat {p} knocks", None, {"seat": p}))
            nxt = self._next_active(state.out, p)
            return _evolve(state, knocker=p, turn_no=state.turn_no + 1, to_act=nxt), ev
        if isinstance(action, Hammer):
            ev.append(
                Event("hammer", f"seat {p} calls a hammer: everyone shows", None, {"seat": p})
            )
            return self._showdown(state, p, "hammer", ev)
        if isinstance(action, EndHand):
            ev.append(
                Event(
                    "end_hand",
                    f"seat {p} does not take the discard: the stock is exhausted",
                    None,
                    {"seat": p},
                )
            )
            return self._showdown(
                state, state.knocker if state.knocker >= 0 else None, "stock_exhausted", ev
            )
        assert isinstance(action, Discard)
        card = action.card
        rest = _remove(state.hands[p], card)
        known = state.known
        if card in known[p]:
            known = _set(known, p, _remove(known[p], card))
        ev.append(
            Event(
                "discard",
                f"seat {p} discards {card_str(card)}",
                None,
                {"seat": p, "card": card_str(card)},
            )
        )
        new = _evolve(
            state,
            hands=_set(state.hands, p, rest),
            pile=(*state.pile, card),
            known=known,
            taken=-1,
        )
        if action.declare:
            return self._declared(new, p, ev)
        silent = rest if is_declarable(rest, state.rules) else ()
        if silent != state.silent[p]:
            new.silent = _set(state.silent, p, silent)  # ``new`` is our own fresh copy
        nxt = self._next_active(state.out, p)
        if state.knocker >= 0 and nxt == state.knocker:
            return self._showdown(new, state.knocker, "knock", ev)
        new.phase = DRAW
        new.to_act = nxt
        return new, ev

    # --- ending a hand ------------------------------------------------------------------------

    def _showdown(
        self, state: ScatState, knocker: int | None, reason: str, ev: list[Event]
    ) -> tuple[ScatState, list[Event]]:
        active = self._active(state)
        values = {s: self.counted_value(state, s) for s in active}
        keys = {s: rank_key(state.hands[s], state.rules) for s in active}
        changes = showdown_changes(values, knocker, state.rules, keys, state.players)
        shown = tuple(SeatCards(s, state.hands[s]) for s in sorted(active))
        return self._end_hand(state, changes, reason, knocker, shown, values, ev)

    def _declared(
        self, state: ScatState, seat: int, ev: list[Event]
    ) -> tuple[ScatState, list[Event]]:
        knocker = state.knocker if state.knocker >= 0 else None
        changes = declared_changes({seat}, self._active(state), knocker, state.rules, state.players)
        shown = (SeatCards(seat, state.hands[seat]),)
        values = {seat: hand_value(state.hands[seat], state.rules)}
        ev.append(
            Event(
                "declare",
                f"seat {seat} declares 31: {cards_str(state.hands[seat])}",
                None,
                {"seat": seat},
            )
        )
        return self._end_hand(state, changes, "declared_31", knocker, shown, values, ev)

    def _dealt31(self, state: ScatState, ev: list[Event]) -> tuple[ScatState, list[Event]]:
        active = self._active(state)
        holders = [s for s in active if is_declarable(state.hands[s], state.rules)]
        changes = declared_changes(set(holders), active, None, state.rules, state.players)
        shown = tuple(SeatCards(s, state.hands[s]) for s in sorted(holders))
        values = {s: hand_value(state.hands[s], state.rules) for s in holders}
        ev.append(
            Event(
                "dealt_31",
                "dealt 31: " + "; ".join(str(x) for x in shown),
                None,
                {"seats": holders},
            )
        )
        return self._end_hand(state, changes, "dealt_31", None, shown, values, ev)

    def _end_hand(
        self,
        state: ScatState,
        changes: list[int],
        reason: str,
        knocker: int | None,
        shown: tuple[SeatCards, ...],
        values: dict[int, float],
        ev: list[Event],
    ) -> tuple[ScatState, list[Event]]:
        rules = state.rules
        n = state.players
        lives = list(state.lives)
        out = list(state.out)
        out_order = list(state.out_order)
        notes: list[str] = []
        if rules.plays_for_points:
            for s in range(n):
                lives[s] += changes[s]
        else:
            floor = 0 if rules.on_the_county else 1
            active = [s for s in range(n) if not out[s]]
            new = [lives[s] + changes[s] for s in range(n)]
            going = [s for s in active if new[s] < floor]
            if going and len(going) == len(active):
                # "it is possible for all the remaining players to lose their last life
                # simultaneously, in which case those players play another hand"
                for s in going:
                    new[s] = floor
                notes.append("every remaining player would be out: they play another hand")
                going = []
            for s in going:
                out[s] = True
                out_order[s] = state.hand_no
                new[s] = 0
            lives = new
        parts = []
        for s in range(n):
            if changes[s] < 0:
                parts.append(f"seat {s} loses {-changes[s]}")
            elif changes[s] > 0:
                parts.append(f"seat {s} scores {changes[s]}")
        text = f"hand {state.hand_no + 1} ({reason.replace('_', ' ')}): " + (
            ", ".join(parts) or "no change"
        )
        if notes:
            text += "; " + "; ".join(notes)
        gone = [s for s in range(n) if out[s] and not state.out[s]]
        if gone:
            text += "; out: " + ", ".join(f"seat {s}" for s in gone)
        last = LastHand(
            number=state.hand_no,
            reason=reason,
            knocker=knocker,
            shown=shown,
            values=tuple(values.get(s) for s in range(n)),
            changes=tuple(changes),
            text=text,
        )
        result = HandResult(state.hand_no, tuple(float(c) for c in changes), note=text)
        ev.append(
            Event(
                "hand_over",
                text,
                None,
                {"shown": [str(x) for x in shown], "changes": list(changes)},
            )
        )
        new_state = _evolve(
            state,
            lives=tuple(lives),
            out=tuple(out),
            out_order=tuple(out_order),
            history=(*state.history, result),
            last=last,
        )
        termination = ""
        remaining = [s for s in range(n) if not out[s]]
        if rules.plays_for_points:
            top = max(lives)
            if top >= rules.target_points and lives.count(top) == 1:
                termination = "target_points"
        elif len(remaining) <= 1:
            termination = "last_player"
        if not termination and rules.max_hands is not None and state.hand_no + 1 >= rules.max_hands:
            termination = "max_hands"
        if termination:
            ev.append(Event("match_over", f"the match is over ({termination})", None, {}))
            return _evolve(new_state, phase=OVER, to_act=-1, termination=termination), ev
        nxt = _evolve(
            new_state,
            hand_no=state.hand_no + 1,
            dealer=self._next_active(new_state.out, state.dealer),
        )
        dealt = self._deal(nxt, self.hand_seed(nxt))
        ev.append(Event("deal", f"hand {dealt.hand_no + 1}: seat {dealt.dealer} deals", None, {}))
        return dealt, ev

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

    def all_cards(self, state: ScatState) -> list[Card]:
        cards = [c for h in state.hands for c in h]
        cards.extend(state.stock)
        cards.extend(state.pile)
        return cards

    def hand_number(self, state: ScatState) -> int:
        return state.hand_no

    def hand_seed(self, state: ScatState) -> int:
        return derive_seed(state.seed, "deal", state.hand_no)

    def redeal(self, state: ScatState, seed: int) -> ScatState:
        return self._deal(state, seed)
