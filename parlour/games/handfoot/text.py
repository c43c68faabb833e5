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

import functools
from collections.abc import Mapping
from functools import partial
from typing import Any

from parlour.core.game import Event, Seat
from parlour.core.said import N_, Cards, MeldNo, Said
from parlour.core.said import Card as SaidCard
from parlour.core.text import Names, describe_common, tell, went_out
from parlour.games.handfoot import actions as A
from parlour.games.handfoot.parts.melds import RUN, WILDS, card_value
from parlour.games.handfoot.rules import HandFootRules
from parlour.games.handfoot.scoring import book_counts, missing_book_words
from parlour.games.handfoot.state import State
from parlour.i18n import Messages

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


def _suit(suit: int, names: Names) -> str:
    t = names.t
    words = (
        t.pgettext("suit", "clubs"),
        t.pgettext("suit", "diamonds"),
        t.pgettext("suit", "hearts"),
        t.pgettext("suit", "spades"),
    )
    return words[suit] if 0 <= suit < 4 else str(suit)


def _meld(d: Mapping[str, Any], seat: Seat, viewer: Seat | None, names: Names) -> str:
    """``you start a book of Ks``, ``West adds to the hearts run`` …"""
    t = names.t
    kind, key, new = d["meld_kind"], int(d["key"]), bool(d["new"])
    values = {"rank": names.rank(key), "suit": _suit(key, names)}
    if kind == RUN and new:
        you, other = t.gettext("you start a {suit} run"), t.gettext("{player} starts a {suit} run")
    elif kind == RUN:
        you = t.gettext("you add to the {suit} run")
        other = t.gettext("{player} adds to the {suit} run")
    elif kind == WILDS and new:
        you, other = t.gettext("you start a wild book"), t.gettext("{player} starts a wild book")
    elif kind == WILDS:
        you = t.gettext("you add to the wild book")
        other = t.gettext("{player} adds to the wild book")
    elif new:
        you = t.gettext("you start a book of {rank}s")
        other = t.gettext("{player} starts a book of {rank}s")
    else:
        you = t.gettext("you add to the book of {rank}s")
        other = t.gettext("{player} adds to the book of {rank}s")
    return names.say(seat, viewer, you, other, **values)


def describe(event: Event, viewer: Seat | None, names: Names) -> str:
    """``event`` told to ``viewer`` (``None``: a spectator) with the seat ``names`` of its
    front end, in their language (one whole sentence per message, one for "you")."""
    d = event.data
    kind = event.kind
    seat = d.get("seat", -1)
    t = names.t

    say = partial(names.say, seat, viewer)

    if kind == "reshuffle":
        n = int(d["count"])
        return t.ngettext(
            "the stock is empty: {count} discard is shuffled into it",
            "the stock is empty: {count} discards are shuffled into it",
            n,
        ).format(count=n)
    if kind == "stock_out":
        if d["drew_last"]:
            return say(
                t.gettext(
                    "you drew the last cards of the stock and cannot play on: the round ends"
                ),
                t.gettext(
                    "{player} drew the last cards of the stock and cannot play on: the round ends"
                ),
            )
        return say(
            t.gettext("you cannot draw: the stock is empty, the round ends"),
            t.gettext("{player} cannot draw: the stock is empty, the round ends"),
        )
    if kind == "draw":
        n = int(d["count"])
        return say(
            t.ngettext("you draw {count} card", "you draw {count} cards", n),
            t.ngettext("{player} draws {count} card", "{player} draws {count} cards", n),
            count=n,
        )
    if kind == "draw_private":
        return say(
            t.gettext("you draw {cards}"),
            t.gettext("{player} draws {cards}"),
            cards=names.cards(d["cards"]),
        )
    if kind == "red_threes":
        return say(
            t.gettext("you lay out {cards} and draw replacements"),
            t.gettext("{player} lays out {cards} and draws replacements"),
            cards=names.cards(d["cards"]),
        )
    if kind == "take_pile":
        # the cards below the top are face down (seed 004) unless pile_cards_face_up
        values = {"top": names.card(d["top"]), "cards": names.cards(d["cards"])}
        if d["pending"]:
            return say(
                t.gettext(
                    "you take the pile: {top} with {cards}; {pending} join the hand after the "
                    "discard"
                ),
                t.gettext(
                    "{player} takes the pile: {top} with {cards}; {pending} join the hand after "
                    "the discard"
                ),
                pending=names.cards(d["pending"]),
                **values,
            )
        n = int(d["count"])
        return say(
            t.ngettext(
                "you take the pile: {top} with {cards}; {count} more card, face down, joins "
                "the hand after the discard",
                "you take the pile: {top} with {cards}; {count} more cards, face down, join "
                "the hand after the discard",
                n,
            ),
            t.ngettext(
                "{player} takes the pile: {top} with {cards}; {count} more card, face down, "
                "joins the hand after the discard",
                "{player} takes the pile: {top} with {cards}; {count} more cards, face down, "
                "join the hand after the discard",
                n,
            ),
            count=n,
            **values,
        )
    if kind == "meld":
        action = _meld(d, seat, viewer, names)
        if d["complete"]:
            text = t.gettext("{action}: {cards} — a finished book")
        else:
            text = t.gettext("{action}: {cards}")
        return text.format(action=action, cards=names.cards(d["cards"]))
    if kind == "requirement_met":
        if d["on_partner"]:
            return say(
                t.gettext("you play on a partner's meld and meet the requirement ({minimum})"),
                t.gettext(
                    "{player} plays on a partner's meld and meets the requirement ({minimum})"
                ),
                minimum=d["minimum"],
            )
        return say(
            t.gettext("you meld {points} points and meet the requirement ({minimum})"),
            t.gettext("{player} melds {points} points and meets the requirement ({minimum})"),
            points=d["points"],
            minimum=d["minimum"],
        )
    if kind == "retract":
        if d["pile"]:
            return say(
                t.gettext("you take back {cards} and return the pile"),
                t.gettext("{player} takes back {cards} and returns the pile"),
                cards=names.cards(d["cards"]),
            )
        return say(
            t.gettext("you take back {cards}"),
            t.gettext("{player} takes back {cards}"),
            cards=names.cards(d["cards"]),
        )
    if kind == "discard":
        return say(
            t.gettext("you discard {card}"),
            t.gettext("{player} discards {card}"),
            card=names.card(d["card"]),
        )
    if kind == "pending_joins":
        n = int(d["count"])
        return say(
            t.ngettext(
                "you add the {count} pile card to your hand",
                "you add the {count} pile cards to your hand",
                n,
            ),
            t.ngettext(
                "{player} adds the {count} pile card to the hand",
                "{player} adds the {count} pile cards to the hand",
                n,
            ),
            count=n,
        )
    if kind == "foot":
        n = int(d["count"])
        return say(
            t.ngettext(
                "you pick up your foot ({count} card)", "you pick up your foot ({count} cards)", n
            ),
            t.ngettext(
                "{player} picks up the foot ({count} card)",
                "{player} picks up the foot ({count} cards)",
                n,
            ),
            count=n,
        )
    if kind == "foot_private":
        return say(
            t.gettext("your foot: {cards}"),
            t.gettext("{player}'s foot: {cards}"),
            cards=names.cards(d["cards"]),
        )
    if kind == "out":
        return say(t.gettext("you go out"), t.gettext("{player} goes out"))
    if kind == "round_over":
        out = d["went_out"]
        how = t.gettext("the stock ran out") if out is None else went_out(out, viewer, names)
        scores = ", ".join(f"{x:+d}" for x in d["scores"])
        totals = ", ".join(names.t.number(x) for x in d["totals"])
        return t.gettext("round {round} over ({how}): {scores}; totals {totals}").format(
            round=d["round"] + 1, how=how, scores=scores, totals=totals
        )
    if kind == "match_over":
        return t.gettext("the match is over")
    if kind == "deal":
        return names.say(
            d["first"],
            viewer,
            t.gettext("round {round} dealt (minimum {minimum}); you play first"),
            t.gettext("round {round} dealt (minimum {minimum}); {player} plays first"),
            round=d["round"] + 1,
            minimum=d["minimum"],
        )
    return describe_common(event, viewer, names)


def action_words(action: object, pile_top: int | None = None) -> Said:
    """A move as its button says it (issue 34): the English is ``GAME.action_text`` (the pile's
    top card named when ``pile_top`` is given, a discard with its points), the message and values
    let an edge tell it in the reader's language (``parlour.core.text.tell``)."""
    if isinstance(action, A.Draw):
        return N_("draw")
    if isinstance(action, A.TakePile):
        if pile_top is not None:
            return N_(
                "take the pile ({top} with {cards})",
                top=SaidCard(pile_top),
                cards=Cards(action.cards),
            )
        if action.meld < 0:
            return N_(
                "take the pile, top card with {cards} onto a new meld", cards=Cards(action.cards)
            )
        return N_(
            "take the pile, top card with {cards} onto meld {meld}",
            cards=Cards(action.cards),
            meld=MeldNo(action.meld),
        )
    if isinstance(action, A.Meld):
        return N_("meld {cards}", cards=Cards(action.cards))
    if isinstance(action, A.AddToMeld):
        return N_("add {card} to meld {meld}", card=SaidCard(action.card), meld=MeldNo(action.meld))
    if isinstance(action, A.Discard):
        return N_(
            "discard {card} ({points})", card=SaidCard(action.card), points=card_value(action.card)
        )
    if isinstance(action, A.Retract):
        return N_("take back this turn's melds")
    return Said(str(action))


def tell_view(state: State, data: dict[str, Any], t: Messages) -> dict[str, Any]:
    """The view's JSON with what each side still needs to go out in the language of ``t``
    (issue 34)."""
    sides = []
    for side in data.get("sides", ()):
        have = tuple(book_counts(state.melds[side["side"]]).items())
        sides.append({**side, "missing": list(_told_missing(state.rules, have, t))})
    return {**data, "sides": sides}


@functools.lru_cache(maxsize=1024)
def _told_missing(
    rules: HandFootRules, have: tuple[tuple[str, int], ...], t: Messages
) -> tuple[str, ...]:
    """:func:`missing_book_words` told (few book counts per table and language: kept)."""
    return tuple(tell(w, t) for w in missing_book_words(rules, (), dict(have)))
