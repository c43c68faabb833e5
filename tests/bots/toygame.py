"""A tiny hidden-information game for testing bots and tournaments without a real engine.

**High card**: 2 or 4 players (4 = partnerships, seats 0+2 against 1+3), twelve cards 1..12 (one
each), three dealt to each player, the rest face down.  Players play one card each in turn to a
trick; the highest card wins the trick for its side and its player leads the next.  After three
tricks the side with more tricks wins (score = tricks won).  Each player sees only their own hand
and the cards played, so the other hands are hidden: good search must reason about them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from parlour.core.game import Event, Game, HandResult, Outcome
from parlour.core.registry import GameEntry, Variant
from parlour.core.rules import Rules, option

DECK = tuple(range(1, 13))


@dataclass(frozen=True)
class ToyRules(Rules):
    players: int = option(2, "number of players", choices=(2, 4))


@dataclass(frozen=True)
class Play:
    card: int

    def __str__(self) -> str:
        return f"play {self.card}"


@dataclass(frozen=True)
class ToyState:
    rules: ToyRules
    seed: int
    hands: tuple[tuple[int, ...], ...]
    rest: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]
    played: tuple[int, ...]
    tricks: tuple[int, ...]
    turn: int | None


@dataclass(frozen=True)
class ToyView:
    seat: int | None
    to_act: int | None
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]
    played: tuple[int, ...]
    tricks: tuple[int, ...]
    players: int


class ToyGame(Game[ToyState, Play, ToyView, ToyRules]):
    name = "toy"
    title = "High card (test game)"
    rules_type = ToyRules
    action_types: ClassVar[dict[str, type]] = {"Play": Play}

    def new_game(self, rules: ToyRules, seed: int) -> ToyState:
        deck = list(DECK)
        random.Random(seed).shuffle(deck)
        n = rules.players
        hands = tuple(tuple(sorted(deck[3 * i : 3 * i + 3])) for i in range(n))
        sides = 2
        return ToyState(rules, seed, hands, tuple(deck[3 * n :]), (), (), (0,) * sides, 0)

    def to_act(self, state: ToyState) -> int | None:
        return state.turn

    def legal_actions(self, state: ToyState) -> list[Play]:
        if state.turn is None:
            return []
        return [Play(c) for c in state.hands[state.turn]]

    def apply_unchecked(self, state: ToyState, action: Play) -> tuple[ToyState, list[Event]]:
        seat = state.turn
        assert seat is not None
        n = state.rules.players
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != action.card)
        trick = (*state.trick, (seat, action.card))
        played = (*state.played, action.card)
        tricks = state.tricks
        if len(trick) == n:
            winner = max(trick, key=lambda sc: sc[1])[0]
            t = list(tricks)
            t[winner % 2] += 1
            tricks = tuple(t)
            turn: int | None = None if not hands[winner] else winner
            trick = ()
        else:
            turn = (seat + 1) % n
        new = replace(
            state, hands=tuple(hands), trick=trick, played=played, tricks=tricks, turn=turn
        )
        return new, [Event("play", {"seat": seat, "card": action.card})]

    def observe(self, state: ToyState, seat: int | None) -> ToyView:
        hand = state.hands[seat] if seat is not None else ()
        return ToyView(
            seat,
            state.turn,
            hand,
            tuple(len(h) for h in state.hands),
            state.trick,
            state.played,
            state.tricks,
            state.rules.players,
        )

    def determinize(self, view: ToyView, rng: random.Random) -> ToyState:
        unseen = [c for c in DECK if c not in view.hand and c not in view.played]
        rng.shuffle(unseen)
        hands = []
        for s, size in enumerate(view.hand_sizes):
            if s == view.seat:
                hands.append(view.hand)
            else:
                hands.append(tuple(sorted(unseen[:size])))
                unseen = unseen[size:]
        rules = ToyRules(players=view.players)
        return ToyState(
            rules, 0, tuple(hands), tuple(unseen), view.trick, view.played, view.tricks, view.to_act
        )

    def outcome(self, state: ToyState) -> Outcome:
        n = state.rules.players
        sides = ((0,), (1,)) if n == 2 else ((0, 2), (1, 3))
        done = state.turn is None
        scores = tuple(float(t) for t in state.tricks)
        winners: tuple[int, ...] = ()
        if done and scores[0] != scores[1]:
            winners = (0,) if scores[0] > scores[1] else (1,)
        hands = (HandResult(0, scores),) if done else ()
        return Outcome(done, "tricks" if done else "", sides, scores, winners, hands)

    def all_cards(self, state: ToyState) -> list[int]:
        return [c for h in state.hands for c in h] + list(state.rest) + list(state.played)

    def hand_number(self, state: ToyState) -> int:
        return 0

    def hand_seed(self, state: ToyState) -> int:
        return state.seed

    def redeal(self, state: ToyState, seed: int) -> ToyState:
        return self.new_game(state.rules, seed)


TOY = ToyGame()
ENTRY = GameEntry(name="toy", game=TOY, presets={"toy": {}}, default_preset="toy")


def toy_variant(players: int = 2) -> Variant:
    return Variant(ENTRY, "toy", ToyRules(players=players))


def play(variant: Variant, seed: int, seating: Any) -> Any:
    from parlour.sim.match import play_match

    return play_match(variant, seed, seating)
