"""Hidden information, JSON, random play to the end, and the basic bot."""

from __future__ import annotations

import json
import random

import pytest

from parlour import games
from parlour.core.cards import parse_card, parse_cards
from parlour.core.conformance import check_view_consistency, run_random_game
from parlour.games.cheat import GAME, BasicCheatBot
from parlour.games.cheat.actions import Challenge, Pass, Pick
from parlour.games.cheat.bot import p_at_least
from parlour.games.cheat.state import ClaimRecord
from parlour.sim.match import play_match

from .helpers import all_pass, answer, play, position


def test_unchallenged_lie_looks_like_the_truth() -> None:
    """001_e8630c614840283e.txt: "Since the cards are discarded face down, you do not in fact
    have to play the rank you are calling" — a lie nobody challenged leaves every other seat's
    view exactly as if the play had been truthful."""
    hands = ["AC 9D 5H", "2D 3D", "3H 4H", "4S 5S"]
    lie = all_pass(play(position(hands), "9D", 14))
    truth = all_pass(play(position(hands), "AC", 14))
    for seat in (1, 2, 3, None):
        assert GAME.observe(lie, seat) == GAME.observe(truth, seat)
        assert GAME.view_to_json(GAME.observe(lie, seat)) == GAME.view_to_json(
            GAME.observe(truth, seat)
        )
    assert GAME.observe(lie, 0) != GAME.observe(truth, 0)
    assert "9♦" not in json.dumps(GAME.view_to_json(GAME.observe(lie, 1)), ensure_ascii=False)


def test_pending_challenges_are_hidden() -> None:
    """000_0fa2fe02243ab02b.txt: "When two or more people call out a player" — calls are
    simultaneous: a seat asked later does not see an earlier seat's answer."""
    state = play(position(["AC 9D 5H", "2D 3D", "3H 4H", "4S 5S"]), "9D", 14)
    challenged, _ = GAME.apply(state, Challenge())
    passed, _ = GAME.apply(state, Pass())
    for seat in (0, 2, 3, None):
        assert GAME.observe(challenged, seat) == GAME.observe(passed, seat)
    assert GAME.observe(challenged, 1).my_decision == "challenge"
    assert GAME.observe(passed, 1).my_decision == "pass"


def test_view_shows_exposed_cards_and_own_pickups() -> None:
    """001_e8630c614840283e.txt: "the cards played by the challenged player are exposed" — the
    exposed cards and who took them are public; the rest of the pile only to its taker."""
    state = position(["AC 9D 5H", "2D 3D", "3H 4H", "4S 5S"])
    state = all_pass(play(state, "AC", 14))
    state = answer(play(state, "3D", 2), (2,))
    for seat in (0, 2, 3, None):
        view = GAME.observe(state, seat)
        assert view.challenges[-1].cards == (parse_card("3D"),)
        assert view.challenges[-1].exposed_to == (1,)
        assert view.picked_up == ()
    own = GAME.observe(state, 1)
    assert own.picked_up[-1].cards == tuple(sorted(parse_cards("AC 3D")))
    assert [c.rank for c in own.claims] == [14, 2]
    assert GAME.observe(state, 0).hand_sizes == (2, 3, 2, 2)


def test_selection_is_private() -> None:
    """001_e8630c614840283e.txt: cards are "discarded face down": the cards being picked are
    seen only by their owner."""
    state = position(["AC 9D 5H", "2D 3D", "3H 4H", "4S 5S"], fill=True)
    picked, _ = GAME.apply(state, Pick(parse_card("9D")))
    other, _ = GAME.apply(state, Pick(parse_card("AC")))
    assert GAME.observe(picked, 1) == GAME.observe(other, 1)
    assert GAME.observe(picked, 0).selection == (parse_card("9D"),)
    rng = random.Random(3)
    for s in (picked, other):
        check_view_consistency(GAME, s, rng)


@pytest.mark.parametrize("preset", sorted(games.entry("cheat").presets))
def test_random_play_to_the_end(preset: str) -> None:
    """Random play of long games (cap 250 plays, most reach the end) conserves cards and
    leaks nothing."""
    variant = games.get("cheat", preset=preset)
    rules = variant.rules.replace(max_turns=250)
    stats = run_random_game(variant.game, rules, 11, deep_every=211)
    assert stats["decisions"] > 0 and stats["legal_max"] <= 70


def test_overplay_views_consistent() -> None:
    """001_e8630c614840283e.txt overplay: the number of cards put down is hidden, so views and
    determinize stay consistent when hand sizes are only counted from the claims."""
    rng = random.Random(5)
    variant = games.get("cheat", preset="hawaiian")
    for seed in range(3):
        run_random_game(variant.game, variant.rules.replace(max_turns=80), seed, deep_every=3)
    state = position(["8C 8D 8H JS 2C", "5D 6D 7D", "3S 4S"], overplay=True, fill=True)
    state = all_pass(play(state, "8C 8D 8H JS", 14, count=3))
    assert GAME.observe(state, 1).hand_sizes[0] == 2 and sum(state.hands[0]) == 1
    check_view_consistency(GAME, state, rng)
    state = answer(play(state, "5D 6D", 2, count=1), (2,))  # exposed: two cards, one claimed
    assert state.challenges[-1].shares == (5,)  # counted: 3 + 1 claimed + 1 seen extra
    assert GAME.observe(state, 2).hand_sizes[1] == 6 and sum(state.hands[1]) == 7  # J♠ unseen
    check_view_consistency(GAME, state, rng)


def test_hypergeometric() -> None:
    assert p_at_least(10, 0, 5, 1) == 0.0
    assert p_at_least(10, 10, 5, 5) == 1.0
    assert abs(p_at_least(4, 2, 2, 1) - 5 / 6) < 1e-12


def test_basic_bot_plays_truth_when_it_can() -> None:
    """The basic bot tells the truth when it can (all its Aces when Aces are due)."""
    state = position(["AC AD 5H 9S", "2D 3D", "3H 4H"])
    bot = BasicCheatBot(GAME, 0, 1)
    while state.phase == "play":
        action = bot.act(GAME.observe(state, 0), GAME.legal_actions(state))
        state, _ = GAME.apply(state, action)
    assert state.pile[-1].cards == tuple(sorted(parse_cards("AC AD")))
    assert state.claims[-1].count == 2


def test_basic_bot_lies_with_one_card_and_challenges_impossible_claims() -> None:
    """The basic bot lies with a single card when it must, and calls an impossible claim."""
    state = position(["5C 5D 9H", "AC AD AH 2D", "3H 4H"])
    bot = BasicCheatBot(GAME, 0, 1)
    while state.phase == "play":
        state, _ = GAME.apply(state, bot.act(GAME.observe(state, 0), GAME.legal_actions(state)))
    assert len(state.pile[-1].cards) == 1
    assert state.claims[-1] == ClaimRecord(1, 0, 1, 14)
    assert state.pile[-1].cards == (parse_card("9H"),)  # singleton rank, not a pair of 5s
    # seat 0 holds three Aces; seat 2 claims two Aces: impossible with one pack
    state = position(["AC AD AH 5C", "2D 3D", "KH QH 4H"], first=2)
    state = play(state, "KH QH", 14)
    assert GAME.to_act(state) == 0
    assert BasicCheatBot(GAME, 0, 1).act(GAME.observe(state, 0), GAME.legal_actions(state)) == (
        Challenge()
    )


def test_basic_bot_beats_random() -> None:
    """The basic bot wins most 4-player games against three random bots (seeded)."""
    variant = games.get("cheat")
    wins = sum(
        play_match(
            variant, seed, ["basic", "random", "random", "random"], record=False
        ).outcome.winners
        == (0,)
        for seed in range(20)
    )
    assert wins >= 15
