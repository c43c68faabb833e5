"""The least-squares fit shared by ``fit_samba_eval.py`` and ``fit_handfoot_eval.py``: weights
of an evaluation's feature differences against the final score difference, the held-out R²
beside a one-number baseline's, and the weights written into the evaluation module between its
"fitted by" markers."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np


def r2(pred: np.ndarray, y: np.ndarray) -> float:
    return float(1 - ((y - pred) ** 2).sum() / ((y - y.mean()) ** 2).sum())


def fit_and_write(
    samples: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    *,
    hands: int,
    baseline: str,
    features: Sequence[str],
    target: Path,
    script: str,
    dry_run: bool,
    players: str = "basic-vs-basic",
) -> None:
    """Fit on the first four fifths of the deals, report R² on the rest (and the ``baseline``'s,
    scaled by its own best factor), print the weights and, unless ``dry_run``, write them into
    ``target`` between the markers naming ``script``; ``players`` says who played the hands."""
    x, y, old, deal = samples
    train = deal < int(hands * 0.8)
    w, *_ = np.linalg.lstsq(x[train], y[train], rcond=None)
    test = ~train
    fit_r2 = r2(x[test] @ w, y[test])
    k = float((old[train] @ y[train]) / max(1e-9, old[train] @ old[train]))
    old_r2 = r2(k * old[test], y[test])
    summary = (
        f"{hands} {players} hands, {len(y)} positions; held-out R2 {fit_r2:.3f} "
        f"({baseline} alone: {old_r2:.3f})"
    )
    print(summary)
    for name, wi in zip(features, w, strict=True):
        print(f"  {wi:+9.2f}  {name}")
    if dry_run:
        return
    weights = ", ".join(f"{v:.3f}" for v in w)
    block = (
        f"# --- fitted by scripts/{script} (do not edit by hand) ---\n"
        f"WEIGHTS: tuple[float, ...] = ({weights},)\n"
        f'FIT = "{summary}"\n'
        "# --- end of fitted weights ---"
    )
    marker = re.escape(f"# --- fitted by scripts/{script}")
    text = re.sub(
        marker + r".*?# --- end of fitted weights -*", block, target.read_text(), flags=re.S
    )
    target.write_text(text)
    print(f"wrote {target}")
