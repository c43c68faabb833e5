"""Fit the weights of ``parlour/games/handfoot/parts/evaluation.py`` (the ``strong`` bot's
estimate of how a Hand and Foot round ends) on ``basic``-vs-``basic`` rounds, and write them into
that file.

    uv run python scripts/fit_handfoot_eval.py            # 400 rounds, a few minutes
    uv run python scripts/fit_handfoot_eval.py --hands 50 --dry-run

Each round (the first of a match: 4 players, partnerships, seeds 0…N−1) is played by four
``basic`` bots; every 8th decision the features of both partnerships are recorded with the
partnership's final score of the round.  The fit is least squares of the score difference of the
two sides on the feature differences (no constant: only differences matter).  The R² on the
held-out last fifth of the rounds is printed, beside that of the points earned alone.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import numpy as np

from parlour import games
from parlour.bots import make
from parlour.games.handfoot.bot import QuickView
from parlour.games.handfoot.parts import evaluation

TARGET = Path(evaluation.__file__)


def collect(hands: int, every: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    variant = games.get("handfoot", players=4, max_hands=1)
    game = variant.game
    xs: list[list[float]] = []
    ys: list[float] = []
    old: list[float] = []
    deal: list[int] = []
    for seed in range(hands):
        state = variant.new_game(seed)
        bots = [make("basic", variant, s, seed) for s in range(4)]
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


def r2(pred: np.ndarray, y: np.ndarray) -> float:
    return float(1 - ((y - pred) ** 2).sum() / ((y - y.mean()) ** 2).sum())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=400)
    ap.add_argument("--every", type=int, default=8)
    ap.add_argument("--dry-run", action="store_true", help="print the fit, do not write it")
    args = ap.parse_args()
    x, y, old, deal = collect(args.hands, args.every)
    train = deal < int(args.hands * 0.8)
    w, *_ = np.linalg.lstsq(x[train], y[train], rcond=None)
    test = ~train
    fit_r2 = r2(x[test] @ w, y[test])
    # the baseline, scaled by its own best factor, for comparison
    k = float((old[train] @ y[train]) / max(1e-9, old[train] @ old[train]))
    old_r2 = r2(k * old[test], y[test])
    summary = (
        f"{args.hands} basic-vs-basic hands, {len(y)} positions; held-out R2 {fit_r2:.3f} "
        f"(points earned alone: {old_r2:.3f})"
    )
    print(summary)
    for name, wi in zip(evaluation.FEATURES, w, strict=True):
        print(f"  {wi:+9.2f}  {name}")
    if args.dry_run:
        return
    weights = ", ".join(f"{v:.3f}" for v in w)
    block = (
        "# --- fitted by scripts/fit_handfoot_eval.py (do not edit by hand) ---\n"
        f"WEIGHTS: tuple[float, ...] = ({weights},)\n"
        f'FIT = "{summary}"\n'
        "# --- end of fitted weights ---"
    )
    text = TARGET.read_text()
    text = re.sub(
        r"# --- fitted by scripts/fit_handfoot_eval\.py.*?# --- end of fitted weights -*",
        block,
        text,
        flags=re.S,
    )
    TARGET.write_text(text)
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
