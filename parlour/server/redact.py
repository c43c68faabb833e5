"""What each connection may see: the per-seat part of a ``state`` message and the event filter.

Everything a seat is sent about the game is built here from ``game.observe(state, seat)``, the
legal actions (only when that seat is to act), the outcome, and the events ``visible_to`` it.
``seat_payload`` must depend on nothing the seat may not know: the leak test checks that its JSON
is byte-identical when the hidden cards are dealt again with ``game.determinize``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from parlour.core.game import Event, Game, HandResult, Seat
from parlour.core.text import Names, describe_common, hand_note, sentence, tell
from parlour.i18n import SOURCE, Messages, messages


def legal_json(
    game: Game[Any, Any, Any, Any],
    state: Any,
    lang: str = SOURCE,
    player_names: Sequence[str | None] = (),
) -> list[dict[str, Any]]:
    """Every legal action of the seat to act, as JSON plus a readable text: the engine's
    ``action_text`` in English, else the move's words (``Game.action_words``) told in ``lang``
    (issue 34; built once per version, seat and language with the rest of the payload)."""
    legal = game.legal_actions(state)
    if lang == SOURCE:
        return [
            {"action": game.action_to_json(a), "text": game.action_text(state, a)} for a in legal
        ]
    t = messages(lang)
    names = Names.table(game.num_seats(state), game.sides_of(state), player_names, lang)
    return [
        {"action": game.action_to_json(a), "text": told_move(game, state, a, t, names)}
        for a in legal
    ]


#: moves told, by game, what the words depend on (``Game.words_key``), language and seat
#: names: a table's moves repeat (the same discard, the same draw), and telling costs
_TOLD: dict[tuple[Any, ...], str] = {}
_TOLD_MAX = 50_000


def told_move(
    game: Game[Any, Any, Any, Any], state: Any, action: Any, t: Messages, names: Names
) -> str:
    """The move's words (``Game.action_words``) told in the language of ``t``."""
    words = game.words_key(state, action)
    if words is None:
        return tell(game.action_words(state, action), t, names)
    key = (type(game), words, names.lang, names.seats)
    text = _TOLD.get(key)
    if text is None:
        if len(_TOLD) >= _TOLD_MAX:
            _TOLD.clear()
        text = _TOLD[key] = tell(game.action_words(state, action), t, names)
    return text


def view_json(game: Game[Any, Any, Any, Any], state: Any, seat: Seat | None, lang: str) -> Any:
    """The seat's view as JSON, its words (Scat's standings …) in ``lang``."""
    data = game.view_to_json(game.observe(state, seat))
    if lang == SOURCE:
        return data
    return game.tell_view(state, data, messages(lang))


def seat_payload(
    game: Game[Any, Any, Any, Any],
    state: Any,
    seat: Seat | None,
    *,
    playing: bool = True,
    player_names: Sequence[str | None] = (),
    outcome: dict[str, Any] | None = None,
    lang: str = SOURCE,
) -> dict[str, Any]:
    """The view, whose turn, the legal actions (when ``seat`` is to act, their words in
    ``lang``) and the outcome (its hands' notes told to ``seat``, :func:`told_outcome`;
    ``outcome``: that, already made)."""
    to_act = game.to_act(state)
    mine = playing and seat is not None and to_act == seat
    return {
        "seat": seat,
        "to_act": to_act,
        "your_turn": mine,
        "view": view_json(game, state, seat, lang),
        "legal": legal_json(game, state, lang, player_names) if mine else None,
        "outcome": (told_outcome(game, state, seat, player_names) if outcome is None else outcome),
    }


def public_outcome(game: Game[Any, Any, Any, Any], state: Any) -> dict[str, Any]:
    """The outcome as a seat may see it.

    While the match goes on only the sides and the finished hands' results are sent: an engine's
    running ``scores``/``ranking`` may count cards still hidden in hands (a leak found in
    testing), and the finished hands' results are the public score sheet.  At the end the
    whole outcome is public."""
    outcome = game.outcome(state)
    data = outcome.to_json()
    if outcome.finished:
        return data
    return {
        "finished": False,
        "termination": "",
        "sides": data["sides"],
        "hands": data["hands"],
    }


def outcome_key(game: Game[Any, Any, Any, Any], state: Any) -> tuple[int, bool]:
    """What :func:`public_outcome` depends on: while the match goes on only the sides (fixed)
    and the finished hands (only ever added to); at the end, the end."""
    outcome = game.outcome(state)
    return len(outcome.hands), outcome.finished


def told_outcome(
    game: Game[Any, Any, Any, Any],
    state: Any,
    seat: Seat | None,
    player_names: Sequence[str | None] = (),
    lang: str = "en",
) -> dict[str, Any]:
    """:func:`public_outcome` with each hand's ``note`` in words for ``seat`` (in ``lang``) ("you went out",
    "your partner went out", "West went out"), as the table names the seats; the note's kind
    stays in ``note_kind`` and its data in ``note_data``."""
    data = public_outcome(game, state)
    hands = game.outcome(state).hands
    names = Names.table(game.num_seats(state), game.sides_of(state), player_names, lang)
    told = []
    for hand, sent in zip(hands, data["hands"], strict=True):
        told.append({**sent, "note_kind": hand.note, "note": note_words(game, hand, seat, names)})
    return {**data, "hands": told}


def note_words(
    game: Game[Any, Any, Any, Any], hand: HandResult, seat: Seat | None, names: Names
) -> str:
    """A hand's note told to ``seat``."""
    return hand_note(hand, seat, names, game.describe)


def event_json(index: int, event: Event, text: str) -> dict[str, Any]:
    """An event as sent: its kind, the words for this viewer and its data."""
    return {"i": index, "kind": event.kind, "text": text, "data": event.to_json()["data"]}


def teller(
    game: Game[Any, Any, Any, Any],
    state: Any,
    players: int,
    seat: Seat | None,
    player_names: Sequence[str | None] = (),
    lang: str = "en",
) -> Callable[[Event], str]:
    """Events in words for ``seat``, in ``lang`` (issue 34): "you", "your partner", the other seats by their player's
    name where the table has one, else as the browser table names them (the compass at four,
    ``Player n`` otherwise)."""
    sides = game.sides_of(state) if state is not None else ()
    names = Names.table(players, sides, player_names, lang)
    return lambda event: sentence(game.describe(event, seat, names))


def visible_events(
    events: Iterable[tuple[int, Event]],
    seat: Seat | None,
    after: int = -1,
    tell: Callable[[Event], str] | None = None,
) -> list[dict[str, Any]]:
    """The events with index > ``after`` that ``seat`` may see (``None``: a spectator), each
    told in words by ``tell`` (the generic words of its kind when none is given)."""
    say = tell or (lambda event: describe_common(event, seat, Names(())))
    return [event_json(i, ev, say(ev)) for i, ev in events if i > after and ev.visible_to(seat)]
