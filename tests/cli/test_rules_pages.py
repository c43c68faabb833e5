"""The player's rules pages (docs/rules/<game>.md) and ``parlour rules GAME``."""

from __future__ import annotations

import dataclasses
import re

import pytest
from typer.testing import CliRunner

from parlour import games, rules_pages
from parlour.cli import app as cli_app
from parlour.scoring.chicago import ChicagoOptions

CARD_GAMES = ("samba", "handfoot", "cheat", "scat")

#: the sections other parts point players to (explanations, the table page): renaming a heading
#: breaks those links, so the anchors are pinned here
PINNED = {
    "samba": [
        "players-and-sides",
        "cards-and-values",
        "the-deal",
        "melds",
        "a-turn",
        "your-sides-first-meld",
        "taking-the-discard-pile",
        "going-out",
        "scoring-a-hand",
        "winning",
        "presets",
        "options",
    ],
    "handfoot": [
        "players-and-sides",
        "cards-and-values",
        "the-deal-and-the-cut",
        "melds-and-books",
        "a-turn",
        "the-meld-requirement",
        "picking-up-your-foot",
        "taking-the-pile",
        "going-out",
        "scoring-a-round",
        "winning",
        "presets",
        "options",
    ],
    "cheat": [
        "players-and-cards",
        "a-turn",
        "rank-order",
        "calling-cheat",
        "winning",
        "presets",
        "options",
    ],
    "scat": [
        "players-and-cards",
        "your-hands-value",
        "the-deal",
        "a-turn",
        "making-31",
        "knocking",
        "who-loses-a-life",
        "stock-runs-out",
        "lives-and-winning",
        "presets",
        "options",
    ],
    "chicago": [
        "sides-and-dealers",
        "vulnerability",
        "entering-a-deal",
        "trick-score",
        "bonuses",
        "going-down",
        "the-rounds-result",
        "options",
    ],
}


@pytest.mark.parametrize("game", CARD_GAMES)
def test_every_option_and_preset_is_explained(game: str) -> None:
    entry = games.entry(game)
    fields = [f.name for f in dataclasses.fields(entry.rules_type)]
    words = rules_pages.option_words(game)
    assert sorted(words) == sorted(fields), "the Options table must list exactly the options"
    assert all(len(w["meaning"]) > 15 and w["label"] for w in words.values())
    presets = rules_pages.preset_words(game)
    assert sorted(presets) == sorted(entry.presets)
    assert all(len(text) > 15 for text in presets.values())


def test_chicago_options_are_explained() -> None:
    words = rules_pages.option_words("chicago")
    assert sorted(words) == sorted(f.name for f in dataclasses.fields(ChicagoOptions))


@pytest.mark.parametrize("game", rules_pages.PAGES)
def test_anchors_are_stable_and_links_resolve(game: str) -> None:
    assert rules_pages.anchors(game) == PINNED[game]
    text = rules_pages.markdown(game)
    for target in re.findall(r"\]\(#([^)]+)\)", text):
        assert target in PINNED[game], f"{game}: link to a missing section #{target}"
    html = rules_pages.html_body(game)
    for anchor in PINNED[game]:
        assert f'id="{anchor}"' in html


@pytest.mark.parametrize("game", rules_pages.PAGES)
def test_pages_speak_to_players(game: str) -> None:
    """No source files, seed numbers or internal names in a player's page (option names appear
    only in code spans, as typed on the command line)."""
    text = rules_pages.markdown(game)
    assert not re.search(r"seed|\.txt|\.py\b|RULES\.md|pagat", text, re.I)
    prose = re.sub(r"`[^`]*`", "", text)
    for preset in rules_pages.preset_words(game):  # preset names are typed as they are
        prose = prose.replace(f"**{preset}**", "")
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", prose), "snake_case outside code spans"


def test_aliases_find_their_page() -> None:
    assert rules_pages.page_name("31") == "scat"
    assert rules_pages.page_name("bullshit") == "cheat"
    assert rules_pages.page_name("bolivia") == "samba"
    with pytest.raises(rules_pages.NoRulesPage):
        rules_pages.page_name("poker")


def test_cli_prints_the_page_and_the_options() -> None:
    res = CliRunner().invoke(cli_app, ["rules", "samba"], env={"COLUMNS": "120"})
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Taking the discard pile" in out and "Your side's first meld" in out
    assert "red_threes_as_canasta" in out and "Red 3s laid out at once" in out
    assert "seed" not in out.lower()
    res = CliRunner().invoke(cli_app, ["rules", "bolivia", "--no-page"], env={"COLUMNS": "120"})
    assert res.exit_code == 0 and "Taking the discard pile" not in res.output
    assert "preset bolivia" in res.output and "15000" in res.output


def test_cli_prints_chicago_scoring() -> None:
    res = CliRunner().invoke(cli_app, ["rules", "chicago"], env={"COLUMNS": "120"})
    assert res.exit_code == 0, res.output
    assert "Vulnerability" in res.output and "round_half" in res.output
    assert "Rounding a 50" in res.output


def test_section_references_for_explanations() -> None:
    """An explanation can point a player at a section by its pinned anchor."""
    words, url = rules_pages.section_ref("bolivia", "taking-the-discard-pile")
    assert words == "How to play Samba › Taking the discard pile"
    assert url == "/rules/samba#taking-the-discard-pile"
    with pytest.raises(rules_pages.NoRulesPage):
        rules_pages.section_ref("samba", "no-such-section")


@pytest.mark.parametrize(
    ("game", "statement"),
    [
        # none of these is in the source pages (seeds 000–003 for Bolivia, 000 for "Eights hit",
        # which names only the two decks): each page says it is a house reading
        ("samba", "nothing can be added to a bolivia"),
        ("samba", "the game is played to 15,000"),
        ("samba", "each black 3 left in a hand costs 100"),
        ("cheat", "Up to eight cards a play"),
    ],
)
def test_unsourced_statements_are_called_house_readings(game: str, statement: str) -> None:
    """The list item or table row that makes the statement says it is a house reading."""
    items = re.split(r"\n(?=- |\| )", rules_pages.markdown(game))
    holding = [" ".join(i.split()) for i in items if statement in " ".join(i.split())]
    assert len(holding) == 1, statement
    assert "**house reading" in holding[0]
