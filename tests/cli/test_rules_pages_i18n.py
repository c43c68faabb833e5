"""Issue 34, the rules pages in Dutch, German, Spanish and Brazilian Portuguese
(docs/rules/<lang>/<game>.md, docs/translating-rules.md): each translation follows the English page
section by section, keeps the option names and the numbers of its tables, and is what
``parlour rules GAME --lang`` prints."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from parlour import rules_pages
from parlour.cli import app as cli_app

#: every language directory of docs/rules (a new one is checked as soon as it is there)
TRANSLATED = rules_pages.languages()[1:]
PAIRS = [(game, lang) for lang in TRANSLATED for game in rules_pages.PAGES]


def _headings(text: str) -> list[tuple[int, str]]:
    """``(level, id)`` of every heading, in order."""
    out = []
    for line in text.splitlines():
        m = re.match(r"^(#{1,6}) (.+)$", line)
        if m:
            level = len(m.group(1))
            out.append((level, rules_pages.heading_id(m.group(2))[0] if level > 1 else ""))
    return out


def _tables(text: str) -> list[list[str]]:
    """Each table's rows (separator rows left out)."""
    tables: list[list[str]] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("|"):
            if not inside:
                tables.append([])
                inside = True
            if not re.fullmatch(r"\|[-|: ]+\|", line):
                tables[-1].append(line)
        else:
            inside = False
    return tables


def _numbers(row: str, ranks: bool = True) -> Counter[str]:
    """The numbers a row states, thousands separators of any language taken out (10,000 and
    10.000 are the same number; decimals are two numbers, 3.0 and 3,0 alike). ``ranks=False``
    leaves out the English page's ranks that a language may spell as words: ranks in the plural
    (``2s``, ``8s``) and the 3s (``a red 3``: "een rode drie", "un tres rojo")."""
    row = re.sub(r"(?<=\d)[.,\u202f\u00a0](?=\d{3}\b)", "", row)
    if not ranks:
        row = re.sub(r"\b\d+s\b|\b(?:[Rr]ed|[Bb]lack|a)[ -]3\b", "", row)
    return Counter(re.findall(r"\d+", row))


def test_the_languages_are_found_from_the_directories() -> None:
    assert rules_pages.languages()[0] == "en"
    assert set(TRANSLATED) >= {"nl", "de", "es", "pt-BR"}


@pytest.mark.parametrize(("game", "lang"), PAIRS)
def test_translation_exists_and_is_not_english(game: str, lang: str) -> None:
    path = rules_pages.page_path(game, lang)
    assert path.parent.name == lang, f"{game}: no {lang} page"
    assert rules_pages.page_language(game, lang) == lang
    assert rules_pages.title(game, lang) != rules_pages.title(game)
    assert "how to play" not in rules_pages.markdown(game, lang).lower()


@pytest.mark.parametrize(("game", "lang"), PAIRS)
def test_same_sections_as_the_english(game: str, lang: str) -> None:
    """Same headings at each level, in order, each with the English section's id (so a link to
    #taking-the-discard-pile lands on the same section in every language)."""
    english, translated = rules_pages.source(game), rules_pages.source(game, lang)
    assert _headings(translated) == _headings(english)
    assert rules_pages.anchors(game, lang) == rules_pages.anchors(game)
    for line in translated.splitlines():  # every translated section names its id
        if re.match(r"^#{2,} ", line):
            assert re.search(r"\{#[a-z0-9-]+\}$", line), line
    for target in re.findall(r"\]\(#([^)]+)\)", translated):
        assert target in rules_pages.anchors(game), f"{lang}/{game}: link to #{target}"
    html = rules_pages.html_body(game, lang)
    for anchor in rules_pages.anchors(game):
        assert f'id="{anchor}"' in html
    assert "{#" not in html and "{#" not in rules_pages.markdown(game, lang)


@pytest.mark.parametrize(("game", "lang"), PAIRS)
def test_same_tables_and_numbers_as_the_english(game: str, lang: str) -> None:
    """Every table has the English table's rows, and each row states the same numbers (scores,
    minimums, defaults; a rank in the plural may be a word: "2s", "tweeën") and the same code
    (option names, what you type)."""
    english, translated = _tables(rules_pages.source(game)), _tables(rules_pages.source(game, lang))
    assert [len(t) for t in translated] == [len(t) for t in english]
    for e_table, t_table in zip(english, translated, strict=True):
        for e_row, t_row in zip(e_table, t_table, strict=True):
            found, said = _numbers(t_row), f"{lang}/{game}:\n{e_row}\n{t_row}"
            assert _numbers(e_row, ranks=False) <= found <= _numbers(e_row), said
            assert re.findall(r"`[^`]*`", t_row) == re.findall(r"`[^`]*`", e_row), t_row
            assert t_row.count("|") == e_row.count("|"), t_row


#: option labels that are the same word in another language
NAMES = ("Samba", "Joker", "Jokers", "Grand Cadillac", "Hammer")


@pytest.mark.parametrize(("game", "lang"), PAIRS)
def test_options_and_presets_are_the_englishs(game: str, lang: str) -> None:
    words, english = rules_pages.option_words(game, lang), rules_pages.option_words(game)
    assert list(words) == list(english)
    for name, w in words.items():
        assert w["label"] and len(w["meaning"]) > 15, name
        assert w["label"] != english[name]["label"] or w["label"] in NAMES, name
        assert w["meaning"] != english[name]["meaning"], name
    assert list(rules_pages.preset_words(game, lang)) == list(rules_pages.preset_words(game))


@pytest.mark.parametrize(("game", "lang"), PAIRS)
def test_translations_speak_to_players(game: str, lang: str) -> None:
    """As the English pages: no sources or internal names, snake_case only in code spans; the
    house readings the English page marks are marked in the translation too."""
    text = rules_pages.markdown(game, lang)
    assert not re.search(r"seed|\.txt|\.py\b|RULES\.md|pagat", text, re.I)
    prose = re.sub(r"`[^`]*`", "", text)
    for preset in rules_pages.preset_words(game, lang):
        prose = prose.replace(f"**{preset}**", "")
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", prose), "snake_case outside code spans"
    english = rules_pages.markdown(game).count("**house reading")
    assert " ".join(text.split()).count(HOUSE_READING[lang]) == english


HOUSE_READING = {
    "nl": "**eigen lezing",
    "de": "**Auslegung dieses Tisches",
    "es": "**interpretación de la casa",
    "pt-BR": "**interpretação da casa",
}


@pytest.mark.parametrize(
    ("value", "lang"),
    [
        ("nl", "nl"),
        ("NL", "nl"),
        ("nl-BE", "nl"),
        ("nl_NL.UTF-8", "nl"),
        ("de_DE@euro", "de"),
        ("pt-br", "pt-BR"),
        ("pt_BR", "pt-BR"),
        ("pt", "pt-BR"),
        ("es-419", "es"),
        ("en-GB", "en"),
        ("fr", "en"),
        (None, "en"),
        ("", "en"),
        ("x" * 10_000, "en"),
        ("<script>alert(1)</script>", "en"),
        ("\ud800", "en"),
        ("nl\x00", "en"),
        ("../../etc", "en"),
        ("nl/../de", "en"),
    ],
)
def test_language_values(value: str | None, lang: str) -> None:
    """A language we have, by any usual spelling; anything else (unknown, hostile, not a tag at
    all) is English — the same rule for ?lang=, --lang and, later, Accept-Language and LANG."""
    assert rules_pages.language(value) == lang


def test_unknown_language_gives_the_english_page() -> None:
    assert rules_pages.markdown("samba", "fr") == rules_pages.markdown("samba")
    assert rules_pages.page_language("samba", "<b>") == "en"
    assert '<html lang="en">' in rules_pages.html_page("samba", "x" * 1000)


def test_section_reference_in_a_language() -> None:
    """An explanation points at the same section id in every language."""
    words, url = rules_pages.section_ref("bolivia", "taking-the-discard-pile", "nl")
    assert "De pot pakken" in words and "Samba" in words
    assert url == "/rules/samba?lang=nl#taking-the-discard-pile"
    words, url = rules_pages.section_ref("samba", "taking-the-discard-pile", "fr")
    assert url == "/rules/samba#taking-the-discard-pile" and "Taking the discard pile" in words


def test_html_page_is_in_the_language() -> None:
    page = rules_pages.html_page("scat", "es")
    assert '<html lang="es">' in page
    assert "Treinta y uno" in page
    assert 'href="/rules/samba?lang=es"' in page  # the other games' pages in the same language
    assert "{#" not in page


def test_cli_prints_dutch() -> None:
    res = CliRunner().invoke(cli_app, ["rules", "samba", "--lang", "nl"], env={"COLUMNS": "120"})
    assert res.exit_code == 0, res.output
    out = res.output
    assert "De pot pakken" in out and "De eerste uitleg van je team" in out
    assert "Taking the discard pile" not in out and "{#" not in out
    assert "red_threes_as_canasta" in out and "Rode drieën meteen uitleggen" in out


def test_cli_prints_chicago_in_german_and_falls_back_to_english() -> None:
    res = CliRunner().invoke(cli_app, ["rules", "chicago", "--lang", "de"], env={"COLUMNS": "120"})
    assert res.exit_code == 0, res.output
    assert "Gefahr" in res.output and "round_half" in res.output
    res = CliRunner().invoke(cli_app, ["rules", "cheat", "--lang", "xx"], env={"COLUMNS": "120"})
    assert res.exit_code == 0, res.output
    assert "Calling" in res.output and "Rank order" in res.output


@pytest.fixture
def pages_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The pages read from a copy (as a wheel carries them: ``parlour/rules_pages``)."""
    copy = tmp_path / "rules_pages"
    shutil.copytree(Path(rules_pages.__file__).parent.parent / "docs" / "rules", copy)
    monkeypatch.setattr(rules_pages, "_DIRS", (copy,))
    _forget()
    yield copy
    _forget()


def _forget() -> None:
    for cached in (rules_pages.languages, rules_pages.source, rules_pages.markdown):
        cached.cache_clear()
    rules_pages.html_body.cache_clear()


def test_a_language_is_added_by_adding_its_pages(pages_in: Path) -> None:
    """A new directory of pages is a new language; a page it lacks is served in English."""
    assert rules_pages.page_language("scat", "de") == "de"  # the packaged copy is read
    (pages_in / "fr").mkdir()
    shutil.copy(pages_in / "samba.md", pages_in / "fr" / "samba.md")
    text = (pages_in / "fr" / "samba.md").read_text(encoding="utf-8")
    (pages_in / "fr" / "samba.md").write_text(
        text.replace("# Samba — how to play", "# Samba — comment jouer"), encoding="utf-8"
    )
    _forget()
    assert "fr" in rules_pages.languages() and rules_pages.language("fr-CA") == "fr"
    assert rules_pages.title("samba", "fr") == "Samba — comment jouer"
    assert rules_pages.page_language("cheat", "fr") == "en"
    assert '<html lang="en">' in rules_pages.html_page("cheat", "fr")
    assert '<html lang="fr">' in rules_pages.html_page("samba", "fr")
