"""OpenSpiel's ``random_sim_test`` on every game and preset with no caps (whole matches of
random play), each in its own process, within 1 GB of peak memory and 60 s of CPU.

OpenSpiel's test keeps a clone of every state of the match, and every clone holds the C++
history of the match so far: about 16·n² bytes for an n-move match for *any* python game (a
two-action counting game of 4,000 moves grows by 240 MB, of 8,000 moves by 975 MB).  What the test bounds beyond that is
ours: a Parlour state adds at most :data:`OWN_MB` over it.  Uncapped random Bolivia runs 16,000
to 21,000 moves, 4-7 GB of retained C++ histories whatever the game stores, so for it the same
checks run without the retained clones (:data:`CHECKS`) and the test asserts that its length is
what rules out OpenSpiel's harness."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from parlour import games
from tests.rl.conftest import need

need("pyspiel")

LIMIT_MB = 1024
LIMIT_CPU = 60.0
#: uncapped Bolivia's checks (~19,000 moves, every tensor and string of every seat each move):
#: 36 s of CPU on the project machine under load with the compiled observation fillers
#: (60-74 s before them), so issue 35's 60 s holds here too
BOLIVIA_CPU = LIMIT_CPU
#: what a Parlour game may add to OpenSpiel's own retained histories
OWN_MB = 120

CASES = [
    (name, preset)
    for name in ("samba", "handfoot", "cheat", "scat")
    for preset in games.entry(name).presets
    if (name, preset) != ("samba", "bolivia")
]

RANDOM_SIM = """
import json, resource, sys, time
import pyspiel
from parlour.rl import openspiel as ps
game = ps.load(sys.argv[1], sys.argv[2])
moves = 0
make = ps.ParlourSpielGame.child
def child(self, holder, action):
    global moves
    made = make(self, holder, action)
    moves = max(moves, made.total)
    return made
ps.ParlourSpielGame.child = child
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
cpu = time.process_time()
pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
print(json.dumps({"moves": moves, "cpu": time.process_time() - cpu,
                  "base_mb": base / 1024,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

#: random_sim_test's checks at every state, in python, without keeping a clone of each
CHECKS = """
import json, random, resource, sys, time
import pyspiel
from parlour.rl import openspiel as ps
game = ps.load(sys.argv[1], sys.argv[2])
rng = random.Random(int(sys.argv[3]))
n = game.num_players()
cpu = time.process_time()
state = game.new_initial_state()
moves = 0
history = 0
while not state.is_terminal():
    copy = state.clone()
    assert str(copy) == str(state) and copy.history() == state.history()
    if history < 10 or history & (history - 1) == 0:
        g2, s2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
        assert str(s2) == str(state)
    if state.is_chance_node():
        action = rng.choice(state.chance_outcomes())[0]
    else:
        p = state.current_player()
        legal = state.legal_actions()
        assert legal == sorted(legal) and legal
        assert all(not state.legal_actions(q) for q in range(n) if q != p)
        mask = state.legal_actions_mask(p)
        assert sum(mask) == len(legal) and all(mask[a] for a in legal)
        for q in range(n):
            state.information_state_tensor(q)
            state.observation_tensor(q)
            state.information_state_string(q)
            state.observation_string(q)
        action = rng.choice(legal)
        moves += 1
    other = state.clone()
    state.apply_action(action)
    other.apply_action(action)
    assert str(other) == str(state) and other.history() == state.history()
    history += 1
for q in range(n):
    state.information_state_tensor(q)
    state.information_state_string(q)
assert abs(sum(state.returns())) < 1e-9
print(json.dumps({"moves": moves, "cpu": time.process_time() - cpu,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def _run(script: str, *args: str) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.slow
@pytest.mark.parametrize(("name", "preset"), CASES)
def test_random_sim_test_uncapped(name: str, preset: str) -> None:
    r = _run(RANDOM_SIM, name, preset)
    moves = r["moves"]
    assert moves > 20  # a whole match was played
    openspiel_mb = 16 * moves * moves / 2**20  # its retained clones' histories
    assert r["peak_mb"] <= LIMIT_MB, r
    assert r["peak_mb"] - r["base_mb"] - openspiel_mb <= OWN_MB, r
    assert r["cpu"] <= LIMIT_CPU, r


@pytest.mark.slow
def test_uncapped_bolivia_without_retained_clones() -> None:
    r = _run(CHECKS, "samba", "bolivia", "0")
    # long enough that OpenSpiel's harness alone (a clone with its history per move) would
    # need more than the limit: the reason this preset runs the checks without it
    assert 16 * r["moves"] ** 2 / 2**20 > LIMIT_MB, r
    assert r["peak_mb"] <= LIMIT_MB, r
    assert r["cpu"] <= BOLIVIA_CPU, r
