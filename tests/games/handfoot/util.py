"""Scenario states for Samba Hand and Foot tests: hands, melds and piles written as card text."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.core.cards import NUM_KINDS, Card, parse_cards, shoe
from parlour.games.handfoot import GAME, HandFootRules
from parlour.games.handfoot.parts.melds import Meld, classify
from parlour.games.handfoot.state import PHASE_PLAY, State

SEED = "004_bae80ddcdedd4514.txt"


def cards(text: str) -> list[Card]:
    return parse_cards(text) if text.strip() else []


def meld(text: str) -> Meld:
    cs = cards(text)
    kk = classify(cs)
    assert kk is not None, text
    return Meld(kk[0], kk[1], tuple(sorted(cs)))


def scenario(
    *,
    hands: Mapping[int, str],
    melds: Mapping[int, Sequence[str]] | None = None,
    pile: str = "",
    stock_top: str = "",
    feet: Mapping[int, str] | None = None,
    red_threes: Mapping[int, str] | None = None,
    to_act: int = 0,
    phase: str = PHASE_PLAY,
    down: Sequence[int] = (),
    foot_taken: Sequence[int] = (),
    round: int = 0,
    rules: HandFootRules | None = None,
    **fields: Any,
) -> State:
    """A state of the first deal's shape (seats 0+2 vs 1+3, play 0→1→2→3) with the cards given;
    every other card of the pack lies in the stock (``stock_top`` is drawn first), so cards are
    conserved.  Unlisted feet hold 15 cards from the stock."""
    rules = rules or HandFootRules(cut_spread=0.0)
    state = GAME.new_game(rules, 1)
    state.round = round
    state.order = [0, 1, 2, 3]
    state.side_of = [0, 1, 0, 1]
    state.first = 0
    state.cuts = [30, 30, 30, 30]
    state.first_cuts = []
    rest = Counter(shoe(rules.decks, rules.decks * rules.jokers_per_deck))
    state.hands = [[0] * NUM_KINDS for _ in range(4)]
    for seat, text in hands.items():
        for c in cards(text):
            state.hands[seat][c] += 1
            rest[c] -= 1
    state.melds = [[], []]
    for side, texts in (melds or {}).items():
        for t in texts:
            m = meld(t)
            state.melds[side].append(m)
            rest.subtract(m.cards)
    state.red_threes = [[], []]
    for side, text in (red_threes or {}).items():
        state.red_threes[side] = cards(text)
        rest.subtract(state.red_threes[side])
    state.pile = cards(pile)
    rest.subtract(state.pile)
    top = cards(stock_top)
    rest.subtract(top)
    feet_given = {s: cards(t) for s, t in (feet or {}).items()}
    for f in feet_given.values():
        rest.subtract(f)
    assert all(v >= 0 for v in rest.values()), "scenario uses more cards than the pack holds"
    pool = sorted(rest.elements(), key=lambda c: (c * 7919) % 53)  # a fixed, mixed order
    state.feet = [[] for _ in range(4)]
    for seat in range(4):
        if seat in foot_taken:
            continue
        if seat in feet_given:
            state.feet[seat] = feet_given[seat]
        else:
            state.feet[seat] = [pool.pop() for _ in range(15)]
    for seat in foot_taken:
        if seat in feet_given:
            pool.extend(feet_given[seat])
    state.stock = pool + list(reversed(top))
    state.foot_taken = [s in foot_taken for s in range(4)]
    state.down = [s in down for s in range(4)]
    state.opened = [bool(state.melds[0]), bool(state.melds[1])]
    state.known = [[0] * NUM_KINDS for _ in range(4)]
    state.to_act = to_act
    state.phase = phase
    state.turn_start_melds = len(state.melds[state.side_of[to_act]])
    state.turn_value = 0
    state.provisional = False
    state.took_pile = False
    state.taken_top = -1
    state.pending = []
    state.pile_refused = False
    state.went_out = -1
    for k, v in fields.items():
        setattr(state, k, v)
    state.legal_cache = None
    return state


def act(state: State, action: Any) -> State:
    new, _ = GAME.apply(state, action)
    return new


def hand_of(state: State, seat: int) -> Counter[Card]:
    return Counter({c: n for c, n in enumerate(state.hands[seat]) if n})
