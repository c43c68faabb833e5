"""Issue 34: the translated rules pages in the browser, on a phone (390×844): the page says its
language, a link to a section by its English id lands on the translated section, the other games'
pages stay in the language, and no page scrolls sideways (long German and Dutch words included);
the Options table is shown a row at a time with the translated column names."""

from __future__ import annotations

from typing import Any

import pytest

from parlour import rules_pages
from tests.web.driver import no_horizontal_scroll

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LANGS = ("nl", "de", "es", "pt-BR")


def test_translated_pages_on_a_phone(browser: Any, server: Any) -> None:
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = ctx.new_page()
        for lang in LANGS:
            for game in rules_pages.PAGES:
                anchor = rules_pages.anchors(game)[-2]  # the section before the options
                page.goto(f"{server.base}/rules/{game}?lang={lang}#{anchor}")
                assert page.locator("html").get_attribute("lang") == lang
                assert page.locator("h1").inner_text() == rules_pages.title(game, lang)
                heading = page.locator(f"#{anchor}")
                assert heading.inner_text() == rules_pages.sections(game, lang)[anchor]
                assert heading.is_visible()
                no_horizontal_scroll(page)
                meaning = page.locator("#options ~ .table-scroll td[data-label]").nth(2)
                label = meaning.evaluate("(td) => getComputedStyle(td, '::before').content")
                assert "what it means" not in label, (lang, game, label)
                assert meaning.evaluate("(td) => td.getBoundingClientRect().width") > 250
            page.locator(".rules-nav a").nth(2).click()  # Cheat, in the same language
            page.wait_for_url(f"{server.base}/rules/cheat?lang={lang}")
            assert page.locator("html").get_attribute("lang") == lang
    finally:
        ctx.close()
