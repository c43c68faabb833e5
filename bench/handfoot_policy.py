"""The ``strong`` bot's play-out policy for Hand and Foot (``HandFootPlayoutBot``: ``basic`` with
a discipline for wild cards) against ``basic`` by itself, without any search, in the ladder's
setup (one hand, 4 players in partnerships, duplicate deals: each deal twice, sides swapped).

    uv run python bench/handfoot_policy.py --deals 200      # 400 hands, a few CPU-minutes

Prints hands won by the policy's side (a tied hand counts half), the 95 % Wilson interval and
the mean hand score difference.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from parlour.core.rng import derive_seed
from parlour.games.handfoot.bot import HandFootBasicBot, HandFootPlayoutBot
from parlour.sim.ladder import ladder_variant
from parlour.sim.stats import wilson


def hand(seed: int, bots: tuple[type, type, type, type]) -> tuple[float, float]:
    """Side 0's and side 1's score of one hand with ``bots`` at seats 0–3."""
    variant = ladder_variant("handfoot")
    game = variant.game
    players = [
        cls(game, s, derive_seed(seed, "seat", s), rules=variant.rules)
        for s, cls in enumerate(bots)
    ]
    state = game.new_game(variant.rules, seed)
    while (seat := game.to_act(state)) is not None:
        legal = game.legal_actions(state)
        state = game.apply_quiet(state, players[seat].act(game.observe(state, seat), legal))
    scores = game.outcome(state).hands[-1].scores
    return float(scores[0]), float(scores[1])


def duel(deals: int, seed: int) -> dict[str, Any]:
    new, old = HandFootPlayoutBot, HandFootBasicBot
    won = diff = 0.0
    for d in range(deals):
        match_seed = derive_seed(seed, "match", d)
        for ours, seats in ((0, (new, old, new, old)), (1, (old, new, old, new))):
            scores = hand(match_seed, seats)
            mine, theirs = scores[ours], scores[1 - ours]
            won += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            diff += mine - theirs
    lo, hi = wilson(won, 2 * deals)
    return {
        "hands": 2 * deals,
        "won": won,
        "rate": round(won / (2 * deals), 4),
        "wilson95": [round(lo, 4), round(hi, 4)],
        "mean_hand_score_diff": round(diff / (2 * deals), 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    print(json.dumps(duel(args.deals, args.seed)))


if __name__ == "__main__":
    main()
