"""The player's rules pages: ``docs/rules/<game>.md``, one per game, in our own words, and their
translations ``docs/rules/<lang>/<game>.md`` (``nl``, ``de``, ``es``, ``pt-BR``).

The same Markdown is printed by ``parlour rules GAME [--lang nl]`` (Rich) and served as HTML by the
server at ``/rules/<game>[?lang=de]`` (rendered here with markdown-it-py, which Rich already
depends on). A language is added by adding its directory of pages (``docs/translating-rules.md``);
a language or a page we do not have is served in English.

Section ids are the same in every language, so an explanation, the table page or a friend can point
a player at a section whatever language they read. An English heading's id is its GitHub slug
(``## Taking the discard pile`` → ``#taking-the-discard-pile``); a translated heading carries the
English id explicitly, ``## De pot pakken {#taking-the-discard-pile}`` (the attribute syntax of
Pandoc and kramdown). The marker is taken off before the page is shown.

Each page ends with an ``## Options`` table whose rows read ``| Label (`name`) | default |
meaning |``; :func:`option_words` reads it back so the lobby and the terminal show an option with
the page's words (in the page's language).
"""

from __future__ import annotations

import functools
import html
import re
from pathlib import Path
from typing import Any

#: games with a rules page (``chicago`` is the score keeper, not a registered card game)
PAGES = ("samba", "handfoot", "cheat", "scat", "chicago")
#: the language of ``docs/rules/<game>.md``; translations live in ``docs/rules/<lang>/``
ENGLISH = "en"

_HERE = Path(__file__).resolve().parent
#: a wheel carries the pages inside the package (pyproject's force-include); a checkout reads docs/
_DIRS = (_HERE / "rules_pages", _HERE.parent / "docs" / "rules")

_OPTION_ROW = re.compile(
    r"^\|\s*(?P<label>[^|`]+?)\s*\(`(?P<name>\w+)`\)\s*\|\s*(?P<default>[^|]*?)\s*\|\s*(?P<meaning>.+?)\s*\|\s*$"
)
#: a heading's explicit id: ``## De pot pakken {#taking-the-discard-pile}``
_HEADING_ID = re.compile(r"\s*\{#([a-z0-9][a-z0-9-]*)\}\s*$")
#: what may be a language tag at all (BCP 47 or a POSIX locale such as ``nl_NL.UTF-8``)
_TAG = re.compile(r"[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*")


class NoRulesPage(LookupError):
    pass


def N_(message: str) -> str:
    """Marks a message of the page around the rules for the gettext catalogs (Babel extracts
    ``N_``) without translating it here; :func:`_say` translates it."""
    return message


def _say(message: str, lang: str, **names: str) -> str:
    """The few words of the page around the rules (top bar, the list of games), in ``lang``,
    from the gettext catalogs (:mod:`parlour.i18n`). The rules themselves are translated as
    whole pages, not through the catalogs."""
    from parlour import i18n

    return i18n.messages(i18n.negotiate([lang])).gettext(message).format(**names)


@functools.cache
def languages() -> tuple[str, ...]:
    """English, then every language with a directory of pages (``docs/rules/<lang>/``)."""
    found: set[str] = set()
    for d in _DIRS:
        if d.is_dir():
            found.update(sub.name for sub in d.iterdir() if sub.is_dir() and any(sub.glob("*.md")))
    return (ENGLISH, *sorted(found - {ENGLISH}))


def language(value: str | None) -> str:
    """The language to show for ``value``: ``"pt-br"``, ``"pt_BR.UTF-8"`` and ``"pt"`` give
    ``"pt-BR"``, ``"de-AT"`` gives ``"de"``; anything else — unknown, empty, too long, not a
    language tag at all — gives English."""
    if not value or len(value) > 64:
        return ENGLISH
    tag = value.strip().split(".", 1)[0].split("@", 1)[0]
    if not _TAG.fullmatch(tag):
        return ENGLISH
    tag = tag.replace("_", "-").lower()
    have = {lang.lower(): lang for lang in languages()}
    if tag in have:
        return have[tag]
    primary = tag.split("-", 1)[0]
    for lang in languages():
        if lang.lower().split("-", 1)[0] == primary:
            return lang
    return ENGLISH


def page_name(game: str) -> str:
    """The page for a game name or alias (``31`` → ``scat``), or :class:`NoRulesPage`."""
    key = game.strip().lower()
    if key in PAGES:
        return key
    if key in ("bridge", "chicago-bridge"):
        return "chicago"
    from parlour import games
    from parlour.core.errors import ParlourError

    try:
        name = games.get(key).entry.name
    except ParlourError:
        raise NoRulesPage(f"no rules page for {game!r}; pages: {', '.join(PAGES)}") from None
    if name not in PAGES:
        raise NoRulesPage(f"no rules page for {game!r}; pages: {', '.join(PAGES)}")
    return name


def _located(game: str, lang: str | None) -> tuple[Path, str]:
    name = page_name(game)
    wanted = language(lang)
    for code in dict.fromkeys((wanted, ENGLISH)):
        for d in _DIRS:
            path = d / f"{name}.md" if code == ENGLISH else d / code / f"{name}.md"
            if path.is_file():
                return path, code
    raise NoRulesPage(f"the rules page {name}.md is not installed")


def page_path(game: str, lang: str | None = ENGLISH) -> Path:
    """The page's file in ``lang``, or the English page when there is no translation."""
    return _located(game, lang)[0]


def page_language(game: str, lang: str | None = ENGLISH) -> str:
    """The language the page for ``lang`` is written in (English when not translated)."""
    return _located(game, lang)[1]


@functools.lru_cache(maxsize=64)
def source(game: str, lang: str | None = ENGLISH) -> str:
    """The page's Markdown as written, explicit heading ids included."""
    return page_path(game, lang).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=64)
def markdown(game: str, lang: str | None = ENGLISH) -> str:
    """The page's Markdown as a player reads it (explicit heading ids taken off)."""
    return "\n".join(
        _HEADING_ID.sub("", line) if line.startswith("#") else line
        for line in source(game, lang).split("\n")
    )


def title(game: str, lang: str | None = ENGLISH) -> str:
    for line in markdown(game, lang).splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return page_name(game)


def short_name(game: str, lang: str | None = ENGLISH) -> str:
    """The game's name as its page's title gives it (``Samba — how to play`` → ``Samba``)."""
    return title(game, lang).split(" — ", 1)[0]


def slug(text: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", text.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def heading_id(heading: str) -> tuple[str, str]:
    """``(id, words)`` of a heading's text: its explicit ``{#id}``, or the slug of its words."""
    m = _HEADING_ID.search(heading)
    if m:
        return m.group(1), heading[: m.start()].strip()
    return slug(heading), heading.strip()


def sections(game: str, lang: str | None = ENGLISH) -> dict[str, str]:
    """``{id: heading}`` of a page's ``##`` and ``###`` sections, in order."""
    out: dict[str, str] = {}
    fence = False
    for line in source(game, lang).splitlines():
        if line.startswith("```"):
            fence = not fence
        m = re.match(r"^(#{2,3}) (.+)$", line)
        if m and not fence:
            anchor, words = heading_id(m.group(2))
            out[anchor] = words
    return out


def anchors(game: str, lang: str | None = ENGLISH) -> list[str]:
    """The section ids of a page, in order (the same in every language)."""
    return list(sections(game, lang))


def rules_url(game: str, lang: str | None = ENGLISH, anchor: str = "") -> str:
    """``/rules/samba``, ``/rules/samba?lang=nl#taking-the-discard-pile``."""
    name = page_name(game)
    code = language(lang)
    query = "" if code == ENGLISH else f"?lang={code}"
    return f"/rules/{name}{query}" + (f"#{anchor}" if anchor else "")


def section_ref(game: str, anchor: str, lang: str | None = ENGLISH) -> tuple[str, str]:
    """Where to point a player: ``("How to play Samba › Taking the discard pile",
    "/rules/samba#taking-the-discard-pile")``, the heading in the player's language and the
    same id in every language; :class:`NoRulesPage` for an unknown section."""
    name = page_name(game)
    heading = sections(name, lang).get(anchor)
    if heading is None:
        raise NoRulesPage(f"the {name} rules page has no section #{anchor}")
    shown = page_language(name, lang)
    words = _say(
        N_("How to play {game} › {section}"), shown, game=short_name(name, lang), section=heading
    )
    return words, rules_url(name, shown, anchor)


def option_words(game: str, lang: str | None = ENGLISH) -> dict[str, dict[str, str]]:
    """``{name: {"label", "default", "meaning"}}`` from the page's Options table."""
    out: dict[str, dict[str, str]] = {}
    for line in markdown(game, lang).splitlines():
        m = _OPTION_ROW.match(line)
        if m:
            out[m.group("name")] = {
                "label": m.group("label").strip(),
                "default": m.group("default").strip(),
                "meaning": _plain(m.group("meaning")),
            }
    return out


def preset_words(game: str, lang: str | None = ENGLISH) -> dict[str, str]:
    """``{preset: what it is}`` from the page's Presets section (a list or a table)."""
    out: dict[str, str] = {}
    current: str | None = None
    for line in markdown(game, lang).splitlines():
        item = re.match(r"^- \*\*([\w-]+)\*\* — (.+)$", line)
        row = re.match(r"^\| \*\*([\w-]+)\*\* \| (.+?) \|$", line)
        if item or row:
            m = item or row
            assert m is not None
            current = m.group(1) if item else None
            out[m.group(1)] = _plain(m.group(2))
        elif current and line.startswith("  "):
            out[current] += " " + _plain(line.strip())
        else:
            current = None
    return out


def _plain(text: str) -> str:
    """Markdown inline text as plain text (links keep their words)."""
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[*`]", "", text)


@functools.lru_cache(maxsize=64)
def html_body(game: str, lang: str | None = ENGLISH) -> str:
    """The page as HTML (headings carry their ids; tables scroll on a phone). Links within the
    page (``#options``) work in every language: the ids are the same."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")

    def heading_open(r: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
        inline = tokens[idx + 1]
        anchor, words = heading_id(inline.content)
        if words != inline.content.strip() and inline.children:
            last = inline.children[-1]
            last.content = _HEADING_ID.sub("", last.content)
            inline.content = words
        tokens[idx].attrSet("id", anchor)
        return str(r.renderToken(tokens, idx, options, env))

    def table_open(r: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
        return '<div class="table-scroll" tabindex="0">' + str(
            r.renderToken(tokens, idx, options, env)
        )

    def table_close(r: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
        return str(r.renderToken(tokens, idx, options, env)) + "</div>"

    md.add_render_rule("heading_open", heading_open)
    md.add_render_rule("table_open", table_open)
    md.add_render_rule("table_close", table_close)
    return _label_cells(str(md.render(source(game, lang))))


def _label_cells(page: str) -> str:
    """Give each cell of a table of three or more columns its column's name (``data-label``) and
    the table the class ``stack``: on a phone such a table is shown a row at a time, each cell
    named, instead of columns too narrow to read."""

    def one(table: re.Match[str]) -> str:
        text = table.group(0)
        heads = [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<th[^>]*>(.*?)</th>", text)]
        if len(heads) < 3:
            return text

        def row(tr: re.Match[str]) -> str:
            cells = iter(heads)
            return re.sub(
                r"<td(?=[ >])",
                lambda _: f'<td data-label="{html.escape(next(cells, ""), quote=True)}"',
                tr.group(0),
            )

        text = re.sub(r"<tr>.*?</tr>", row, text, flags=re.S)
        return text.replace("<table>", '<table class="stack">', 1)

    return re.sub(r"<table>.*?</table>", one, page, flags=re.S)


def html_page(game: str, lang: str | None = ENGLISH) -> str:
    """A whole HTML page in the page's language: the site's top bar, the rules, links to start a
    table and to the other games' pages (in the same language)."""
    name = page_name(game)
    code = page_language(name, lang)
    # (the messages outside the f-strings: the extractor does not look inside one)
    pad_words = html.escape(_say(N_("Open the score pad"), code))
    start_words = html.escape(_say(N_("Start a table"), code))
    page_title = html.escape(_say(N_("{title} — Parlour"), code, title=title(name, code)))
    start = (
        f'<a class="btn small" href="/chicago">{pad_words}</a>'
        if name == "chicago"
        else f'<a class="btn small primary" href="/?game={name}">{start_words}</a>'
    )
    others = " · ".join(
        f'<a href="{rules_url(p, code)}"{" aria-current=page" if p == name else ""}>'
        f"{html.escape(short_name(p, code))}</a>"
        for p in PAGES
    )
    nav_label = html.escape(_say(N_("Rules of the other games"), code), quote=True)
    how = html.escape(_say(N_("How to play:"), code))
    return f"""<!doctype html>
<html lang="{code}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{page_title}</title>
  <link rel="icon" href="/favicon.ico" type="image/svg+xml">
  <link rel="stylesheet" href="/static/css/parlour.css">
  <link rel="stylesheet" href="/static/css/pages.css">
</head>
<body>
  <header class="topbar">
    <a class="brand" href="/">♠ Parlour <span class="wide-only">card room</span></a>
    <span class="spacer"></span>
    {start}
  </header>
  <main class="page rules-page" id="rules" data-game="{name}">
    <nav class="rules-nav" aria-label="{nav_label}">{how} {others}</nav>
    <article class="panel rules">
{html_body(name, code)}
    </article>
  </main>
</body>
</html>
"""
