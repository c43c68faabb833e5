"""``parlour tournament``: JSON summary, plot, clear errors."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from parlour.cli import app

runner = CliRunner()
BASE = ["tournament", "samba", "--max-hands", "1", "--workers", "1"]


def _plot_args(png: Path) -> list[str]:
    """``--plot`` when matplotlib (the ``plot`` extra) is installed; under CI it must be."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("matplotlib (the plot extra) is not installed; CI=true requires it")
        return []
    return ["--plot", str(png)]


def test_json_summary_and_plot(tmp_path: Path) -> None:
    png = tmp_path / "rates.png"
    args = [*BASE, "--bots", "basic,random", "--games", "2", "--duplicate", "--seed", "4"]
    plot = _plot_args(png)
    result = runner.invoke(app, [*args, "--json", *plot])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 4 and data["deals"] == 2
    basic = data["results"]["basic"]
    assert basic["games"] == 4 and basic["wins"] == 4
    lo, hi = basic["win_rate_ci"]
    assert 0 < lo < 1 and hi == 1.0
    assert data["results"]["random"]["elo"] < basic["elo"]
    seeds = [g["seed"] for g in data["games_played"]]
    assert seeds[0] == seeds[1] and seeds[2] == seeds[3]
    assert data["games_played"][0]["seating"] == ["basic", "random", "basic", "random"]
    # one hand of a 10,000-point match: every game was cut short by the cap, and says so
    assert data["endings"] == {"capped": 4}
    assert all(g["kind"] == "capped" for g in data["games_played"])
    if plot:
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_table_output() -> None:
    result = runner.invoke(app, [*BASE, "--bots", "random,random", "--games", "1"])
    assert result.exit_code == 0, result.output
    assert "win rate" in result.output and "Elo" in result.output
    assert "1 of 1 matches were cut short by a safety cap" in " ".join(result.output.split())


def test_bad_bot_lists_are_refused() -> None:
    result = runner.invoke(app, [*BASE, "--bots", "basic,random,basic", "--games", "1"])
    assert result.exit_code == 2
    assert "one bot per side" in result.output
    result = runner.invoke(app, [*BASE, "--bots", "genius,random", "--games", "1"])
    assert result.exit_code == 2 and "no bot 'genius'" in result.output
    result = runner.invoke(app, [*BASE, "--bots", "random,random", "--executor", "slurm"])
    assert result.exit_code == 2 and "unknown executor" in result.output
    result = runner.invoke(app, [*BASE, "--bots", "strong:fast,random", "--games", "1"])
    assert result.exit_code == 2 and "bad budget" in result.output
