"""A PNG of a tournament summary: win rate per bot with its 95 % Wilson interval."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def plot_win_rates(summary: dict[str, Any], path: str | Path, title: str = "") -> Path:
    """Draw the win rates (and hand win rates, when games had several hands) with their
    intervals; returns the path written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bots = summary["bots"]
    names = list(bots)
    rates = [bots[n]["win_rate"] for n in names]
    lows = [max(0.0, bots[n]["win_rate"] - bots[n]["win_rate_ci"][0]) for n in names]
    highs = [max(0.0, bots[n]["win_rate_ci"][1] - bots[n]["win_rate"]) for n in names]
    fig, ax = plt.subplots(figsize=(max(4.0, 1.6 * len(names) + 2), 4.0))
    xs = list(range(len(names)))
    show_hands = any(bots[n]["hands"] > bots[n]["games"] for n in names)
    width = 0.38 if show_hands else 0.6
    offset = width / 2 if show_hands else 0.0
    ax.bar(
        [x - offset for x in xs],
        rates,
        width,
        yerr=[lows, highs],
        capsize=6,
        label="games won",
        color="#3b7dd8",
    )
    if show_hands:
        hrates = [bots[n]["hand_win_rate"] for n in names]
        hlows = [max(0.0, bots[n]["hand_win_rate"] - bots[n]["hand_win_rate_ci"][0]) for n in names]
        hhighs = [
            max(0.0, bots[n]["hand_win_rate_ci"][1] - bots[n]["hand_win_rate"]) for n in names
        ]
        ax.bar(
            [x + offset for x in xs],
            hrates,
            width,
            yerr=[hlows, hhighs],
            capsize=6,
            label="hands won",
            color="#e0a030",
        )
        ax.legend()
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xticks(xs)
    ax.set_xticklabels([f"{n}\n(n={bots[n]['games']})" for n in names])
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95 % Wilson interval)")
    ax.set_title(title or f"{summary['games']} games")
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out
