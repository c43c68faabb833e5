"""The pages' own words (``parlour/web/*.html``) for ``pybabel extract``.

An element marked ``data-i18n`` has its inner HTML as the message (inline tags such as
``<b>`` kept, whitespace collapsed); ``data-i18n-attr="placeholder title"`` marks attributes.
``parlour/web/js/i18n.js`` replaces them in the page with the reader's language, looking up the
same text.  Registered in ``babel.cfg`` as ``parlour.i18n.html:extract_html``."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping
from html.parser import HTMLParser
from typing import IO, Any

_VOID = {"br", "img", "input", "meta", "link", "hr", "wbr", "source"}


def collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


class _Finder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.found: list[tuple[int, str]] = []
        self._stack: list[list[Any]] = []  # [tag, depth, parts, line] of open marked elements
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        line = self.getpos()[0]
        for name in (a.get("data-i18n-attr") or "").split():
            if a.get(name):
                self.found.append((line, collapse(a[name] or "")))
        raw = self.get_starttag_text() or ""
        for entry in self._stack:
            entry[2].append(raw)
        if tag in _VOID:
            return
        self._depth += 1
        if "data-i18n" in a:
            self._stack.append([tag, self._depth, [], line])

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            return
        if self._stack and self._stack[-1][1] == self._depth:
            _, _, parts, line = self._stack.pop()
            text = collapse("".join(parts))
            if text:
                self.found.append((line, text))
        for entry in self._stack:
            entry[2].append(f"</{tag}>")
        self._depth -= 1

    def handle_data(self, data: str) -> None:
        for entry in self._stack:
            entry[2].append(data)

    def handle_entityref(self, name: str) -> None:
        self.handle_data(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.handle_data(f"&#{name};")


def messages(html: str) -> list[tuple[int, str]]:
    """``(line, message)`` of every marked element and attribute."""
    finder = _Finder()
    finder.feed(html)
    finder.close()
    return finder.found


def extract_html(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Babel's extraction method for the pages."""
    html = fileobj.read().decode(options.get("encoding", "utf-8"))
    for line, text in messages(html):
        yield line, None, text, []
