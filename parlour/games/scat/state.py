"""Scat state and the records it shares with views (hands are short tuples of card ints)."""

from __future__ import annotations

from dataclasses import dataclass

from parlour.core.cards import cards_str
from parlour.core.codec import cards_field
from parlour.core.game import HandResult
from parlour.games.scat.parts.values import Value
from parlour.games.scat.rules import ScatRules

# phases of a decision
DEALT31 = "dealt31"  # somebody was dealt 31: the first holder shows it (no play)
THROW_DOWN = "throw_down"  # the first player decides, blind, whether to call a showdown
DRAW = "draw"  # start of a turn: draw, take the discard, knock (or hammer / end the hand)
DISCARD = "discard"  # four cards held: discard one (declaring 31 with it if made)
OVER = "over"  # the match has ended


# --- records shared by state and view ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatCards:
    """Cards of one seat that the viewer may know (shown at a showdown, or taken from the pile)."""

    seat: int
    cards: tuple[int, ...] = cards_field()

    def __str__(self) -> str:
        return f"seat {self.seat}: {cards_str(self.cards)}"


@dataclass(frozen=True, slots=True)
class LastHand:
    """How the previous hand ended: public once the hand is over."""

    number: int
    reason: str  # "knock", "hammer", "throw_down", "stock_exhausted", "declared_31", "dealt_31"
    knocker: int | None
    shown: tuple[SeatCards, ...]
    values: tuple[Value | None, ...]
    changes: tuple[int, ...]  # lives lost (negative) or points won (positive) per seat
    replay: bool = False  # every remaining player would have been out: they play another hand
    out: tuple[int, ...] = ()  # the seats this hand put out


# --- state ------------------------------------------------------------------------------------


@dataclass(slots=True)
class ScatState:
    """The full state of a match (hidden cards included).

    Copy-on-write: the engine copies a state (:meth:`clone`, about 1 µs) and changes the copy;
    a state handed out is never changed again.  Not frozen because ``dataclasses.replace`` on a
    frozen slotted class measured ~30× slower than this copy."""

    rules: ScatRules
    seed: int
    players: int
    hand_no: int
    dealer: int
    lives: tuple[int, ...]  # lives left, or points when playing for points
    out: tuple[bool, ...]
    out_order: tuple[int, ...]  # hand number a seat was eliminated in (-1: still in)
    phase: str
    to_act: int  # -1 when the match is over
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]  # top = last
    pile: tuple[int, ...]  # top = last
    taken: int  # card taken from the pile this turn (-1: none)
    knocker: int  # -1: nobody knocked
    turn_no: int  # turns (draw or knock) begun in this hand
    known: tuple[tuple[int, ...], ...]  # cards publicly known in each hand (taken from the pile)
    silent: tuple[tuple[int, ...], ...]  # a 31 hand its holder made and did not declare
    history: tuple[HandResult, ...]
    last: LastHand | None
    termination: str

    def clone(self) -> ScatState:
        """A copy sharing every (immutable) part.  Written out rather than generated
        (:func:`parlour.core.state.copier`): compiled, the fields are set natively, several
        times faster than from Python; ``tests/games/test_skeleton.py`` checks that it copies
        every field."""
        n = ScatState.__new__(ScatState)  # no __init__ (a dataclass's is interpreted compiled)
        n.rules = self.rules
        n.seed = self.seed
        n.players = self.players
        n.hand_no = self.hand_no
        n.dealer = self.dealer
        n.lives = self.lives
        n.out = self.out
        n.out_order = self.out_order
        n.phase = self.phase
        n.to_act = self.to_act
        n.hands = self.hands
        n.stock = self.stock
        n.pile = self.pile
        n.taken = self.taken
        n.knocker = self.knocker
        n.turn_no = self.turn_no
        n.known = self.known
        n.silent = self.silent
        n.history = self.history
        n.last = self.last
        n.termination = self.termination
        return n

    def copy(self) -> ScatState:
        """The same as :meth:`clone` (a method, not an alias: mypyc compiles this class)."""
        return self.clone()


def to_act_of(state: ScatState) -> int | None:
    """:meth:`ScatGame.to_act`: the seat to act, ``None`` once the match is over (the engine's
    method is this function itself, a ``staticmethod``: compiled, no interpreted frame)."""
    return None if state.phase == OVER else state.to_act


def hand_number_of(state: ScatState) -> int:
    """:meth:`ScatGame.hand_number` (the engine's method is this function, as above)."""
    return state.hand_no
