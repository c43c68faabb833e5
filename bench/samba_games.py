#!/usr/bin/env python3
"""Seeded random Samba games for instruction counts (docs/speed.md): the same games every run,
so ``valgrind --tool=cachegrind`` counts the same work whatever the machine's load.

    uv run python bench/samba_games.py [GAMES] [SRC]      # default 20 games, this checkout

Plays GAMES matches (4 players, one hand: the registry's random-play options) with a random bot
seeded once, and prints the decisions, a digest of the action log and the final scores (equal
digests: the same games move for move), the CPU seconds and the build.  The instruction count of
the games is that of a run less that of a run of 0 games (the start-up), e.g.::

    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        .venv/bin/python bench/samba_games.py 20

``SRC``: a checkout to import ``parlour`` from instead (a copy of another branch, built).
"""

from __future__ import annotations

import hashlib
import random
import sys
import time
from pathlib import Path


def play(n_games: int) -> tuple[int, str, float]:
    """The seeded games: decisions, the digest's first 16 hex digits and the CPU seconds (the
    loop ``bench/gc_probe.py`` runs too)."""
    from parlour import games

    variant = games.get("samba", players=4)
    game = variant.game
    rules = variant.rules.replace(**variant.entry.random_play_options)
    rng = random.Random(1)
    digest = hashlib.sha256()
    decisions = 0
    start = time.process_time()
    for seed in range(1, n_games + 1):
        state = game.new_game(rules, seed)
        while game.to_act(state) is not None:
            legal = game.legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            digest.update(str(action).encode())
            state = game.apply_quiet(state, action)
            decisions += 1
        digest.update(repr(state.scores).encode())
    return decisions, digest.hexdigest()[:16], time.process_time() - start


def main() -> int:
    sys.path.insert(
        0, sys.argv[2] if len(sys.argv) > 2 else str(Path(__file__).resolve().parents[1])
    )
    import parlour
    from parlour import games  # noqa: F401  (start-up outside the games)

    n_games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    decisions, digest, cpu = play(n_games)
    print(
        f"{n_games} games, {decisions} decisions, digest {digest}, "
        f"{cpu:.2f} s CPU, {parlour.BUILD.describe()}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
