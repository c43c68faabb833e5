"""Events told in words, for one viewer, at the edges (server, terminal, replays, CLI).

Engines emit :class:`~parlour.core.game.Event` records (a kind, data, who may see it) and never
English.  Each game's ``text.py`` turns an event into a sentence for a viewer with
``describe(event, viewer, names)``: the viewer is "you", a partner "your partner", every other
seat the name the viewer's front end uses for it (:class:`Names`), in the viewer's language
(``Names.lang``, :mod:`parlour.i18n`): each sentence is one catalog message with named
placeholders, with a message of its own for "you" (:meth:`Names.say`), so any language can order
and conjugate it.

>>> nl = Names(("South", "West", "North", "East"), sides=((0, 2), (1, 3)), lang="nl")
>>> you, other = nl.t.gettext("you discard {card}"), nl.t.gettext("{player} discards {card}")
>>> nl.say(0, 0, you, other, card=nl.card(51)), nl.say(2, 0, you, other, card=nl.card(51))
('je legt A♠ af', 'je partner legt A♠ af')
>>> nl.say(1, 0, you, other, card=nl.card(50)), nl.card(49), nl.card(48)
('West legt H♠ af', 'V♠', 'B♠')

>>> names = Names(("South", "West", "North", "East"), sides=((0, 2), (1, 3)))
>>> names.does(0, 0, "draws"), names.does(2, 0, "draws"), names.does(1, 0, "goes out")
('you draw', 'your partner draws', 'West goes out')
>>> names.whose(0, 0, "side"), names.whose(3, None, "side")
('your side', "East's side")
>>> describe_common(Event("deal_reveal", {"hand": 0}), None, names)
"Hand 1: the deal's key is revealed, so anyone can check it"
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from parlour.core.cards import JOKER, RANK_NAMES, card_str, rank_of, suit_of
from parlour.core.game import Event, HandResult, Seat
from parlour.core.said import Card, Cards, Listed, MeldNo, Rank, Ranks, Said, SeatNo
from parlour.i18n import SOURCE, Messages, messages

COMPASS = ("South", "West", "North", "East")


def compass(seat: int, t: Messages) -> str:
    """The compass point of ``seat`` at a four-seat table (0 South, clockwise)."""
    words = (
        t.pgettext("seat", "South"),
        t.pgettext("seat", "West"),
        t.pgettext("seat", "North"),
        t.pgettext("seat", "East"),
    )
    return words[seat % 4]


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
    #: the viewer's language (:func:`parlour.i18n.languages`)
    lang: str = SOURCE
    #: the viewer's messages (set from ``lang``)
    t: Messages = field(init=False, repr=False, compare=False)

    #: each seat's partners (from ``sides``; "your partner" is asked for every line told)
    _partners: dict[Seat, frozenset[Seat]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "t", messages(self.lang))
        partners: dict[Seat, set[Seat]] = {}
        for side in self.sides:
            for a in side:
                partners.setdefault(a, set()).update(b for b in side if b != a)
        object.__setattr__(self, "_partners", {a: frozenset(b) for a, b in partners.items()})

    @classmethod
    def numbered(
        cls, players: int, sides: Sequence[Sequence[Seat]] = (), lang: str = SOURCE
    ) -> Names:
        """``seat 0``, ``seat 1`` … (logs, golden playthroughs, replays on the command line)."""
        t = messages(lang)
        return cls(
            tuple(t.gettext("seat {n}").format(n=s) for s in range(players)), _sides(sides), lang
        )

    @classmethod
    def table(
        cls,
        players: int,
        sides: Sequence[Sequence[Seat]] = (),
        players_names: Sequence[str | None] = (),
        lang: str = SOURCE,
    ) -> Names:
        """As the browser table names seats: the compass at four (seat 0 is South), otherwise
        ``Player 1`` …; a player's own name where the table has one.  The server asks for these
        names for every message it tells: made once per table, names and language (a
        ``Names`` never changes, so one is shared)."""
        key = (players, tuple(tuple(side) for side in sides), tuple(players_names), lang)
        return _table(*key) if cls is Names else cls._make_table(*key)

    @classmethod
    def _make_table(
        cls,
        players: int,
        sides: tuple[tuple[Seat, ...], ...],
        players_names: tuple[str | None, ...],
        lang: str,
    ) -> Names:
        t = messages(lang)
        base = [
            compass(s, t) if players == 4 else t.gettext("Player {n}").format(n=s + 1)
            for s in range(players)
        ]
        for s, name in enumerate(players_names):
            if name and s < players:
                base[s] = name
        return cls(tuple(base), _sides(sides), lang)

    @classmethod
    def around(
        cls, players: int, viewer: Seat, sides: Sequence[Sequence[Seat]] = (), lang: str = SOURCE
    ) -> Names:
        """From the viewer's side of the table (the terminal): at four the viewer sits South and
        the others West, North, East clockwise from there; otherwise ``Seat n``."""
        t = messages(lang)
        if players == 4:
            return cls(tuple(compass(s - viewer, t) for s in range(4)), _sides(sides), lang)
        return cls(
            tuple(t.gettext("Seat {n}").format(n=s) for s in range(players)), _sides(sides), lang
        )

    def name(self, seat: Seat) -> str:
        if 0 <= seat < len(self.seats):
            return self.seats[seat]
        return self.t.gettext("seat {n}").format(n=seat)

    def partners(self, a: Seat, b: Seat) -> bool:
        found = self._partners.get(a)
        return found is not None and b in found

    def who(self, seat: Seat, viewer: Seat | None) -> str:
        """``you``, ``your partner`` or the seat's name (the subject of a sentence)."""
        if viewer is not None:
            if seat == viewer:
                return self.t.gettext("you")
            if self.partners(seat, viewer):
                return self.t.gettext("your partner")
        return self.name(seat)

    def whom(self, seat: Seat, viewer: Seat | None) -> str:
        """``you``, ``your partner`` or the seat's name as the object of a sentence."""
        if viewer is not None:
            if seat == viewer:
                return self.t.pgettext("object", "you")
            if self.partners(seat, viewer):
                return self.t.pgettext("object", "your partner")
        return self.name(seat)

    def say(
        self, seat: Seat, viewer: Seat | None, you: str, other: str, /, **values: object
    ) -> str:
        """``you`` (a translated message) when ``seat`` is the viewer, else ``other`` with
        ``{player}`` the seat's name (or "your partner"); both take ``values``."""
        if viewer is not None and seat == viewer:
            return you.format(**values)
        return other.format(player=self.who(seat, viewer), **values)

    def card(self, card: int) -> str:
        """A card as the viewer's language writes it: ``10♥``, ``Q♠`` — ``V♠`` in Dutch."""
        if self.lang == SOURCE or not 0 <= card <= JOKER:
            return card_str(card)
        return card_in(card, self.t)

    def cards(self, values: Sequence[int]) -> str:
        """Cards as people write them: ``7♥ 8♣``."""
        if self.lang == SOURCE:
            return cards(values)
        return " ".join(card_in(c, self.t) for c in values)

    def rank(self, rank: int) -> str:
        if self.lang == SOURCE:
            return RANK_NAMES.get(rank, str(rank))
        return rank_in(rank, self.t)

    def join(self, words: Sequence[str]) -> str:
        """``you and North``, ``West, North and East`` in the viewer's language."""
        return self.t.join(list(words))

    def does(self, seat: Seat, viewer: Seat | None, verb: str) -> str:
        """English only, for games that have no catalog (a toy game in the tests): subject and
        verb agreeing: ``you draw``, ``North draws`` (``verb`` in the third person).  Parlour's
        games use :meth:`say` with whole sentences."""
        who = self.who(seat, viewer)
        return f"{who} {second_person(verb) if who == 'you' else verb}"

    def whose(self, seat: Seat, viewer: Seat | None, thing: str) -> str:
        """``your hand``, ``your partner's hand``, ``North's hand``."""
        who = self.who(seat, viewer)
        return f"your {thing}" if who == "you" else f"{who}'s {thing}"

    def many(self, seats: Sequence[Seat], viewer: Seat | None) -> str:
        """``you and North``, ``West, North and East``."""
        return self.join([self.who(s, viewer) for s in seats])


@functools.lru_cache(maxsize=4096)
def _table(
    players: int,
    sides: tuple[tuple[Seat, ...], ...],
    players_names: tuple[str | None, ...],
    lang: str,
) -> Names:
    return Names._make_table(players, sides, players_names, lang)


def _sides(sides: Sequence[Sequence[Seat]]) -> tuple[tuple[Seat, ...], ...]:
    return tuple(tuple(side) for side in sides)


def sentence(text: str) -> str:
    """The first letter in capitals (a log line)."""
    return text[:1].upper() + text[1:]


def cards(values: Sequence[int]) -> str:
    """Cards as people write them: ``7♥ 8♣``."""
    return " ".join(card_str(c) for c in values)


def rank_in(rank: int, t: Messages) -> str:
    """A rank's letter in a language (``K`` is ``H`` for the Dutch heer, ``K`` for König)."""
    if rank == 11:
        return t.pgettext("card rank: jack", "J")
    if rank == 12:
        return t.pgettext("card rank: queen", "Q")
    if rank == 13:
        return t.pgettext("card rank: king", "K")
    if rank == 14:
        return t.pgettext("card rank: ace", "A")
    return RANK_NAMES.get(rank, str(rank))


def card_in(card: int, t: Messages) -> str:
    if card == JOKER:
        return t.pgettext("card: joker", "Jk")
    return rank_in(rank_of(card), t) + "♣♦♥♠"[suit_of(card)]


def describe_common(event: Event, viewer: Seat | None, names: Names) -> str:
    """Events every game shares (the server's fair-deal records), and a plain fallback that
    names the kind and its data for an event no renderer knows."""
    d = event.data
    t = names.t
    if event.kind == "deal_commitment":
        return t.gettext("Hand {hand}: the deal is sealed (fingerprint {fingerprint}…)").format(
            hand=int(d["hand"]) + 1, fingerprint=str(d["commitment"])[:12]
        )
    if event.kind == "deal_reveal":
        return t.gettext("Hand {hand}: the deal's key is revealed, so anyone can check it").format(
            hand=int(d["hand"]) + 1
        )
    if event.kind == "secret_reveal":
        return t.gettext(
            "The match is over: the server's secret is revealed, so every deal can be checked"
        )
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
        return went_out(int(data["seat"]), viewer, names)
    if kind == "stock_out":
        return names.t.gettext("the stock ran out")
    if data and describe is not None:
        return describe(Event(kind, dict(data)), viewer, names)
    return kind


def went_out(seat: Seat, viewer: Seat | None, names: Names) -> str:
    """``you went out``, ``North went out``."""
    t = names.t
    return names.say(seat, viewer, t.gettext("you went out"), t.gettext("{player} went out"))


def tell(text: str, t: Messages, names: Names | None = None) -> str:
    """An engine's reason (a :class:`~parlour.core.said.Said`) in the language of ``t``; any
    other text as it is.  English is the text itself.

    >>> from parlour.core.said import N_
    >>> tell(N_("you do not hold {card}", card=Card(50)), messages("nl"))
    'je hebt H♠ niet'
    """
    if not isinstance(text, Said) or t.lang == SOURCE:
        return str(text)
    if text.plural is None:
        message = t.gettext(text.msgid)
    else:
        message = t.ngettext(text.msgid, text.plural, text.n)
    values = {k: _value_in(v, t, names) for k, v in text.values.items()}
    try:
        return message.format(**values)
    except (KeyError, IndexError, ValueError):  # a broken translation: the English, not a crash
        return str(text)


def _value_in(value: object, t: Messages, names: Names | None = None) -> str:
    if isinstance(value, Said):
        return tell(value, t, names)
    if isinstance(value, SeatNo):
        if names is not None:
            return names.name(value.seat)
        return t.gettext("seat {n}").format(n=value.seat)
    if isinstance(value, Listed):
        return ", ".join(_value_in(i, t, names) for i in value.items)
    if isinstance(value, MeldNo):
        return t.pgettext("meld number", "#{n}").format(n=value.meld + 1)
    if isinstance(value, Card):
        return card_in(value.card, t) if 0 <= value.card <= JOKER else str(value)
    if isinstance(value, Cards):
        return " ".join(card_in(c, t) for c in value.cards)
    if isinstance(value, Rank):
        return rank_in(value.rank, t)
    if isinstance(value, Ranks):
        return ", ".join(rank_in(r, t) for r in value.ranks)
    if isinstance(value, int) and not isinstance(value, bool):
        return t.number(value)
    return str(value)
