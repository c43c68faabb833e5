"""The Game protocol every engine implements, and the value types it speaks in.

A game is an object (one per engine) with pure functions over states:

``new_game(rules, seed)``, ``to_act``, ``legal_actions``, ``apply`` (→ new state + events),
``explain``, ``observe(state, seat | None)``, ``determinize(view, rng)``, ``outcome``.

States are never changed in place by ``apply``: it returns a new state (engines may share
unchanged parts).  An illegal action raises :class:`~parlour.core.errors.IllegalAction` naming the
rule, and the state passed in is exactly as before.
"""

from __future__ import annotations

import dataclasses
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from parlour.core import codec
from parlour.core.cards import Card, card_str
from parlour.core.errors import IllegalAction
from parlour.core.rules import Rules
from parlour.core.said import N_

if TYPE_CHECKING:
    from parlour.core.text import Names
    from parlour.i18n import Messages

Seat = int
Side = int

S = TypeVar("S")  # state
A = TypeVar("A")  # action
V = TypeVar("V")  # view
R = TypeVar("R", bound=Rules)


@dataclass(frozen=True)
class Event:
    """Something that happened: a ``kind``, its ``data`` and the ``seats`` that may see it.

    ``seats`` is the set of seats that may see the event; ``None`` means everyone, spectators
    included.  ``data`` holds only what those seats may know: seats as ints, cards as card ints,
    counts, scores — never English.  Each game's ``text.describe(event, viewer, names)`` tells
    the event in words for one viewer ("you draw 2", "North takes the pile"); the fields each
    kind carries are listed in that module's ``EVENT_FIELDS``."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    seats: frozenset[Seat] | None = None

    def visible_to(self, seat: Seat | None) -> bool:
        return self.seats is None or (seat is not None and seat in self.seats)

    def to_json(self) -> dict[str, Any]:
        """Kind and data as JSON: cards (under the keys of :data:`CARD_KEYS`) as people write
        them (``"10♥"``), everything else as is."""
        return {
            "kind": self.kind,
            "data": {
                str(k): _cards_json(v) if k in CARD_KEYS else codec._plain(v)
                for k, v in self.data.items()
            },
        }


#: keys of :attr:`Event.data` whose values are cards (an int, or tuples of them, nested): held
#: as card ints, written in JSON as card text
CARD_KEYS = frozenset({"card", "cards", "top", "pending", "hands"})


def _cards_json(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return card_str(value) if value >= 0 else None
    if isinstance(value, (tuple, list)):
        return [_cards_json(v) for v in value]
    return codec._plain(value)


@dataclass(frozen=True)
class HandResult:
    """The score of one hand (round, deal) per side, with a breakdown for the score sheet.

    ``note`` says how the hand ended as a kind of event with its ``note_data`` (e.g.
    ``"went_out"`` with ``{"seat": 2}``), never in words: the edges tell it to each viewer with
    :func:`parlour.core.text.hand_note` ("you went out", "your partner went out", "West went
    out").  A note with no data is shown as it is (records written before notes had data)."""

    number: int
    scores: tuple[float, ...]
    breakdown: tuple[Mapping[str, float], ...] = ()
    note: str = ""
    note_data: Mapping[str, Any] = dataclasses.field(default_factory=dict)


@dataclass(frozen=True)
class Outcome:
    """How a match stands or ended.

    ``sides`` lists the seats of each side (a solo player is a side of one); ``scores`` are per
    side; ``winners`` are side indices (empty = a draw or no winner); ``termination`` says why
    the match ended (e.g. ``"target_score"``, ``"max_hands"``, ``"last_player"``) or ``""``
    while it goes on; ``kind`` is what that means for everyone (a
    :class:`~parlour.core.outcome.Termination`: ``finished``, ``stock_out``, ``capped``,
    ``abandoned``).  Engines build it with :func:`parlour.core.outcome.decide`."""

    finished: bool
    termination: str
    sides: tuple[tuple[Seat, ...], ...]
    scores: tuple[float, ...]
    winners: tuple[Side, ...]
    hands: tuple[HandResult, ...] = ()
    ranking: tuple[Side, ...] = ()
    kind: str = ""

    @property
    def capped(self) -> bool:
        """A safety cap cut the match short (it did not end by its rules)."""
        return self.kind == "capped"

    def side_of(self, seat: Seat) -> Side:
        for i, seats in enumerate(self.sides):
            if seat in seats:
                return i
        raise ValueError(f"seat {seat} is in no side")

    def seat_score(self, seat: Seat) -> float:
        return self.scores[self.side_of(seat)]

    def seat_won(self, seat: Seat) -> bool:
        return self.side_of(seat) in self.winners

    @property
    def is_draw(self) -> bool:
        return self.finished and not self.winners

    def to_json(self) -> dict[str, Any]:
        return codec._plain(dataclasses.asdict(self))  # type: ignore[no-any-return]


class Game(ABC, Generic[S, A, V, R]):
    """Base class of the engines.  Subclasses implement the abstract methods; the defaults here
    give checked ``apply`` (legality first), JSON codecs and conformance hooks."""

    name: ClassVar[str]
    title: ClassVar[str]
    version: ClassVar[int] = 1
    rules_type: ClassVar[type[Rules]]
    #: action classes by name, for JSON decoding
    action_types: ClassVar[Mapping[str, type]] = {}

    # --- the protocol -------------------------------------------------------------------------

    @abstractmethod
    def new_game(self, rules: R, seed: int) -> S: ...

    @abstractmethod
    def to_act(self, state: S) -> Seat | None: ...

    @abstractmethod
    def legal_actions(self, state: S) -> Sequence[A]: ...

    @abstractmethod
    def apply_unchecked(self, state: S, action: A) -> tuple[S, list[Event]]:
        """Apply an action known to be legal (bots and replays of checked logs use this)."""

    def apply_quiet(self, state: S, action: A) -> S:
        """Apply an action known to be legal without building events: search play-outs,
        simulations that do not save, tournaments and legal-action probes use this.

        Must reach exactly the state :meth:`apply_unchecked` reaches; engines override it with a
        path that builds no events or texts (the default calls :meth:`apply_unchecked`)."""
        return self.apply_unchecked(state, action)[0]

    def explain(self, state: S, action: A) -> str | None:
        """Why ``action`` is illegal now (the rule, in words), or ``None`` if it is legal.

        Engines override this with precise reasons; the default only checks membership."""
        if self.to_act(state) is None:
            return N_("the match is over")
        if action in self.legal_actions(state):
            return None
        return N_("{action} is not a legal move now", action=str(action))

    def apply(self, state: S, action: A) -> tuple[S, list[Event]]:
        """Check, then apply.  Raises :class:`IllegalAction` (state unchanged) when illegal."""
        reason = self.explain(state, action)
        if reason is not None:
            raise IllegalAction(reason, action)
        return self.apply_unchecked(state, action)

    @abstractmethod
    def observe(self, state: S, seat: Seat | None) -> V:
        """Exactly what ``seat`` may know (``None`` = a spectator)."""

    @abstractmethod
    def determinize(self, view: V, rng: random.Random) -> S:
        """A full state consistent with ``view`` (hidden cards dealt at random)."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome: ...

    def hand_results(self, state: S) -> tuple[tuple[tuple[Seat, ...], ...], tuple[HandResult, ...]]:
        """``outcome(state)``'s ``sides`` and ``hands`` (the results of the hands played so
        far): what per-hand rewards read at each hand's end (``parlour.rl``).  Engines whose
        outcome costs more than these two may return them without building it."""
        out = self.outcome(state)
        return out.sides, out.hands

    @abstractmethod
    def all_cards(self, state: S) -> list[Card]:
        """Every card of the game wherever it lies (conservation checks)."""

    def num_seats(self, state: S) -> int:
        return int(getattr(state, "players", 0) or state.rules.players)  # type: ignore[attr-defined]

    def viewer_seat(self, view: V) -> Seat | None:
        """The seat a view was made for (``None`` for a spectator)."""
        return getattr(view, "seat", None)

    def view_to_act(self, view: V) -> Seat | None:
        """Whose decision it is, as the view shows it."""
        return getattr(view, "to_act", None)

    # --- fair shuffles: commit to each hand's deal seed, reveal it after the hand ----------

    @abstractmethod
    def hand_number(self, state: S) -> int:
        """Index (0, 1, …) of the hand in progress (or last played when the match is over)."""

    @abstractmethod
    def hand_seed(self, state: S) -> int:
        """The seed the current hand was dealt from (hidden information: never in a view).

        Engines derive it as ``derive_seed(match_seed, "deal", hand_number)``."""

    @abstractmethod
    def redeal(self, state: S, seed: int) -> S:
        """Deal the current hand again from ``seed``, everything else as in ``state``.

        Given the state just after a hand was dealt and that hand's revealed seed, the result
        equals the state: that is how ``parlour verify`` checks a deal."""

    # --- JSON ------------------------------------------------------------------------------

    def action_to_json(self, action: A) -> dict[str, Any]:
        return codec.to_json(action)

    def action_from_json(self, data: Mapping[str, Any]) -> A:
        return codec.from_json(data, self.action_types)  # type: ignore[no-any-return]

    def view_to_json(self, view: V) -> dict[str, Any]:
        return codec.to_json(view)

    def action_text(self, state: S, action: A) -> str:
        return str(action)

    def tell_view(self, state: S, data: dict[str, Any], t: Messages) -> dict[str, Any]:
        """The view's JSON (``view_to_json``) with any words it holds told in the language of
        ``t`` (issue 34; the server calls it for a reader who is not reading English).  Most
        views hold data only: as they are."""
        return data

    def action_words(self, state: S, action: A) -> str:
        """The move as its button says it, to the seat to act (issue 34): ``action_text``
        without a leading ``seat n:``, as a :class:`parlour.core.said.Said` where the game
        gives one, so the server can tell it in each reader's language
        (``parlour.core.text.tell``).  Its English is that of ``action_text``."""
        return self.action_text(state, action)

    def words_key(self, state: S, action: A) -> object:
        """What ``action_words`` depends on, hashable (the server keeps each move it told, per
        language, under this key); ``None``: nothing to keep by (told every time)."""
        return None

    # --- words ---------------------------------------------------------------------------

    def describe(self, event: Event, viewer: Seat | None, names: Names) -> str:
        """The event in words for ``viewer`` (games render their kinds in their ``text.py``)."""
        from parlour.core.text import describe_common

        return describe_common(event, viewer, names)

    def sides_of(self, state: S) -> tuple[tuple[Seat, ...], ...]:
        """The partnerships now (for "your partner"); every seat alone by default."""
        return tuple((s,) for s in range(self.num_seats(state)))
