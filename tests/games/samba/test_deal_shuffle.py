"""The deal's shuffle (:func:`parlour.games.samba.state.shuffle_as_random`) is ``random.shuffle``:
the same permutation from the same seed, so every seeded deal, golden playthrough and saved match
stays the same (docs/speed.md, "fifth pass")."""

from __future__ import annotations

import random

import pytest

from parlour.core.cards import shoe
from parlour.games.samba.state import shuffle_as_random


@pytest.mark.parametrize("length", [0, 1, 2, 3, 7, 8, 9, 64, 65, 162, 300])
def test_same_permutation_as_random_shuffle(length: int) -> None:
    for seed in range(40):
        expected = list(range(length))
        random.Random(seed).shuffle(expected)
        got = list(range(length))
        shuffle_as_random(got, random.Random(seed))
        assert got == expected, (length, seed)


def test_same_generator_state_after() -> None:
    # the deal draws nothing else from its generator today, but a later draw must not shift
    a, b = random.Random(12345), random.Random(12345)
    deck_a, deck_b = shoe(3, 6), shoe(3, 6)
    a.shuffle(deck_a)
    shuffle_as_random(deck_b, b)
    assert deck_a == deck_b
    assert a.getrandbits(64) == b.getrandbits(64)
