"""Seeded randomness.  Nothing in Parlour touches the global ``random`` module: every random
choice comes from a ``random.Random`` made here from an explicit seed, so the same seed always
gives the same game.

>>> make_rng(7).random() == make_rng(7).random()
True
>>> derive_seed(7, "hand", 2) == derive_seed(7, "hand", 2)
True
"""

from __future__ import annotations

import hashlib
import random


def make_rng(seed: int | str) -> random.Random:
    """A private generator for this seed (ints and strings both accepted)."""
    return random.Random(derive_seed(seed) if isinstance(seed, str) else seed)


def derive_seed(seed: int | str, *parts: object) -> int:
    """A 63-bit seed derived from ``seed`` and labels (e.g. the deal seed of hand 3).

    Stable across Python versions and processes (uses SHA-256, not ``hash``)."""
    text = "/".join([str(seed), *(str(p) for p in parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def commitment(seed: int) -> str:
    """The hash commitment published before a deal: SHA-256 of the seed's decimal text."""
    return hashlib.sha256(f"parlour-deal:{seed}".encode()).hexdigest()
