"""Every word in five languages (issue 34): the catalogs are complete, none fuzzy, each
translation keeps the English message's placeholders, the catalog template matches what the
code marks (an extraction run), and the events of random play read differently in every
language (an unmarked sentence would stay English)."""

from __future__ import annotations

import random
import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from parlour import games, i18n
from parlour.core.text import Names

ROOT = Path(__file__).resolve().parents[2]
POT = ROOT / "parlour" / "locale" / "parlour.pot"
#: rich's markup in the terminal's messages
MARKUP = re.compile(r"\[/?(?:bold|dim|red|green|yellow|blue|cyan|magenta)?\]")
TRANSLATED = [lang for lang in i18n.languages() if lang != i18n.SOURCE]


def _catalog(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def _key(message: object) -> tuple[str | None, str]:
    mid = message.id  # type: ignore[attr-defined]
    return (message.context, mid[0] if isinstance(mid, tuple) else mid)  # type: ignore[attr-defined]


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_the_five_languages_are_there() -> None:
    assert i18n.languages() == ("en", "de", "es", "nl", "pt-BR")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(lang: str) -> None:
    template = {_key(m) for m in _catalog(POT) if m.id}
    catalog = _catalog(i18n.po_path(lang), i18n.tag_to_dir(lang))
    seen = set()
    problems = []
    for m in catalog:
        if not m.id:
            continue
        seen.add(_key(m))
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if not all(strings):
            problems.append(f"untranslated: {m.id!r}")
        if m.fuzzy:
            problems.append(f"fuzzy: {m.id!r}")
        if _key(m) not in template:
            problems.append(f"not in the template (obsolete): {m.id!r}")
    problems += [f"missing: {k!r}" for k in sorted(template - seen, key=str)]
    assert not problems, f"{lang}: " + "\n".join(problems)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders(lang: str) -> None:
    catalog = _catalog(i18n.po_path(lang), i18n.tag_to_dir(lang))
    problems = []
    for m in catalog:
        if not m.id:
            continue
        if isinstance(m.id, tuple):
            wanted = _fields(m.id[0]) | _fields(m.id[1])
            for form in m.string:
                # a form used for one only (English "1 card") may say "one" instead of {count}
                got = _fields(form)
                if got - wanted or (wanted - {"count"}) - got:
                    problems.append(f"{m.id[1]!r} → {form!r}")
        elif _fields(m.string) != _fields(m.id):
            problems.append(f"{m.id!r} → {m.string!r}")
        # rich markup ([bold]…[/]) is kept too
        if not isinstance(m.id, tuple) and MARKUP.findall(m.id) != MARKUP.findall(m.string):
            problems.append(f"markup: {m.id!r} → {m.string!r}")
    assert not problems, f"{lang}: " + "\n".join(problems)


def test_the_template_is_what_the_code_marks() -> None:
    """An extraction run over the Python and JavaScript sources (babel.cfg) finds exactly the
    messages of ``parlour.pot``: a new marked message, or a removed one, needs
    ``pybabel extract`` and ``pybabel update`` (docs/translating.md)."""
    method_map = [
        ("parlour/**.py", "python"),
        ("parlour/web/js/**.js", "javascript"),
        ("parlour/web/*.html", "parlour.i18n.html:extract_html"),
    ]
    found = set()
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map=method_map
    ):
        mid = message[0] if isinstance(message, tuple) else message
        found.add((context, mid))
    template = {_key(m) for m in _catalog(POT) if m.id}
    assert found - template == set(), "marked in the code, not in parlour.pot"
    assert template - found == set(), "in parlour.pot, no longer in the code"


def _random_events(name: str, seed: int) -> list[tuple[object, int]]:
    variant = next(v for v in games.all_variants() if v.name == name)
    game = variant.game
    state = game.new_game(variant.rules.replace(**variant.entry.random_play_options), seed)
    rng = random.Random(seed)
    out = []
    for _ in range(400):
        if game.to_act(state) is None:
            break
        state, events = game.apply(state, rng.choice(game.legal_actions(state)))
        out += [(e, game.num_seats(state)) for e in events]
    return out


@pytest.mark.parametrize("name", ["samba", "handfoot", "cheat", "scat"])
@pytest.mark.parametrize("lang", ["nl", "de"])
def test_event_lines_are_not_english(name: str, lang: str) -> None:
    """Every event of random play, told to a seat and to a spectator, reads differently in
    ``lang`` than in English: no event line is left unmarked."""
    game = games.entry(name).game
    for event, players in _random_events(name, 7):
        sides = ((0, 2), (1, 3)) if players == 4 else ()
        for viewer in (0, 1, None):
            en = game.describe(event, viewer, Names.table(players, sides))
            there = game.describe(event, viewer, Names.table(players, sides, lang=lang))
            if not event.visible_to(viewer):
                continue
            assert there != en, f"{event.kind} untranslated in {lang}: {en!r}"


def test_card_letters_follow_each_language() -> None:
    from parlour.core.cards import parse_card

    qs, kh, aj = parse_card("Q♠"), parse_card("K♥"), parse_card("J♦")
    cards = [qs, kh, aj, 52]
    assert Names((), lang="nl").cards(cards) == "V♠ H♥ B♦ Jk"
    assert Names((), lang="de").cards(cards) == "D♠ K♥ B♦ Jk"
    assert Names((), lang="en").cards(cards) == "Q♠ K♥ J♦ Jk"
