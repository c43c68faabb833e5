"""Issue 34: what the commands a player meets print besides the game itself — an error's
``error:`` and reason (``parlour play``), the games' list (``parlour rules``), the address
``parlour serve`` prints — in the chosen language (``--lang``, else the terminal's)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect
from typer.testing import CliRunner

from parlour.cli import app

runner = CliRunner()
NO_LANG = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"}


def _run(*args: str, **env: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args), env={**NO_LANG, **env})
    return result.exit_code, " ".join(result.output.split())


def test_an_unknown_game_or_preset_is_refused_in_the_players_language() -> None:
    code, out = _run("play", "nosuchgame", "--lang", "de")
    assert code == 2
    assert "Fehler: kein Spiel 'nosuchgame'; Spiele: " in out, out
    assert "error:" not in out and "no game" not in out
    code, out = _run("play", "samba", "--preset", "bogus", LANG="es_ES.UTF-8")
    assert code == 2
    # (Spanish says "error:" too)
    assert "error: samba no tiene la variante 'bogus'; variantes: " in out, out
    assert "has no preset" not in out
    code, out = _run("play", "samba", "-o", "oops", "--lang", "nl")
    assert code == 2 and "fout: --option wil naam=waarde, niet 'oops'" in out, out
    # English stays as it was
    code, out = _run("play", "nosuchgame")
    assert code == 2 and "error: no game 'nosuchgame'; games: " in out


def test_the_games_list_in_dutch_and_portuguese() -> None:
    code, out = _run("rules", "--lang", "nl")
    assert code == 0, out
    assert "varianten: " in out and "`parlour rules SPEL` laat zien hoe je het speelt." in out
    assert "Chicago-telling voor bridge" in out
    assert "presets:" not in out and "prints how to play" not in out
    code, out = _run("rules", LANG="pt_BR.UTF-8")
    assert code == 0, out
    assert "variantes: " in out and "contagem Chicago de bridge" in out
    assert "presets:" not in out


def test_serve_prints_its_address_in_the_terminals_language(tmp_path: Path) -> None:
    child = pexpect.spawn(
        sys.executable,
        [
            *("-c", "from parlour.cli import main; main()"),
            *("serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 'j.db'}"),
        ],
        encoding="utf-8",
        timeout=60,
        dimensions=(24, 300),
        cwd=str(tmp_path),
        env={
            "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
            # this checkout's parlour, as in the test run (a source tree on PYTHONPATH)
            "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
            "TERM": "dumb",
            "LANG": "de_DE.UTF-8",
            "XDG_DATA_HOME": str(tmp_path / "data"),
            "XDG_STATE_HOME": str(tmp_path / "state"),
        },
    )
    try:
        child.expect(r"Parlour läuft unter http://localhost:\d+/")
        child.expect(r"Journal:\s+sqlite")
    finally:
        child.terminate(force=True)
    assert "serving at" not in (child.before or "")
