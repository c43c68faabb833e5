"""A tiny card game implementing the Game protocol, so the server tests never wait on a real game.

"Toy": each hand deals ``hand_size`` cards to each player from one shuffled deck; the rest is the
stock (hidden).  On a turn a player plays a card face up onto the pile or, holding fewer than
``max_hold`` cards while the stock lasts, draws (only the drawer sees the card).  The hand ends
when a player has no card left; each side scores the cards the others still hold.  The match ends
after ``max_hands`` hands.  Partners sit opposite when there are 4 players.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from parlour.core.cards import Card, card_str
from parlour.core.codec import card_field, cards_field
from parlour.core.game import Event, Game, HandResult, Outcome
from parlour.core.grammar import Form, Grammar
from parlour.core.registry import GameEntry
from parlour.core.rng import derive_seed
from parlour.core.rules import Rules, option


@dataclass(frozen=True)
class ToyRules(Rules):
    players: int = option(4, "number of players", choices=(2, 3, 4))
    hand_size: int = option(4, "cards dealt to each player", min=1, max=8)
    max_hold: int = option(6, "a player may draw while holding fewer cards", min=2, max=12)
    max_hands: int = option(2, "hands in a match", min=1, max=50)


@dataclass(frozen=True)
class Play:
    card: int = card_field()

    def __str__(self) -> str:
        return f"play {card_str(self.card)}"


@dataclass(frozen=True)
class Draw:
    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True)
class ToyState:
    rules: ToyRules
    seed: int
    hand: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    pile: tuple[Card, ...]
    turn: int
    results: tuple[HandResult, ...]
    over: bool

    @property
    def players(self) -> int:
        return self.rules.players


@dataclass(frozen=True)
class ToyView:
    seat: int | None
    to_act: int | None
    hand_number: int
    hand: tuple[Card, ...] = cards_field(default=())
    hand_sizes: tuple[int, ...] = ()
    pile: tuple[Card, ...] = cards_field(default=())
    stock_size: int = 0
    scores: tuple[float, ...] = ()
    rules: ToyRules = ToyRules()
    results: tuple[HandResult, ...] = ()


def _sides(n: int) -> tuple[tuple[int, ...], ...]:
    return ((0, 2), (1, 3)) if n == 4 else tuple((i,) for i in range(n))


class ToyGame(Game[ToyState, Any, ToyView, ToyRules]):
    name = "toy"
    title = "Toy"
    version = 1
    rules_type = ToyRules
    action_types: ClassVar[dict[str, type]] = {"Play": Play, "Draw": Draw}

    def _deal(self, rules: ToyRules, seed: int, number: int, deal_seed: int) -> tuple[Any, Any]:
        deck = list(range(52))
        random.Random(deal_seed).shuffle(deck)
        k = rules.hand_size
        hands = tuple(tuple(sorted(deck[i * k : (i + 1) * k])) for i in range(rules.players))
        return hands, tuple(deck[rules.players * k :])

    def new_game(self, rules: ToyRules, seed: int) -> ToyState:
        hands, stock = self._deal(rules, seed, 0, derive_seed(seed, "deal", 0))
        return ToyState(rules, seed, 0, hands, stock, (), 0, (), False)

    def to_act(self, state: ToyState) -> int | None:
        return None if state.over else state.turn

    def legal_actions(self, state: ToyState) -> list[Any]:
        if state.over:
            return []
        hand = state.hands[state.turn]
        out: list[Any] = [Play(c) for c in hand]
        if state.stock and len(hand) < state.rules.max_hold:
            out.append(Draw())
        return out

    def explain(self, state: ToyState, action: Any) -> str | None:
        if state.over:
            return "the match is over"
        hand = state.hands[state.turn]
        if isinstance(action, Play):
            if action.card not in hand:
                return (
                    f"you can only play a card from your hand; you hold no {card_str(action.card)}"
                )
            return None
        if isinstance(action, Draw):
            if not state.stock:
                return "the stock is empty: you must play a card"
            if len(hand) >= state.rules.max_hold:
                return f"you may draw only while holding fewer than {state.rules.max_hold} cards"
            return None
        return f"{action!r} is not a Toy action"

    def apply_unchecked(self, state: ToyState, action: Any) -> tuple[ToyState, list[Event]]:
        seat = state.turn
        hands = list(state.hands)
        events: list[Event] = []
        if isinstance(action, Draw):
            card = state.stock[0]
            hands[seat] = tuple(sorted((*hands[seat], card)))
            state = replace(state, hands=tuple(hands), stock=state.stock[1:])
            events.append(Event("draw", f"seat {seat} drew a card", None, {"seat": seat}))
            events.append(
                Event(
                    "drew",
                    f"you drew {card_str(action_card := card)}",
                    frozenset({seat}),
                    {"card": card_str(action_card)},
                )
            )
        else:
            h = list(hands[seat])
            h.remove(action.card)
            hands[seat] = tuple(h)
            state = replace(state, hands=tuple(hands), pile=(*state.pile, action.card))
            events.append(
                Event(
                    "play",
                    f"seat {seat} played {card_str(action.card)}",
                    None,
                    {"seat": seat, "card": card_str(action.card)},
                )
            )
        if not hands[seat]:
            n = state.rules.players
            sides = _sides(n)
            scores = tuple(
                float(sum(len(hands[s]) for s in range(n) if s not in side)) for side in sides
            )
            results = (*state.results, HandResult(state.hand, scores))
            events.append(Event("hand_over", f"hand {state.hand + 1} is over", None, {}))
            if len(results) >= state.rules.max_hands:
                return replace(state, results=results, over=True), events
            number = state.hand + 1
            new_hands, stock = self._deal(
                state.rules, state.seed, number, derive_seed(state.seed, "deal", number)
            )
            state = replace(
                state,
                hand=number,
                hands=new_hands,
                stock=stock,
                pile=(),
                results=results,
                turn=number % n,
            )
            return state, events
        return replace(state, turn=(seat + 1) % state.rules.players), events

    def observe(self, state: ToyState, seat: int | None) -> ToyView:
        scores = self.outcome(state).scores
        return ToyView(
            seat=seat,
            to_act=self.to_act(state),
            hand_number=state.hand,
            hand=state.hands[seat] if seat is not None else (),
            hand_sizes=tuple(len(h) for h in state.hands),
            pile=state.pile,
            stock_size=len(state.stock),
            scores=scores,
            rules=state.rules,
            results=state.results,
        )

    def determinize(self, view: ToyView, rng: random.Random) -> ToyState:
        """Hidden cards (other hands, the stock) dealt at random; a random seed for later hands."""
        known = set(view.pile) | set(view.hand)
        hidden = [c for c in range(52) if c not in known]
        rng.shuffle(hidden)
        hands = []
        for s, size in enumerate(view.hand_sizes):
            if s == view.seat:
                hands.append(view.hand)
            else:
                hands.append(tuple(sorted(hidden[:size])))
                hidden = hidden[size:]
        return ToyState(
            view.rules,
            rng.getrandbits(63),
            view.hand_number,
            tuple(hands),
            tuple(hidden),
            view.pile,
            view.to_act if view.to_act is not None else 0,
            view.results,
            view.to_act is None,
        )

    def outcome(self, state: ToyState) -> Outcome:
        sides = _sides(state.rules.players)
        totals = [0.0] * len(sides)
        for r in state.results:
            for i, sc in enumerate(r.scores):
                totals[i] += sc
        winners: tuple[int, ...] = ()
        if state.over:
            best = min(totals)
            winners = tuple(i for i, t in enumerate(totals) if t == best)
        return Outcome(
            state.over,
            "max_hands" if state.over else "",
            sides,
            tuple(totals),
            winners,
            state.results,
        )

    def all_cards(self, state: ToyState) -> list[Card]:
        return [c for h in state.hands for c in h] + list(state.stock) + list(state.pile)

    def hand_number(self, state: ToyState) -> int:
        return state.hand

    def hand_seed(self, state: ToyState) -> int:
        return derive_seed(state.seed, "deal", state.hand)

    def redeal(self, state: ToyState, seed: int) -> ToyState:
        hands, stock = self._deal(state.rules, state.seed, state.hand, seed)
        return replace(state, hands=hands, stock=stock)


ENTRY = GameEntry(
    name="toy",
    game=ToyGame(),
    presets={"toy": {}, "quick": {"hand_size": 2, "max_hands": 1}},
    default_preset="toy",
    description="a tiny test game",
    preset_docs={"toy": "four cards each, two hands", "quick": "two cards each, one hand"},
    random_play_options={"max_hands": 1},
    sides=lambda rules: _sides(rules.players),
    grammar=Grammar([Form(Play, "play {card:card}"), Form(Draw, "draw")]),
)


@contextlib.contextmanager
def registered() -> Iterator[None]:
    """Toy in the game registry for the duration (then removed, so other tests never see it)."""
    from parlour import games

    # a half-written game package of a colleague must not stop these tests
    with contextlib.suppress(Exception):
        games.names()
    registry = games._registry
    registry.register(ENTRY)
    try:
        yield
    finally:
        registry._entries.pop(ENTRY.name, None)
        for key in [k for k, (name, _) in registry._names.items() if name == ENTRY.name]:
            del registry._names[key]
