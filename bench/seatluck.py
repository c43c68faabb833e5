"""How much a game's deal decides who wins, in the ladder's setup (issue 19): every deal is played
twice by the same bot at every seat, each time with other bot seeds (other random choices), and
the script counts the deals whose two games the same seat won.

    uv run python bench/seatluck.py --game cheat --deals 60
    uv run python bench/seatluck.py --game cheat --players 2 --deals 60   # heads-up, for contrast

A duplicate match-up of two bots (each deal twice, the bots swapped) learns nothing from a deal
that the same seat wins whoever plays it: when nearly every deal is like that, as in heads-up
one-pack Cheat, a duplicate strength measurement measures nothing.  With ``n`` seats equally
likely to win, chance alone gives the same seat twice in about ``1/n`` of the deals.  A bot with
few random choices plays many deals the same way twice (``identical_games`` counts them; Scat's
``basic`` has none, so this measure says nothing there), which overstates what the deal decides.

Not a test: it plays whole games and takes a while.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from parlour import games
from parlour.bots import make
from parlour.core.registry import Variant
from parlour.core.rng import derive_seed
from parlour.sim.ladder import SETUPS, ladder_variant
from parlour.sim.stats import wilson


def winners_of(
    variant: Variant, bot: str, match_seed: int, bot_seed: int
) -> tuple[tuple[int, ...], tuple[Any, ...]]:
    """The winning seats of one game of ``bot`` at every seat with these seeds, and the moves."""
    game = variant.game
    n = int(variant.rules.players)  # type: ignore[attr-defined]
    bots = [make(bot, variant, s, derive_seed(bot_seed, "seat", s)) for s in range(n)]
    state = game.new_game(variant.rules, match_seed)
    moves = []
    while (seat := game.to_act(state)) is not None:
        legal = game.legal_actions(state)
        view = game.observe(state, seat) if bots[seat].needs_view else None
        moves.append(bots[seat].act(view, legal))
        state = game.apply_quiet(state, moves[-1])
    return tuple(game.outcome(state).winners), tuple(moves)


def seat_luck(variant: Variant, bot: str, deals: int, seed: int) -> dict[str, Any]:
    same = decided = identical = 0
    for d in range(deals):
        match_seed = derive_seed(seed, "match", d)
        first, moves = winners_of(variant, bot, match_seed, derive_seed(seed, "bots", d, 0))
        second, again = winners_of(variant, bot, match_seed, derive_seed(seed, "bots", d, 1))
        identical += moves == again
        if first and second:
            decided += 1
            same += first == second
        print(f"\r  {d + 1}/{deals} deals, same seat {same}", end="", file=sys.stderr)
    print(file=sys.stderr)
    lo, hi = wilson(same, decided)
    n = int(variant.rules.players)  # type: ignore[attr-defined]
    return {
        "game": variant.name,
        "players": n,
        "bot": bot,
        "deals": deals,
        "both_won": decided,
        "same_seat": same,
        "same_seat_rate": same / decided if decided else 0.0,
        "identical_games": identical,
        "wilson95": [lo, hi],
        "chance": 1 / n,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--game", default="cheat", choices=tuple(SETUPS))
    ap.add_argument("--players", type=int, default=None, help="other than the ladder's setup")
    ap.add_argument("--bot", default="basic")
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    variant = ladder_variant(args.game)
    if args.players is not None:
        options = {"max_hands": SETUPS[args.game].max_hands} if SETUPS[args.game].max_hands else {}
        variant = games.get(args.game, None, args.players, **options)
    print(json.dumps(seat_luck(variant, args.bot, args.deals, args.seed)))


if __name__ == "__main__":
    main()
