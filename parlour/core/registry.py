"""The registry of games and their presets, with aliases (``31`` → ``scat``, ``bullshit`` → the
``bullshit`` preset of ``cheat``), and the declared spec each game package exports
(:class:`GameEntry`, with its :class:`SearchHints` and text renderer).

Games are found through the ``parlour.games`` entry points (see ``parlour.games``), so a game
installed from another package registers like a built-in one."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from parlour.core.errors import RulesError, UnknownGame
from parlour.core.game import Event, Game, Seat
from parlour.core.grammar import Grammar
from parlour.core.rules import Rules
from parlour.core.said import N_, Said
from parlour.core.text import Names, describe_common


@dataclass(frozen=True)
class SearchHints:
    """What the ``strong`` (ISMCTS) bot may know of a game beyond the Game protocol.

    Every hint is optional: without hints the search plays out with the game's basic bot (or at
    random) to the end of the hand."""

    #: points that make a clear difference in a hand (rewards are ``tanh(diff / scale)``)
    score_scale: float | None = None
    #: decisions played out before a position is scored by ``evaluate_state`` (0: to the end)
    rollout_steps: int = 0
    #: ``"tree"`` (SO-ISMCTS) or ``"paired"`` (the policy's move against a few alternatives)
    search: Literal["tree", "paired"] = "tree"
    #: play-out length of the paired search (0: to the end of the hand)
    paired_rollout_steps: int = 0
    #: how many moves the paired search compares, the policy's own included
    search_candidates_limit: int = 6
    #: ``(game, state, seat) -> view``: a cheap stand-in for ``observe`` in play-outs, showing
    #: the basic bot the same information
    rollout_view: Callable[[Any, Any, Seat], Any] | None = None
    #: ``(game, state) -> per-side scores``: the predicted score of the hand from a full state
    evaluate_state: Callable[[Any, Any], Sequence[float]] | None = None
    #: ``(policy, view, legal, favourite, limit) -> moves`` the paired search compares
    search_candidates: Callable[..., Sequence[Any]] | None = None
    #: the Bot class of play-outs (default: the game's ``basic`` bot)
    rollout_bot: type | None = None
    #: ``(game, view, rng) -> state``: the search's determinizations, when the game knows better
    #: than uniform deals which hidden cards are likely (default: ``game.determinize``); a state
    #: consistent with the view, built from the view only
    determinize: Callable[[Any, Any, Any], Any] | None = None
    #: the paired search stops before its budget once every alternative trails the policy's move
    #: by more than this many standard errors of the paired difference (checked from the
    #: ``PAIRED_MIN_ROUNDS``-th round on; 0: never stops early, the budget is spent)
    paired_stop_z: float = 0.0
    #: standard errors of the paired difference by which an alternative must beat the policy's
    #: move for the paired search to play it (``strong``'s ``z``)
    paired_z: float = 2.0
    #: racing in the paired search: from the ``PAIRED_MIN_ROUNDS``-th round on, an alternative
    #: trailing the policy's move by more than this many standard errors (or never differing
    #: from it) is played out no more, its share of the budget going to the others (0: off)
    paired_race_z: float = 0.0


class TextRenderer(Protocol):
    """Renders an event for one viewer (``None``: a spectator) with the table's seat names."""

    def describe(self, event: Event, viewer: Seat | None, names: Names) -> str: ...


class GenericText:
    """The renderer of a game without its own text module: the events every game shares (the
    fair-deal events), others as their kind and data in plain words."""

    def describe(self, event: Event, viewer: Seat | None, names: Names) -> str:
        return describe_common(event, viewer, names)


GENERIC_TEXT = GenericText()


@dataclass(frozen=True)
class ModuleText:
    """A game's ``text`` module as its renderer, named (not held) so that a registered game
    pickles for worker processes: ``ModuleText("parlour.games.samba.text")``."""

    module: str

    def describe(self, event: Event, viewer: Seat | None, names: Names) -> str:
        import importlib

        told: str = importlib.import_module(self.module).describe(event, viewer, names)
        return told


@dataclass(frozen=True)
class GameEntry:
    """A registered game, declared once by its package (``ENTRY``): names, the engine and its
    rules class, presets, players and sides, the action grammar, the bots and search hints, the
    position builder and the text renderer."""

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
    #: the name people see (default: the engine's ``title``)
    title: str = ""
    #: fewest and most players (default: read from the rules class's ``players`` option)
    players: tuple[int, int] | None = None
    #: the seats of each side for given rules (partnerships); default: one side per seat
    sides: Callable[[Any], tuple[tuple[Seat, ...], ...]] | None = None
    #: players hold cards the others cannot see (views differ from the full state)
    hidden_information: bool = True
    #: a match is several hands (deals), scored hand by hand
    several_hands: bool = True
    #: the text of every action, both ways (``parse(text) -> action``, ``format(action)``)
    grammar: Grammar | None = None
    #: what the ``strong`` bot may know of the game (see :class:`SearchHints`)
    hints: SearchHints | None = None
    #: the validated builder of positions (``position(rules, ...) -> state``), if the game has one
    position: Callable[..., Any] | None = None
    #: renders events per viewer (the game's ``text`` module); default: the event's own text
    text: TextRenderer = GENERIC_TEXT

    def __post_init__(self) -> None:
        if not self.title:
            object.__setattr__(self, "title", getattr(self.game, "title", "") or self.name)
        if self.players is None:
            object.__setattr__(self, "players", _players_range(self.rules_type))
        if self.default_preset not in self.presets:
            raise ValueError(f"{self.name}: default preset {self.default_preset!r} is no preset")

    @property
    def rules_type(self) -> type[Rules]:
        return self.game.rules_type

    @property
    def basic_bot(self) -> Any:
        """The game's own rule-of-thumb bot class (``None`` if it has none)."""
        return self.bots.get("basic")

    @property
    def action_types(self) -> Mapping[str, type]:
        return self.game.action_types

    def sides_for(self, rules: Rules) -> tuple[tuple[Seat, ...], ...]:
        """The seats of each side under ``rules``."""
        if self.sides is not None:
            return self.sides(rules)
        return tuple((s,) for s in range(int(getattr(rules, "players", 0))))

    def parse_action(self, text: str) -> Any:
        """The action ``text`` writes (see :attr:`grammar`)."""
        if self.grammar is None:
            raise RulesError(f"{self.name} declares no action grammar")
        return self.grammar.parse(text)

    def action_str(self, action: Any) -> str:
        return self.grammar.format(action) if self.grammar is not None else str(action)

    def resolve_preset(self, preset: str | None) -> str:
        if preset is None:
            return self.default_preset
        key = preset.lower()
        key = self.preset_aliases.get(key, key)
        if key not in self.presets:
            names = sorted(set(self.presets) | set(self.preset_aliases))
            raise UnknownGame(
                N_(
                    "{game} has no preset {preset}; presets: {presets}",
                    game=self.name,
                    preset=repr(preset),
                    presets=", ".join(names),
                )
            )
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


def _players_range(rules_type: type[Rules]) -> tuple[int, int]:
    for f in dataclasses.fields(rules_type):
        if f.name == "players":
            meta = f.metadata
            if meta.get("choices"):
                values = [int(c) for c in meta["choices"]]
                return min(values), max(values)
            lo, hi = meta.get("min"), meta.get("max")
            default = int(f.default) if isinstance(f.default, int) else 1
            return int(lo if lo is not None else default), int(hi if hi is not None else default)
    return 1, 1


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
            raise UnknownGame(
                N_(
                    "no game {name}; games: {games}",
                    name=repr(name),
                    games=", ".join(sorted(self._entries)),
                )
            )
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
            first = exc.args[0] if exc.args else None
            raise RulesError(
                N_(
                    "{game} ({preset}): {error}",
                    game=entry.name,
                    preset=chosen,
                    error=first if isinstance(first, Said) else str(exc),
                )
            ) from None
        return Variant(entry, chosen, rules)
