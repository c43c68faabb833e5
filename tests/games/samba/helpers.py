"""Helpers for the Samba tests: positions written as cards, actions by their text."""

from __future__ import annotations

from typing import Any

from parlour.core.cards import parse_card, parse_cards
from parlour.games.samba import GAME
from parlour.games.samba import actions as A
from parlour.games.samba.position import make_position
from parlour.games.samba.state import State


def pos(**kwargs: Any) -> State:
    return make_position(**kwargs)


def c(text: str) -> int:
    return parse_card(text)


def cs(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


def play(state: State, *actions: Any) -> State:
    """Apply checked actions in order."""
    for a in actions:
        state, _ = GAME.apply(state, a)
    return state


def stage(*cards: str) -> list[A.Stage]:
    return [A.Stage(c(x)) for x in cards]
