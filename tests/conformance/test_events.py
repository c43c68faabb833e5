"""Structured events (issue 15): an engine's events carry a kind, data and who may see them —
no English — and each game's ``text.py`` tells every event to every viewer.

Random play over every preset of every game: each event's kind is declared in the game's
``EVENT_FIELDS`` with exactly the data keys it carries; every viewer (each seat, a spectator)
gets a sentence naming seats by the front end's names ("you", "your partner", "North" …),
never an engine's "seat 2"; a private event is told to its seat in the second person.
"""

from __future__ import annotations

import importlib
import random
import re
from typing import Any

import pytest

from parlour import games
from parlour.core.game import Event
from parlour.core.text import Names

GAMES = ["samba", "handfoot", "cheat", "scat"]
STEPS = 250
SEAT_NUMBER = re.compile(r"\bseat \d", re.IGNORECASE)


def _events(name: str) -> list[tuple[Any, Any, Event]]:
    """(game, state after, event) over random matches of every preset."""
    entry = games.entry(name)
    rng = random.Random(15)
    out = []
    for i, preset in enumerate(entry.presets):
        variant = games.get(name, preset, None, **entry.random_play_options)
        game = variant.game
        state = game.new_game(variant.rules, 100 + i)
        for _ in range(STEPS):
            if game.to_act(state) is None:
                break
            legal = game.legal_actions(state)
            state, events = game.apply(state, legal[rng.randrange(len(legal))])
            out.extend((game, state, e) for e in events)
    return out


@pytest.mark.parametrize("name", GAMES)
def test_every_event_is_declared_data_and_told_to_every_viewer(name: str) -> None:
    text = importlib.import_module(f"parlour.games.{name}.text")
    fields: dict[str, frozenset[str]] = text.EVENT_FIELDS
    kinds: set[str] = set()
    for game, state, event in _events(name):
        kinds.add(event.kind)
        assert event.kind in fields, f"{name}: event kind {event.kind!r} is not declared"
        assert set(event.data) == fields[event.kind], (event.kind, sorted(event.data))
        assert not hasattr(event, "text")
        n = game.num_seats(state)
        names = Names.table(n, game.sides_of(state))
        for viewer in [None, *range(n)]:
            if not event.visible_to(viewer):
                continue
            said = text.describe(event, viewer, names)
            assert said == game.describe(event, viewer, names)
            assert said and "{" not in said and "None" not in said, (event, said)
            assert not SEAT_NUMBER.search(said), f"{event.kind} told as {said!r}"
            assert not said.startswith(event.kind.replace("_", " ") + ":"), said  # no fallback
            if event.seats is not None and viewer in event.seats and len(event.seats) == 1:
                assert re.match(r"you\b|your\b", said), f"private {event.kind}: {said!r}"
    assert len(kinds) >= 5, f"{name}: random play met only {sorted(kinds)}"


def test_names_say_you_your_partner_and_the_viewers_compass() -> None:
    around = Names.around(4, 1, sides=((0, 2), (1, 3)))
    assert [around.who(s, 1) for s in range(4)] == ["East", "you", "West", "your partner"]
    table = Names.table(4, ((0, 2), (1, 3)), players_names=("Ann", None, "Cy", None))
    assert [table.who(s, None) for s in range(4)] == ["Ann", "West", "Cy", "East"]
    assert table.does(0, 0, "passes") == "you pass" and table.does(2, 0, "passes") == (
        "your partner passes"
    )
    assert Names.numbered(3).many([0, 2], 2) == "seat 0 and you"
