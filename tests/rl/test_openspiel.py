"""The OpenSpiel registrations: OpenSpiel's own random simulation checks (with serialization),
explicit chance nodes for the deal, ``serialize_game_and_state`` round trips, the information
state (tensor and perfect-recall string), re-sampling from an information state, and OpenSpiel's
ISMCTS bot playing Scat."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.rl.conftest import need

need("pyspiel")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from parlour.rl import openspiel as ps  # noqa: E402

#: small matches: OpenSpiel's checks clone and observe every state for every player
SMALL: dict[str, dict[str, Any]] = {
    "samba": {"max_hands": 1, "hand_size": 7},
    "handfoot": {"max_hands": 1, "stack_size": 6, "decks": 4},
    "cheat": {"max_turns": 20},
    "scat": {"max_hands": 2},
}
PRESETS = [
    ("samba", None),
    ("samba", "bolivia"),
    ("handfoot", None),
    ("cheat", None),
    ("cheat", "hawaiian"),
    ("cheat", "canada"),
    ("scat", None),
    ("scat", "french_canadian"),
]


@pytest.mark.parametrize(("name", "preset"), PRESETS)
def test_random_sim_test(name: str, preset: str | None) -> None:
    game = ps.load(name, preset, **SMALL[name])
    # OpenSpiel's own checks, with serialize_game_and_state / deserialize_game_and_state of
    # the states along the way (it raised "GetRNGState unimplemented" with sampled chance)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def _play(state: Any, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        if state.is_terminal():
            return
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", ["samba", "handfoot", "cheat", "scat"])
def test_serialize_game_and_state_round_trip(name: str) -> None:
    game = ps.load(name, **SMALL[name])
    state = game.new_initial_state()
    rng = random.Random(5)
    _play(state, rng, 4 + 8)
    assert not state.is_chance_node() and not state.is_terminal()
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert str(state2) == str(state)
    assert state2.history() == state.history()
    for p in range(game.num_players()):
        assert state2.information_state_string(p) == state.information_state_string(p)
        assert state2.information_state_tensor(p) == state.information_state_tensor(p)
        assert state2.observation_tensor(p) == state.observation_tensor(p)
    # both go on alike
    a, b = random.Random(9), random.Random(9)
    _play(state, a, 30)
    _play(state2, b, 30)
    assert state2.history() == state.history()
    assert str(state2) == str(state)


def test_options_survive_the_game_string() -> None:
    game = ps.load("samba", "bolivia", players=6, max_hands=1, hand_size=7)
    again = pyspiel.load_game(str(game))
    assert again.variant.rules == game.variant.rules
    assert again.variant.preset == "bolivia"
    assert ps.parse_options('{"max_hands": 2}') == {"max_hands": 2}
    assert ps.parse_options("stock_out:end_round;max_hands:1") == {
        "stock_out": "end_round",
        "max_hands": 1,
    }


def test_the_deal_is_four_chance_nodes() -> None:
    game = ps.load("scat", max_hands=1)
    state = game.new_initial_state()
    for k in range(ps.SEED_BYTES):
        assert state.is_chance_node()
        assert state.current_player() == pyspiel.PlayerId.CHANCE
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == list(range(256)) == state.legal_actions()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert state.engine_state is None
        assert state.information_state_string(0) == "dealing"
        state.apply_action(7 + k)
    assert not state.is_chance_node() and state.engine_state is not None
    # the seed is the four bytes: the same bytes deal the same cards, others do not
    same = game.new_initial_state()
    other = game.new_initial_state()
    for k in range(ps.SEED_BYTES):
        same.apply_action(7 + k)
        other.apply_action(200 - k)
    assert same.engine_state.hands == state.engine_state.hands
    assert other.engine_state.hands != state.engine_state.hands
    assert state.engine_state == game.variant.game.new_game(game.variant.rules, 0x0708090A)
    with pytest.raises(Exception, match="seed byte"):
        game.new_initial_state().apply_action(256)


@pytest.mark.parametrize("name", ["samba", "cheat", "scat"])
def test_information_state(name: str) -> None:
    game = ps.load(name, **SMALL[name])
    n_obs = game.observation_tensor_size()
    n_actions = game.num_distinct_actions()
    assert game.information_state_tensor_size() == n_obs + n_actions + len(ps.RECALL_NUMBERS)
    state = game.new_initial_state()
    rng = random.Random(3)
    seen: dict[int, set[str]] = {p: set() for p in range(game.num_players())}
    mine = {p: 0 for p in range(game.num_players())}
    last = {p: -1 for p in range(game.num_players())}
    steps = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            for p in range(game.num_players()):
                tensor = state.information_state_tensor(p)
                assert tensor[:n_obs] == state.observation_tensor(p)
                onehot = tensor[n_obs : n_obs + n_actions]
                assert sum(onehot) == (0 if last[p] < 0 else 1)
                if last[p] >= 0:
                    assert onehot[last[p]] == 1
                assert tensor[n_obs + n_actions :] == [mine[p], steps]
                text = state.information_state_string(p)
                assert text.startswith(state.observation_string(p))
                # perfect recall: a player's information state never comes back
                assert text not in seen[p]
                seen[p].add(text)
            p = state.current_player()
            action = rng.choice(state.legal_actions())
            mine[p] += 1
            last[p] = action
            steps += 1
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    assert steps > 5


def test_recall_is_what_the_player_saw() -> None:
    # Cheat: seat 0 picks a card for its play (a private action); two branches picking
    # different cards are different information states for seat 0 only
    game = ps.load("cheat", max_turns=20)
    a = game.new_initial_state()
    for byte in (1, 2, 3, 4):
        a.apply_action(byte)
    b = a.clone()
    assert a.current_player() == 0
    before = [a.information_state_string(p) for p in range(4)]
    assert [b.information_state_string(p) for p in range(4)] == before
    a.apply_action(a.legal_actions()[0])
    b.apply_action(b.legal_actions()[-1])
    assert a.information_state_string(0) != b.information_state_string(0)
    for p in (1, 2, 3):
        assert a.information_state_string(p) == b.information_state_string(p)
        assert a.information_state_string(p) != before[p]  # a move was made


def test_ismcts_bot_plays_scat() -> None:
    game = ps.load("scat", players=2, max_hands=3)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 40, random_state=np.random.RandomState(1))
    rng = random.Random(2)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = outcomes[rng.randrange(len(outcomes))][0]
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        moves += 1
    assert moves > 3
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_a_policy_that_never_ends_the_hand_is_cut_at_max_length() -> None:
    """Scat's rules let play go on for ever once the stock is out ("play goes on with players
    taking the previous discard", docs/rules/scat.md, seed 001): OpenSpiel's environment with a
    policy that always plays the first legal id (take the discard) never ended.  The match is
    cut at ``max_length`` decisions, a draw, and ``max_game_length`` bounds every match."""
    from open_spiel.python import rl_environment

    assert pyspiel.load_game("python_parlour_scat").max_game_length() == 100_000 + ps.SEED_BYTES
    game = pyspiel.load_game("python_parlour_scat", {"max_length": 2000})
    assert game.max_game_length() == 2000 + ps.SEED_BYTES
    env = rl_environment.Environment(game)
    step = env.reset()
    moves = 0
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([step.observations["legal_actions"][player][0]])
        moves += 1
    assert moves == 2000
    assert step.rewards == [0.0] * 4
    state = env.get_state
    assert state.truncated() and state.is_terminal() and state.legal_actions() == []
    assert "cut at 2000 decisions" in str(state)
    with pytest.raises(ValueError, match="cut at 2000"):
        state.apply_action(0)
