"""Fit the weights of ``parlour/games/samba/parts/evaluation.py`` (the ``strong`` bot's estimate of how a
Samba hand ends) on ``basic``-vs-``basic`` hands, and write them into that file.

    uv run python scripts/fit_samba_eval.py            # 20,000 hands, about 2 CPU-minutes compiled
    uv run python scripts/fit_samba_eval.py --hands 500 --dry-run

Each hand (4 players, partnerships, seeds 0…N−1) is played by four ``basic`` bots; every 6th
decision the features of both sides are recorded with the side's final score of the hand.  The
fit is least squares of the score difference of the two sides on the feature differences
(no constant: only differences matter).  The R² on the held-out last fifth of the hands is
printed, beside that of the points on the table alone.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from evalfit import fit_and_write

from parlour import games
from parlour.bots import make
from parlour.games.samba.parts import evaluation

#: the source file (``evaluation.__file__`` is the shared library when the build is compiled)
TARGET = (
    Path(__file__).resolve().parents[1] / "parlour" / "games" / "samba" / "parts" / "evaluation.py"
)


def positions(hands: int, every: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Both sides' features every ``every``-th decision of ``hands`` hands of four ``basic`` bots
    (seeds 0…hands−1), with the hand's final score difference (side 0 − side 1) and its seed:
    ``(features of side 0, features of side 1, score difference, seed)``, one row per position.
    Also ``scripts/fit_samba_mlp.py``'s data."""
    variant = games.get("samba", players=4, max_hands=1)
    game = variant.game
    a: list[list[float]] = []
    b: list[list[float]] = []
    ys: list[float] = []
    deal: list[int] = []
    for seed in range(hands):
        state = variant.new_game(seed)
        bots = [make("basic", variant, s, seed) for s in range(4)]
        snaps = []
        n = 0
        while (seat := game.to_act(state)) is not None:
            if n % every == every // 2:
                snaps.append((evaluation.features(state, 0), evaluation.features(state, 1)))
            legal = game.legal_actions(state)
            action = bots[seat].act(game.observe(state, seat), legal)
            state, _ = game.apply_unchecked(state, action)
            n += 1
        scores = game.outcome(state).hands[-1].scores
        for f0, f1 in snaps:
            a.append(f0)
            b.append(f1)
            ys.append(scores[0] - scores[1])
            deal.append(seed)
    return np.array(a), np.array(b), np.array(ys), np.array(deal)


def collect(hands: int, every: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The least-squares data: feature differences, score differences, the baseline (the
    difference of the points already on the table, feature 0) and the seeds."""
    a, b, ys, deal = positions(hands, every)
    return a - b, ys, a[:, 0] - b[:, 0], deal


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--every", type=int, default=6)
    ap.add_argument("--dry-run", action="store_true", help="print the fit, do not write it")
    args = ap.parse_args()
    fit_and_write(
        collect(args.hands, args.every),
        hands=args.hands,
        baseline="table points",
        features=evaluation.FEATURES,
        target=TARGET,
        script="fit_samba_eval.py",
        dry_run=args.dry_run,
    )


if __name__ == "__main__":
    main()
