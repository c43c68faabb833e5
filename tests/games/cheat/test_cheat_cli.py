"""``parlour simulate cheat --preset … --json`` works for every preset (seed 000 / 001 names)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from parlour import games
from parlour.cli import app


@pytest.mark.parametrize("preset", sorted(games.entry("cheat").presets))
def test_simulate_every_preset(preset: str) -> None:
    result = CliRunner().invoke(
        app,
        ["simulate", "cheat", "--preset", preset, "--games", "2", "--json", "-o", "max_turns=25"],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.strip().splitlines()[-1])
    assert summary["preset"] == preset and summary["games"] == 2
    assert sum(summary["terminations"].values()) == 2


def test_simulate_alias_and_basic_bot() -> None:
    result = CliRunner().invoke(
        app, ["simulate", "bullshit", "--bots", "basic,random", "--games", "2", "--json"]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.strip().splitlines()[-1])
    assert summary["preset"] == "bullshit" and summary["bots"] == ["basic", "random"]
