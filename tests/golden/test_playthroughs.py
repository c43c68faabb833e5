"""Readable golden playthroughs (``tests/golden/playthroughs/``): each stored file is one seeded
random match of a game and preset, step by step — the acting seat, the legal actions as text, the
chosen action, the events and every seat's view (``parlour/sim/playthrough.py``).  The engine
must still produce every file exactly; a test fails at the first differing line.

The Samba default-preset file ``samba-samba.txt`` is the readable counterpart of the hashed
golden ``tests/golden/samba_4p.json`` (``scripts/golden.py``, checked by
``tests/games/samba/test_golden.py``): same rules, seed, options and random stream, so the same
match move by move — :func:`test_samba_file_is_the_hashed_golden_match` holds the two together.

After a deliberate change of play, regenerate and review the diff:
``uv run python scripts/playthroughs.py`` (and ``uv run python scripts/golden.py`` for Samba).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parlour.sim import playthrough as recording

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / recording.FOLDER
SPECS = recording.specs()


@pytest.mark.parametrize("spec", SPECS, ids=[s.file_name for s in SPECS])
def test_playthrough_is_reproduced(spec: recording.Spec) -> None:
    path = FOLDER / spec.file_name
    regen = f"{recording.REGENERATE} {spec.game}"
    assert path.exists(), f"{recording.FOLDER}/{spec.file_name} is missing; write it with: {regen}"
    stored = path.read_text(encoding="utf-8")
    fresh = recording.render(spec)
    diff = recording.first_difference(stored, fresh)
    if diff is not None:
        line, want, got = diff
        pytest.fail(
            f"{recording.FOLDER}/{spec.file_name}, line {line}:\n"
            f"  stored: {want}\n"
            f"  engine: {got}\n"
            f"If the engine's play changed on purpose, regenerate and review the diff: {regen}",
            pytrace=False,
        )


def test_no_stale_playthroughs() -> None:
    """Every stored file belongs to a registered game and preset."""
    known = {s.file_name for s in SPECS}
    stale = sorted(p.name for p in FOLDER.glob("*.txt") if p.name not in known)
    assert not stale, f"no such game and preset: {stale}; {recording.REGENERATE} removes them"


def test_samba_file_is_the_hashed_golden_match() -> None:
    """``samba-samba.txt`` and ``samba_4p.json`` record the same match: same seed, options and
    every chosen action (both stored files are compared; regenerate both after a Samba change)."""
    hashed = json.loads((ROOT / "tests" / "golden" / "samba_4p.json").read_text())
    text = (FOLDER / "samba-samba.txt").read_text(encoding="utf-8")
    spec = recording.spec_for("samba")
    assert (hashed["preset"], hashed["seed"]) == (spec.preset, spec.seed)
    assert hashed["rules"]["max_hands"] == spec.options["max_hands"]
    actions = recording.chosen_actions(text)
    assert len(actions) == len(hashed["steps"]) > 100
    for i, (ours, theirs) in enumerate(zip(actions, hashed["steps"], strict=True), 1):
        assert ours == theirs["action"], f"step {i}: {ours} here, {theirs['action']} in samba_4p"


def test_first_difference_names_the_line() -> None:
    assert recording.first_difference("a\nb\n", "a\nb\n") is None
    assert recording.first_difference("a\nb\n", "a\nc\n") == (2, "b", "c")
    assert recording.first_difference("a\n", "a\nb\n") == (2, "<end of file>", "b")


def test_a_changed_step_is_reported(tmp_path: Path) -> None:
    """A stored file edited by hand (or an engine that plays differently) fails at that line."""
    spec = recording.spec_for("scat")
    text = recording.render(spec)
    lines = text.splitlines()
    k = next(i for i, ln in enumerate(lines) if ln.startswith("chosen: "))
    lines[k] = lines[k] + " (edited)"
    assert recording.first_difference("\n".join(lines) + "\n", text) == (
        k + 1,
        lines[k],
        lines[k].removesuffix(" (edited)"),
    )


def test_cli_prints_and_writes_a_playthrough(tmp_path: Path) -> None:
    """``parlour playthrough GAME --preset P [--out FILE]`` gives the stored text."""
    from typer.testing import CliRunner

    from parlour.cli import app

    stored = (FOLDER / "scat-gin.txt").read_text(encoding="utf-8")
    runner = CliRunner()
    printed = runner.invoke(app, ["playthrough", "scat", "--preset", "gin"])
    assert printed.exit_code == 0 and printed.stdout == stored
    out = tmp_path / "gin.txt"
    written = runner.invoke(app, ["playthrough", "31", "--preset", "gin", "--out", str(out)])
    assert written.exit_code == 0 and out.read_text(encoding="utf-8") == stored
    bad = runner.invoke(app, ["playthrough", "scat", "--preset", "nope"])
    assert bad.exit_code == 2
