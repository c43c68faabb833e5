"""The player's rules pages: ``docs/rules/<game>.md``, one per game, in our own words.

The same Markdown is printed by ``parlour rules GAME`` (Rich) and served as HTML by the server at
``/rules/<game>`` (rendered here with markdown-it-py, which Rich already depends on). Headings get
stable anchors (GitHub's slugs: ``## Taking the discard pile`` → ``#taking-the-discard-pile``), so
an explanation, the table page or a friend can point a player at a section.

Each page ends with an ``## Options`` table whose rows read ``| Label (`name`) | default |
meaning |``; :func:`option_words` reads it back so the lobby and the terminal show an option with
the page's words.
"""

from __future__ import annotations

import functools
import html
import re
from pathlib import Path
from typing import Any

#: games with a rules page (``chicago`` is the score keeper, not a registered card game)
PAGES = ("samba", "handfoot", "cheat", "scat", "chicago")

_HERE = Path(__file__).resolve().parent
#: a wheel carries the pages inside the package (pyproject's force-include); a checkout reads docs/
_DIRS = (_HERE / "rules_pages", _HERE.parent / "docs" / "rules")

_OPTION_ROW = re.compile(
    r"^\|\s*(?P<label>[^|`]+?)\s*\(`(?P<name>\w+)`\)\s*\|\s*(?P<default>[^|]*?)\s*\|\s*(?P<meaning>.+?)\s*\|\s*$"
)


class NoRulesPage(LookupError):
    pass


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


def page_path(game: str) -> Path:
    name = page_name(game)
    for d in _DIRS:
        path = d / f"{name}.md"
        if path.is_file():
            return path
    raise NoRulesPage(f"the rules page {name}.md is not installed")


@functools.lru_cache(maxsize=16)
def markdown(game: str) -> str:
    return page_path(game).read_text(encoding="utf-8")


def title(game: str) -> str:
    for line in markdown(game).splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return page_name(game)


def slug(text: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", text.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def sections(game: str) -> dict[str, str]:
    """``{anchor: heading}`` of a page's ``##`` and ``###`` sections, in order."""
    out: dict[str, str] = {}
    fence = False
    for line in markdown(game).splitlines():
        if line.startswith("```"):
            fence = not fence
        m = re.match(r"^(#{2,3}) (.+)$", line)
        if m and not fence:
            out[slug(m.group(2))] = m.group(2).strip()
    return out


def anchors(game: str) -> list[str]:
    """The section anchors of a page, in order."""
    return list(sections(game))


def section_ref(game: str, anchor: str) -> tuple[str, str]:
    """Where to point a player: ``("How to play Samba › Taking the discard pile",
    "/rules/samba#taking-the-discard-pile")``; :class:`NoRulesPage` for an unknown section."""
    name = page_name(game)
    heading = sections(name).get(anchor)
    if heading is None:
        raise NoRulesPage(f"the {name} rules page has no section #{anchor}")
    return f"How to play {_short(name)} › {heading}", f"/rules/{name}#{anchor}"


def option_words(game: str) -> dict[str, dict[str, str]]:
    """``{name: {"label", "default", "meaning"}}`` from the page's Options table."""
    out: dict[str, dict[str, str]] = {}
    for line in markdown(game).splitlines():
        m = _OPTION_ROW.match(line)
        if m:
            out[m.group("name")] = {
                "label": m.group("label").strip(),
                "default": m.group("default").strip(),
                "meaning": _plain(m.group("meaning")),
            }
    return out


def preset_words(game: str) -> dict[str, str]:
    """``{preset: what it is}`` from the page's Presets section (a list or a table)."""
    out: dict[str, str] = {}
    current: str | None = None
    for line in markdown(game).splitlines():
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


@functools.lru_cache(maxsize=16)
def html_body(game: str) -> str:
    """The page as HTML (headings carry their anchors as ids; tables scroll on a phone)."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")

    def heading_open(r: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
        inline = tokens[idx + 1]
        tokens[idx].attrSet("id", slug(inline.content))
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
    return _label_cells(str(md.render(markdown(game))))


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


def html_page(game: str) -> str:
    """A whole HTML page: the site's top bar, the rules, links to start a table."""
    name = page_name(game)
    start = (
        '<a class="btn small" href="/chicago">Open the score pad</a>'
        if name == "chicago"
        else f'<a class="btn small primary" href="/?game={name}">Start a table</a>'
    )
    others = " · ".join(
        f'<a href="/rules/{p}"{" aria-current=page" if p == name else ""}>'
        f"{html.escape(_short(p))}</a>"
        for p in PAGES
    )
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{html.escape(title(name))} — Parlour</title>
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
    <nav class="rules-nav" aria-label="Rules of the other games">How to play: {others}</nav>
    <article class="panel rules">
{html_body(name)}
    </article>
  </main>
</body>
</html>
"""


def _short(name: str) -> str:
    return {
        "samba": "Samba",
        "handfoot": "Hand and Foot",
        "cheat": "Cheat",
        "scat": "Scat / 31",
        "chicago": "Chicago scoring",
    }[name]
