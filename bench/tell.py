"""What telling costs the server (issue 34): ``legal_json`` + ``view_json`` per state of one
random match, in English and in another language, for each game.

    uv run python bench/tell.py [nl]
"""

from __future__ import annotations

import random
import sys
import time

from parlour import games
from parlour.server import redact


def per_state(name: str, lang: str, rounds: int = 20) -> float:
    """Microseconds per state (the legal moves told and the view) over ``rounds`` passes."""
    variant = next(v for v in games.all_variants() if v.name == name)
    game = variant.game
    state = game.new_game(variant.rules.replace(**variant.entry.random_play_options), 1)
    rng = random.Random(1)
    states = []
    for _ in range(300):
        if game.to_act(state) is None:
            break
        states.append(state)
        state, _ = game.apply(state, rng.choice(game.legal_actions(state)))

    def run(n: int) -> None:
        for _ in range(n):
            for st in states:
                redact.legal_json(game, st, lang)
                redact.view_json(game, st, game.to_act(st), lang)

    run(2)  # warm: catalogs loaded, told moves kept
    started = time.perf_counter()
    run(rounds)
    return (time.perf_counter() - started) / rounds / len(states) * 1e6


if __name__ == "__main__":
    other = sys.argv[1] if len(sys.argv) > 1 else "nl"
    for game in ("samba", "handfoot", "cheat", "scat"):
        en, there = per_state(game, "en"), per_state(game, other)
        print(f"{game:9} en {en:6.0f} µs   {other} {there:6.0f} µs per state")
