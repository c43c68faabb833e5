"""``parlour score chicago --lang …`` (issue 34): the pad's sheet, notes, help, round summary,
next deal and refusals in the player's language, its numbers written as the language writes
them, and the seats in the letters bridge players of that language write — on the sheet and as
input (Dutch N O Z W, German N O S W, Spanish N E S O, Brazilian N L S O; the English letters
are read too).  The seed's sample round (``003_8b94f64b123ab947.txt``: "+600 or +6") in each."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from parlour.cli import app

runner = CliRunner()
#: no inherited language: each test says its own
NO_LANG = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"}
ENGLISH_WORDS = ("Next:", "difference", "round", "dealer", "vulnerable", "We ", "They ", "Notes")


def _pad(*args: str, input: str | None = None, **env: str) -> tuple[int, str]:
    result = runner.invoke(app, ["score", "chicago", *args], input=input, env={**NO_LANG, **env})
    return result.exit_code, result.output


def test_the_seed_round_in_german_with_german_seats() -> None:
    code, out = _pad("--lang", "de", "3S N +1", "3SA O =", "3DX W =", "6S S = honors4")
    assert code == 0, out
    assert "Chicago — Runde 1 (vollständig)" in out
    assert "Wir (N-S)" in out and "Sie (O-W)" in out
    assert "1.650" in out and "1.070" in out and "1,650" not in out
    assert "3SA von O" in out and "Vollspiel für O-W: neuer Strich" in out
    assert "Unterschied +580 → +600 (+6)" in out
    assert "Runde 1: Wir 1.650 zu Sie 1.070: Wir mit 580, gerundet 600 → +6" in out
    assert "Als Nächstes: Runde 2, Spiel 1: Geber N, in Gefahr: keiner" in out
    for english in ENGLISH_WORDS:
        assert english not in out, english
    # the English letter for East is read too (no German seat is written E)
    code, out = _pad("--lang", "de", "3NT E =")
    assert code == 0 and "3SA von O" in out


def test_the_dutch_pad_typed_line_by_line() -> None:
    lines = [
        "help",
        "3S N +1",
        "4H N +4",  # 14 tricks: refused
        "3SA O =",
        "undo",
        "3SA O =",
        "3NT Q =",  # no such seat: refused, in Dutch with the Dutch letters
        "3DX W =",
        "6S Z = honors4",
        "quit",
    ]
    code, out = _pad("--lang", "nl", "--json", input="\n".join(lines) + "\n")
    assert code == 0, out
    assert "Chicago-scoreblok — N-Z zijn Wij, O-W zijn Zij." in out
    assert "Plaatsen: N O Z W" in out and "3 sans atout door Zuid" in out
    assert "fout: 4H +4 zou 14 slagen zijn: een spel heeft er maar 13 — niets genoteerd" in out
    assert "teruggenomen: 3SA door O =" in out
    assert "ongeldige leider 'Q': de leider is een plaats, N, O, Z of W — niets genoteerd" in out
    assert "ronde 1, spel 4: gever W, kwetsbaar: allen > " in out
    assert "Ronde 1: Wij 1.650 tegen Zij 1.070: Wij met 580, afgerond 600 → +6" in out
    assert "Volgende: ronde 2, spel 1: gever N, kwetsbaar: niemand" in out
    pad = out[: out.index('{\n  "type": "ChicagoSheet"')]
    for english in (*ENGLISH_WORDS, "nothing recorded", "undone", "bad declarer", "Enter one"):
        assert english not in pad, english
    # --json stays data for scripts: English keys and the entries as the parser writes them
    data = json.loads(out[out.index('{\n  "type": "ChicagoSheet"') :])
    assert data["entries"] == ["3♠ by N +1", "3NT by E =", "3♦X by W =", "6♠ by S = honors4"]
    assert data["rounds"][0]["display"] == "+6"


def test_spanish_from_lang_and_a_refused_argument_in_portuguese() -> None:
    code, out = _pad("3S N +1", "3NT E =", "4S O -1", LANG="es_ES.UTF-8")
    assert code == 0, out
    assert "Nosotros (N-S)" in out and "Ellos (E-O)" in out
    assert "4♠ por O" in out and "3ST por E" in out
    assert "Siguiente: ronda 1, mano 4: reparte O, vulnerables: todos" in out
    assert "Next:" not in out and "vulnerable:" not in out
    code, out = _pad("--lang", "pt-BR", "3NT L =", "3NT Q =")
    assert code == 2
    flat = " ".join(out.split())
    said = "declarante inválido 'Q': o declarante é uma posição, N, L, S ou O"
    assert f"erro: mão 2: '3NT Q =': {said}" in flat
    assert "error:" not in flat and "bad declarer" not in flat
    code, out = _pad("--lang", "pt-BR", "3NT L =", "4H O -2", "pass")
    assert code == 0
    assert "3ST por L" in out and "4♥ por O" in out and "todos passaram — S dá de novo" in out
    assert "Próxima: rodada 1, mão 3: S dá as cartas, vulneráveis: N-S" in out


@pytest.mark.parametrize("lang", ["nl", "de", "es", "pt-BR"])
def test_each_languages_letters_name_four_different_seats_and_keep_the_english_ones(
    lang: str,
) -> None:
    from parlour.cli.score import Pad
    from parlour.scoring.chicago import Seat

    pad = Pad(lang)
    assert len(set(pad.letter.values())) == 4
    for seat in Seat:
        assert pad.seats[pad.letter[seat]] is seat
        assert pad.seats[seat.name] is seat  # the English letters are still read


def test_a_refused_option_in_german_and_dutch() -> None:
    code, out = _pad("--lang", "de", "-o", "round_half=maybe", "3NT S =")
    assert code == 2
    assert "Fehler: round_half: 'maybe' ist nicht erlaubt; erlaubte Werte: 'up', 'down'" in out
    code, out = _pad("-o", "honors=3", "3NT S =", LANG="nl_NL.UTF-8")
    assert code == 2
    assert "fout: honors: moet true of false zijn; niet 3" in " ".join(out.split()), out
    assert "must be" not in out
