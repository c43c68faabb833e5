"""Scat's events in words, for one viewer (see :mod:`parlour.core.text`).

>>> from parlour.core.game import Event
>>> from parlour.core.text import Names
>>> names = Names.numbered(3)
>>> describe(Event("knock", {"seat": 1}), 1, names), describe(Event("knock", {"seat": 1}), 0, names)
('you knock', 'seat 1 knocks')
"""

from __future__ import annotations

from parlour.core.cards import card_str
from parlour.core.game import Event, Seat
from parlour.core.text import Names, cards, describe_common

#: the data each kind of event carries (``tests/conformance/test_events.py`` holds every event
#: of random play to these)
EVENT_FIELDS: dict[str, frozenset[str]] = {
    "throw_down": frozenset({"seat"}),
    "play_on": frozenset({"seat"}),
    "draw": frozenset({"seat"}),
    "drawn": frozenset({"seat", "card"}),
    "take": frozenset({"seat", "card"}),
    "knock": frozenset({"seat"}),
    "hammer": frozenset({"seat"}),
    "end_hand": frozenset({"seat"}),
    "discard": frozenset({"seat", "card"}),
    "declare": frozenset({"seat", "cards"}),
    "dealt_31": frozenset({"seats", "hands"}),
    "hand_over": frozenset({"hand", "reason", "changes", "replay", "out", "shown", "hands"}),
    "match_over": frozenset({"termination"}),
    "deal": frozenset({"hand", "dealer"}),
}

_TERMINATION = {
    "last_player": "one player is left",
    "target_points": "the target score is reached",
    "max_hands": "the agreed number of hands is played",
}


def describe(event: Event, viewer: Seat | None, names: Names) -> str:
    """``event`` told to ``viewer`` (``None``: a spectator) with the seat ``names`` of its
    front end."""
    d = event.data
    kind = event.kind
    seat = d.get("seat", -1)

    def does(verb: str) -> str:
        return names.does(seat, viewer, verb)

    if kind == "throw_down":
        return f"{does('throws')} down: everyone shows"
    if kind == "play_on":
        return does("plays on")
    if kind == "draw":
        return does("draws from the stock")
    if kind == "drawn":
        return does(f"draws {card_str(d['card'])}")
    if kind == "take":
        return does(f"takes {card_str(d['card'])} from the pile")
    if kind == "knock":
        return does("knocks")
    if kind == "hammer":
        return f"{does('calls')} a hammer: everyone shows"
    if kind == "end_hand":
        return f"{does('does')} not take the discard: the stock is exhausted"
    if kind == "discard":
        return does(f"discards {card_str(d['card'])}")
    if kind == "declare":
        return does(f"declares 31: {cards(d['cards'])}")
    if kind == "dealt_31":
        hands = "; ".join(
            f"{names.who(s, viewer)}: {cards(h)}"
            for s, h in zip(d["seats"], d["hands"], strict=True)
        )
        return f"dealt 31: {hands}"
    if kind == "hand_over":
        parts = []
        for s, change in enumerate(d["changes"]):
            if change < 0:
                parts.append(names.does(s, viewer, f"loses {-change}"))
            elif change > 0:
                parts.append(names.does(s, viewer, f"scores {change}"))
        why = str(d["reason"]).replace("_", " ")
        text = f"hand {d['hand'] + 1} ({why}): " + (", ".join(parts) or "no change")
        if d["replay"]:
            text += "; every remaining player would be out: they play another hand"
        if d["out"]:
            text += "; out: " + names.many(d["out"], viewer)
        return text
    if kind == "match_over":
        why = _TERMINATION.get(str(d["termination"]), str(d["termination"]).replace("_", " "))
        return f"the match is over ({why})"
    if kind == "deal":
        return f"hand {d['hand'] + 1}: {names.does(d['dealer'], viewer, 'deals')}"
    return describe_common(event, viewer, names)
