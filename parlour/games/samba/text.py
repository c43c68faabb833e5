"""Samba's events in words, for one viewer (see :mod:`parlour.core.text`).

>>> from parlour.core.game import Event
>>> from parlour.core.text import Names
>>> names = Names(("South", "West", "North", "East"), sides=((0, 2), (1, 3)))
>>> describe(Event("draw", {"seat": 2, "count": 2}), 0, names)
'your partner draws 2'
>>> describe(Event("add", {"seat": 1, "card": 34, "meld": 0}), 0, names)
'West adds 10♥ to meld #1'
"""

from __future__ import annotations

from parlour.core.cards import card_str
from parlour.core.game import Event, Seat
from parlour.core.text import Names, cards, describe_common

#: the data each kind of event carries (``tests/conformance/test_events.py`` holds every event
#: of random play to these)
EVENT_FIELDS: dict[str, frozenset[str]] = {
    "draw": frozenset({"seat", "count"}),
    "drew": frozenset({"seat", "cards"}),
    "discard": frozenset({"seat", "card"}),
    "meld": frozenset({"seat", "cards", "black_threes"}),
    "add": frozenset({"seat", "card", "meld"}),
    "take": frozenset({"seat", "top", "cards"}),
    "take_top": frozenset({"seat", "card", "meld"}),
    "take_pile": frozenset({"seat", "count"}),
    "merge": frozenset({"seat", "meld", "other"}),
    "red3": frozenset({"seat", "card"}),
    "opened": frozenset({"seat", "total"}),
    "undo": frozenset({"seat"}),
    "pass": frozenset({"seat"}),
    "ask": frozenset({"seat"}),
    "answer": frozenset({"seat", "yes"}),
    "stock_out": frozenset(),
    "hand_end": frozenset({"hand", "scores", "went_out"}),
}


def describe(event: Event, viewer: Seat | None, names: Names) -> str:
    """``event`` told to ``viewer`` (``None``: a spectator) with the seat ``names`` of its
    front end."""
    d = event.data
    kind = event.kind
    seat = d.get("seat", -1)

    def does(verb: str) -> str:
        return names.does(seat, viewer, verb)

    if kind == "draw":
        return does(f"draws {d['count']}")
    if kind == "drew":
        return does(f"draws {cards(d['cards'])}")
    if kind == "discard":
        return does(f"discards {card_str(d['card'])}")
    if kind == "meld":
        return does(f"melds {'black 3s ' if d['black_threes'] else ''}{cards(d['cards'])}")
    if kind == "add":
        return does(f"adds {card_str(d['card'])} to meld #{d['meld'] + 1}")
    if kind == "take":
        return does(f"takes the pile with {cards(d['cards'])}")
    if kind == "take_top":
        return does(f"takes {card_str(d['card'])} onto meld #{d['meld'] + 1}")
    if kind == "take_pile":
        return does(f"takes {d['count']} more cards from the pile")
    if kind == "merge":
        return does(f"merges meld #{d['other'] + 1} into meld #{d['meld'] + 1}")
    if kind == "red3":
        return does(f"lays out {card_str(d['card'])}")
    if kind == "opened":
        return f"{names.whose(seat, viewer, 'side')} has opened with {d['total']}"
    if kind == "undo":
        return does("takes back the opening melds")
    if kind == "pass":
        return does("passes, keeping one card")
    if kind == "ask":
        return f"{does('asks')}: partner, may I go out?"
    if kind == "answer":
        return does(f"answers {'yes' if d['yes'] else 'no'}")
    if kind == "stock_out":
        return "the stock is empty: the hand ends"
    if kind == "hand_end":
        out = d["went_out"]
        how = "the stock ran out" if out is None else f"{names.does(out, viewer, 'went')} out"
        scores = ", ".join(f"{int(x)}" for x in d["scores"])
        return f"hand {d['hand'] + 1} ends ({how}): {scores}"
    return describe_common(event, viewer, names)
