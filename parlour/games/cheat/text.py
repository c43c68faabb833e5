"""Cheat's events in words, for one viewer (see :mod:`parlour.core.text`).

>>> from parlour.core.game import Event
>>> from parlour.core.text import Names
>>> names = Names.table(3)
>>> describe(Event("claim", {"seat": 2, "count": 2, "rank": 7}), 0, names)
'Player 3 claims 2 × 7'
>>> describe(Event("challenge", {"player": 0, "challengers": (1,), "cards": (5,),
...     "truthful": True, "takers": (1,), "shares": (3,)}), 0, names)
'Player 2 challenges you: 7♣ — it was true; the pile goes to Player 2 (3)'
"""

from __future__ import annotations

from parlour.core.cards import rank_str
from parlour.core.game import Event, Seat
from parlour.core.text import Names, cards, describe_common

#: the data each kind of event carries (``tests/conformance/test_events.py`` holds every event
#: of random play to these)
EVENT_FIELDS: dict[str, frozenset[str]] = {
    "first_player": frozenset({"seat"}),
    "claim": frozenset({"seat", "count", "rank"}),
    "played": frozenset({"seat", "cards"}),
    "late_pass": frozenset({"seat"}),
    "late_round": frozenset(),
    "unchallenged": frozenset({"seat"}),
    "challenge": frozenset({"player", "challengers", "cards", "truthful", "takers", "shares"}),
    "picked_up": frozenset({"seat", "cards"}),
    "out": frozenset({"seat", "place"}),
    "game_over": frozenset({"termination"}),
}

_TERMINATION = {
    "went_out": "a player went out",
    "last_player": "one player is left",
    "max_turns": "the agreed number of turns is played",
}


def describe(event: Event, viewer: Seat | None, names: Names) -> str:
    """``event`` told to ``viewer`` (``None``: a spectator) with the seat ``names`` of its
    front end."""
    d = event.data
    kind = event.kind
    seat = d.get("seat", -1)

    def does(verb: str) -> str:
        return names.does(seat, viewer, verb)

    if kind == "first_player":
        return f"the dealer chooses {names.who(seat, viewer)} to play first"
    if kind == "claim":
        return does(f"claims {d['count']} × {rank_str(d['rank'])}")
    if kind == "played":
        return does(f"puts down {cards(d['cards'])}")
    if kind == "late_pass":
        return does("lets it stand")
    if kind == "late_round":
        return "nobody challenged; the play may still be challenged"
    if kind == "unchallenged":
        return f"nobody challenges {names.who(seat, viewer)}"
    if kind == "challenge":
        challengers = list(d["challengers"])
        who = names.many(challengers, viewer)
        single = len(challengers) == 1 and names.who(challengers[0], viewer) != "you"
        verb = "challenges" if single else "challenge"
        verdict = "it was true" if d["truthful"] else "it was a lie"
        takers = ", ".join(
            f"{names.who(t, viewer)} ({n})" for t, n in zip(d["takers"], d["shares"], strict=True)
        )
        return (
            f"{who} {verb} {names.who(d['player'], viewer)}: {cards(d['cards'])} — {verdict}; "
            f"the pile goes to {takers}"
        )
    if kind == "picked_up":
        return does(f"takes {cards(d['cards'])}")
    if kind == "out":
        return does(f"goes out (place {d['place']})")
    if kind == "game_over":
        why = _TERMINATION.get(str(d["termination"]), str(d["termination"]).replace("_", " "))
        return f"the game is over ({why})"
    return describe_common(event, viewer, names)
