"""CPU time of each decision ``strong`` searches, in the game's ladder setup against ``basic``
(issue 19: calibrating an iteration budget to at most 1 s per decision without depending on how
loaded the machine is — CPU time of the searching process, not wall time).

    uv run python bench/decision_cpu.py --game handfoot --budget 200it --hands 6

Plays ``--hands`` games (``strong`` at side 0's seats, ``basic`` at the others, seeds from
``--seed``) and prints the number of searched decisions (those with a choice the search weighs),
their mean, median, 99th percentile and largest CPU time.  On a shared machine the CPU time of a
process still grows a little with the load (shared caches): the figures are an upper bound of an
idle core's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from parlour.bots import make
from parlour.core.rng import derive_seed
from parlour.sim.ladder import SETUPS, ladder_variant


def measure(game_name: str, budget: str, hands: int, seed: int) -> dict[str, float | int | str]:
    variant = ladder_variant(game_name)
    game = variant.game
    times: list[float] = []
    for h in range(hands):
        match_seed = derive_seed(seed, "match", h)
        state = variant.new_game(match_seed)
        sides = game.outcome(state).sides
        bots = {
            s: make(f"strong:{budget}" if s in sides[0] else "basic", variant, s, match_seed)
            for side in sides
            for s in side
        }
        while (seat := game.to_act(state)) is not None:
            legal = game.legal_actions(state)
            bot = bots[seat]
            view = game.observe(state, seat)
            before = getattr(bot, "decisions", None)
            started = time.process_time()
            action = bot.act(view, legal)
            spent = time.process_time() - started
            if before is not None and bot.decisions > before:  # type: ignore[attr-defined]
                times.append(spent)
            state = game.apply_quiet(state, action)
    times.sort()
    return {
        "game": game_name,
        "budget": budget,
        "hands": hands,
        "searched_decisions": len(times),
        "cpu_mean_s": round(statistics.mean(times), 3) if times else 0.0,
        "cpu_median_s": round(times[len(times) // 2], 3) if times else 0.0,
        "cpu_p99_s": round(times[min(len(times) - 1, int(len(times) * 0.99))], 3) if times else 0.0,
        "cpu_max_s": round(times[-1], 3) if times else 0.0,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", default="handfoot", choices=tuple(SETUPS))
    ap.add_argument("--budget", default="200it", help="strong's budget: NNNit or seconds")
    ap.add_argument(
        "--hands", type=int, default=6, help="games played (one hand each in 4-player games)"
    )
    ap.add_argument("--seed", type=int, default=99)
    args = ap.parse_args()
    print(json.dumps(measure(args.game, args.budget, args.hands, args.seed)))


if __name__ == "__main__":
    main()
