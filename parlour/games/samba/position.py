"""Build a Samba position from cards written as people write them (tests, tutorials, puzzles).

>>> from parlour.games.samba.game import SambaGame
>>> s = make_position(hands={0: "9♥ 9♠ 5♣"}, pile="4♦ 9♦", to_act=0)
>>> [str(a) for a in SambaGame().legal_actions(s)]
['draw', 'take the pile with 9♥ 9♠']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parlour.core.cards import Card, parse_cards, shoe
from parlour.games.samba.melds import Meld, make_meld
from parlour.games.samba.rules import SambaRules
from parlour.games.samba.state import DRAW, State, sides_for


def meld_of(text: str | Sequence[Card], *, wild_melds: bool = True) -> Meld:
    """The meld these cards form (black 3s and wild melds allowed); ValueError if none."""
    cards = parse_cards(text) if isinstance(text, str) else list(text)
    m = make_meld(cards, wild_melds=wild_melds)
    if m is None:
        raise ValueError(f"not a meld: {text!r}")
    return m


def make_position(
    rules: SambaRules | None = None,
    *,
    hands: Mapping[int, str] | None = None,
    melds: Mapping[int, Sequence[str]] | None = None,
    red_threes: Mapping[int, str] | None = None,
    pile: str = "",
    stock: str | None = None,
    known: Mapping[int, str] | None = None,
    to_act: int = 0,
    phase: str = DRAW,
    scores: Sequence[int] | None = None,
    opened: Sequence[bool] | None = None,
    dealer: int | None = None,
    seed: int = 0,
    **options: Any,
) -> State:
    """A state with the given cards; every other card of the shoe is in the stock (its order:
    ``stock`` top first, then the rest in kind order).  Sides with melds count as opened unless
    ``opened`` says otherwise."""
    rules = rules or SambaRules()
    if options:
        rules = rules.replace(**options)
    n = rules.players
    s = State.__new__(State)
    s.rules = rules
    s.seed = seed
    s.players = n
    s.sides = sides_for(n)
    side_of = [0] * n
    for i, seats in enumerate(s.sides):
        for seat in seats:
            side_of[seat] = i
    s.side_of = tuple(side_of)
    nsides = len(s.sides)
    left = [0] * 53
    for c in shoe(3, 6):
        left[c] += 1

    def take(cards: Sequence[Card]) -> None:
        for c in cards:
            left[c] -= 1
            if left[c] < 0:
                raise ValueError("more cards of a kind than the shoe holds")

    s.hands = [[0] * 53 for _ in range(n)]
    s.known = [[0] * 53 for _ in range(n)]
    for seat, text in (hands or {}).items():
        for c in parse_cards(text):
            s.hands[seat][c] += 1
        take(parse_cards(text))
    for seat, text in (known or {}).items():
        for c in parse_cards(text):
            s.known[seat][c] += 1
    s.sizes = [sum(h) for h in s.hands]
    s.melds = [() for _ in range(nsides)]
    for side, texts in (melds or {}).items():
        ms = tuple(meld_of(t) for t in texts)
        for m in ms:
            take(m.cards)
        s.melds[side] = ms
    s.red3 = [() for _ in range(nsides)]
    for side, text in (red_threes or {}).items():
        s.red3[side] = tuple(parse_cards(text))
        take(s.red3[side])
    s.pile = tuple(parse_cards(pile))
    take(s.pile)
    top = parse_cards(stock) if stock else []
    take(top)
    rest = [c for c in range(53) for _ in range(left[c])]
    # stock top = last element
    s.stock = tuple(rest[::-1] + top[::-1])
    s.stock_len = len(s.stock)
    s.opened = tuple(opened) if opened is not None else tuple(bool(m) for m in s.melds)
    s.scores = tuple(scores) if scores is not None else (0,) * nsides
    s.history = ()
    s.hand_no = 0
    s.dealer = dealer if dealer is not None else (to_act - 1) % n
    s.to_act = to_act
    s.phase = phase
    s.pending = ()
    s.taken_top = -1
    s.asked = False
    s.takebacks = 0
    s.permission = 0
    s.finished = False
    s.termination = ""
    s._legal = None
    s._legal_set = None
    return s
