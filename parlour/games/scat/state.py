"""Scat state, actions and views (frozen dataclasses; hands are short tuples of card ints)."""

from __future__ import annotations

from dataclasses import dataclass

from parlour.core.cards import card_str, cards_str
from parlour.core.codec import card_field, cards_field
from parlour.core.game import HandResult
from parlour.games.scat.rules import ScatRules

# phases of a decision
DEALT31 = "dealt31"  # somebody was dealt 31: the first holder shows it (no play)
THROW_DOWN = "throw_down"  # the first player decides, blind, whether to call a showdown
DRAW = "draw"  # start of a turn: draw, take the discard, knock (or hammer / end the hand)
DISCARD = "discard"  # four cards held: discard one (declaring 31 with it if made)
OVER = "over"  # the match has ended


# --- actions ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DrawStock:
    """Draw the top card of the stock (seen only by you)."""

    def __str__(self) -> str:
        return "draw from the stock"


@dataclass(frozen=True)
class TakeDiscard:
    """Take the top card of the discard pile (it may not be discarded again this turn)."""

    def __str__(self) -> str:
        return "take the discard"


@dataclass(frozen=True)
class Knock:
    """Knock instead of drawing: your hand is frozen, every other player has one last turn."""

    def __str__(self) -> str:
        return "knock"


@dataclass(frozen=True)
class Hammer:
    """(Option ``hammer``) the first player calls an immediate showdown instead of drawing."""

    def __str__(self) -> str:
        return "hammer (show down now)"


@dataclass(frozen=True)
class ThrowDown:
    """(Option ``throw_down``) before looking at the cards: call a showdown or play on."""

    call: bool

    def __str__(self) -> str:
        return "throw down (show down now)" if self.call else "play on"


@dataclass(frozen=True)
class Discard:
    """Discard a card; ``declare=True`` declares the 31 the remaining three cards make."""

    card: int = card_field()
    declare: bool = False

    def __str__(self) -> str:
        return f"discard {card_str(self.card)}" + (" and declare 31" if self.declare else "")


@dataclass(frozen=True)
class EndHand:
    """The stock is empty and you do not want the discard: the hand ends and everyone shows."""

    def __str__(self) -> str:
        return "end the hand (stock is empty)"


@dataclass(frozen=True)
class Declare31:
    """Show the 31 you were dealt: no play, all other players lose."""

    def __str__(self) -> str:
        return "declare the 31 I was dealt"


Action = DrawStock | TakeDiscard | Knock | Hammer | ThrowDown | Discard | EndHand | Declare31

ACTION_TYPES: dict[str, type] = {
    c.__name__: c
    for c in (DrawStock, TakeDiscard, Knock, Hammer, ThrowDown, Discard, EndHand, Declare31)
}


# --- records shared by state and view ---------------------------------------------------------


@dataclass(frozen=True)
class SeatCards:
    """Cards of one seat that the viewer may know (shown at a showdown, or taken from the pile)."""

    seat: int
    cards: tuple[int, ...] = cards_field()

    def __str__(self) -> str:
        return f"seat {self.seat}: {cards_str(self.cards)}"


@dataclass(frozen=True)
class LastHand:
    """How the previous hand ended: public once the hand is over."""

    number: int
    reason: str  # "knock", "hammer", "throw_down", "stock_exhausted", "declared_31", "dealt_31"
    knocker: int | None
    shown: tuple[SeatCards, ...]
    values: tuple[float | None, ...]
    changes: tuple[int, ...]  # lives lost (negative) or points won (positive) per seat
    text: str


# --- state ------------------------------------------------------------------------------------


@dataclass(slots=True)
class ScatState:
    """The full state of a match (hidden cards included).

    Copy-on-write: the engine copies a state (:meth:`copy`, about 1 µs) and changes the copy;
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

    def copy(self) -> ScatState:
        n = ScatState.__new__(ScatState)
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


# --- view -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScatView:
    """What one seat may know.  Every discard is placed face up, so every seat has seen the
    whole discard pile in order (``pile``, bottom → top) even though the pile is kept squared
    up; cards taken from the pile are publicly known to sit in the taker's hand (``known``)
    until discarded.  Never another hand, never the stock."""

    seat: int | None
    to_act: int | None
    phase: str
    rules: ScatRules
    hand_number: int
    dealer: int
    hand: tuple[int, ...] = cards_field()
    hand_value: float | None = None
    undeclared_31: tuple[int, ...] = cards_field(default=())
    pile_top: int = card_field(default=-1)
    pile: tuple[int, ...] = cards_field(default=())
    stock_size: int = 0
    hand_sizes: tuple[int, ...] = ()
    known: tuple[SeatCards, ...] = ()
    taken: int = card_field(default=-1)
    knocker: int | None = None
    turn_in_hand: int = 0
    lives: tuple[int, ...] = ()
    eliminated_in: tuple[int, ...] = ()  # hand number each seat went out in (-1: still in)
    status: tuple[str, ...] = ()
    last_hand: LastHand | None = None
    termination: str = ""
    #: the finished hands' results (public: everyone saw each showdown)
    score_sheet: tuple[HandResult, ...] = ()

    @property
    def pile_size(self) -> int:
        return len(self.pile)
