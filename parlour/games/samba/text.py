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

from functools import partial

from parlour.core.game import Event, Seat
from parlour.core.said import N_, Cards, MeldNo, Said
from parlour.core.said import Card as SaidCard
from parlour.core.text import Names, describe_common, went_out
from parlour.games.samba import actions as A

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
    front end, in their language (one whole sentence per message, one for "you")."""
    d = event.data
    kind = event.kind
    seat = d.get("seat", -1)
    t = names.t

    say = partial(names.say, seat, viewer)

    if kind == "draw":
        return say(
            t.gettext("you draw {count}"), t.gettext("{player} draws {count}"), count=d["count"]
        )
    if kind == "drew":
        return say(
            t.gettext("you draw {cards}"),
            t.gettext("{player} draws {cards}"),
            cards=names.cards(d["cards"]),
        )
    if kind == "discard":
        return say(
            t.gettext("you discard {card}"),
            t.gettext("{player} discards {card}"),
            card=names.card(d["card"]),
        )
    if kind == "meld":
        if d["black_threes"]:
            return say(
                t.gettext("you meld black 3s {cards}"),
                t.gettext("{player} melds black 3s {cards}"),
                cards=names.cards(d["cards"]),
            )
        return say(
            t.gettext("you meld {cards}"),
            t.gettext("{player} melds {cards}"),
            cards=names.cards(d["cards"]),
        )
    if kind == "add":
        return say(
            t.gettext("you add {card} to meld #{meld}"),
            t.gettext("{player} adds {card} to meld #{meld}"),
            card=names.card(d["card"]),
            meld=d["meld"] + 1,
        )
    if kind == "take":
        return say(
            t.gettext("you take the pile with {cards}"),
            t.gettext("{player} takes the pile with {cards}"),
            cards=names.cards(d["cards"]),
        )
    if kind == "take_top":
        return say(
            t.gettext("you take {card} onto meld #{meld}"),
            t.gettext("{player} takes {card} onto meld #{meld}"),
            card=names.card(d["card"]),
            meld=d["meld"] + 1,
        )
    if kind == "take_pile":
        n = int(d["count"])
        return say(
            t.ngettext(
                "you take {count} more card from the pile",
                "you take {count} more cards from the pile",
                n,
            ),
            t.ngettext(
                "{player} takes {count} more card from the pile",
                "{player} takes {count} more cards from the pile",
                n,
            ),
            count=n,
        )
    if kind == "merge":
        return say(
            t.gettext("you merge meld #{other} into meld #{meld}"),
            t.gettext("{player} merges meld #{other} into meld #{meld}"),
            other=d["other"] + 1,
            meld=d["meld"] + 1,
        )
    if kind == "red3":
        return say(
            t.gettext("you lay out {card}"),
            t.gettext("{player} lays out {card}"),
            card=names.card(d["card"]),
        )
    if kind == "opened":
        if viewer is not None and seat == viewer:
            return t.gettext("your side has opened with {total}").format(total=d["total"])
        if viewer is not None and names.partners(seat, viewer):
            return t.gettext("your partner's side has opened with {total}").format(total=d["total"])
        return t.gettext("{player}'s side has opened with {total}").format(
            player=names.name(seat), total=d["total"]
        )
    if kind == "undo":
        return say(
            t.gettext("you take back the opening melds"),
            t.gettext("{player} takes back the opening melds"),
        )
    if kind == "pass":
        return say(
            t.gettext("you pass, keeping one card"), t.gettext("{player} passes, keeping one card")
        )
    if kind == "ask":
        return say(
            t.gettext("you ask: partner, may I go out?"),
            t.gettext("{player} asks: partner, may I go out?"),
        )
    if kind == "answer":
        if d["yes"]:
            return say(t.gettext("you answer yes"), t.gettext("{player} answers yes"))
        return say(t.gettext("you answer no"), t.gettext("{player} answers no"))
    if kind == "stock_out":
        return t.gettext("the stock is empty: the hand ends")
    if kind == "hand_end":
        out = d["went_out"]
        how = t.gettext("the stock ran out") if out is None else went_out(out, viewer, names)
        scores = ", ".join(names.t.number(int(x)) for x in d["scores"])
        return t.gettext("hand {hand} ends ({how}): {scores}").format(
            hand=d["hand"] + 1, how=how, scores=scores
        )
    return describe_common(event, viewer, names)


def action_words(action: object) -> Said:
    """A move as its button says it (issue 34): the English is ``str(action)``, the message and
    values let an edge tell it in the reader's language (``parlour.core.text.tell``)."""
    if isinstance(action, A.Draw):
        return N_("draw")
    if isinstance(action, A.TakePile):
        return N_("take the pile with {cards}", cards=Cards(action.pair))
    if isinstance(action, A.TakeTop):
        return N_("take the top card onto meld {meld}", meld=MeldNo(action.meld))
    if isinstance(action, A.Stage):
        return N_("meld {card}", card=SaidCard(action.card))
    if isinstance(action, A.Unstage):
        return N_("take back the unfinished meld")
    if isinstance(action, A.AddToMeld):
        return N_("add {card} to meld {meld}", card=SaidCard(action.card), meld=MeldNo(action.meld))
    if isinstance(action, A.MergeGroups):
        return N_(
            "merge meld {other} into meld {meld}",
            other=MeldNo(action.other),
            meld=MeldNo(action.meld),
        )
    if isinstance(action, A.LayRedThree):
        return N_("lay out {card}", card=SaidCard(action.card))
    if isinstance(action, A.MeldBlackThrees):
        return N_("meld black 3s {cards}", cards=Cards(action.cards))
    if isinstance(action, A.UndoOpening):
        return N_("take back the opening melds")
    if isinstance(action, A.Discard):
        return N_("discard {card}", card=SaidCard(action.card))
    if isinstance(action, A.Pass):
        return N_("pass")
    if isinstance(action, A.AskGoOut):
        return N_("partner, may I go out?")
    if isinstance(action, A.AnswerGoOut):
        return N_("yes, go out") if action.yes else N_("no, do not go out")
    return Said(str(action))
