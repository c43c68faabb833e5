"""Scat's events in words, for one viewer (see :mod:`parlour.core.text`).

>>> from parlour.core.game import Event
>>> from parlour.core.text import Names
>>> names = Names.numbered(3)
>>> describe(Event("knock", {"seat": 1}), 1, names), describe(Event("knock", {"seat": 1}), 0, names)
('you knock', 'seat 1 knocks')
"""

from __future__ import annotations

import functools
from functools import partial
from typing import Any

from parlour.core.game import Event, Seat
from parlour.core.said import N_, Said, ngettext
from parlour.core.said import Card as SaidCard
from parlour.core.text import Names, describe_common, tell
from parlour.games.scat import actions as A
from parlour.games.scat.rules import ScatRules
from parlour.games.scat.state import ScatState
from parlour.games.scat.view import BUS_LEVELS
from parlour.i18n import Messages

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


def action_words(action: object) -> Said:
    """A move as its button says it (issue 34): the English is ``str(action)``, the message and
    values let an edge tell it in the reader's language (``parlour.core.text.tell``)."""
    if isinstance(action, A.DrawStock):
        return N_("draw from the stock")
    if isinstance(action, A.TakeDiscard):
        return N_("take the discard")
    if isinstance(action, A.Knock):
        return N_("knock")
    if isinstance(action, A.Hammer):
        return N_("hammer (show down now)")
    if isinstance(action, A.ThrowDown):
        return N_("throw down (show down now)") if action.call else N_("play on")
    if isinstance(action, A.Discard):
        if action.declare:
            return N_("discard {card} and declare 31", card=SaidCard(action.card))
        return N_("discard {card}", card=SaidCard(action.card))
    if isinstance(action, A.EndHand):
        return N_("end the hand (stock is empty)")
    if isinstance(action, A.Declare31):
        return N_("declare the 31 I was dealt")
    return Said(str(action))


def status_words(rules: ScatRules, lives: int, out: bool) -> Said:
    """A seat's standing as said at the table (``view.status_label``'s words, one catalog
    message each: "2 pennies", "on the county", "G-I" …), for the reader's language."""
    if rules.plays_for_points:
        return ngettext("{count} point", "{count} points", lives, count=lives)
    losses = rules.starting_lives - lives
    if rules.tokens == "bus":
        if out:
            return N_("off the bus")
        if rules.lives == 4 and 0 <= losses < len(BUS_LEVELS) and losses <= 4 + rules.extra_levels:
            return _bus_level(losses)
        if lives > 0 or not rules.on_the_county:
            return N_("step {n}", n=losses)
        return N_("on the last step")
    if rules.tokens == "letters":
        if out:
            return N_("out (G-I-N)")
        if losses > 0:
            letters = "-".join("GIN"[: min(3, losses)])
            if lives == 0:
                return N_("{letters} (on the county)", letters=letters)
            return Said(letters)  # the letters themselves, in every language
        return N_("no letters (on the county)") if lives == 0 else N_("no letters")
    if out:
        return N_("out")
    if lives == 0:
        return N_("on poverty") if rules.tokens == "nickels" else N_("on the county")
    if rules.tokens == "nickels":
        return ngettext("{count} nickel", "{count} nickels", lives, count=lives)
    return ngettext("{count} penny", "{count} pennies", lives, count=lives)


def _bus_level(losses: int) -> Said:
    """``view.BUS_LEVELS[losses]`` as a message."""
    levels = (
        N_("seated at the back"),
        N_("standing at the back"),
        N_("in the middle of the bus"),
        N_("at the front of the bus"),
        N_("on the stairs"),
        N_("on the second step"),
        N_("asking the driver to stop"),
    )
    return levels[losses]


def tell_view(state: ScatState, data: dict[str, Any], t: Messages) -> dict[str, Any]:
    """The view's JSON with each seat's standing in the language of ``t`` (issue 34)."""
    rules = state.rules
    status = [_told_status(rules, state.lives[s], state.out[s], t) for s in range(state.players)]
    return {**data, "status": status}


@functools.lru_cache(maxsize=1024)
def _told_status(rules: ScatRules, lives: int, out: bool, t: Messages) -> str:
    """:func:`status_words` told (a handful of standings per table and language: kept)."""
    return tell(status_words(rules, lives, out), t)
