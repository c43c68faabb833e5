"""Events told in words, for one viewer, at the edges (server, terminal, replays, CLI).

Engines emit :class:`~parlour.core.game.Event` records (a kind, data, who may see it) and never
English.  Each game's ``text.py`` turns an event into a sentence for a viewer with
``describe(event, viewer, names)``: the viewer is "you", a partner "your partner", every other
seat the name the viewer's front end uses for it (:class:`Names`).

>>> names = Names(("South", "West", "North", "East"), sides=((0, 2), (1, 3)))
>>> names.does(0, 0, "draws"), names.does(2, 0, "draws"), names.does(1, 0, "goes out")
('you draw', 'your partner draws', 'West goes out')
>>> names.whose(0, 0, "side"), names.whose(3, None, "side")
('your side', "East's side")
>>> describe_common(Event("deal_reveal", {"hand": 0}), None, names)
"Hand 1: the deal's key is revealed, so anyone can check it"
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from parlour.core.cards import card_str
from parlour.core.game import Event, HandResult, Seat

COMPASS = ("South", "West", "North", "East")

#: third person → second person, where dropping the ``s`` is not enough
_IRREGULAR = {
    "is": "are",
    "has": "have",
    "does": "do",
    "goes": "go",
    "was": "were",
}


def second_person(verb: str) -> str:
    """``draws`` → ``draw``, ``passes`` → ``pass``, ``goes out`` → ``go out``.

    >>> [second_person(v) for v in ("draws", "passes", "catches", "has", "lays out", "plays")]
    ['draw', 'pass', 'catch', 'have', 'lay out', 'play']
    """
    first, sep, rest = verb.partition(" ")
    if first in _IRREGULAR:
        word = _IRREGULAR[first]
    elif first.endswith(("sses", "shes", "ches", "xes", "zes")):
        word = first[:-2]
    elif first.endswith("s"):
        word = first[:-1]
    else:
        word = first
    return word + sep + rest


@dataclass(frozen=True)
class Names:
    """How one front end names the seats: ``seats[s]`` is the name of seat ``s`` (a player's
    name when the table has one), ``sides`` the partnerships (for "your partner")."""

    seats: tuple[str, ...]
    sides: tuple[tuple[Seat, ...], ...] = ()

    @classmethod
    def numbered(cls, players: int, sides: Sequence[Sequence[Seat]] = ()) -> Names:
        """``seat 0``, ``seat 1`` … (logs, golden playthroughs, replays on the command line)."""
        return cls(tuple(f"seat {s}" for s in range(players)), _sides(sides))

    @classmethod
    def table(
        cls,
        players: int,
        sides: Sequence[Sequence[Seat]] = (),
        players_names: Sequence[str | None] = (),
    ) -> Names:
        """As the browser table names seats: the compass at four (seat 0 is South), otherwise
        ``Player 1`` …; a player's own name where the table has one."""
        base = [COMPASS[s] if players == 4 else f"Player {s + 1}" for s in range(players)]
        for s, name in enumerate(players_names):
            if name and s < players:
                base[s] = name
        return cls(tuple(base), _sides(sides))

    @classmethod
    def around(cls, players: int, viewer: Seat, sides: Sequence[Sequence[Seat]] = ()) -> Names:
        """From the viewer's side of the table (the terminal): at four the viewer sits South and
        the others West, North, East clockwise from there; otherwise ``Seat n``."""
        if players == 4:
            return cls(tuple(COMPASS[(s - viewer) % 4] for s in range(4)), _sides(sides))
        return cls(tuple(f"Seat {s}" for s in range(players)), _sides(sides))

    def name(self, seat: Seat) -> str:
        return self.seats[seat] if 0 <= seat < len(self.seats) else f"seat {seat}"

    def partners(self, a: Seat, b: Seat) -> bool:
        return a != b and any(a in side and b in side for side in self.sides)

    def who(self, seat: Seat, viewer: Seat | None) -> str:
        """``you``, ``your partner`` or the seat's name."""
        if viewer is not None:
            if seat == viewer:
                return "you"
            if self.partners(seat, viewer):
                return "your partner"
        return self.name(seat)

    def does(self, seat: Seat, viewer: Seat | None, verb: str) -> str:
        """Subject and verb agreeing: ``you draw``, ``North draws`` (``verb`` in the third
        person)."""
        who = self.who(seat, viewer)
        return f"{who} {second_person(verb) if who == 'you' else verb}"

    def whose(self, seat: Seat, viewer: Seat | None, thing: str) -> str:
        """``your hand``, ``your partner's hand``, ``North's hand``."""
        who = self.who(seat, viewer)
        return f"your {thing}" if who == "you" else f"{who}'s {thing}"

    def many(self, seats: Sequence[Seat], viewer: Seat | None) -> str:
        """``you and North``, ``West, North and East``."""
        words = [self.who(s, viewer) for s in seats]
        if len(words) <= 1:
            return "".join(words)
        return ", ".join(words[:-1]) + " and " + words[-1]


def _sides(sides: Sequence[Sequence[Seat]]) -> tuple[tuple[Seat, ...], ...]:
    return tuple(tuple(side) for side in sides)


def sentence(text: str) -> str:
    """The first letter in capitals (a log line)."""
    return text[:1].upper() + text[1:]


def cards(values: Sequence[int]) -> str:
    """Cards as people write them: ``7♥ 8♣``."""
    return " ".join(card_str(c) for c in values)


def describe_common(event: Event, viewer: Seat | None, names: Names) -> str:
    """Events every game shares (the server's fair-deal records), and a plain fallback that
    names the kind and its data for an event no renderer knows."""
    d = event.data
    if event.kind == "deal_commitment":
        return (
            f"Hand {int(d['hand']) + 1}: the deal is sealed "
            f"(fingerprint {str(d['commitment'])[:12]}…)"
        )
    if event.kind == "deal_reveal":
        return f"Hand {int(d['hand']) + 1}: the deal's key is revealed, so anyone can check it"
    if event.kind == "secret_reveal":
        return "The match is over: the server's secret is revealed, so every deal can be checked"
    words = event.kind.replace("_", " ")
    if "seat" in d and isinstance(d["seat"], int):
        return f"{names.who(d['seat'], viewer)}: {words}"
    return words


def hand_note(
    hand: HandResult,
    viewer: Seat | None,
    names: Names,
    describe: Callable[[Event, Seat | None, Names], str] | None = None,
) -> str:
    """How a hand ended, told to ``viewer`` (the score sheet's note).

    ``went_out`` and ``stock_out`` are shared by the games; any other note with data is the
    game's event of that kind, told by its ``describe``; a note with no data (records written
    before notes had data, or a plain word such as a termination) is shown as it is.

    >>> names = Names(("South", "West", "North", "East"), sides=((0, 2), (1, 3)))
    >>> went = HandResult(0, (1.0, 2.0), note="went_out", note_data={"seat": 2})
    >>> hand_note(went, 0, names), hand_note(went, 2, names), hand_note(went, 1, names)
    ('your partner went out', 'you went out', 'North went out')
    >>> hand_note(HandResult(0, (1.0, 2.0), note="stock_out"), None, names)
    'the stock ran out'
    """
    kind, data = hand.note, hand.note_data
    if kind == "went_out" and isinstance(data.get("seat"), int):
        return f"{names.does(int(data['seat']), viewer, 'went')} out"
    if kind == "stock_out":
        return "the stock ran out"
    if data and describe is not None:
        return describe(Event(kind, dict(data)), viewer, names)
    return kind
