"""Scat's events in words, for one viewer (see :mod:`parlour.core.text`).

>>> from parlour.core.game import Event
>>> from parlour.core.text import Names
>>> names = Names.numbered(3)
>>> describe(Event("knock", {"seat": 1}), 1, names), describe(Event("knock", {"seat": 1}), 0, names)
('you knock', 'seat 1 knocks')
"""

from __future__ import annotations

from functools import partial

from parlour.core.game import Event, Seat
from parlour.core.text import Names, describe_common

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


def _termination(why: str, names: Names) -> str:
    t = names.t
    if why == "last_player":
        return t.gettext("one player is left")
    if why == "target_points":
        return t.gettext("the target score is reached")
    if why == "max_hands":
        return t.gettext("the agreed number of hands is played")
    return why.replace("_", " ")


def _reason(why: str, names: Names) -> str:
    """Why a hand ended (``hand_over``'s ``reason``)."""
    t = names.t
    words = {
        "knock": t.pgettext("hand ended by", "knock"),
        "hammer": t.pgettext("hand ended by", "hammer"),
        "throw_down": t.pgettext("hand ended by", "throw down"),
        "declared_31": t.pgettext("hand ended by", "declared 31"),
        "dealt_31": t.pgettext("hand ended by", "dealt 31"),
        "stock_exhausted": t.pgettext("hand ended by", "stock exhausted"),
    }
    return words.get(why, why.replace("_", " "))


def describe(event: Event, viewer: Seat | None, names: Names) -> str:
    """``event`` told to ``viewer`` (``None``: a spectator) with the seat ``names`` of its
    front end, in their language (one whole sentence per message, one for "you")."""
    d = event.data
    kind = event.kind
    seat = d.get("seat", -1)
    t = names.t

    say = partial(names.say, seat, viewer)

    if kind == "throw_down":
        return say(
            t.gettext("you throw down: everyone shows"),
            t.gettext("{player} throws down: everyone shows"),
        )
    if kind == "play_on":
        return say(t.gettext("you play on"), t.gettext("{player} plays on"))
    if kind == "draw":
        return say(t.gettext("you draw from the stock"), t.gettext("{player} draws from the stock"))
    if kind == "drawn":
        return say(
            t.gettext("you draw {card}"),
            t.gettext("{player} draws {card}"),
            card=names.card(d["card"]),
        )
    if kind == "take":
        return say(
            t.gettext("you take {card} from the pile"),
            t.gettext("{player} takes {card} from the pile"),
            card=names.card(d["card"]),
        )
    if kind == "knock":
        return say(t.gettext("you knock"), t.gettext("{player} knocks"))
    if kind == "hammer":
        return say(
            t.gettext("you call a hammer: everyone shows"),
            t.gettext("{player} calls a hammer: everyone shows"),
        )
    if kind == "end_hand":
        return say(
            t.gettext("you do not take the discard: the stock is exhausted"),
            t.gettext("{player} does not take the discard: the stock is exhausted"),
        )
    if kind == "discard":
        return say(
            t.gettext("you discard {card}"),
            t.gettext("{player} discards {card}"),
            card=names.card(d["card"]),
        )
    if kind == "declare":
        return say(
            t.gettext("you declare 31: {cards}"),
            t.gettext("{player} declares 31: {cards}"),
            cards=names.cards(d["cards"]),
        )
    if kind == "dealt_31":
        hands = "; ".join(
            f"{names.who(s, viewer)}: {names.cards(h)}"
            for s, h in zip(d["seats"], d["hands"], strict=True)
        )
        return t.gettext("dealt 31: {hands}").format(hands=hands)
    if kind == "hand_over":
        parts = []
        for s, change in enumerate(d["changes"]):
            if change < 0:
                parts.append(
                    names.say(
                        s,
                        viewer,
                        t.gettext("you lose {points}"),
                        t.gettext("{player} loses {points}"),
                        points=-change,
                    )
                )
            elif change > 0:
                parts.append(
                    names.say(
                        s,
                        viewer,
                        t.gettext("you score {points}"),
                        t.gettext("{player} scores {points}"),
                        points=change,
                    )
                )
        why = _reason(str(d["reason"]), names)
        text = t.gettext("hand {hand} ({why}): {changes}").format(
            hand=d["hand"] + 1, why=why, changes=", ".join(parts) or t.gettext("no change")
        )
        if d["replay"]:
            text += t.gettext("; every remaining player would be out: they play another hand")
        if d["out"]:
            text += t.gettext("; out: {players}").format(players=names.many(d["out"], viewer))
        return text
    if kind == "match_over":
        why = _termination(str(d["termination"]), names)
        return t.gettext("the match is over ({why})").format(why=why)
    if kind == "deal":
        return names.say(
            d["dealer"],
            viewer,
            t.gettext("hand {hand}: you deal"),
            t.gettext("hand {hand}: {player} deals"),
            hand=d["hand"] + 1,
        )
    return describe_common(event, viewer, names)
