"""Temporary: screenshots for looking (not a test)."""

from pathlib import Path
from tests.web.conftest import serve, CHROMIUM, LAUNCH_ARGS
from tests.web.test_blocking import many_melds_position
from playwright.sync_api import sync_playwright
import tempfile, sys

out = Path("/tmp/shots")
with tempfile.TemporaryDirectory() as tmp, serve(Path(tmp), "--no-rate-limit") as server:
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS, headless=True)
        for w, hgt in [(1280, 900), (390, 844)]:
            ctx = b.new_context(viewport={"width": w, "height": hgt})
            page = ctx.new_page()
            page.on("pageerror", lambda e: print("JSERR", e))
            many_melds_position(page, server, melds=3, hand=9)
            page.wait_for_timeout(300)
            page.screenshot(path=str(out / f"samba-{w}.png"))
            page.click('.tabs button[data-tab="info"]')
            page.wait_for_timeout(500)
            page.screenshot(path=str(out / f"info-{w}.png"), full_page=True)
            ctx.close()
        b.close()
