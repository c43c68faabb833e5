"""``parlour play cheat --lang de`` scripted in a pseudo-terminal, the terminal's language from
``LANG``, and a language that is no language at all refused (issue 34)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pexpect

from parlour import i18n


def _exe() -> str:
    return shutil.which("parlour") or str(Path(sys.executable).parent / "parlour")


def _spawn(args: list[str], tmp: Path, **env: str) -> pexpect.spawn:
    return pexpect.spawn(
        _exe(),
        args,
        encoding="utf-8",
        timeout=60,
        dimensions=(60, 200),
        cwd=str(tmp),
        env={"PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin", "TERM": "dumb", **env},
    )


def test_cheat_in_german_by_typed_commands(tmp_path: Path) -> None:
    child = _spawn(
        ["play", "cheat", "--lang", "de", "--seed", "3", "--fast", "--players", "3"], tmp_path
    )
    child.expect("du sitzt auf Platz 0")
    # the player's own turn in German grammar ("Du bist dran"), not "{player} ist dran" with "Du"
    child.expect("Du bist dran")
    child.expect(r"\]> ")
    child.sendline("help")
    child.expect("Befehle")
    child.expect("Mogeln: play")
    child.expect(r"\]> ")
    child.sendline("flurp")
    child.expect("flurp' kenne ich nicht")
    child.expect(r"\]> ")
    child.sendline("show")
    child.expect("deine Hand: ")
    child.expect(r"\]> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    text = child.before or ""
    assert "your hand" not in text and "I don't know" not in text


def test_the_terminal_language_comes_from_lang(tmp_path: Path) -> None:
    child = _spawn(
        ["play", "cheat", "--seed", "3", "--fast", "--players", "3"], tmp_path, LANG="nl_NL.UTF-8"
    )
    child.expect("je zit op plaats 0")
    child.expect(r"\]> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_a_hostile_language_is_refused_and_an_unknown_one_is_english() -> None:
    bad = subprocess.run(
        [_exe(), "play", "cheat", "--lang", "<script>alert(1)</script>"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert bad.returncode == 2
    assert "not a language" in bad.stderr
    assert i18n.choose("fr-CA") == "en" and i18n.choose("DE-ch") == "de"


def _rules(*args: str, **env: str) -> str:
    out = subprocess.run(
        [_exe(), "rules", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin", "COLUMNS": "160", **env},
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_rules_samba_in_dutch() -> None:
    text = _rules("samba", "--lang", "nl")
    assert "betekenis" in text and "voorinstelling" in text
    assert "meaning" not in text and "other presets" not in text
    assert "aflegstapel" in text.lower() or "pot" in text


def test_rules_follow_lang_when_no_lang_is_given() -> None:
    text = _rules("samba", "--no-page", LANG="de_DE.UTF-8")
    assert "Bedeutung" in text and "Vorgabe" in text
    assert "meaning" not in _rules("samba", "--no-page", LANG="de_DE.UTF-8", LC_ALL="")
    assert "meaning" in _rules("samba", "--no-page", LANG="C")


def test_a_refused_move_is_told_in_german(tmp_path: Path) -> None:
    """The engine's reason for refusing a move, in the terminal's language (``parlour.core.said``)."""
    child = _spawn(
        ["play", "cheat", "--lang", "de", "--seed", "3", "--fast", "--players", "3"], tmp_path
    )
    child.expect(r"\]> ")
    child.sendline("challenge")
    child.expect("Nicht erlaubt: anzweifeln geht nur direkt nach einem Zug, vor dem nächsten")
    child.expect(r"\]> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert "answered only right after a play" not in (child.before or "")


def test_a_hint_is_told_in_german(tmp_path: Path) -> None:
    """The hint's reason in the terminal's language (``parlour.bots.advice`` → ``tell``)."""
    child = _spawn(
        [
            *("play", "scat", "--lang", "de", "--players", "2", "--seed", "7", "--fast"),
            *("--bots", "basic", "--hint-budget", "12it"),
        ],
        tmp_path,
    )
    child.expect(r"\]> ")
    child.sendline("hint")
    child.expect(r"Tipp: .+ — (.+)\r?\n")
    why = child.match.group(1)
    german = {
        "zieht vom Talon",
        "nimmt die abgelegte Karte",
        "klopft",
        "zeigt die Hand",
        "legt",
        "die Suche",
    }
    assert any(why.startswith(g) for g in german), why
    child.sendline("quit")
    child.expect(pexpect.EOF)
