"""The compiled (mypyc) build and its pure-Python fallback (issue 18, docs/speed.md).

The install compiles the hot modules when a C compiler is there (``hatch_build.py``);
``parlour/_build.py`` picks the compiled modules or, under ``PARLOUR_PURE=1``, without a build or
with sources edited since the build, the ``.py`` sources.  Both builds must play the same games,
move for move."""

from __future__ import annotations

import copy
import hashlib
import importlib.machinery
import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import parlour
from parlour import _build
from parlour.cli import app

#: a compiled build is installed and fresh (whether or not PARLOUR_PURE=1 turns it off here)
BUILT = _build.read_status({k: v for k, v in os.environ.items() if k != "PARLOUR_PURE"})
COMPILED = BUILT.compiled
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
HAS_CC = shutil.which("gcc") is not None or shutil.which("cc") is not None


def _python(code: str, **env: str) -> str:
    """Run ``code`` in a fresh interpreter (the build is chosen once, at import)."""
    environ = {k: v for k, v in os.environ.items() if k != "PARLOUR_PURE"}
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**environ, **env},
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return out.stdout


def test_info_and_version_name_the_active_build() -> None:
    runner = CliRunner()
    info = runner.invoke(app, ["info"])
    assert info.exit_code == 0, info.output
    assert f"parlour {parlour.__version__}" in info.output
    assert f"build: {_build.status().describe()}" in info.output
    assert "games: samba, handfoot, cheat, scat" in info.output
    version = runner.invoke(app, ["--version"])
    assert version.exit_code == 0
    assert version.output.strip() == f"parlour {parlour.__version__}, {_build.status().describe()}"


def test_parlour_pure_loads_every_module_from_source() -> None:
    code = (
        "import json, parlour, parlour._build as b\n"
        "from parlour import games\n"
        "for name in games.names(): games.entry(name).game\n"
        "import parlour.games.samba.parts.evaluation\n"
        "files = {m: sys.modules[m].__file__ for m in b.status().modules if m in sys.modules}\n"
        "print(json.dumps([parlour.BUILD.describe(), b.loaded_compiled(), files]))\n"
    )
    describe, compiled, files = json.loads(_python("import sys\n" + code, PARLOUR_PURE="1"))
    assert describe == "interpreted (PARLOUR_PURE=1)"
    assert compiled == []
    assert all(path.endswith(".py") for path in files.values())
    if COMPILED:  # the set the build compiled was really imported, from source
        assert "parlour.games.samba.legal" in files


def test_the_compiled_build_is_active_in_ci() -> None:
    """CI installs with gcc and the Python headers: the suite must run compiled (a broken
    build would otherwise pass every test interpreted, unnoticed)."""
    if not (IN_CI and HAS_CC) and not COMPILED:
        pytest.skip(f"not CI: {BUILT.describe()}")
    assert COMPILED, BUILT.describe()
    loaded = json.loads(
        _python(
            "import json, parlour._build as b\n"
            "from parlour import games\n"
            "for name in games.names(): games.entry(name).game\n"
            "print(json.dumps(b.loaded_compiled()))\n"
        )
    )
    assert "parlour.games.samba.legal" in loaded
    assert "parlour.games.handfoot.apply" in loaded


_PLAY = """
import hashlib, json, sys
import parlour
from parlour import games
from parlour.sim.match import play_match
out = {"build": parlour.BUILD.describe(), "games": {}}
for name in games.names():
    variant = games.get(name)
    for bots in (["basic", "random"], ["random", "basic"], ["basic"]):
        for seed in range(%(matches)d):
            r = play_match(variant, 1000 + seed, bots)
            key = f"{name}/{'-'.join(bots)}/{seed}"
            out["games"][key] = [r.record.actions, r.outcome.to_json()]
print(json.dumps(out, sort_keys=True))
"""


def test_compiled_and_interpreted_builds_play_identical_games() -> None:
    """Every game, basic and random bots, seeded: the same actions and outcomes exactly."""
    if not COMPILED:
        if IN_CI and HAS_CC:
            pytest.fail(f"CI with a C compiler must test the compiled build: {BUILT.describe()}")
        pytest.skip(f"no compiled build to compare: {BUILT.describe()}")
    code = _PLAY % {"matches": int(os.environ.get("PARLOUR_BUILD_MATCHES", "3"))}
    compiled = json.loads(_python(code))
    pure = json.loads(_python(code, PARLOUR_PURE="1"))
    assert compiled["build"].startswith("compiled") and pure["build"].startswith("interpreted")
    assert compiled["games"].keys() == pure["games"].keys()
    for key, played in compiled["games"].items():
        assert played == pure["games"][key], f"{key}: the builds played different games"
    assert len(compiled["games"]) >= 4 * 3 * 3


# --- the choice of build, on a made-up package -------------------------------------------


def _fake_build(tmp_path: Path, *, compiled: bool = True, with_extension: bool = True) -> Path:
    root = tmp_path / "parlour"
    (root / "games").mkdir(parents=True)
    source = root / "games" / "fast.py"
    source.write_text("X = 1\n")
    if with_extension:
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        (root / "games" / f"fast{suffix}").write_bytes(b"")
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    record = {
        "compiled": compiled,
        "reason": "" if compiled else "CompileError: gcc failed",
        "mypyc": "2.4.1",
        "sources": {"parlour.games.fast": digest},
    }
    (root / "_build.json").write_text(json.dumps(record))
    return root


def test_a_fresh_build_is_used(tmp_path: Path) -> None:
    status = _build.read_status({}, _fake_build(tmp_path))
    assert status.compiled
    assert status.describe() == "compiled (1 modules, mypyc 2.4.1)"


def test_an_edited_source_makes_the_build_stale(tmp_path: Path) -> None:
    root = _fake_build(tmp_path)
    (root / "games" / "fast.py").write_text("X = 2\n")
    status = _build.read_status({}, root)
    assert not status.compiled
    assert "sources changed since the build (parlour.games.fast)" in status.describe()
    assert "uv sync --reinstall-package parlour" in status.describe()


def test_a_failed_or_missing_build_runs_interpreted(tmp_path: Path) -> None:
    failed = _build.read_status({}, _fake_build(tmp_path / "a", compiled=False))
    assert failed.describe() == "interpreted (no compiled build: CompileError: gcc failed)"
    missing = _build.read_status({}, _fake_build(tmp_path / "b", with_extension=False))
    assert missing.describe() == "interpreted (no compiled build: 1 extension modules missing)"
    empty = tmp_path / "c"
    empty.mkdir()
    assert not _build.read_status({}, empty).compiled
    assert "_build.json not found" in _build.read_status({}, empty).describe()


def test_parlour_pure_wins_over_a_fresh_build(tmp_path: Path) -> None:
    root = _fake_build(tmp_path)
    assert _build.read_status({"PARLOUR_PURE": "1"}, root).describe() == (
        "interpreted (PARLOUR_PURE=1)"
    )
    assert _build.read_status({"PARLOUR_PURE": "0"}, root).compiled


@pytest.mark.parametrize("name", ["samba", "handfoot", "cheat", "scat"])
def test_states_actions_and_views_pickle_and_copy_in_this_build(name: str) -> None:
    """Process pools and Ray send states, actions and variants between processes: compiled
    frozen dataclasses must unpickle (``parlour._build.fix_frozen_pickling``)."""
    from parlour import games
    from parlour.bots.random_bot import RandomBot

    variant = games.get(name)
    game = variant.game
    state = variant.new_game(3)
    bot = RandomBot(game, 0, 3)
    for _ in range(40):
        seat = game.to_act(state)
        if seat is None:
            break
        legal = list(game.legal_actions(state))
        view = game.observe(state, seat)
        for value in (state, view, legal):
            assert pickle.loads(pickle.dumps(value)) == value
            assert copy.copy(value) == value
        state = game.apply_quiet(state, bot.act(view, legal))
    again = pickle.loads(pickle.dumps(variant))
    assert again.rules == variant.rules and again.name == name
