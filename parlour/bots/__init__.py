"""Bots by name: ``random``, ``strong`` (ISMCTS) and ``expert`` (the same search with more time
and the game's best settings, :mod:`parlour.bots.expert`) for every game, ``basic`` per game.

>>> from parlour import games
>>> bot = make("random", games.get("samba"), seat=0, seed=1)
>>> bot.name
'random'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from parlour.core.bot import Bot
from parlour.core.errors import UnknownGame
from parlour.core.registry import Variant

from .random_bot import RandomBot

BotFactory = Callable[..., Bot]

_GENERIC: dict[str, BotFactory] = {"random": RandomBot}


def register_generic(name: str, factory: BotFactory) -> None:
    _GENERIC[name] = factory


def _load_generic() -> None:
    if "strong" not in _GENERIC:
        try:
            from .expert import ExpertBot
            from .ismcts import IsmctsBot
        except ImportError:
            return
        _GENERIC["strong"] = IsmctsBot
        _GENERIC["expert"] = ExpertBot


def available(variant: Variant) -> list[str]:
    """Bot names usable for this game."""
    _load_generic()
    return sorted(set(_GENERIC) | set(getattr(variant.entry, "bots", {}) or {}))


def make(name: str, variant: Variant, seat: int, seed: int = 0, **params: Any) -> Bot:
    """Build the bot called ``name`` (``random``, ``basic``, ``strong``, ``expert`` …) for one
    seat."""
    _load_generic()
    specific = getattr(variant.entry, "bots", {}) or {}
    base, _, arg = name.partition(":")
    factory = specific.get(base) or _GENERIC.get(base)
    if factory is None:
        raise UnknownGame(
            f"no bot {name!r} for {variant.name}; bots: {', '.join(available(variant))}"
        )
    if arg:
        params.setdefault("budget", arg)
    return factory(variant.game, seat, seed, rules=variant.rules, **params)
