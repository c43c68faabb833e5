"""PettingZoo's own checks (``api_test``, ``seed_test``, ``render_test``) on every game and
preset, and the rewards the docs promise."""

from __future__ import annotations

import pytest

from tests.rl.conftest import CASES, case_id, need

need("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from parlour import games  # noqa: E402
from parlour.rl.pettingzoo import env  # noqa: E402

# PettingZoo's classic games use dict observations (observation + action_mask) too
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]

#: short matches (the checks run hundreds of steps)
CAPS = {"samba": {"max_hands": 1}, "handfoot": {"max_hands": 1}, "cheat": {"max_turns": 25}}
CAPS["scat"] = {"max_hands": 3}


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_pettingzoo_api_and_seed(case: tuple[str, str, int | None]) -> None:
    name, preset, players = case
    opts = CAPS[name]
    default = preset == games.entry(name).default_preset and players is None
    cycles = 300 if default else 60
    api_test(env(name, preset, players, options=opts, render_mode="ansi"), num_cycles=cycles)
    seed_test(lambda: env(name, preset, players, options=opts), num_cycles=cycles // 3)


@pytest.mark.parametrize("name", ["samba", "scat"])
def test_render_modes(name: str) -> None:
    render_test(lambda render_mode=None: env(name, options=CAPS[name], render_mode=render_mode))


def _play_out(e, seed: int) -> tuple[dict[str, float], list[dict[str, float]]]:  # type: ignore[no-untyped-def]
    import numpy as np

    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    totals = {a: 0.0 for a in e.possible_agents}
    steps: list[dict[str, float]] = []
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert sorted(info["legal_ids"]) == list(legal)
        e.step(int(rng.choice(legal)))
        steps.append(dict(e.unwrapped.rewards))
    return totals, steps


def test_match_rewards_are_zero_sum_and_pay_the_winner() -> None:
    e = env("scat", players=2, options={"max_hands": 4})
    for seed in range(5):
        totals, steps = _play_out(e, seed)
        assert abs(sum(totals.values())) < 1e-9
        outcome = e.unwrapped.table.outcome()
        for step in steps:
            assert abs(sum(step.values())) < 1e-9
        final = steps[-1]
        if len(outcome.winners) == 1:
            (winner,) = outcome.winners
            assert final[f"player_{winner}"] > 0.5  # +1 at the end, plus the last hand
        else:  # a draw (no winner, or both tied at the hand cap): no match reward
            assert abs(final["player_0"]) < 0.5


def test_hand_rewards_follow_the_score_sheet() -> None:
    e = env("samba", options={"max_hands": 2})
    totals, _steps = _play_out(e, 3)
    outcome = e.unwrapped.table.outcome()
    target = games.get("samba").rules.target_score  # type: ignore[attr-defined]
    hands = [h.scores for h in outcome.hands]
    diff = sum(s[0] - s[1] for s in hands) / 2 / target
    match = {0: 0.0, 1: 0.0}
    if len(outcome.winners) == 1:
        match = {s: (1.0 if s in outcome.winners else -1.0) for s in (0, 1)}
    assert totals["player_0"] == pytest.approx(diff + match[0])
    assert totals["player_1"] == pytest.approx(-diff + match[1])
    assert totals["player_0"] == pytest.approx(totals["player_2"])


def test_max_steps_truncates_a_match_that_would_not_end() -> None:
    """Always taking the previous discard keeps a Scat hand going for ever once the stock is
    out (docs/rules/scat.md, "Stock runs out"; seed 001): ``max_steps`` truncates the match."""
    e = env("scat", players=3, max_steps=500)
    e.reset(seed=0)
    steps = 0
    for _agent in e.agent_iter():
        obs, _reward, term, trunc, _info = e.last()
        if term or trunc:
            assert trunc and not term
            e.step(None)
            continue
        e.step(int(obs["action_mask"].argmax()))  # the first legal id: draw, then take
        steps += 1
    assert steps == 500
    assert not e.unwrapped.table.over


@pytest.mark.parametrize("name", ["samba", "handfoot", "cheat", "scat"])
def test_the_outcome_in_infos_is_the_outcomes_json(name: str) -> None:
    """``info["outcome"]`` is made without ``dataclasses.asdict`` (``outcome_json``): the
    same dict as ``Outcome.to_json()``, at every match end of random play."""
    import random

    from parlour.rl.core import outcome_json

    variant = games.get(name, **CAPS[name])
    rng = random.Random(0)
    for seed in range(3):
        state = variant.new_game(seed=seed)
        while variant.game.to_act(state) is not None:
            legal = variant.game.legal_actions(state)
            state = variant.game.apply_quiet(state, legal[rng.randrange(len(legal))])
        outcome = variant.game.outcome(state)
        assert outcome.hands and outcome_json(outcome) == outcome.to_json()
