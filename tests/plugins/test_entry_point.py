"""A third-party game installs like a plug-in: the tests' toy game (``tests/server/toygame.py``)
is made an installed distribution — a ``.dist-info`` with an ``entry_points.txt`` naming
``[parlour.games] toy = tests.server.toygame:ENTRY`` on ``sys.path`` — and Parlour's real
entry-point loading finds it.  Then it passes the conformance suite, a server plays it through,
and ``parlour play`` plays it in a terminal (a fresh process that finds it the same way)."""

from __future__ import annotations

import dataclasses
import importlib
import os
import random
import shutil
import sys
import time
from pathlib import Path

import pexpect
import pytest

from parlour import games
from parlour.core.conformance import check_spec, run_random_game
from tests.server import toygame
from tests.server.conftest import live_server

ROOT = Path(__file__).resolve().parents[2]


def make_dist(site: Path, point: str = "toy = tests.server.toygame:ENTRY") -> Path:
    """An installed distribution ``parlour-toy`` declaring one ``parlour.games`` entry point."""
    info = site / "parlour_toy-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: parlour-toy\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[parlour.games]\n{point}\n")
    return site


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None) -> Path:
    site = make_dist(tmp_path / "site")
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    return site


def test_the_toy_game_is_found_through_its_entry_point(installed: Path) -> None:
    names = games.names()
    assert names[:4] == ["samba", "handfoot", "cheat", "scat"]  # built-ins first, then plug-ins
    assert "toy" in names
    assert games.entry("toy") is toygame.ENTRY
    assert games.origin("toy") == "entry point toy = tests.server.toygame:ENTRY (parlour-toy 0.1)"
    assert games.origin("samba").startswith("entry point samba = parlour.games.samba:ENTRY")
    assert games.get("toy", preset="quick").rules.hand_size == 2  # type: ignore[attr-defined]


def test_without_the_distribution_there_is_no_toy(fresh_registry: None) -> None:
    assert "toy" not in games.names()


def test_a_broken_plug_in_is_reported_and_the_others_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None
) -> None:
    site = make_dist(tmp_path / "site", "broken = tests.server.no_such_module:ENTRY")
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    assert games.names() == ["samba", "handfoot", "cheat", "scat"]
    assert "No module named" in games.load_errors()["broken"]


def test_a_plug_in_cannot_take_a_built_in_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None
) -> None:
    site = make_dist(tmp_path / "site", "zz-samba = tests.plugins.test_entry_point:IMPOSTOR")
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    assert games.entry("samba").game is not toygame.ENTRY.game
    assert "is taken by entry point samba" in games.load_errors()["zz-samba"]


IMPOSTOR = dataclasses.replace(toygame.ENTRY, name="samba")


def test_the_plug_in_passes_the_conformance_suite(installed: Path) -> None:
    entry = games.entry("toy")
    for variant in (v for v in games.all_variants() if v.name == "toy"):
        rules = variant.rules.replace(**entry.random_play_options)
        for seed in range(30):
            run_random_game(variant.game, rules, seed, deep_every=3)
            check_spec(entry, rules, seed)


def test_a_server_plays_the_plug_in(installed: Path) -> None:
    with live_server() as server:
        listed = server.http.get("/api/games").json()["games"]
        assert "toy" in {g["name"] for g in listed}
        t = server.create(game="toy", options={"max_hands": 1})
        human = server.ws(t["code"], t["you"]["token"])
        human.until("welcome")
        rng = random.Random(5)
        deadline = time.monotonic() + 60
        while True:
            msg = human.until("state")
            if msg["status"] == "finished":
                break
            if msg["your_turn"]:
                human.act(rng.choice(msg["legal"])["action"])
            assert time.monotonic() < deadline
        assert msg["outcome"]["finished"]
        human.close()


def test_parlour_play_plays_the_plug_in(installed: Path, tmp_path: Path) -> None:
    exe = shutil.which("parlour") or str(Path(sys.executable).parent / "parlour")
    save = tmp_path / "toy.json"
    env = {
        "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
        "TERM": "dumb",
        "COLUMNS": "200",
        # the fresh process finds the distribution (and the toy's module) on its path
        "PYTHONPATH": os.pathsep.join([str(installed), str(ROOT)]),
    }
    child = pexpect.spawn(
        exe,
        [
            *("play", "toy", "--preset", "quick", "--players", "2", "--bots", "random"),
            *("--seed", "3", "--fast", "--save", str(save)),
        ],
        encoding="utf-8",
        timeout=60,
        dimensions=(60, 200),
        cwd=str(tmp_path),
        env=env,
    )
    moves = 0
    while child.expect(["your move> ", "Match over"]) == 0:
        child.sendline("draw" if moves % 2 == 0 else "1")  # a move's text, or its number
        moves += 1
        assert moves < 100
    child.expect(pexpect.EOF)
    assert moves >= 1
    record = __import__("json").loads(save.read_text())
    assert record["game"] == "toy" and record["outcome"]["finished"]
