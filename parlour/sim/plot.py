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
    fig, ax = plt.subplots(figsize=(max(4.0, 1.6 * len(names) + 2), 4.0))
    xs = list(range(len(names)))
    show_hands = any(bots[n]["hands"] > bots[n]["games"] for n in names)
    width = 0.38 if show_hands else 0.6
    offset = width / 2 if show_hands else 0.0

    def bars(key: str, shift: float, label: str, color: str) -> None:
        """One bar per bot: the rate under ``key`` with its interval ``key + "_ci"``."""
        rates = [bots[n][key] for n in names]
        lows = [max(0.0, bots[n][key] - bots[n][key + "_ci"][0]) for n in names]
        highs = [max(0.0, bots[n][key + "_ci"][1] - bots[n][key]) for n in names]
        ax.bar(
            [x + shift for x in xs],
            rates,
            width,
            yerr=[lows, highs],
            capsize=6,
            label=label,
            color=color,
        )

    bars("win_rate", -offset, "games won", "#3b7dd8")
    if show_hands:
        bars("hand_win_rate", offset, "hands won", "#e0a030")
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
