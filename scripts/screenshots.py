"""Screenshots of the browser client for docs/web.md and the README, taken from a real server.

    uv run python scripts/screenshots.py [--out docs/img]

Starts ``parlour serve`` on a free 127.0.0.1 port with a fresh SQLite file, drives Debian's
Chromium (/usr/bin/chromium, or PARLOUR_CHROMIUM) with Playwright and writes:

- ``lobby.png`` — the lobby (1280×900), a name given, an open table listed;
- ``samba-laptop.png`` / ``samba-phone.png`` — a Samba table mid-hand, our turn, melds on both
  sides (1280×900 and a 390×844 phone);
- ``hand-end.png`` — the score sheet shown when a Scat hand ends;
- ``replay.png`` — the replay viewer of a finished Samba hand played by bots, mid-hand;
- ``chicago-phone.png`` — the Chicago score pad with the four-deal example on a phone;
- ``rules.png`` — the Samba rules page.

Each picture is reduced to a 256-colour palette (Pillow) to stay small (< 300 KB).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.conftest import CHROMIUM, LAUNCH_ARGS, serve  # noqa: E402
from tests.web.driver import seat_path, wait_state  # noqa: E402

LAPTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def shrink(path: Path) -> int:
    """A 256-colour PNG (cards and felt have few colours); returns the size in bytes."""
    from PIL import Image

    with Image.open(path) as img:
        small = img.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
        small.save(path, optimize=True)
    return path.stat().st_size


def wait_finished(server: Any, code: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.get(f"/api/tables/{code}")["status"] == "finished":
            return
        time.sleep(0.3)
    raise SystemExit(f"table {code} did not finish within {timeout:g} s")


def lobby(browser: Any, server: Any, out: Path) -> None:
    server.post(
        "/api/tables",
        {
            "game": "samba",
            "name": "Friday samba",
            "player": "Anna",
            "seats": [{"kind": "human"}, {"kind": "human", "open": True}]
            + [{"kind": "bot", "bot": "basic"}] * 2,
        },
    )
    ctx = browser.new_context(viewport=LAPTOP)
    page = ctx.new_page()
    page.goto(server.base + "/")
    page.evaluate("localStorage.setItem('parlour.name', 'Bea')")
    page.reload()
    page.wait_for_selector("#open-tables table")
    page.screenshot(path=str(out / "lobby.png"), full_page=True)
    ctx.close()


def samba_mid_hand(browser: Any, server: Any, out: Path) -> None:
    from tests.web.test_blocking import many_melds_position

    ctx = browser.new_context(viewport=LAPTOP)
    page = ctx.new_page()
    page.add_init_script("localStorage.setItem('parlour.name', 'Anna')")
    many_melds_position(page, server, melds=3, hand=9)
    page.wait_for_timeout(400)
    page.screenshot(path=str(out / "samba-laptop.png"))
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(400)
    page.screenshot(path=str(out / "samba-phone.png"))
    ctx.close()


def hand_end(browser: Any, server: Any, out: Path) -> None:
    ctx = browser.new_context(viewport=LAPTOP)
    page = ctx.new_page()
    for _ in range(5):
        t = server.post(
            "/api/tables",
            {
                "game": "scat",
                "players": 3,
                "player": "Anna",
                "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "basic"}] * 2,
            },
        )
        page.goto(server.base + seat_path(t))
        wait_state(page)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if page.locator("#hand-end-close").count():
                page.wait_for_timeout(300)
                page.screenshot(path=str(out / "hand-end.png"))
                ctx.close()
                return
            st = page.evaluate(
                "() => window.parlour && window.parlour.legal && !window.parlour.pending"
                " ? window.parlour.legal.map((l) => l.action.type) : []"
            )
            try:
                if "Knock" in st and page.evaluate("window.parlour.view.turn_in_hand") > 3:
                    page.locator("#actions button.action", has_text="Knock").first.click(
                        timeout=2000
                    )
                elif "DrawStock" in st:
                    page.click("#stock", timeout=2000)
                elif "Discard" in st:
                    page.locator("#hand .card.hint").first.click(timeout=2000)
                else:
                    page.wait_for_timeout(50)
            except Exception:  # the table moved on under the click
                page.wait_for_timeout(50)
    raise SystemExit("no Scat hand ended")


def replay(browser: Any, server: Any, out: Path) -> None:
    t = server.post(
        "/api/tables",
        {
            "game": "samba",
            "options": {"max_hands": 1},
            "seats": [{"kind": "bot", "bot": "basic"}] * 4,
        },
    )
    wait_finished(server, t["code"])
    data = server.get(f"/api/tables/{t['code']}/replay")
    middle = len(data["steps"]) * 2 // 3
    ctx = browser.new_context(viewport=LAPTOP)
    page = ctx.new_page()
    page.goto(f"{server.base}/replay/{t['code']}#step={middle}")
    page.wait_for_selector("#verify-result")
    page.screenshot(path=str(out / "replay.png"))
    ctx.close()


def chicago(browser: Any, server: Any, out: Path) -> None:
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.add_init_script(
        "localStorage.setItem('parlour.chicago', JSON.stringify({entries: "
        "['3S N +1', '3NT E =', '3DX W =', '6S S = honors4', '2H E -1'], options: {}}))"
    )
    page.goto(server.base + "/chicago")
    page.wait_for_selector("#round-1 tr.total")
    page.locator("#sheet").scroll_into_view_if_needed()
    page.screenshot(path=str(out / "chicago-phone.png"))
    ctx.close()


def rules(browser: Any, server: Any, out: Path) -> None:
    ctx = browser.new_context(viewport=LAPTOP)
    page = ctx.new_page()
    page.goto(server.base + "/rules/samba")
    page.wait_for_selector("#taking-the-discard-pile")
    page.screenshot(path=str(out / "rules.png"))
    ctx.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    args = parser.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with (
        tempfile.TemporaryDirectory() as tmp,
        serve(Path(tmp), "--no-rate-limit") as server,
        sync_playwright() as pw,
    ):
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        for shot in (lobby, samba_mid_hand, hand_end, replay, chicago, rules):
            started = time.monotonic()
            shot(browser, server, out)
            print(f"{shot.__name__}: {time.monotonic() - started:.1f} s")
        browser.close()
    for png in sorted(out.glob("*.png")):
        print(f"{png}: {shrink(png) // 1024} KB")


if __name__ == "__main__":
    main()
