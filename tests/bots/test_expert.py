"""The ``expert`` level (issue 36): ``strong``'s search with 3 s a decision and the game's expert
settings, offered in every game and in the server's bot levels."""

from __future__ import annotations

import pytest

from parlour import games
from parlour.bots import available, make
from parlour.bots.expert import EXPERT_SECONDS, EXPERT_SETTINGS, ExpertBot
from parlour.server.config import BOT_LEVELS

GAMES = ("samba", "handfoot", "cheat", "scat")


@pytest.mark.parametrize("game", GAMES)
def test_expert_is_offered_with_three_seconds_a_decision(game: str) -> None:
    variant = games.get(game)
    assert "expert" in available(variant)
    bot = make("expert", variant, 0, 1)
    assert isinstance(bot, ExpertBot) and bot.name == "expert"
    assert (bot.iterations, bot.seconds) == (None, EXPERT_SECONDS) == (None, 3.0)
    assert make("expert:40it", variant, 0, 1).iterations == 40
    assert make("expert:0.5", variant, 0, 1).seconds == 0.5
    for key, value in EXPERT_SETTINGS.get(game, {}).items():
        assert getattr(bot, key if key != "candidates" else "max_candidates") == value


@pytest.mark.parametrize("game", GAMES)
def test_expert_plays_a_legal_move_from_the_view(game: str) -> None:
    """A few decisions of a game with ``expert`` at a small iteration budget: every move legal
    and the same for the same seed (iteration budgets are deterministic)."""
    variant = games.get(game)
    g = variant.game
    state = variant.new_game(7)
    searched = 0
    for _ in range(40):
        seat = g.to_act(state)
        if seat is None:
            break
        legal = g.legal_actions(state)
        view = g.observe(state, seat)
        if len(legal) > 1 and searched < 3:
            a = make("expert:24it", variant, seat, 5).act(view, legal)
            b = make("expert:24it", variant, seat, 5).act(view, legal)
            assert a == b and a in legal
            searched += 1
        state, _ = g.apply_unchecked(state, make("basic", variant, seat, 1).act(view, legal))
    assert searched > 0


def test_the_server_offers_expert() -> None:
    assert "expert" in BOT_LEVELS
