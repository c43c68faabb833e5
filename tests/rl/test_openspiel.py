"""The OpenSpiel registrations: OpenSpiel's own random simulation checks, serialization round
trips, re-sampling from an information state, and OpenSpiel's ISMCTS bot playing Scat."""

from __future__ import annotations

import random

import pytest

from tests.rl.conftest import need

need("pyspiel")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from parlour.rl import openspiel as ps  # noqa: E402

#: small matches: OpenSpiel's checks clone and observe every state for every player
SMALL = {
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
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_game_type() -> None:
    game = ps.load("samba", players=6, max_hands=1)
    t = game.get_type()
    assert t.short_name == "python_parlour_samba"
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_players() == 6
    assert game.num_distinct_actions() == 1241
    assert game.max_utility() == pytest.approx(4 / 3)  # three sides of two
    assert game.observation_tensor_shape() == [ps.encoding_for(game.variant).layout.size]


@pytest.mark.parametrize("name", ["samba", "handfoot", "cheat", "scat"])
def test_serialize_clone_and_resample(name: str) -> None:
    game = ps.load(name, **SMALL[name])
    state = game.new_initial_state()
    rng = random.Random(1)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    k = 0
    while not state.is_terminal():
        p = state.current_player()
        if k % 7 == 0:
            copy = game.deserialize_state(state.serialize())
            assert str(copy) == str(state)
            assert copy.history() == state.history()
            assert copy.legal_actions() == state.legal_actions()
            assert copy.observation_tensor(p) == state.observation_tensor(p)
            other = state.resample_from_infostate(p, sampler)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.observation_tensor(p) == state.observation_tensor(p)
            assert other.current_player() == p
            clone = state.clone()
            clone.apply_action(clone.legal_actions()[0])
            assert clone.history() != state.history()
        state.apply_action(rng.choice(state.legal_actions()))
        k += 1
    assert abs(sum(state.returns())) < 1e-9


def test_successive_matches_are_dealt_differently() -> None:
    game = ps.load("scat", max_hands=1)
    a = game.new_initial_state()
    first_deal = a.engine_state.hands
    # throw-away initial states (OpenSpiel makes them to learn shapes) share one deal ...
    assert game.new_initial_state().engine_state.hands == first_deal
    a.apply_action(a.legal_actions()[0])
    # ... and a match that has started moves the seed on
    b = game.new_initial_state()
    assert b.engine_state.hands != first_deal
    b.apply_action(b.legal_actions()[0])
    assert game.new_initial_state().engine_state.hands not in (first_deal, b.engine_state.hands)


def test_ismcts_bot_plays_scat() -> None:
    game = ps.load("scat", players=2, max_hands=3)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 40, random_state=np.random.RandomState(1))
    rng = random.Random(2)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        moves += 1
    assert moves > 3
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
