"""Replay and saved match files.

A match is fully described by (game, rules JSON, seed, actions): replaying them gives the same
state every time.  The match file is that, as JSON, plus who played and how it ended::

    {"format": "parlour-match", "format_version": 1, "game": "samba", "preset": "samba",
     "engine_version": 1, "rules": {...}, "seed": 42, "players": ["random", ...],
     "actions": [{"type": "Draw"}, ...], "outcome": {...}}
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from parlour.core.errors import ParlourError
from parlour.core.game import Event, Game
from parlour.core.registry import GameEntry, Variant


class EntrySource(Protocol):
    """Where a record finds its game: a :class:`~parlour.core.registry.Registry`, or the
    ``parlour.games`` module (core never imports the games itself)."""

    def entry(self, name: str) -> GameEntry: ...


FORMAT = "parlour-match"
FORMAT_VERSION = 1


def replay(
    game: Game[Any, Any, Any, Any],
    rules: Any,
    seed: int,
    actions: Iterable[Any],
    *,
    checked: bool = True,
) -> tuple[Any, list[Event]]:
    """Replay actions (objects or JSON dicts) from a fresh deal; returns the state and all events."""
    state = game.new_game(rules, seed)
    events: list[Event] = []
    for i, action in enumerate(actions):
        if isinstance(action, Mapping):
            action = game.action_from_json(action)
        try:
            state, evs = (
                game.apply(state, action) if checked else game.apply_unchecked(state, action)
            )
        except ParlourError as exc:
            raise ParlourError(f"action {i} ({action}) does not replay: {exc}") from exc
        events.extend(evs)
    return state, events


@dataclass
class MatchRecord:
    """A saved match: enough to replay it exactly."""

    game: str
    preset: str
    rules: dict[str, Any]
    seed: int
    actions: list[dict[str, Any]] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    engine_version: int = 1
    outcome: dict[str, Any] | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "game": self.game,
            "preset": self.preset,
            "engine_version": self.engine_version,
            "rules": self.rules,
            "seed": self.seed,
            "players": self.players,
            "actions": self.actions,
            "outcome": self.outcome,
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchRecord:
        if data.get("format") != FORMAT:
            raise ParlourError("not a Parlour match file (missing 'format': 'parlour-match')")
        if data.get("format_version") != FORMAT_VERSION:
            raise ParlourError(f"unsupported match file version {data.get('format_version')!r}")
        return cls(
            game=data["game"],
            preset=data.get("preset", ""),
            rules=dict(data["rules"]),
            seed=int(data["seed"]),
            actions=list(data.get("actions", [])),
            players=list(data.get("players", [])),
            engine_version=int(data.get("engine_version", 1)),
            outcome=data.get("outcome"),
            meta=dict(data.get("meta", {})),
        )

    def save(self, path: str | Path) -> None:
        """Write atomically (a reader never sees a half-written file)."""
        target = Path(path)
        tmp = target.with_name(f".{target.name}.tmp")
        tmp.write_text(json.dumps(self.to_json(), ensure_ascii=False, indent=1))
        tmp.replace(target)

    @classmethod
    def load(cls, path: str | Path) -> MatchRecord:
        try:
            data = json.loads(Path(path).read_text())
        except json.JSONDecodeError as exc:
            raise ParlourError(f"{path}: not valid JSON ({exc})") from None
        return cls.from_json(data)

    @classmethod
    def start(cls, variant: Variant, seed: int, players: Sequence[str] = ()) -> MatchRecord:
        return cls(
            game=variant.name,
            preset=variant.preset,
            rules=variant.rules.to_json(),
            seed=seed,
            players=list(players),
            engine_version=variant.game.version,
        )

    def replay(self, games: EntrySource) -> tuple[Any, list[Event]]:
        """Replay the match with the engine ``games`` knows by this record's name (the
        registry, or the ``parlour.games`` module: ``record.replay(parlour.games)``)."""
        entry = games.entry(self.game)
        if entry.game.version != self.engine_version:
            raise ParlourError(
                f"match recorded with {self.game} engine v{self.engine_version}, "
                f"this is v{entry.game.version}"
            )
        rules = entry.rules_type.from_json(self.rules)
        return replay(entry.game, rules, self.seed, self.actions)
