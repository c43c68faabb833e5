"""The registry of games and their presets, with aliases (``31`` → ``scat``, ``bullshit`` → the
``bullshit`` preset of ``cheat``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from parlour.core.errors import RulesError, UnknownGame
from parlour.core.game import Game
from parlour.core.rules import Rules


@dataclass(frozen=True)
class GameEntry:
    """A registered game: its engine, presets (option overrides) and names."""

    name: str
    game: Game[Any, Any, Any, Any]
    presets: Mapping[str, Mapping[str, Any]]
    default_preset: str
    description: str = ""
    aliases: tuple[str, ...] = ()
    #: other names for presets; a preset alias also works as a game name
    preset_aliases: Mapping[str, str] = field(default_factory=dict)
    preset_docs: Mapping[str, str] = field(default_factory=dict)
    #: game-specific bots by name (e.g. ``basic``); factories take (game, seat, seed, **params)
    bots: Mapping[str, Any] = field(default_factory=dict)
    #: options that make random play terminate (e.g. ``{"max_hands": 3}``): random bots rarely
    #: reach a target score, so simulations with random bots and the conformance suite add these
    random_play_options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def rules_type(self) -> type[Rules]:
        return self.game.rules_type

    def resolve_preset(self, preset: str | None) -> str:
        if preset is None:
            return self.default_preset
        key = preset.lower()
        key = self.preset_aliases.get(key, key)
        if key not in self.presets:
            names = sorted(set(self.presets) | set(self.preset_aliases))
            raise UnknownGame(f"{self.name} has no preset {preset!r}; presets: {', '.join(names)}")
        return key

    def rules(
        self,
        preset: str | None = None,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Rules:
        """The rules object of a preset with the player count and options applied (validated)."""
        data: dict[str, Any] = dict(self.presets[self.resolve_preset(preset)])
        if players is not None:
            data["players"] = players
        data.update(options or {})
        return self.rules_type.from_json(data)


@dataclass(frozen=True)
class Variant:
    """A game with chosen rules, ready to deal: ``variant.new_game(seed)``."""

    entry: GameEntry
    preset: str
    rules: Rules

    @property
    def game(self) -> Game[Any, Any, Any, Any]:
        return self.entry.game

    @property
    def name(self) -> str:
        return self.entry.name

    def new_game(self, seed: int) -> Any:
        return self.game.new_game(self.rules, seed)


class Registry:
    def __init__(self) -> None:
        self._entries: dict[str, GameEntry] = {}
        self._names: dict[str, tuple[str, str | None]] = {}

    def register(self, entry: GameEntry) -> None:
        self._entries[entry.name] = entry
        self._names[entry.name] = (entry.name, None)
        for alias in entry.aliases:
            self._names[alias.lower()] = (entry.name, None)
        for preset in entry.presets:
            self._names.setdefault(preset.lower(), (entry.name, preset))
        for alias, preset in entry.preset_aliases.items():
            self._names.setdefault(alias.lower(), (entry.name, preset))

    def names(self) -> list[str]:
        return list(self._entries)

    def entry(self, name: str) -> GameEntry:
        return self._entries[self._lookup(name)[0]]

    def _lookup(self, name: str) -> tuple[str, str | None]:
        key = name.lower()
        if key not in self._names:
            raise UnknownGame(f"no game {name!r}; games: {', '.join(sorted(self._entries))}")
        return self._names[key]

    def get(
        self,
        name: str,
        preset: str | None = None,
        players: int | None = None,
        **options: Any,
    ) -> Variant:
        """``get("samba", preset="bolivia", players=4)``; a preset name works as a game name."""
        game_name, implied = self._lookup(name)
        entry = self._entries[game_name]
        chosen = entry.resolve_preset(preset if preset is not None else implied)
        try:
            rules = entry.rules(chosen, players, options)
        except RulesError as exc:
            raise RulesError(f"{entry.name} ({chosen}): {exc}") from None
        return Variant(entry, chosen, rules)
