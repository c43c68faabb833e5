"""Cheat state, public/private records and the per-seat view (frozen dataclasses).

Hands are count vectors over the 53 card kinds (several packs make cards of a kind
interchangeable); the pile is a tuple of plays, each remembering its true cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.core.codec import card_field, cards_field
from parlour.games.cheat.rules import CheatRules

# phases
CHOOSE_FIRST = "choose_first"  # the dealer picks the first player (Canada)
PLAY = "play"  # the seat in turn picks cards and claims
WINDOW = "window"  # the other seats answer, blind, in seat order: challenge or pass
LATE = "late"  # (challenge_any_time) nobody challenged: the others are asked again, openly
OVER = "over"

ALL_RANKS: tuple[int, ...] = tuple(range(2, 15))


@dataclass(frozen=True, slots=True)
class Play:
    """A play in the pile: who, the true cards (hidden from others), and the claim."""

    seat: int
    cards: tuple[int, ...]
    count: int
    rank: int


@dataclass(frozen=True, slots=True)
class ClaimRecord:
    """A claim, as everybody heard it: play number ``turn`` by ``seat``: ``count`` × ``rank``."""

    turn: int
    seat: int
    count: int
    rank: int


@dataclass(frozen=True, slots=True)
class ChallengeRecord:
    """A resolved challenge, public: the exposed cards and where the pile went.

    ``takers`` received ``shares`` cards each (as counted); ``exposed_to`` gives, for each
    exposed card in order, the seat whose hand it went to."""

    turn: int
    player: int
    count: int
    rank: int
    challengers: tuple[int, ...]
    cards: tuple[int, ...] = cards_field()
    truthful: bool = False
    takers: tuple[int, ...] = ()
    shares: tuple[int, ...] = ()
    exposed_to: tuple[int, ...] = ()
    late: bool = False


@dataclass(frozen=True, slots=True)
class PickupRecord:
    """Cards this seat itself took from the pile (private to the seat)."""

    turn: int
    cards: tuple[int, ...] = cards_field()


@dataclass(slots=True)
class State:
    """The full state of a match (hidden cards included).  Copy-on-write: the engine copies a
    state (:meth:`clone`) and sets fields of the copy; a state handed out is never changed
    again (not frozen: a frozen class's copy sets its fields through ``object.__setattr__``,
    several times slower)."""

    rules: CheatRules
    seed: int
    phase: str
    hands: tuple[tuple[int, ...], ...]  # count vectors, without the pending selection
    shown: tuple[int, ...]  # hand sizes as everybody can count them
    pile: tuple[Play, ...]
    turn_seat: int  # seat to play, or whose play is being challenged
    to_act: int  # seat to decide (-1 when over)
    selection: tuple[int, ...]  # cards picked for the play being built (sorted)
    allowed: tuple[int, ...]  # ranks the next claim may name
    must_include: int  # card kind the next play must contain (2♣ opening), -1 = none
    askers: tuple[int, ...]  # seats asked in the challenge window, in order
    ask_index: int
    challengers: tuple[int, ...]  # hidden until the window closes
    late_passed: tuple[int, ...]  # public passes in the late (open) round
    out: tuple[int, ...]  # seats that went out, in order
    turns: int  # plays made
    first_player: int
    claims: tuple[ClaimRecord, ...]
    challenges: tuple[ChallengeRecord, ...]
    pickups: tuple[tuple[PickupRecord, ...], ...]  # per seat, private
    termination: str = ""

    def clone(self) -> State:
        """A copy (every field is immutable — ints, strings, tuples, frozen records — so the
        copy shares them all).  Written out: compiled, the fields are set natively;
        ``tests/games/test_skeleton.py`` checks that it copies every field."""
        n = State.__new__(State)  # no __init__ (a dataclass's is interpreted compiled)
        n.rules = self.rules
        n.seed = self.seed
        n.phase = self.phase
        n.hands = self.hands
        n.shown = self.shown
        n.pile = self.pile
        n.turn_seat = self.turn_seat
        n.to_act = self.to_act
        n.selection = self.selection
        n.allowed = self.allowed
        n.must_include = self.must_include
        n.askers = self.askers
        n.ask_index = self.ask_index
        n.challengers = self.challengers
        n.late_passed = self.late_passed
        n.out = self.out
        n.turns = self.turns
        n.first_player = self.first_player
        n.claims = self.claims
        n.challenges = self.challenges
        n.pickups = self.pickups
        n.termination = self.termination
        return n

    def __deepcopy__(self, memo: dict[int, object]) -> State:
        return self.clone()


@dataclass(frozen=True, slots=True)
class PileEntry:
    """A play in the pile as a seat sees it: the claim, and the cards only if it was its own."""

    seat: int
    count: int
    rank: int
    cards: tuple[int, ...] = cards_field()


@dataclass(frozen=True, slots=True)
class CheatView:
    """Exactly what one seat may know (``seat=None``: a spectator).

    ``hand`` excludes ``selection`` (the cards picked so far for the play being built).
    ``hand_sizes`` are the sizes everybody can count (with ``overplay`` or ``overclaim``: as
    counted from the claims and exposures, never below 0).  ``my_decision`` is this seat's own answer in the open challenge
    window (``""`` before it answers); the other seats' answers are never shown before the
    window closes."""

    seat: int | None
    to_act: int | None
    phase: str
    rules: CheatRules
    hand: tuple[int, ...] = cards_field()
    selection: tuple[int, ...] = cards_field()
    hand_sizes: tuple[int, ...] = ()
    pile: tuple[PileEntry, ...] = ()
    pile_size: int = 0
    turn_seat: int = 0
    allowed_ranks: tuple[int, ...] = ()
    must_include: int = card_field(default=-1)
    claims: tuple[ClaimRecord, ...] = ()
    challenges: tuple[ChallengeRecord, ...] = ()
    picked_up: tuple[PickupRecord, ...] = ()
    out: tuple[int, ...] = ()
    turns: int = 0
    first_player: int = 0
    my_decision: str = ""
    late_passed: tuple[int, ...] = ()
    termination: str = ""


def to_act_of(state: State) -> int | None:
    """:meth:`CheatGame.to_act`: the seat to act, ``None`` once the match is over (the engine's
    method is this function itself, a ``staticmethod``: compiled, no interpreted frame)."""
    return None if state.phase == OVER else state.to_act


def hand_number_of(state: State) -> int:
    """:meth:`CheatGame.hand_number`: a match is one hand."""
    return 0
