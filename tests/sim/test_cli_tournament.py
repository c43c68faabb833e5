"""``parlour tournament``: JSON summary, plot, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from parlour.cli import app

runner = CliRunner()
BASE = ["tournament", "samba", "--max-hands", "1", "--workers", "1"]


def test_json_summary_and_plot(tmp_path: Path) -> None:
    png = tmp_path / "rates.png"
    args = [*BASE, "--bots", "basic,random", "--games", "2", "--duplicate", "--seed", "4"]
    result = runner.invoke(app, [*args, "--json", "--plot", str(png)])
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
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_table_output() -> None:
    result = runner.invoke(app, [*BASE, "--bots", "random,random", "--games", "1"])
    assert result.exit_code == 0, result.output
    assert "win rate" in result.output and "Elo" in result.output


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
