"""The Samba state: hands as count vectors, copy-on-write containers, cheap clones.

``apply`` never changes a state: it clones (sharing containers) and replaces only what it
changes.  The legal-action list is cached on the state (not part of equality)."""

from __future__ import annotations

import random
from typing import Any, Final

from parlour.core.cards import shoe, shuffle_as_random
from parlour.core.game import HandResult
from parlour.core.rng import derive_seed
from parlour.games.samba.parts.melds import IS_WILD, RED_THREES, Meld
from parlour.games.samba.rules import OPENING_TABLES, SambaRules

DRAW: Final = "draw"
MELD: Final = "meld"
PILE_OPEN: Final = "pile_open"
ANSWER: Final = "answer"
OVER: Final = "over"


def sides_for(players: int) -> tuple[tuple[int, ...], ...]:
    """Seat layout (seed 002): 2, 3, 5 alone; 4 = partners opposite; 6 = partners i and i+3."""
    if players == 4:
        return ((0, 2), (1, 3))
    if players == 6:
        return ((0, 3), (1, 4), (2, 5))
    return tuple((s,) for s in range(players))


_FIELDS = (
    "rules",
    "seed",
    "players",
    "sides",
    "side_of",
    "hand_no",
    "dealer",
    "hands",
    "sizes",
    "known",
    "stock",
    "stock_len",
    "pile",
    "melds",
    "red3",
    "opened",
    "scores",
    "history",
    "to_act",
    "phase",
    "pending",
    "taken_top",
    "asked",
    "takebacks",
    "undone",
    "permission",
    "finished",
    "termination",
)


class State:
    """One moment of a Samba match (see module docstring)."""

    __slots__ = (*_FIELDS, "_legal", "_legal_set", "_no_out", "_no_open")

    rules: SambaRules
    seed: int
    players: int
    sides: tuple[tuple[int, ...], ...]
    side_of: tuple[int, ...]
    hand_no: int
    dealer: int
    hands: list[list[int]]  # count vector per seat
    sizes: list[int]
    known: list[list[int]]  # cards publicly known to sit in each hand
    stock: tuple[int, ...]  # top = index stock_len - 1
    stock_len: int
    pile: tuple[int, ...]  # top = last
    melds: list[tuple[Meld, ...]]  # per side
    red3: list[tuple[int, ...]]  # red 3s laid out, per side
    opened: tuple[bool, ...]
    scores: tuple[int, ...]
    history: tuple[HandResult, ...]
    to_act: int
    phase: str
    pending: tuple[int, ...]  # cards of the new meld being built
    taken_top: int  # pile top taken for an opening still being staged (-1: none)
    asked: bool
    takebacks: int  # take-backs (Unstage / UndoOpening) made in this turn
    undone: tuple[str, ...]  # the take-backs of this turn (legal.takeback_key), none repeated
    permission: int  # 0: not asked/answered, 1: yes, -1: no
    finished: bool
    termination: str
    _legal: Any
    _legal_set: Any
    # caches, not part of the state: within a turn, card moves only narrow what the hand can
    # still do, so once going out (or reaching the first meld's minimum) is found impossible it
    # stays so until the hand grows again (a take-back, the pile) or the turn ends.  Bit 1: found
    # impossible; bit 2: it was so where the meld being built was begun — the position taking
    # that meld back (Unstage) returns to, the same hand and table (False/0: nothing known)
    _no_out: int
    _no_open: int

    def clone(self) -> State:
        """A copy sharing every container (copy-on-write); the legal-action cache is not
        copied.  Written out rather than generated (:func:`parlour.core.state.copier`): compiled,
        it sets the fields directly, several times faster; ``tests/games/test_skeleton.py``
        checks that it copies every field."""
        n = State()  # compiled: the native constructor (``State.__new__(State)`` is a generic call)
        n.rules = self.rules
        n.seed = self.seed
        n.players = self.players
        n.sides = self.sides
        n.side_of = self.side_of
        n.hand_no = self.hand_no
        n.dealer = self.dealer
        n.hands = self.hands
        n.sizes = self.sizes
        n.known = self.known
        n.stock = self.stock
        n.stock_len = self.stock_len
        n.pile = self.pile
        n.melds = self.melds
        n.red3 = self.red3
        n.opened = self.opened
        n.scores = self.scores
        n.history = self.history
        n.to_act = self.to_act
        n.phase = self.phase
        n.pending = self.pending
        n.taken_top = self.taken_top
        n.asked = self.asked
        n.takebacks = self.takebacks
        n.undone = self.undone
        n.permission = self.permission
        n.finished = self.finished
        n.termination = self.termination
        n._legal = None
        n._legal_set = None
        n._no_out = self._no_out
        n._no_open = self._no_open
        return n

    def __copy__(self) -> State:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        s = self.clone()
        s.hands = [h[:] for h in self.hands]
        s.sizes = self.sizes[:]
        s.known = [k[:] for k in self.known]
        s.melds = self.melds[:]
        s.red3 = self.red3[:]
        return s

    def _key(self) -> tuple[Any, ...]:
        live = self.stock[: self.stock_len]
        fields = tuple(getattr(self, f) for f in _FIELDS if f not in ("stock", "stock_len"))
        return (*fields, live)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<samba State hand {self.hand_no} seat {self.to_act} {self.phase} "
            f"scores {self.scores}>"
        )

    @property
    def acting_side(self) -> int:
        return self.side_of[self.to_act]


#: the first-meld tables by name (a C static when compiled, read by :func:`side_minimum`)
_OPENING: Final = OPENING_TABLES


def side_minimum(s: State, side: int) -> int:
    """``s.rules.opening_minimum(s.scores[side])`` — the side's first-meld minimum — the same
    look-up, compiled (the rules' own method runs interpreted; the legal-action checks ask for
    it on every move of a side that has not opened)."""
    score = s.scores[side]
    for bound, minimum in _OPENING[s.rules.opening_table]:
        if score < bound:
            return minimum
    raise AssertionError("unreachable")  # pragma: no cover


def to_act_of(s: State) -> int | None:
    """:meth:`SambaGame.to_act`: the seat to act, ``None`` once the match is over (the engine's
    method is this function itself, a ``staticmethod``)."""
    return None if s.finished else s.to_act


def _clone(s: State) -> State:
    return s.clone()


def new_match(rules: SambaRules, seed: int) -> State:
    s = State.__new__(State)
    s.rules = rules
    s.seed = seed
    n = s.players = rules.players
    s.sides = sides_for(n)
    side_of = [0] * n
    for i, seats in enumerate(s.sides):
        for seat in seats:
            side_of[seat] = i
    s.side_of = tuple(side_of)
    s.scores = (0,) * len(s.sides)
    s.history = ()
    s.finished = False
    s.termination = ""
    s.hand_no = 0
    # seed 002 "Choose a dealer": the first dealer is drawn from the match seed
    s.dealer = random.Random(derive_seed(seed, "dealer")).randrange(n)
    deal(s, derive_seed(seed, "deal", 0))
    return s


def deal(s: State, hand_seed: int) -> None:
    """Deal the current hand (in place on a fresh state) from ``hand_seed``."""
    rules = s.rules
    n = s.players
    deck = shoe(3, 6)
    shuffle_as_random(deck, random.Random(hand_seed))
    per = rules.cards_per_player()
    hands = [[0] * 53 for _ in range(n)]
    pos = 0
    for i in range(n):
        seat = (s.dealer + 1 + i) % n
        h = hands[seat]
        for c in deck[pos : pos + per]:
            h[c] = h[c] + 1
        pos += per
    rest = deck[pos:]  # rest[0] is the upcard, the stock is the remainder (top = last)
    upcard = rest.pop(0)
    if rules.upcard_redeal:
        # buried at the bottom of the stock; the next card is turned (RULES.md option)
        while IS_WILD[upcard] or upcard % 13 == 1:
            rest.append(upcard)
            upcard = rest.pop(0)
    stock = rest[::-1]  # deal order: the next card after the upcard is drawn first
    s.hands = hands
    s.sizes = [per] * n
    s.known = [[0] * 53 for _ in range(n)]
    s.stock = tuple(stock)
    s.stock_len = len(stock)
    s.pile = (upcard,)
    nsides = len(s.sides)
    s.melds = [() for _ in range(nsides)]
    s.red3 = [() for _ in range(nsides)]
    s.opened = (False,) * nsides
    s.to_act = (s.dealer + 1) % n
    s.phase = DRAW
    s.pending = ()
    s.taken_top = -1
    s.asked = False
    s.takebacks = 0
    s.undone = ()
    s.permission = 0
    s._legal = None
    s._legal_set = None
    s._no_out = s._no_open = False
    if rules.red_threes_as_canasta:
        for i in range(n):
            replace_red_threes(s, (s.dealer + 1 + i) % n)


def replace_red_threes(s: State, seat: int) -> None:
    """Option ``red_threes_as_canasta``: lay out the seat's red 3s and replace them from the
    stock (in place; the caller has copied the containers it changes)."""
    h = s.hands[seat]
    side = s.side_of[seat]
    while h[14] or h[27]:
        laid = [k for k in RED_THREES for _ in range(h[k])]
        for k in laid:
            h[k] = 0
        s.red3[side] = s.red3[side] + tuple(laid)
        s.sizes[seat] = s.sizes[seat] - len(laid)
        for _ in laid:
            if s.stock_len == 0:
                break
            s.stock_len -= 1
            c = s.stock[s.stock_len]
            h[c] = h[c] + 1
            s.sizes[seat] = s.sizes[seat] + 1
