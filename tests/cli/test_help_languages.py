"""``parlour … --help`` in the reader's language (issue 34: "the terminal (`parlour play`, its
`help`, refusals) and CLI messages a player meets"): the player's commands, every command's
one-line summary and the help page's own words (Usage, Options, the --help line) come from the
catalogs; English stays as it was.  Run as a separate process: the translation changes Typer's
module-level words for the rest of that process."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

MAIN = "import sys; from parlour.cli import main; sys.argv[0] = 'parlour'; main()"


def _help(*args: str, lang_env: str = "C.UTF-8", code: int = 0) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env.update(LANG=lang_env, COLUMNS="200", TERMINAL_WIDTH="200", NO_COLOR="1")
    out = subprocess.run(
        [sys.executable, "-c", MAIN, *args], env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == code, out.stderr
    return out.stdout


def test_english_help_is_unchanged() -> None:
    text = _help("play", "--help")
    assert "Usage:" in text and "Play one seat against bots" in text
    assert "number of players" in text and "Show this message and exit." in text


def test_the_command_list_follows_the_terminal_language() -> None:
    text = _help("--help", lang_env="de_DE.UTF-8")
    for german in ("Aufruf:", "Befehle", "Optionen", "Einen Platz gegen Bots spielen"):
        assert german in text, german
    assert "Diese Hilfe zeigen und beenden." in text
    for english in ("Usage:", "Commands", "Show this message and exit.", "Play one seat"):
        assert english not in text, english


@pytest.mark.parametrize(
    ("args", "words", "english"),
    [
        (
            ("play", "--help", "--lang", "nl"),
            ("Gebruik:", "aantal spelers", "je plaats (0 = de eerste)", "[standaard: 0]"),
            ("number of players", "your seat", "[default: 0]"),
        ),
        (
            ("score", "chicago", "--help", "--lang=es"),
            ("Uso:", "Planilla de Chicago para bridge", "mostrar la planilla en JSON"),
            ("print the sheet as JSON", "Chicago bridge score pad"),
        ),
        (
            ("rules", "--lang", "pt-BR", "--help"),
            ("Uso:", "Mostrar como se joga", "variante a mostrar", "Argumentos"),
            ("preset to show", "Print how to play"),
        ),
    ],
)
def test_a_commands_help_follows_its_lang_option(
    args: tuple[str, ...], words: tuple[str, ...], english: tuple[str, ...]
) -> None:
    text = _help(*args)
    for word in words:
        assert word in text, (word, text)
    for word in english:
        assert word not in text, (word, text)


def test_a_group_without_its_command_shows_translated_help() -> None:
    text = _help("score", lang_env="pt_BR.UTF-8", code=2)  # Click: help for a bare group, exit 2
    assert "Súmulas: uma súmula de Chicago para bridge" in text and "Comandos" in text
