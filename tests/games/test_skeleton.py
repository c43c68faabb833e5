"""One skeleton for every game (issue 15, docs/skeleton.md): the same module names with the same
responsibilities, ``to_act`` for whose turn it is, and states copied by the generated copier of
:mod:`parlour.core.state` — a ``clone()`` that copies every field, checked field by field."""

from __future__ import annotations

import contextlib
import importlib
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from parlour import games
from parlour.core.state import copier, copy_with, state_fields

GAMES = ["samba", "handfoot", "cheat", "scat"]
ROOT = Path(__file__).resolve().parents[2] / "parlour" / "games"
SKELETON = {
    "__init__",
    "rules",
    "actions",
    "state",
    "legal",
    "apply",
    "game",
    "scoring",
    "view",
    "text",
    "position",
    "bot",
}
#: caches that belong to one state and are not copied
NOT_COPIED = {"_legal", "_legal_set", "legal_cache"}


def test_every_game_lists_the_same_modules() -> None:
    """The same module names in every game; anything else lives in the game's ``parts/``."""
    for name in GAMES:
        modules = {p.stem for p in (ROOT / name).glob("*.py")}
        assert modules == SKELETON, f"{name}: {sorted(modules ^ SKELETON)}"
        for sub in (ROOT / name).iterdir():
            if sub.is_dir() and sub.name != "__pycache__":
                assert sub.name == "parts", f"{name}/{sub.name}: game-specific code goes in parts/"


@pytest.mark.parametrize("name", GAMES)
def test_whose_turn_is_to_act_in_every_state(name: str) -> None:
    variant = games.get(name)
    state = variant.new_game(3)
    assert "to_act" in state_fields(type(state))
    assert not {"to_move", "actor"} & set(state_fields(type(state)))
    module = importlib.import_module(f"parlour.games.{name}.game")
    assert module is not None and variant.game.to_act(state) is not None


def _mid_game(name: str, steps: int = 40) -> Any:
    variant = games.get(name)
    game = variant.game
    rng = random.Random(7)
    state = variant.new_game(7)
    for _ in range(steps):
        if game.to_act(state) is None:
            break
        legal = game.legal_actions(state)
        state, _ = game.apply(state, legal[rng.randrange(len(legal))])
    return state


class _Marker:
    """A value no engine ever holds: a field the clone forgot cannot equal it by chance."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<marker {self.name}>"


def _marked(state: Any) -> Any:
    """``state`` with every field set to a marker of the same shape (lists stay lists, lists of
    lists stay so, for a clone that copies them)."""
    for f in state_fields(type(state)):
        value = getattr(state, f, None)
        marker: Any = _Marker(f)
        if isinstance(value, list):
            marker = [[marker]] if value and isinstance(value[0], list) else [marker]
        # a typed field of a class compiled by mypyc takes no marker: it keeps its value (a field
        # the clone forgot is then unset, which the hasattr check catches)
        with contextlib.suppress(TypeError):
            object.__setattr__(state, f, marker)
    return state


def assert_copies_every_field(state: Any, clone: Any) -> None:
    original = _marked(state)
    copy = clone(original)
    for f in state_fields(type(original)):
        if f in NOT_COPIED:
            continue
        assert hasattr(copy, f), f"clone() forgot the field {f}"
        assert getattr(copy, f) == getattr(original, f), f"clone() forgot the field {f}"


@pytest.mark.parametrize("name", GAMES)
def test_clone_copies_every_field(name: str) -> None:
    state = _mid_game(name)
    assert_copies_every_field(state, type(state).clone)
    fresh = _mid_game(name)
    assert fresh.clone() == fresh and fresh.clone() is not fresh


def test_a_forgotten_field_fails() -> None:
    """The check catches a hand-written clone that forgets a field (as a new field would be)."""

    @dataclass(slots=True)
    class S:
        to_act: int
        hands: list[list[int]]
        score: int

    def hand_written(s: S) -> S:
        n = S.__new__(S)
        n.to_act, n.hands = s.to_act, [list(h) for h in s.hands]
        return n

    with pytest.raises(AssertionError, match="forgot the field score"):
        assert_copies_every_field(S(0, [[1]], 5), hand_written)
    assert_copies_every_field(S(0, [[1]], 5), copier(S, nested=("hands",)))


def test_copy_with_changes_only_what_it_is_told() -> None:
    @dataclass(frozen=True)
    class F:
        a: int
        b: tuple[int, ...]

    f = F(1, (2,))
    g = copy_with(f, a=3)
    assert (g.a, g.b, f.a) == (3, (2,), 1) and g.b is f.b
    with pytest.raises(TypeError, match="no field zz"):
        copier(F, lists=("zz",))
