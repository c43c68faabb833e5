"""Two rule-based policies against each other without any search, the way the ladder seats them:
one hand, 4 players in partnerships (the policy under test at seats 0 and 2), duplicate deals
(each deal twice, sides swapped), so the luck of the cards cancels.  Used by the play-out policy
benches (``bench/samba_policy.py``, ``bench/handfoot_policy.py``) to screen a rule of thumb in
seconds before it is tried inside the search.

>>> from parlour.games.handfoot.bot import HandFootBasicBot
>>> out = duel("handfoot", HandFootBasicBot, HandFootBasicBot, deals=1, seed=3)
>>> out["hands"]
2
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.core.rng import derive_seed
from parlour.sim.ladder import ladder_variant
from parlour.sim.stats import wilson


def hand(game_code: str, seed: int, bots: Sequence[type]) -> tuple[float, float]:
    """Side 0's and side 1's score of one ladder hand of ``game_code`` with the bot classes
    ``bots`` at seats 0–3 (each seeded from the deal's seed and its seat)."""
    variant = ladder_variant(game_code)
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


def duel(game_code: str, new: type, old: type, deals: int, seed: int) -> dict[str, Any]:
    """``new`` against ``old`` on ``deals`` duplicate deals: hands won by ``new``'s side (a tied
    hand counts half), the 95 % Wilson interval and the mean hand score difference."""
    won = diff = 0.0
    for d in range(deals):
        match_seed = derive_seed(seed, "match", d)
        for ours, seats in ((0, (new, old, new, old)), (1, (old, new, old, new))):
            scores = hand(game_code, match_seed, seats)
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
