"""Scat engine plumbing: views (the squared-up pile), determinize, replay, verifiable deals,
random play of every preset, the basic bot and ``parlour simulate scat``."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from parlour import games
from parlour.cli import app
from parlour.core.conformance import check_view_consistency, run_random_game
from parlour.core.errors import IllegalAction
from parlour.games.scat import ENTRY, GAME
from parlour.games.scat.actions import Discard, DrawStock, EndHand, Knock, TakeDiscard
from parlour.games.scat.bot import BasicScatBot
from parlour.games.scat.rules import ScatRules
from parlour.sim.match import play_match

from .helpers import card, cards, play, position


def test_view_shows_own_hand_top_of_pile_and_never_other_hands() -> None:
    """001_e8630c614840283e.txt: "the discard pile is always kept 'squared up' so that only the
    top card is visible"; the stock is drawn "without showing it to the other players"."""
    state = position(["A♥ K♥ 2♣", "3♦ 4♦ 5♠", "9♣ 9♥ 8♠"], stock="2♦ 7♣ Q♠", pile="5♥ 9♦")
    state = play(state, DrawStock())
    view = GAME.observe(state, 1)
    assert view.hand == cards("3♦ 4♦ 5♠") and view.hand_value == 7
    assert view.pile_top == card("9♦") and view.pile_size == 2
    assert view.stock_size == 2 and view.hand_sizes == (4, 3, 3)
    text = json.dumps(GAME.view_to_json(view), ensure_ascii=False)
    for hidden in ("A♥", "K♥", "Q♠", "9♣", "7♣"):
        assert hidden not in text
    spectator = json.dumps(GAME.view_to_json(GAME.observe(state, None)), ensure_ascii=False)
    assert "A♥" not in spectator and "3♦" not in spectator


def test_card_taken_from_pile_is_known_to_everyone() -> None:
    """001_e8630c614840283e.txt: taking "the top card ... from the discard pile" is done in view
    of all, so the card is known to sit in that hand until it is discarded."""
    state = play(position(["A♥ K♥ 2♣", "3♦ 4♦ 5♠"], pile="Q♥"), TakeDiscard())
    view = GAME.observe(state, 1)
    assert [(k.seat, k.cards) for k in view.known] == [(0, (card("Q♥"),))]
    assert view.taken == card("Q♥")
    state = play(state, Discard(card("2♣")))
    assert [(k.seat, k.cards) for k in GAME.observe(state, 1).known] == [(0, (card("Q♥"),))]


def test_views_survive_determinize_in_many_positions() -> None:
    """Views depend only on what the seat may know (docs/architecture.md); determinize agrees with them."""
    rng = random.Random(3)
    for name in ENTRY.presets:
        rules = ENTRY.rules(name, 4)
        state = GAME.new_game(rules, 9)
        for _ in range(60):
            if GAME.to_act(state) is None:
                break
            check_view_consistency(GAME, state, rng)
            legal = GAME.legal_actions(state)
            state, _ = GAME.apply(state, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("name", sorted(ENTRY.presets))
def test_random_play_every_preset(name: str) -> None:
    """Random play terminates with the safety cap, conserves cards, replays exactly."""
    rules = ENTRY.rules(name).replace(**ENTRY.random_play_options)
    for seed in range(4):
        stats = run_random_game(GAME, rules, seed, deep_every=5)
        assert stats["decisions"] > 0


def test_random_play_to_the_last_player_without_cap() -> None:
    """001_e8630c614840283e.txt: "The game continues until only one player has not been
    eliminated" — random play gets there without any cap."""
    for seed in range(3):
        rules = ScatRules(players=3)
        run_random_game(GAME, rules, seed, deep_every=50)


def test_redeal_reproduces_the_deal() -> None:
    """Verifiable deals: the state just after a deal equals a redeal from its hand seed."""
    state = GAME.new_game(ScatRules(players=5), 42)
    assert GAME.redeal(state, GAME.hand_seed(state)) == state
    state = position(["A♥ K♥ 2♣", "8♦ 4♠ 3♠", "9♣ 9♥ 8♠"], stock="")
    after = play(state, EndHand())
    assert after.hand_no == 1
    assert GAME.redeal(after, GAME.hand_seed(after)) == after


def test_explain_names_the_rule() -> None:
    """001_e8630c614840283e.txt: "Knocking ends your turn" — only one knock per hand."""
    state = play(position(["A♥ K♥ 2♣", "3♦ 4♦ 5♠", "9♣ 9♥ 8♠"]), Knock())
    reason = GAME.explain(state, Knock())
    assert reason is not None and "already knocked" in reason
    with pytest.raises(IllegalAction):
        GAME.apply(state, Knock())
    assert GAME.explain(state, DrawStock()) is None


def test_action_json_round_trip() -> None:
    action = Discard(card("10♥"), True)
    data = GAME.action_to_json(action)
    assert data == {"type": "Discard", "card": "10♥", "declare": True}
    assert GAME.action_from_json(data) == action
    with pytest.raises(ValueError, match=r"Discard\.card"):
        GAME.action_from_json({"type": "Discard", "card": "11♥"})


def test_basic_bot_uses_view_and_declares_31() -> None:
    """001_e8630c614840283e.txt: "If after drawing and discarding a player achieves hand value of
    31, they show their cards immediately" — the bot always declares."""
    state = play(position(["A♥ K♥ 2♣", "3♦ 4♦ 5♠"], stock="Q♥"), DrawStock())
    bot = BasicScatBot(GAME, 0, 1, rules=state.rules)
    assert bot.act(GAME.observe(state, 0), GAME.legal_actions(state)) == Discard(card("2♣"), True)
    # takes the discard that improves the hand, never discards it again
    state = position(["A♥ K♥ 2♣", "3♦ 4♦ 5♠"], pile="Q♥")
    assert bot.act(GAME.observe(state, 0), GAME.legal_actions(state)) == TakeDiscard()
    # knocks on a strong hand
    state = position(["A♥ K♥ 10♥", "3♦ 4♦ 5♠"], pile="2♦")
    state.silent = (cards("A♥ K♥ 10♥"), ())
    assert bot.act(GAME.observe(state, 0), GAME.legal_actions(state)) == Knock()


def test_basic_bot_beats_random_bots() -> None:
    """The basic bot wins far more than a quarter of 4-player matches against random bots."""
    variant = games.get("scat", players=4)
    wins = sum(
        play_match(
            variant, seed, ["basic", "random", "random", "random"], record=False
        ).outcome.seat_won(0)
        for seed in range(30)
    )
    assert wins >= 20


def test_simulate_cli_presets_json() -> None:
    runner = CliRunner()
    for name in ("scat", "cadillac", "gin", "ride_the_bus", "french_canadian"):
        result = runner.invoke(
            app, ["simulate", "scat", "--preset", name, "--games", "3", "--json"]
        )
        assert result.exit_code == 0, result.output
        data = json.loads(result.output)
        assert data["games"] == 3 and data["preset"] == name


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2},
        {"players": 9},
        {"players": 12, "decks": 2},
        {"players": 12},
        {"players": 16},
        {"hammer": True, "throw_down": True, "knock_first_round": False},
    ],
)
def test_random_play_player_counts(options: dict[str, object]) -> None:
    """001_e8630c614840283e.txt: "From 2 to 9 or more people can play"."""
    rules = ScatRules.from_json({**options, "max_hands": 4})
    for seed in range(3):
        run_random_game(GAME, rules, seed, deep_every=9)
