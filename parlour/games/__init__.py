"""The games, found through the ``parlour.games`` entry points.

Each game package exports one ``ENTRY`` (a :class:`~parlour.core.registry.GameEntry`: names,
engine, presets, grammar, bots, hints …) and names it in its distribution's metadata::

    [project.entry-points."parlour.games"]
    samba = "parlour.games.samba:ENTRY"

Parlour's own four games are registered that way in its ``pyproject.toml``; a game installed from
another distribution registers the same way (``docs/adding-a-game.md``).  The built-in games come
first, in a fixed order; a game whose entry point fails to load is left out and its error kept
(:func:`load_errors`), so one broken plug-in never stops the others.

>>> from parlour import games
>>> "samba" in games.names()
True
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import logging
from typing import Any

from parlour.core.registry import GameEntry, Registry, Variant

#: the entry-point group games register in
ENTRY_POINT_GROUP = "parlour.games"
_GAME_PACKAGES = ("samba", "handfoot", "cheat", "scat")
_registry = Registry()
_loaded = False
_origins: dict[str, str] = {}
_errors: dict[str, str] = {}
log = logging.getLogger(__name__)


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    points: dict[str, importlib.metadata.EntryPoint] = {}
    for found in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        points.setdefault(found.name, found)
    for pkg in _GAME_PACKAGES:  # the built-in games first, in this order
        if pkg in points:
            _load_point(points.pop(pkg))
            continue
        # a source tree whose metadata was never installed: import the package directly
        name = f"parlour.games.{pkg}"
        if importlib.util.find_spec(name) is not None:
            module = importlib.import_module(name)
            _register(module.ENTRY, f"{name}:ENTRY (no entry point installed)")
    for name in sorted(points):
        _load_point(points[name])


def _load_point(point: importlib.metadata.EntryPoint) -> None:
    dist = point.dist
    where = f"entry point {point.name} = {point.value}" + (
        f" ({dist.name} {dist.version})" if dist is not None else ""
    )
    try:
        entry = point.load()
        if not isinstance(entry, GameEntry):
            raise TypeError(f"{point.value} is a {type(entry).__name__}, not a GameEntry")
        if entry.name in _origins:
            raise ValueError(f"the name {entry.name!r} is taken by {_origins[entry.name]}")
        _register(entry, where)
    except Exception as exc:  # a broken plug-in must not stop the other games
        _errors[point.name] = f"{where}: {type(exc).__name__}: {exc}"
        log.warning("game %s not loaded: %s", point.name, _errors[point.name])


def _register(entry: GameEntry, origin: str) -> None:
    _registry.register(entry)
    _origins[entry.name] = origin


def register(entry: GameEntry, origin: str = "registered at run time") -> None:
    """Add a game to the registry by hand (``parlour serve --game-module``, tests)."""
    _load()
    _register(entry, origin)


def origin(name: str) -> str:
    """Where a game came from: its entry point and distribution, or how it was registered."""
    _load()
    return _origins.get(entry(name).name, "")


def load_errors() -> dict[str, str]:
    """Games whose entry point failed to load, with the error."""
    _load()
    return dict(_errors)


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
