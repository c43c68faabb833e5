"""Samba Hand and Foot's events in words, for one viewer (see :mod:`parlour.core.text`).

>>> from parlour.core.game import Event
>>> from parlour.core.text import Names
>>> names = Names.around(4, 1, sides=((0, 2), (1, 3)))
>>> describe(Event("draw", {"seat": 3, "count": 4}), 1, names)
'your partner draws 4 cards'
>>> describe(Event("discard", {"seat": 2, "card": 12}), 1, names)
'West discards A♣'
"""

from __future__ import annotations

from parlour.core.cards import card_str
from parlour.core.game import Event, Seat
from parlour.core.text import Names, cards, describe_common
from parlour.games.handfoot.parts.melds import Meld

#: the seats' names in playthroughs and score-sheet notes (seat 0 South, clockwise)
SEAT_NAMES = ("South", "West", "North", "East")


def seat_name(seat: int) -> str:
    return SEAT_NAMES[seat] if 0 <= seat < len(SEAT_NAMES) else f"seat {seat}"


#: the data each kind of event carries (``tests/conformance/test_events.py`` holds every event
#: of random play to these)
EVENT_FIELDS: dict[str, frozenset[str]] = {
    "reshuffle": frozenset({"count"}),
    "stock_out": frozenset({"seat", "drew_last"}),
    "draw": frozenset({"seat", "count"}),
    "draw_private": frozenset({"seat", "cards"}),
    "red_threes": frozenset({"seat", "cards"}),
    "take_pile": frozenset({"seat", "top", "cards", "pending", "count"}),
    "meld": frozenset({"seat", "meld", "new", "meld_kind", "key", "complete", "cards"}),
    "requirement_met": frozenset({"seat", "on_partner", "points", "minimum"}),
    "retract": frozenset({"seat", "cards", "pile"}),
    "discard": frozenset({"seat", "card"}),
    "pending_joins": frozenset({"seat", "count"}),
    "foot": frozenset({"seat", "count"}),
    "foot_private": frozenset({"seat", "cards"}),
    "out": frozenset({"seat"}),
    "round_over": frozenset({"round", "went_out", "scores", "totals"}),
    "match_over": frozenset(),
    "deal": frozenset({"round", "minimum", "first", "cuts"}),
}


def describe(event: Event, viewer: Seat | None, names: Names) -> str:
    """``event`` told to ``viewer`` (``None``: a spectator) with the seat ``names`` of its
    front end."""
    d = event.data
    kind = event.kind
    seat = d.get("seat", -1)

    def does(verb: str) -> str:
        return names.does(seat, viewer, verb)

    if kind == "reshuffle":
        return f"the stock is empty: {d['count']} discards are shuffled into it"
    if kind == "stock_out":
        if d["drew_last"]:
            return f"{does('drew')} the last cards of the stock and cannot play on: the round ends"
        return f"{does('cannot')} draw: the stock is empty, the round ends"
    if kind == "draw":
        return does(f"draws {d['count']} cards")
    if kind == "draw_private":
        return does(f"draws {cards(d['cards'])}")
    if kind == "red_threes":
        return does(f"lays out {cards(d['cards'])} and draws replacements")
    if kind == "take_pile":
        # the cards below the top are face down (seed 004) unless pile_cards_face_up
        aside = cards(d["pending"]) if d["pending"] else f"{d['count']} more cards, face down,"
        return (
            f"{does('takes')} the pile: {card_str(d['top'])} with {cards(d['cards'])}; "
            f"{aside} join the hand after the discard"
        )
    if kind == "meld":
        label = Meld(d["meld_kind"], d["key"], ()).label()
        where = f"starts a {label}" if d["new"] else f"adds to the {label}"
        done = " — a finished book" if d["complete"] else ""
        return f"{does(where)}: {cards(d['cards'])}{done}"
    if kind == "requirement_met":
        how = "plays on a partner's meld" if d["on_partner"] else f"melds {d['points']} points"
        meets = "meet" if names.who(seat, viewer) == "you" else "meets"
        return f"{does(how)} and {meets} the requirement ({d['minimum']})"
    if kind == "retract":
        back = f"takes back {cards(d['cards'])}"
        return does(back + (" and returns the pile" if d["pile"] else ""))
    if kind == "discard":
        return does(f"discards {card_str(d['card'])}")
    if kind == "pending_joins":
        return does(f"adds the {d['count']} pile cards to {_the(seat, viewer, 'hand')}")
    if kind == "foot":
        return does(f"picks up {_the(seat, viewer, 'foot')} ({d['count']} cards)")
    if kind == "foot_private":
        return f"{names.whose(seat, viewer, 'foot')}: {cards(d['cards'])}"
    if kind == "out":
        return does("goes out")
    if kind == "round_over":
        out = d["went_out"]
        how = "the stock ran out" if out is None else f"{names.does(out, viewer, 'went')} out"
        scores = ", ".join(f"{x:+d}" for x in d["scores"])
        totals = ", ".join(str(x) for x in d["totals"])
        return f"round {d['round'] + 1} over ({how}): {scores}; totals {totals}"
    if kind == "match_over":
        return "the match is over"
    if kind == "deal":
        first = names.does(d["first"], viewer, "plays")
        return f"round {d['round'] + 1} dealt (minimum {d['minimum']}); {first} first"
    return describe_common(event, viewer, names)


def _the(seat: Seat, viewer: Seat | None, thing: str) -> str:
    """``your foot`` to its owner, ``the foot`` to everyone else."""
    return f"your {thing}" if seat == viewer else f"the {thing}"
