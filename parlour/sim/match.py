"""Play one match between bots and record it (replayable) with decision statistics."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from parlour import bots as bot_registry
from parlour.core.bot import Bot
from parlour.core.game import Outcome
from parlour.core.registry import Variant
from parlour.core.replay import MatchRecord
from parlour.core.rng import derive_seed


@dataclass
class MatchStats:
    decisions: int = 0
    legal_total: int = 0
    legal_max: int = 0
    hands: int = 0

    def add(self, other: MatchStats) -> None:
        self.decisions += other.decisions
        self.legal_total += other.legal_total
        self.legal_max = max(self.legal_max, other.legal_max)
        self.hands += other.hands


@dataclass
class MatchResult:
    record: MatchRecord
    outcome: Outcome
    stats: MatchStats = field(default_factory=MatchStats)


def make_bots(variant: Variant, names: Sequence[str], seed: int) -> list[Bot]:
    """One bot per seat; ``names`` is cycled if shorter than the number of seats."""
    seats = int(variant.rules.players)  # type: ignore[attr-defined]
    if not names:
        names = ["random"]
    return [
        bot_registry.make(names[i % len(names)], variant, i, derive_seed(seed, "seat", i))
        for i in range(seats)
    ]


def view_makers(variant: Variant, bots: Sequence[Bot]) -> list[Callable[[Any, int], Any] | None]:
    """How each seat's bot is shown the game: ``None`` for a bot that reads no view (random),
    the game's cheap play-out view (``SearchHints.rollout_view``) for the very bot classes it is
    declared for (the game's ``basic`` bot and the search's play-out policy: they decide the same
    on it as on ``observe``'s view, ``tests/bots/test_fast_views.py``), ``observe`` otherwise (a
    subclass of the basic bot may read more of the view)."""
    game = variant.game
    entry = variant.entry
    hints = entry.hints
    fast = hints.rollout_view if hints is not None else None
    quick = {c for c in (entry.basic_bot, hints.rollout_bot if hints else None) if c is not None}
    out: list[Callable[[Any, int], Any] | None] = []
    for bot in bots:
        if not bot.needs_view:
            out.append(None)
        elif fast is not None and type(bot) in quick:
            out.append(partial(fast, game))
        else:
            out.append(game.observe)
    return out


def play_match(
    variant: Variant,
    seed: int,
    bot_names: Sequence[str] = ("random",),
    *,
    record: bool = True,
    max_decisions: int = 2_000_000,
) -> MatchResult:
    """Play a whole match; the record replays to the same final state."""
    game = variant.game
    players = list(bot_names) or ["random"]
    bots = make_bots(variant, players, seed)
    views = view_makers(variant, bots)
    rec = MatchRecord.start(variant, seed, [b.name for b in bots])
    state = game.new_game(variant.rules, seed)
    stats = MatchStats()
    actions = rec.actions
    while stats.decisions < max_decisions:
        seat = game.to_act(state)
        if seat is None:
            break
        legal = game.legal_actions(state)
        n = len(legal)
        stats.decisions += 1
        stats.legal_total += n
        if n > stats.legal_max:
            stats.legal_max = n
        see = views[seat]
        action = bots[seat].act(see(state, seat) if see is not None else None, legal)
        if record:
            actions.append(game.action_to_json(action))
        state = game.apply_quiet(state, action)
    else:
        raise RuntimeError(f"match did not finish within {max_decisions} decisions (seed {seed})")
    outcome = game.outcome(state)
    stats.hands = len(outcome.hands)
    rec.outcome = outcome.to_json()
    return MatchResult(rec, outcome, stats)
