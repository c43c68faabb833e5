"""How a game of Cheat ends for each player: the cards left in hand (fewest is best), the order
players went out in, and who wins (the first out; or, with ``loser_mode``, everyone but the
player left holding the most cards)."""

from __future__ import annotations

from parlour.games.cheat.state import State


def cards_held(state: State, finished: bool) -> list[int]:
    """Cards in each hand: the true counts once the game is over; mid-game only the publicly
    counted sizes (true sizes can be hidden by an overplay or an overclaim)."""
    if not finished:
        return list(state.shown)
    return [
        sum(h) + (len(state.selection) if s == state.turn_seat else 0)
        for s, h in enumerate(state.hands)
    ]


def finish_order(state: State, held: list[int]) -> tuple[int, ...]:
    """Seats in the order they went out, then the rest by fewest cards held."""
    n = state.rules.players
    rest = sorted((s for s in range(n) if s not in state.out), key=lambda s: (held[s], s))
    return (*state.out, *rest)


def winning_seats(state: State, held: list[int]) -> tuple[int, ...]:
    """The winners of a finished game."""
    n = state.rules.players
    if state.rules.loser_mode:
        rest = [s for s in range(n) if s not in state.out]
        most = max(held[s] for s in rest) if rest else 0
        return tuple(s for s in range(n) if s in state.out or held[s] < most)
    return (state.out[0],) if state.out else ()
