"""The Cheat ``basic`` bot's rule for unlikely claims (``unlikely`` / ``unlikely_pile``), on
duplicate deals of the 4-player ``cheat`` preset: each deal is played once per seat of the bot
tested, (a) against three ``random`` bots, (b) against three ``basic`` bots without the rule
(25 % is even); with how often the tested seat and the others call.

    uv run python bench/cheat_calls.py --deals 40 --seed 5000 --unlikely 0.8 --pile 4
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from parlour import games
from parlour.bots import make


def play(
    seed: int, seat: int, mine: tuple[str, dict[str, Any]], others: tuple[str, dict[str, Any]]
) -> tuple[bool, list[int], list[int]]:
    variant = games.get("cheat")
    game = variant.game
    state = game.new_game(variant.rules, seed)
    bots = [
        make(
            *(mine if s == seat else others)[:1],
            variant,
            s,
            seed,
            **(mine if s == seat else others)[1],
        )
        for s in range(4)
    ]
    calls, asked = [0, 0], [0, 0]
    steps = 0
    while game.to_act(state) is not None and steps < 20000:
        s = game.to_act(state)
        assert s is not None
        action = bots[s].act(game.observe(state, s), game.legal_actions(state))
        kind = type(action).__name__
        if kind in ("Challenge", "Pass"):
            k = 0 if s == seat else 1
            asked[k] += 1
            calls[k] += kind == "Challenge"
        state, _ = game.apply(state, action)
        steps += 1
    return game.outcome(state).ranking[0] == seat, calls, asked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--unlikely", type=float, default=0.8)
    parser.add_argument("--pile", type=int, default=4)
    args = parser.parse_args()
    rule = {"unlikely": args.unlikely, "unlikely_pile": args.pile}
    for label, others in (
        ("3 random", ("random", {})),
        ("3 basic without the rule", ("basic", {"unlikely": None})),
    ):
        wins = n = 0
        calls, asked = [0, 0], [0, 0]
        for deal in range(args.deals):
            for seat in range(4):
                won, c, a = play(args.seed + deal, seat, ("basic", rule), others)
                wins += won
                n += 1
                for k in (0, 1):
                    calls[k] += c[k]
                    asked[k] += a[k]
        print(
            f"basic {rule} vs {label}: won {wins}/{n} = {wins / n:.1%}; calls: tested seat "
            f"{calls[0] / max(1, asked[0]):.1%}, others {calls[1] / max(1, asked[1]):.1%}",
            flush=True,
        )


if __name__ == "__main__":
    main()
