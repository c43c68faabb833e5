"""The shared conformance checks every game and preset must pass (used by ``tests/conformance``,
and usable by anyone writing a new engine, like pgx's ``api_test``).

Checks: random play to the end, card conservation after every action, determinism of replay,
no dead ends, illegal actions rejected with the state unchanged, JSON round trips of actions,
views that do not change when hidden cards are re-dealt, ``apply_quiet`` reaching the state
``apply`` reaches, ``observe(determinize(view)) == view``,
and legal actions that depend only on the acting seat's view.  :func:`check_spec` checks what a
game's declared spec (``ENTRY``) says against random play: the text grammar reads back every
legal action, the sides, the player range, the action types and whether there are several hands.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any

from parlour.core.errors import IllegalAction
from parlour.core.game import Game
from parlour.core.grammar import check_round_trip
from parlour.core.registry import GameEntry
from parlour.core.replay import replay


class ConformanceError(AssertionError):
    pass


def _fail(msg: str) -> None:
    raise ConformanceError(msg)


def check_view_consistency(game: Game[Any, Any, Any, Any], state: Any, rng: random.Random) -> None:
    """``observe`` must not depend on hidden cards; ``determinize`` must agree with the view."""
    seats: list[int | None] = [*range(game.num_seats(state)), None]
    acting = game.to_act(state)
    total = Counter(game.all_cards(state))
    for seat in seats:
        view = game.observe(state, seat)
        json.dumps(game.view_to_json(view), ensure_ascii=False)
        if seat is None:
            continue
        other = game.determinize(view, rng)
        if Counter(game.all_cards(other)) != total:
            _fail(f"determinize changed the cards of the game (seat {seat})")
        again = game.observe(other, seat)
        if again != view:
            _fail(f"observe(determinize(view)) != view for seat {seat}:\n{view}\n{again}")
        if seat == acting and list(game.legal_actions(other)) != list(game.legal_actions(state)):
            _fail(f"legal actions of seat {seat} depend on cards it cannot see")


def run_random_game(
    game: Game[Any, Any, Any, Any],
    rules: Any,
    seed: int,
    *,
    deep_every: int = 0,
    max_decisions: int = 200_000,
) -> dict[str, int]:
    """Random play of one match with the checks; ``deep_every`` = N runs the expensive checks
    (views, illegal actions, state unchanged) at every N-th decision (0: only at a few)."""
    rng = random.Random(seed)
    state = game.new_game(rules, seed)
    start_cards = Counter(game.all_cards(state))
    actions: list[Any] = []
    pool: list[Any] = []
    decisions = 0
    legal_max = 0
    deep_every = deep_every or 37
    while True:
        seat = game.to_act(state)
        if seat is None:
            break
        legal = list(game.legal_actions(state))
        if not legal:
            _fail(
                f"dead end: seat {seat} to act with no legal action (seed {seed}, step {decisions})"
            )
        legal_max = max(legal_max, len(legal))
        action = legal[rng.randrange(len(legal))]
        encoded = game.action_to_json(action)
        if game.action_from_json(json.loads(json.dumps(encoded))) != action:
            _fail(f"action JSON round trip failed for {action!r}: {encoded}")
        if decisions % deep_every == 0:
            check_view_consistency(game, state, rng)
            before = copy.deepcopy(state)
            for bad in rng.sample(pool, min(4, len(pool))):
                if bad in legal:
                    continue
                if game.explain(state, bad) is None:
                    _fail(f"explain() calls {bad} legal but it is not in legal_actions")
                try:
                    game.apply(state, bad)
                except IllegalAction as exc:
                    if not exc.rule:
                        _fail("IllegalAction without a rule")
                else:
                    _fail(f"illegal action {bad} was accepted (seed {seed}, step {decisions})")
                if state != before:
                    _fail(f"state changed by rejected action {bad}")
            if game.explain(state, action) is not None:
                _fail(f"explain() rejects legal action {action}: {game.explain(state, action)}")
        if len(pool) < 400:
            pool.append(action)
        elif rng.random() < 0.1:
            pool[rng.randrange(len(pool))] = action
        quiet = game.apply_quiet(state, action)
        state, events = game.apply(state, action)
        if quiet != state:
            _fail(f"apply_quiet and apply reach different states after {action} (seed {seed})")
        for ev in events:
            json.dumps(ev.to_json(), ensure_ascii=False)
        actions.append(action)
        decisions += 1
        if Counter(game.all_cards(state)) != start_cards:
            _fail(f"cards not conserved after {action} (seed {seed}, step {decisions})")
        if decisions > max_decisions:
            _fail(f"match did not end within {max_decisions} decisions (seed {seed})")
    outcome = game.outcome(state)
    if not outcome.finished:
        _fail("to_act is None but the outcome is not finished")
    json.dumps(outcome.to_json())
    again, _ = replay(game, rules, seed, [game.action_to_json(a) for a in actions])
    if again != state:
        _fail(f"replay of seed {seed} did not give the same final state")
    return {"decisions": decisions, "legal_max": legal_max}


def check_spec(
    entry: GameEntry, rules: Any, seed: int, *, max_decisions: int = 400
) -> dict[str, int]:
    """Random play of up to ``max_decisions`` decisions checking the declared spec: every legal
    action's text is what the grammar writes and reads back to the action; the declared sides
    are the outcome's; the players are in the declared range; the grammar covers the engine's
    action types; a game of one hand never deals a second."""
    game = entry.game
    players = int(getattr(rules, "players", 0))
    lo, hi = entry.players or (1, 1)
    if not lo <= players <= hi:
        _fail(f"{entry.name}: {players} players is outside the declared range {lo}–{hi}")
    if entry.grammar is None:
        _fail(f"{entry.name} declares no action grammar")
    assert entry.grammar is not None
    missing = set(game.action_types) - set(entry.grammar.action_types)
    if missing:
        _fail(f"{entry.name}: the grammar writes no {', '.join(sorted(missing))}")
    rng = random.Random(seed)
    state = game.new_game(rules, seed)
    if tuple(map(tuple, entry.sides_for(rules))) != game.outcome(state).sides:
        _fail(f"{entry.name}: declared sides {entry.sides_for(rules)} are not the outcome's")
    decisions = 0
    checked = 0
    while decisions < max_decisions and game.to_act(state) is not None:
        legal = list(game.legal_actions(state))
        try:
            check_round_trip(entry.grammar, legal)
        except (AssertionError, ValueError) as exc:
            _fail(f"{entry.name} (seed {seed}, step {decisions}): {exc}")
        checked += len(legal)
        state, _ = game.apply(state, legal[rng.randrange(len(legal))])
        decisions += 1
        if not entry.several_hands and game.hand_number(state) != 0:
            _fail(
                f"{entry.name} declares one hand a match but dealt hand {game.hand_number(state)}"
            )
    return {"decisions": decisions, "actions_checked": checked}
