"""Fit the weights of ``parlour/games/handfoot/parts/evaluation.py`` (the ``strong`` bot's
estimate of how a Hand and Foot round ends) on rounds of the search's play-out policy
(``HandFootPlayoutBot``, the positions its play-outs reach; ``--bot basic`` for ``basic`` rounds),
and write them into that file.

    uv run python scripts/fit_handfoot_eval.py            # 400 rounds, a few minutes
    uv run python scripts/fit_handfoot_eval.py --hands 50 --dry-run

Each round (the first of a match: 4 players, partnerships, seeds 0…N−1) is played by four
such bots; every 8th decision the features of both partnerships are recorded with the
partnership's final score of the round.  The fit is least squares of the score difference of the
two sides on the feature differences (no constant: only differences matter).  The R² on the
held-out last fifth of the rounds is printed, beside that of the points earned alone.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from evalfit import fit_and_write

from parlour import games
from parlour.games.handfoot.bot import HandFootBasicBot, HandFootPlayoutBot, QuickView
from parlour.games.handfoot.parts import evaluation

#: the source file (``evaluation.__file__`` would be a shared library if the module were
#: ever compiled with the rules core, as Samba's is)
TARGET = Path(__file__).resolve().parents[1] / "parlour/games/handfoot/parts/evaluation.py"


BOTS = {"basic": HandFootBasicBot, "playout": HandFootPlayoutBot}


def collect(
    hands: int, every: int, bot: str = "playout"
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    variant = games.get("handfoot", players=4, max_hands=1)
    game = variant.game
    xs: list[list[float]] = []
    ys: list[float] = []
    old: list[float] = []
    deal: list[int] = []
    for seed in range(hands):
        state = variant.new_game(seed)
        bots = [BOTS[bot](game, s, seed, rules=variant.rules) for s in range(4)]
        snaps = []
        n = 0
        while game.to_act(state) is not None:
            if n % every == every // 2:
                f0, f1 = evaluation.features(state, 0), evaluation.features(state, 1)
                # baseline: the difference of the points already earned
                snaps.append(([a - b for a, b in zip(f0, f1, strict=True)], f0[0] - f1[0]))
            seat = game.to_act(state)
            legal = game.legal_actions(state)
            action = bots[seat].act(QuickView(state, seat), legal)
            state = game.apply_quiet(state, action)
            n += 1
        scores = game.outcome(state).hands[-1].scores
        for x, h in snaps:
            xs.append(x)
            ys.append(scores[0] - scores[1])
            old.append(h)
            deal.append(seed)
    return np.array(xs), np.array(ys), np.array(old), np.array(deal)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=400)
    ap.add_argument("--every", type=int, default=8)
    ap.add_argument("--bot", choices=tuple(BOTS), default="playout", help="who plays the rounds")
    ap.add_argument("--dry-run", action="store_true", help="print the fit, do not write it")
    args = ap.parse_args()
    fit_and_write(
        collect(args.hands, args.every, args.bot),
        hands=args.hands,
        baseline="points earned",
        features=evaluation.FEATURES,
        target=TARGET,
        script="fit_handfoot_eval.py",
        dry_run=args.dry_run,
        players=f"{args.bot}-vs-{args.bot}",
    )


if __name__ == "__main__":
    main()
