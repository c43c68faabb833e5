"""The moves' words (issue 34): every legal action of random play has a button text that is one
catalog message (``Game.action_words``), whose English is the engine's own text (logs, journals
and golden playthroughs unchanged) and which reads differently in Dutch and German."""

from __future__ import annotations

import random
import re

import pytest

from parlour import games
from parlour.core.said import Said
from parlour.core.text import Names, tell
from parlour.i18n import messages

#: a move's text with a seat in front (Samba writes ``seat 2: draw``)
SEAT_PREFIX = re.compile(r"^seat \d+: ")


def _legal_moves(
    name: str, seed: int, steps: int = 300, preset: str | None = None
) -> list[tuple[object, object]]:
    """(state, action) for every legal action at every step of one random match."""
    variant = next(v for v in games.all_variants() if v.name == name and preset in (None, v.preset))
    game = variant.game
    state = game.new_game(variant.rules.replace(**variant.entry.random_play_options), seed)
    rng = random.Random(seed)
    out: list[tuple[object, object]] = []
    for _ in range(steps):
        if game.to_act(state) is None:
            break
        legal = game.legal_actions(state)
        out += [(state, a) for a in legal]
        state, _events = game.apply(state, rng.choice(legal))
    return out


@pytest.mark.parametrize(("name", "preset"), [(v.name, v.preset) for v in games.all_variants()])
def test_action_words_are_the_english_text(name: str, preset: str) -> None:
    game = games.entry(name).game
    seen = set()
    for state, action in _legal_moves(name, 3, preset=preset):
        words = game.action_words(state, action)
        assert isinstance(words, Said), f"{type(action).__name__} has no message"
        assert str(words) == SEAT_PREFIX.sub("", game.action_text(state, action))
        seen.add(type(action).__name__)
    assert len(seen) >= 3


@pytest.mark.parametrize("name", ["samba", "handfoot", "cheat", "scat"])
@pytest.mark.parametrize("lang", ["nl", "de", "es", "pt-BR"])
def test_action_words_are_translated(name: str, lang: str) -> None:
    game = games.entry(name).game
    t = messages(lang)
    names = Names.table(4, (), (), lang)
    for state, action in _legal_moves(name, 5, steps=120):
        words = game.action_words(state, action)
        there = tell(words, t, names)
        assert there != str(words), f"{type(action).__name__} untranslated in {lang}: {words!r}"


def test_dutch_cards_and_melds_in_a_move() -> None:
    from parlour.games.samba.actions import AddToMeld

    game = games.entry("samba").game
    words = game.action_words(None, AddToMeld(0, 50))  # K♠ onto the first meld
    assert str(words) == "add K♠ to meld 0"
    assert "H♠" in tell(words, messages("nl")) and "#1" in tell(words, messages("nl"))
    assert "K♠" in tell(words, messages("de")) and "#1" in tell(words, messages("de"))


def test_words_in_views_are_told() -> None:
    """Scat's standings and Hand and Foot's missing books: the English is the view's own text
    (every preset, every count of lives), and a Dutch reader's view reads Dutch."""
    from parlour.games.scat import text as scat_text
    from parlour.games.scat import view as scat_view

    for v in games.all_variants():
        if v.name != "scat":
            continue
        for lives in range(v.rules.starting_lives + 1):
            for out in (False, True):
                said = scat_text.status_words(v.rules, lives, out)
                assert str(said) == scat_view.status_label(v.rules, lives, out)
    nl = messages("nl")
    for name in ("handfoot", "scat"):
        variant = next(v for v in games.all_variants() if v.name == name)
        game = variant.game
        state = variant.new_game(2)
        data = game.view_to_json(game.observe(state, 0))
        told = game.tell_view(state, data, nl)
        if name == "scat":
            assert told["status"] != data["status"] and told["status"][0].endswith("cent")
        else:
            english = [m for s in data["sides"] for m in s["missing"]]
            dutch = [m for s in told["sides"] for m in s["missing"]]
            assert "1 more samba" in english and "nog 1 samba" in dutch
            assert len(english) == len(dutch) and not set(english) & set(dutch)
