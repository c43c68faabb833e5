"""The full state of a Samba Hand and Foot match, and the deal of a round.

States are plain dataclasses of lists, copied on write: a clone shares every container with the
original, and the engine replaces a container (a copy of it) before changing it, so a state handed
out is never changed in place (``parlour.core.state``; the idiom of every engine).

Deal model (seed 004: "Each player takes a portion of the shuffled pack and deals him/herself two
stacks of 15 cards – if the portion of the deck taken equals 30 cards, player scores 100"):
the pack is shuffled from the round's deal seed; each player, in turn order, takes 30 cards from
the top — the first 15 are their foot, the next 15 their hand, which is passed to the player on
their left.  How many cards a player *grabbed* before evening up to 30 is a seeded chance event:
``30 + round(gauss(0, cut_spread))`` from the same seed; exactly 30 scores the exact-cut bonus.
The first player (first round, or every round with ``cut_each_round``) is found by cutting: each
contender cuts a random card of the pack; a joker is cut again; highest rank wins (A high, 2 low);
players tied for highest cut again.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from parlour.core.canasta import RED_THREES
from parlour.core.cards import JOKER, NUM_KINDS, Card, rank_of, shoe
from parlour.core.game import HandResult
from parlour.games.handfoot.parts.melds import Meld, is_red_three
from parlour.games.handfoot.rules import HandFootRules

PHASE_DRAW, PHASE_PLAY, PHASE_OVER = "draw", "play", "over"

#: partnerships by round with ``rotate_partners`` (each pair of seats, cycling)
ROTATING_PAIRS = (((0, 2), (1, 3)), ((0, 1), (2, 3)), ((0, 3), (1, 2)))


@dataclass(slots=True)
class State:
    rules: HandFootRules
    seed: int
    round: int = 0
    hand_seed: int = 0
    #: seats in playing order this round; partners are order[0]/order[2] and order[1]/order[3]
    order: list[int] = field(default_factory=list)
    #: partnership (0 = the one with seat 0, 1 = the other) of each seat this round
    side_of: list[int] = field(default_factory=list)
    first: int = 0
    hands: list[list[int]] = field(default_factory=list)  # count vectors
    feet: list[list[Card]] = field(default_factory=list)  # empty once picked up
    foot_taken: list[bool] = field(default_factory=list)
    stock: list[Card] = field(default_factory=list)  # top = last
    pile: list[Card] = field(default_factory=list)  # top = last
    melds: list[list[Meld]] = field(default_factory=list)  # per partnership
    red_threes: list[list[Card]] = field(default_factory=list)  # per partnership
    down: list[bool] = field(default_factory=list)  # seat has met the meld requirement
    opened: list[bool] = field(default_factory=list)  # partnership has melded this round
    #: cards publicly known to sit in each seat's hand (taken from the pile), count vectors
    known: list[list[int]] = field(default_factory=list)
    cuts: list[int] = field(default_factory=list)  # cards each seat grabbed when cutting
    first_cuts: list[tuple[int, Card]] = field(
        default_factory=list
    )  # (seat, card) for first player
    to_act: int = 0
    phase: str = PHASE_DRAW
    # --- the turn in progress (all public) ---
    turn_start_melds: int = 0  # side melds that existed when the turn began ("partner's melds")
    turn_value: int = 0  # card points melded this turn (counts toward the minimum)
    provisional: bool = False  # melds made this turn still wait for the requirement
    took_pile: bool = False
    taken_top: Card = -1
    pending: list[Card] = field(default_factory=list)  # pile cards joining the hand after discard
    pile_refused: bool = False  # a pile taken back this turn: the player must draw
    melds_refused: bool = False  # melds taken back this turn: the player must discard
    reshuffles: int = 0
    # --- the match ---
    scores: list[int] = field(default_factory=list)  # per scoring unit (partnership or seat)
    results: list[HandResult] = field(default_factory=list)
    termination: str = ""
    went_out: int = -1
    #: legal actions of this state, computed once (never part of equality)
    legal_cache: list[Any] | None = field(default=None, compare=False, repr=False)

    def clone(self) -> State:
        """A copy sharing every container with this state (copy-on-write: whoever changes the
        copy replaces the container first); the legal-action cache is not copied.  Written out
        rather than generated (:func:`parlour.core.state.copier`): compiled, the fields are set
        natively, several times faster than from Python; ``tests/games/test_skeleton.py``
        checks that it copies every field."""
        n = State.__new__(State)  # no __init__ (a dataclass's is interpreted even compiled)
        n.rules = self.rules
        n.seed = self.seed
        n.round = self.round
        n.hand_seed = self.hand_seed
        n.order = self.order
        n.side_of = self.side_of
        n.first = self.first
        n.hands = self.hands
        n.feet = self.feet
        n.foot_taken = self.foot_taken
        n.stock = self.stock
        n.pile = self.pile
        n.melds = self.melds
        n.red_threes = self.red_threes
        n.down = self.down
        n.opened = self.opened
        n.known = self.known
        n.cuts = self.cuts
        n.first_cuts = self.first_cuts
        n.to_act = self.to_act
        n.phase = self.phase
        n.turn_start_melds = self.turn_start_melds
        n.turn_value = self.turn_value
        n.provisional = self.provisional
        n.took_pile = self.took_pile
        n.taken_top = self.taken_top
        n.pending = self.pending
        n.pile_refused = self.pile_refused
        n.melds_refused = self.melds_refused
        n.reshuffles = self.reshuffles
        n.scores = self.scores
        n.results = self.results
        n.termination = self.termination
        n.went_out = self.went_out
        n.legal_cache = None
        return n

    # --- helpers ---
    def side_seats(self, side: int) -> tuple[int, int]:
        a = [s for s in self.order if self.side_of[s] == side]
        return a[0], a[1]

    def next_seat(self, seat: int) -> int:
        return self.order[(self.order.index(seat) + 1) % len(self.order)]

    def hand_size(self, seat: int) -> int:
        return sum(self.hands[seat])

    def opening_minimum(self) -> int:
        mins = self.rules.opening_minimums
        return mins[min(self.round, len(mins) - 1)]


def pairs_for_round(rules: HandFootRules, rnd: int) -> tuple[tuple[int, int], tuple[int, int]]:
    if rules.rotate_partners:
        return ROTATING_PAIRS[rnd % len(ROTATING_PAIRS)]
    return ROTATING_PAIRS[0]


def playing_order(pairs: tuple[tuple[int, int], tuple[int, int]], first: int) -> list[int]:
    """First player, then the next seat (by number) of the other partnership, then the partners:
    play alternates between the partnerships."""
    mine = pairs[0] if first in pairs[0] else pairs[1]
    other = pairs[1] if mine == pairs[0] else pairs[0]
    partner = mine[0] if mine[1] == first else mine[1]
    nxt = min(other, key=lambda s: (s - first) % 4)
    opp_partner = other[0] if other[1] == nxt else other[1]
    return [first, nxt, partner, opp_partner]


def cut_for_first(
    rng: random.Random, pack: list[Card], seats: list[int]
) -> tuple[list[tuple[int, Card]], int]:
    """Seed 004: "each player cuts the deck to reveal a card, high card goes first. If you cut a
    joker, re-cut. If two players tie for high card, they cut again."

    Returns every cut made (seat, card) and the winning seat."""
    cuts: list[tuple[int, Card]] = []
    contenders = list(seats)
    while True:
        best: dict[int, int] = {}
        for seat in contenders:
            card = pack[rng.randrange(len(pack))]
            cuts.append((seat, card))
            while card == JOKER:
                card = pack[rng.randrange(len(pack))]
                cuts.append((seat, card))
            best[seat] = rank_of(card)
        top = max(best.values())
        contenders = [s for s in contenders if best[s] == top]
        if len(contenders) == 1:
            return cuts, contenders[0]


def deal_round(state: State, rnd: int, seed: int) -> list[tuple[str, int, list[Card]]]:
    """Deal round ``rnd`` from ``seed`` into ``state`` (in place: called on fresh copies).

    Returns the red 3s laid out at the deal as (kind, seat, cards) notes for events."""
    rules = state.rules
    rng = random.Random(seed)
    pack = shoe(rules.decks, rules.decks * rules.jokers_per_deck)
    rng.shuffle(pack)
    state.round = rnd
    state.hand_seed = seed
    n = rules.players
    cut_size = 2 * rules.stack_size
    state.cuts = [
        cut_size + (round(rng.gauss(0.0, rules.cut_spread)) if rules.cut_spread > 0 else 0)
        for _ in range(n)
    ]
    if rnd == 0 or rules.cut_each_round:
        state.first_cuts, state.first = cut_for_first(rng, pack, list(range(n)))
    else:
        state.first_cuts = []
        state.first = (state.first + 1) % n
    pairs = pairs_for_round(rules, rnd)
    state.order = playing_order(pairs, state.first)
    state.side_of = [0 if s in pairs[0] else 1 for s in range(n)]
    state.hands = [[0] * NUM_KINDS for _ in range(n)]
    state.feet = [[] for _ in range(n)]
    pos = 0
    for seat in state.order:
        foot = pack[pos : pos + rules.stack_size]
        hand = pack[pos + rules.stack_size : pos + cut_size]
        pos += cut_size
        state.feet[seat] = list(foot)
        left = state.next_seat(seat)
        for c in hand:
            state.hands[left][c] += 1
    state.stock = pack[pos:]
    state.pile = []
    state.foot_taken = [False] * n
    state.melds = [[], []]
    state.red_threes = [[], []]
    state.down = [False] * n
    state.opened = [False, False]
    state.known = [[0] * NUM_KINDS for _ in range(n)]
    state.to_act = state.first
    state.phase = PHASE_DRAW
    state.turn_start_melds = 0
    state.turn_value = 0
    state.provisional = False
    state.took_pile = False
    state.taken_top = -1
    state.pending = []
    state.pile_refused = False
    state.melds_refused = False
    state.reshuffles = 0
    state.went_out = -1
    notes: list[tuple[str, int, list[Card]]] = []
    for seat in state.order:
        laid = lay_out_red_threes(state, seat)
        if laid:
            notes.append(("red3", seat, laid))
    return notes


def lay_out_red_threes(state: State, seat: int) -> list[Card]:
    """Seed 004: red 3s are "played to the board … and grants a card draw to replace the 3".
    Moves every red 3 in the seat's hand to its side and draws replacements (which may be red 3s
    too) while the stock lasts.  Returns the red 3s laid out.

    The seat's hand must be this state's own (copied on write by the caller); the side's red 3s
    and the stock are copied here when they change."""
    hand = state.hands[seat]
    laid: list[Card] = []
    while True:
        threes = [c for c in RED_THREES if hand[c]]
        if not threes:
            if laid:
                side = state.side_of[seat]
                reds = state.red_threes = list(state.red_threes)
                reds[side] = reds[side] + laid
            return laid
        if not laid:
            state.stock = list(state.stock)
        for c in threes:
            for _ in range(hand[c]):
                hand[c] -= 1
                laid.append(c)
                if state.stock:
                    hand[state.stock.pop()] += 1


def draw_cards(state: State, seat: int, count: int) -> tuple[list[Card], list[Card]]:
    """Draw up to ``count`` cards from the stock; red 3s are laid out and replaced.

    Returns (cards drawn that stay in the hand, red 3s laid out).  The seat's hand and the stock
    must be this state's own (copied on write by the caller)."""
    hand = state.hands[seat]
    stock = state.stock
    drawn = [stock.pop() for _ in range(min(count, len(stock)))]
    for c in drawn:
        hand[c] += 1
    if not any(hand[c] for c in RED_THREES):
        return sorted(drawn), []
    before = list(hand)
    for c in drawn:
        before[c] -= 1
    laid = lay_out_red_threes(state, seat)
    kept: list[Card] = []
    for kind in range(NUM_KINDS):
        if hand[kind] > before[kind]:
            kept.extend([kind] * (hand[kind] - before[kind]))
    assert not any(is_red_three(c) for c in kept)
    return kept, laid
