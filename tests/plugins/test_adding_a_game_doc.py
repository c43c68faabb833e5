"""``docs/adding-a-game.md`` stays true: its game (Switch) is taken from the page, installed as
a distribution with a ``parlour.games`` entry point, found by Parlour's loader, and run through
the conformance suite, the spec checks, a bot match and the terminal's grammar."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest

from parlour import games
from parlour.core.conformance import check_spec, run_random_game
from parlour.sim.match import play_match
from tests.plugins.test_entry_point import make_dist

DOC = Path(__file__).resolve().parents[2] / "docs" / "adding-a-game.md"


def _blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", DOC.read_text(), re.DOTALL)


@pytest.fixture
def switch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None) -> object:
    site = tmp_path / "site"
    (site / "parlour_switch").mkdir(parents=True)
    (site / "parlour_switch" / "__init__.py").write_text(_blocks("python")[0])
    toml = _blocks("toml")[0]
    point = re.search(r'^(\w+) = "([\w.:]+)"', toml, re.MULTILINE)
    assert point is not None
    make_dist(site, f"{point.group(1)} = {point.group(2)}")
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    monkeypatch.delitem(sys.modules, "parlour_switch", raising=False)
    return games.entry("switch")


def test_the_documented_game_installs_and_conforms(switch: object) -> None:
    entry = games.entry("switch")
    assert games.origin("switch").startswith("entry point switch = parlour_switch:ENTRY")
    assert games.get("crazy-eights-lite").name == "switch"
    endings: set[str] = set()
    for variant in (v for v in games.all_variants() if v.name == "switch"):
        rules = variant.rules.replace(**entry.random_play_options)
        for seed in range(40):
            run_random_game(variant.game, rules, seed, deep_every=3)
            check_spec(entry, rules, seed)
        for seed in range(10):
            out = play_match(variant, seed, ["basic", "random", "strong:20it"]).outcome
            endings.add(out.kind)
    assert endings <= {"finished", "stock_out", "capped"} and "finished" in endings


def test_the_documented_snippets_run(switch: object) -> None:
    namespace: dict[str, object] = {}
    for block in _blocks("python")[1:]:
        exec(compile(block.replace("range(200)", "range(5)"), str(DOC), "exec"), namespace)
    assert "HINTS" in namespace
