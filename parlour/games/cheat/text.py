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

from functools import partial

from parlour.core.game import Event, Seat
from parlour.core.said import N_, Rank, Said, SeatNo
from parlour.core.said import Card as SaidCard
from parlour.core.text import Names, describe_common
from parlour.games.cheat import actions as A

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


def _termination(why: str, names: Names) -> str:
    t = names.t
    if why == "went_out":
        return t.gettext("a player went out")
    if why == "last_player":
        return t.gettext("one player is left")
    if why == "max_turns":
        return t.gettext("the agreed number of turns is played")
    return why.replace("_", " ")


def describe(event: Event, viewer: Seat | None, names: Names) -> str:
    """``event`` told to ``viewer`` (``None``: a spectator) with the seat ``names`` of its
    front end, in their language (one whole sentence per message, one for "you")."""
    d = event.data
    kind = event.kind
    seat = d.get("seat", -1)
    t = names.t

    say = partial(names.say, seat, viewer)

    if kind == "first_player":
        return say(
            t.gettext("the dealer chooses you to play first"),
            t.gettext("the dealer chooses {player} to play first"),
        )
    if kind == "claim":
        return say(
            t.gettext("you claim {count} × {rank}"),
            t.gettext("{player} claims {count} × {rank}"),
            count=d["count"],
            rank=names.rank(d["rank"]),
        )
    if kind == "played":
        return say(
            t.gettext("you put down {cards}"),
            t.gettext("{player} puts down {cards}"),
            cards=names.cards(d["cards"]),
        )
    if kind == "late_pass":
        return say(t.gettext("you let it stand"), t.gettext("{player} lets it stand"))
    if kind == "late_round":
        return t.gettext("nobody challenged; the play may still be challenged")
    if kind == "unchallenged":
        return say(t.gettext("nobody challenges you"), t.gettext("nobody challenges {player}"))
    if kind == "challenge":
        challengers = list(d["challengers"])
        who = names.many(challengers, viewer)
        player = int(d["player"])
        if challengers == [viewer]:
            challenge = t.gettext("you challenge {player}")
        elif len(challengers) == 1:
            if player == viewer:
                challenge = t.gettext("{challengers} challenges you")
            else:
                challenge = t.gettext("{challengers} challenges {player}")
        elif player == viewer:
            challenge = t.gettext("{challengers} challenge you")
        else:
            challenge = t.gettext("{challengers} challenge {player}")
        challenge = challenge.format(challengers=who, player=names.whom(player, viewer))
        verdict = t.gettext("it was true") if d["truthful"] else t.gettext("it was a lie")
        takers = ", ".join(
            t.gettext("{player} ({count})").format(player=names.whom(p, viewer), count=n)
            for p, n in zip(d["takers"], d["shares"], strict=True)
        )
        return t.gettext("{challenge}: {cards} — {verdict}; the pile goes to {takers}").format(
            challenge=challenge, cards=names.cards(d["cards"]), verdict=verdict, takers=takers
        )
    if kind == "picked_up":
        return say(
            t.gettext("you take {cards}"),
            t.gettext("{player} takes {cards}"),
            cards=names.cards(d["cards"]),
        )
    if kind == "out":
        return say(
            t.gettext("you go out (place {place})"),
            t.gettext("{player} goes out (place {place})"),
            place=d["place"],
        )
    if kind == "game_over":
        why = _termination(str(d["termination"]), names)
        return t.gettext("the game is over ({why})").format(why=why)
    return describe_common(event, viewer, names)


def action_words(action: object) -> Said:
    """A move as its button says it (issue 34): the English is ``str(action)``, the message and
    values let an edge tell it in the reader's language (``parlour.core.text.tell``)."""
    if isinstance(action, A.Pick):
        return N_("pick {card}", card=SaidCard(action.card))
    if isinstance(action, A.Claim):
        return N_("claim {count} × {rank}", count=action.count, rank=Rank(action.rank))
    if isinstance(action, A.Challenge):
        return N_("challenge")
    if isinstance(action, A.Pass):
        return N_("pass")
    if isinstance(action, A.ChooseFirst):
        return N_("seat {seat} plays first", seat=SeatNo(action.seat))
    return Said(str(action))
