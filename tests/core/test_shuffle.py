"""The deals' shuffle (:func:`parlour.core.cards.shuffle_as_random`, Samba's deal and
``shuffled_shoe``: Scat's and Cheat's) is ``random.shuffle``: the same permutation from the same
seed, so every seeded deal, golden playthrough and saved match stays the same (docs/speed.md,
"fifth pass")."""

from __future__ import annotations

import random

import pytest

from parlour.core.cards import shoe, shuffle_as_random, shuffled_shoe


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


@pytest.mark.parametrize(("decks", "jokers"), [(1, 0), (2, 0), (1, 2), (3, 6)])
def test_shuffled_shoe_is_random_shuffle(decks: int, jokers: int) -> None:
    for seed in range(60):
        expected = shoe(decks, jokers)
        random.Random(seed).shuffle(expected)
        assert shuffled_shoe(random.Random(seed), decks, jokers) == expected, seed


def test_shuffled_shoe_calls_a_subclass_shuffle() -> None:
    class Reversing(random.Random):
        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            x.reverse()

    assert shuffled_shoe(Reversing(0)) == shoe()[::-1]
