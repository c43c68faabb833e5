"""Building exact Scat positions for rule tests."""

from __future__ import annotations

from typing import Any

from parlour.core.cards import parse_card, parse_cards
from parlour.games.scat import GAME
from parlour.games.scat.rules import ScatRules
from parlour.games.scat.state import DRAW, ScatState

SEED = "001_e8630c614840283e.txt"


def cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_cards(text)))


def position(
    hands: list[str],
    *,
    stock: str = "2♣ 3♣ 4♣ 5♣ 6♣ 7♣",
    pile: str = "9♦",
    dealer: int | None = None,
    to_act: int | None = None,
    rules: ScatRules | None = None,
    **fields: Any,
) -> ScatState:
    """A state in the draw phase: ``hands`` per seat, ``stock``/``pile`` listed bottom → top.

    The dealer defaults to the seat before ``to_act`` (default: seat 0 to act)."""
    n = len(hands)
    rules = rules or ScatRules(players=n)
    state = GAME.new_game(rules, 7).copy()
    state.hands = tuple(cards(h) for h in hands)
    state.stock = tuple(parse_cards(stock))
    state.pile = tuple(parse_cards(pile))
    if to_act is None:
        to_act = 0 if dealer is None else (dealer + 1) % n
    state.to_act = to_act
    state.dealer = (to_act - 1) % n if dealer is None else dealer
    state.phase = DRAW
    state.knocker = -1
    state.turn_no = 0
    state.taken = -1
    state.known = ((),) * n
    state.silent = ((),) * n
    for key, value in fields.items():
        setattr(state, key, value)
    return state


def play(state: ScatState, *actions: Any) -> ScatState:
    """Apply actions with the legality check."""
    for action in actions:
        state, _ = GAME.apply(state, action)
    return state


def card(text: str) -> int:
    return parse_card(text)
