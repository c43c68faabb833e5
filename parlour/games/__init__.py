"""The games.  Each subpackage registers one engine with its presets and aliases.

>>> from parlour import games
>>> "samba" in games.names()
True
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from parlour.core.registry import GameEntry, Registry, Variant

_GAME_PACKAGES = ("samba", "handfoot", "cheat", "scat")
_registry = Registry()
_loaded = False


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for pkg in _GAME_PACKAGES:
        name = f"parlour.games.{pkg}"
        if importlib.util.find_spec(name) is not None:
            module = importlib.import_module(name)
            _registry.register(module.ENTRY)


def names() -> list[str]:
    """The registered games' names."""
    _load()
    return _registry.names()


def entry(name: str) -> GameEntry:
    _load()
    return _registry.entry(name)


def get(
    name: str, preset: str | None = None, players: int | None = None, **options: Any
) -> Variant:
    """A game with rules: ``get("samba", preset="bolivia", players=4)``."""
    _load()
    return _registry.get(name, preset, players, **options)


def all_variants() -> list[Variant]:
    """Every registered game × preset with default options (the conformance suite runs these)."""
    _load()
    out: list[Variant] = []
    for n in _registry.names():
        e = _registry.entry(n)
        out.extend(_registry.get(n, p) for p in e.presets)
    return out
