"""The engine's fast paths reach exactly what the plain ones do (issue 18): legal actions listed
by the interned, count-based enumeration are the plain enumeration's (same actions, same order:
seeded games and saved journals replay by the order), the quiet apply reaches the state the full
apply reaches, and copy-on-write never changes a state once handed out.

Rules: seed 004_bae80ddcdedd4514.txt (the engine's rules are unchanged; these tests compare
two ways of computing them)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from parlour.games.handfoot import ENTRY, GAME
from parlour.games.handfoot.actions import Action, AddToMeld, Meld, TakePile
from parlour.games.handfoot.state import State
from tests.games.handfoot import reference_legal

#: (preset, rule changes, decisions per match)
MATCHES = [
    ("handfoot", {}, 3000),
    ("rotate", {}, 3000),
    ("handfoot", {"stock_out": "reshuffle", "max_hands": 1, "draw_count": 6}, 1500),
    ("handfoot", {"pile_take": 2, "opening_minimums": (0, 150)}, 3000),
    (
        "handfoot",
        {f"required_{b}": 0 for b in ("sambas", "sevens", "wilds", "clean", "dirty")},
        3000,
    ),
]


def _choose(legal: list[Action], rng: random.Random, meldy: bool) -> Action:
    """Uniform, or (``meldy``) mostly melding and taking the pile, which reaches the foot,
    finished books and going out far more often than uniform play."""
    if meldy and rng.random() < 0.85:
        melds = [a for a in legal if isinstance(a, (Meld, AddToMeld, TakePile))]
        if melds:
            return melds[rng.randrange(len(melds))]
    return legal[rng.randrange(len(legal))]


def _walk(seed: int) -> Iterator[tuple[State, Action]]:
    """(state, chosen action) at every decision of a few seeded matches."""
    for preset, changes, limit in MATCHES:
        for meldy in (False, True):
            rules = ENTRY.rules(preset).replace(**changes)
            rng = random.Random(seed)
            state = GAME.new_game(rules, seed)
            for _ in range(limit):
                if GAME.to_act(state) is None:
                    break
                action = _choose(list(GAME.legal_actions(state)), rng, meldy)
                yield state, action
                state = GAME.apply_quiet(state, action)


@pytest.mark.parametrize("seed", [1, 2])
def test_legal_actions_are_the_plain_enumeration(seed: int) -> None:
    kinds: set[str] = set()
    for state, action in _walk(seed):
        fresh = state.clone()  # no cached list
        expected = reference_legal.legal_actions(fresh)
        assert list(GAME.legal_actions(fresh)) == expected
        kinds.add(type(action).__name__)
    assert kinds == {"Draw", "TakePile", "Meld", "AddToMeld", "Discard", "Retract"}


@pytest.mark.parametrize("seed", [3])
def test_quiet_apply_reaches_the_state_apply_reaches(seed: int) -> None:
    for state, action in _walk(seed):
        loud, events = GAME.apply_unchecked(state, action)
        assert events
        assert GAME.apply_quiet(state, action) == loud


def _snapshot(state: State) -> str:
    return repr(state)  # every field but the legal-action cache, containers written out


def test_apply_never_changes_the_state_it_is_given() -> None:
    """Copy-on-write: a clone shares every container, so a change made in place would show in
    the original."""
    outs = 0
    for state, action in _walk(4):
        before = _snapshot(state)
        after, _ = GAME.apply_unchecked(state, action)
        GAME.apply_quiet(state, action)
        assert _snapshot(state) == before, action
        outs += after.went_out >= 0
    assert outs, "no match went out: the walk missed the end of a round by going out"


def test_legal_actions_are_interned() -> None:
    """The same action is the same object whenever it is listed (no allocation per listing)."""
    for state, _ in _walk(5):
        again = state.clone()
        for a, b in zip(GAME.legal_actions(state), GAME.legal_actions(again), strict=True):
            assert a is b
