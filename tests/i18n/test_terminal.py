"""``parlour play cheat --lang de`` and ``parlour play handfoot --lang de`` scripted in a
pseudo-terminal, the game's own name in the banner, the terminal's language from ``LANG``, and a
language that is no language at all refused (issue 34)."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

import parlour
from parlour import games, i18n
from parlour.core.replay import MatchRecord
from parlour.core.text import card_in

#: the checkout under test (the spawned ``parlour`` runs it, not another installed copy)
SOURCE_ROOT = str(Path(parlour.__file__).resolve().parents[1])


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
        env={
            "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
            "TERM": "dumb",
            "PYTHONPATH": SOURCE_ROOT,
            **env,
        },
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


#: the English of the Hand and Foot terminal (parlour/cli/tui/handfoot.py and the refusals of
#: parlour/cli/tui/commands.py); none of it may reach a German screen
HANDFOOT_ENGLISH = (
    "Round ",
    "opening minimum",
    " to play",
    "Your turn",
    "not down yet",
    "on the board",
    "needs:",
    "may go out",
    "red 3s",
    "pile:",
    " stock ",
    "+ foot",
    "your hand",
    "join your hand",
    "joins your hand",
    "match over",
    "take the pile",
    "Hand and Foot",
    "meld / discard",
    "draw or take",
    "say the meld",
    "add which card",
    "discard one card",
    "not a card",
    "no move number",
    "I don't know",
    "CLEAN BOOK",
    "DIRTY BOOK",
)


def test_handfoot_in_german_by_typed_commands(tmp_path: Path) -> None:
    """``parlour play handfoot --lang de``: a draw and a discard against bots, with refusals on
    the way, every line the Hand and Foot terminal writes in German (seed 4: seats 2 and 3 play
    before seat 0 is asked)."""
    save = tmp_path / "handfoot.json"
    child = _spawn(
        [*("play", "handfoot", "--lang", "de", "--seed", "4", "--fast"), "--save", str(save)],
        tmp_path,
        COLUMNS="200",
    )
    seen = io.StringIO()
    child.logfile_read = seen
    child.expect(r"Hand und Fuß \(handfoot\), Seed 4; du sitzt auf Platz 0")
    child.expect(r"Runde 1 von \d+ · Mindestwert zum Auslegen \d+ · Nord ist dran")
    child.expect(r"noch nicht ausgelegt · auf dem Tisch \d+ · braucht: noch 1 Samba")
    child.expect(r"Runde 1 von \d+ · Mindestwert zum Auslegen \d+ · Du bist dran")
    child.expect(r"Ablagestapel: .+ · Talon \d+ · ")
    child.expect(r"\+ Fuß \d+")
    child.expect("deine Hand: ")
    child.expect(re.escape("[Runde 1, ziehen oder aufnehmen]> "))
    child.sendline("help")
    child.expect("Befehle")
    child.expect("Hand und Fuß: draw")
    child.expect(re.escape("take 9♦ 9♥ [to 2] (Stapel)"))  # shown as text, not read as markup
    child.expect(r"1\. ziehen")
    child.expect(r"\]> ")
    child.sendline("flurp")
    child.expect("flurp' kenne ich nicht")
    child.expect(r"\]> ")
    child.sendline("99")
    child.expect("es gibt keinen Zug Nummer 99")
    child.expect(r"\]> ")
    child.sendline("add 10♥")
    child.expect("welche Karte an welche Meldung")
    child.expect(r"\]> ")
    child.sendline("add 10♥ to x")
    child.expect("nenne nach 'to' die Nummer der Meldung")
    child.expect(r"\]> ")
    child.sendline("discard Zz")
    child.expect("keine Karte: 'Zz'")
    child.expect(r"\]> ")
    child.sendline("draw")
    child.expect(re.escape("[Runde 1, auslegen / ablegen]> "))
    child.sendline("help")
    child.expect(r"(\d+)\. (\S+) ablegen")
    number, card = child.match.group(1), child.match.group(2)
    child.expect(r"\]> ")
    child.sendline(number)
    child.expect("Du bist dran")  # the bots have played: seat 0 again
    child.expect(re.escape("[Runde 1, ziehen oder aufnehmen]> "))
    child.sendline("quit")
    child.expect(pexpect.EOF)
    # the move listed as "<card> ablegen" (German card letters) is the discard that was made
    game = games.entry("handfoot").game
    discards = [
        game.action_from_json(a)
        for a in MatchRecord.load(save).actions
        if a.get("type") == "Discard"
    ]
    assert card in [card_in(a.card, i18n.messages("de")) for a in discards]
    text = seen.getvalue()
    english = [words for words in HANDFOOT_ENGLISH if words in text]
    assert not english, english


@pytest.mark.parametrize(
    ("lang", "game", "banner"),
    [
        ("de", "cheat", "Mogeln (cheat), Seed 3"),
        ("nl", "scat", "Eenendertigen (scat), seed 3"),
        ("es", "handfoot", "Mano y pie (handfoot), semilla 3"),
        ("pt-BR", "samba", "Samba (samba), semente 3"),
        ("en", "cheat", "Cheat (cheat), seed 3"),
    ],
)
def test_the_banner_names_the_game_in_the_player_s_language(
    tmp_path: Path, lang: str, game: str, banner: str
) -> None:
    """The banner of ``parlour play`` names the game as the lobby does in that language (the
    preset stays the word one types), not by its code."""
    child = _spawn(["play", game, "--lang", lang, "--seed", "3", "--fast"], tmp_path)
    child.expect(re.escape(banner))
    child.expect(r"\]> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_samba_terminal_moves_refusals_and_meld_tags_in_german() -> None:
    """Samba's terminal adapter: a move as the table's button says it, a typed command's
    refusal and a finished meld's tag, each in the terminal's language (issue 34)."""
    from types import SimpleNamespace

    from parlour.cli.tui import adapters
    from parlour.cli.tui.commands import CommandError
    from parlour.cli.tui.samba import meld_label
    from parlour.core.cards import parse_card
    from parlour.games.samba import actions as A

    de = i18n.messages("de")
    adapter = adapters.for_game("samba")
    adapter.t = de
    adapters.set_card_language(de)
    try:
        ten = parse_card("10♥")
        assert adapter.describe(A.AddToMeld(1, ten), None) == "10♥ an Meldung #2 anlegen"
        assert adapter.describe(A.Draw(), None) == de.gettext("draw")
        assert (
            adapter.describe(A.MergeGroups(0, 2), None) == "Meldung #3 mit Meldung #1 zusammenlegen"
        )
        view = SimpleNamespace(hand=(), pending=(), sides=())
        with pytest.raises(CommandError) as exc:
            adapter.parse("red", view, [])
        assert str(exc.value) == "du hast keine rote Drei"
        with pytest.raises(CommandError) as exc:
            adapter.parse("merge 3", view, [])
        assert "zusammenlegen" in str(exc.value)
        pure = SimpleNamespace(bolivia=False, samba=False, canasta="pure")
        assert meld_label(pure, de) == "reine Canasta"
        assert meld_label(SimpleNamespace(bolivia=True, samba=False, canasta=""), de) == "Bolivia"
    finally:
        adapters.set_card_language(i18n.messages(i18n.SOURCE))


def test_scat_in_spanish_tells_the_lives_and_the_bots_moves(tmp_path: Path) -> None:
    """Scat in the terminal in Spanish: each seat's lives as the table tells them ("3 céntimos",
    not "3 pennies") and the bots' moves in words ("tomar el descarte", not the English typed
    command "take the discard")."""
    child = _spawn(["play", "scat", "--lang", "es", "--seed", "3", "--players", "3"], tmp_path)
    child.logfile_read = io.StringIO()
    child.expect("estás en el asiento 0")
    child.expect(r"\]> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    text = child.logfile_read.getvalue().replace("\r", "")
    assert "3 vidas (3 céntimos)" in text
    assert "Asiento 2: tomar el descarte" in text
    assert "penn" not in text and "take the discard" not in text
