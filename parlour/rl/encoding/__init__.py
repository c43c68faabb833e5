"""Fixed action encodings and observation tensors per game and rules.

>>> from parlour import games
>>> enc = encoding_for(games.get("scat"))
>>> enc.num_distinct_actions, enc.observation_shape[0] > 0
(112, True)
"""

from __future__ import annotations

import importlib
from typing import Any

from parlour.core.registry import Variant
from parlour.rl.encoding.base import ActionSpace, Encoding, IdRange, Layout, Segment

_MODULES = {
    "samba": ("parlour.rl.encoding.samba", "SambaEncoding"),
    "handfoot": ("parlour.rl.encoding.handfoot", "HandFootEncoding"),
    "cheat": ("parlour.rl.encoding.cheat", "CheatEncoding"),
    "scat": ("parlour.rl.encoding.scat", "ScatEncoding"),
}
_CACHE: dict[tuple[str, str], Encoding] = {}


def supported() -> tuple[str, ...]:
    """The games that have an encoding."""
    return tuple(_MODULES)


def encoding_for(variant: Variant) -> Encoding:
    """The encoding of a game with its rules (cached per game and rules)."""
    key = (variant.name, repr(variant.rules))
    enc = _CACHE.get(key)
    if enc is None:
        if variant.name not in _MODULES:
            raise ValueError(f"no encoding for {variant.name!r}; games: {', '.join(_MODULES)}")
        module, cls = _MODULES[variant.name]
        klass: Any = getattr(importlib.import_module(module), cls)
        enc = _CACHE[key] = klass(variant)
    return enc


__all__ = [
    "ActionSpace",
    "Encoding",
    "IdRange",
    "Layout",
    "Segment",
    "encoding_for",
    "supported",
]
