"""Play one match between bots and record it (replayable) with decision statistics."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

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
        bot = bots[seat]
        view = game.observe(state, seat) if bot.needs_view else None
        action = bot.act(view, legal)
        if record:
            actions.append(game.action_to_json(action))
        state = game.apply_quiet(state, action)
    else:
        raise RuntimeError(f"match did not finish within {max_decisions} decisions (seed {seed})")
    outcome = game.outcome(state)
    stats.hands = len(outcome.hands)
    rec.outcome = outcome.to_json()
    return MatchResult(rec, outcome, stats)
