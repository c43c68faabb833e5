"""Issue 33: a player moves to another device with the one-time link (and its QR code), finds
the table under "your tables" there and takes the seat back with one click."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.driver import wait_seat

pytestmark = pytest.mark.browser


def test_move_to_another_device_and_back_to_the_table(browser: Any, server: Any) -> None:
    errors: list[str] = []
    one = browser.new_context(viewport={"width": 1280, "height": 900})
    two = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    a, b = one.new_page(), two.new_page()
    for p in (a, b):
        p.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        a.goto(server.base + "/")
        a.fill("#player-name", "Mover")
        a.click("#name-save")
        a.locator("#name-value", has_text="Mover").wait_for()
        a.select_option("#game", "scat")
        a.click("#create")  # the other seats are bots: the creator sits down at once
        assert wait_seat(a, timeout=20) == 0
        a.wait_for_function("window.parlour && window.parlour.code")
        code = a.evaluate("window.parlour.code")
        a.goto(server.base + "/")
        a.click("#move-device")
        link = a.locator("#move-link").input_value()
        assert "/move/" in link
        a.locator("#move-qr-img").wait_for()
        assert a.locator("#move-qr-img").evaluate("(img) => img.naturalWidth") > 0
        # the other device
        b.goto(link)
        b.locator("#name-value", has_text="Mover").wait_for(timeout=10_000)
        assert "/move/" not in b.url  # the spent link leaves the address bar
        row = b.locator(f'#my-tables [data-code="{code}"] a')
        row.wait_for(timeout=10_000)
        row.click()
        assert wait_seat(b, timeout=20) == 0  # seated, not watching
        # the link worked once
        c = browser.new_context()
        try:
            p = c.new_page()
            p.goto(link)
            p.locator("#name-error", has_text="used").wait_for(timeout=10_000)
        finally:
            c.close()
    finally:
        one.close()
        two.close()
    assert not errors, errors
