"""Page weight and first render of each browser page, measured in Chromium against a local server.

    uv run python scripts/page_figures.py

For each page: bytes over the wire (gzip as served, cold cache), bytes uncompressed, number of
requests, and first contentful paint in ms (median of 3 cold loads). Figures depend on the machine.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.conftest import CHROMIUM, LAUNCH_ARGS, serve  # noqa: E402

FIGURES_JS = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const res = performance.getEntriesByType("resource");
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  const all = [nav, ...res];
  return {
    wire: all.reduce((n, e) => n + (e.transferSize || 0), 0),
    body: all.reduce((n, e) => n + (e.decodedBodySize || 0), 0),
    requests: all.length,
    fcp: fcp ? fcp.startTime : null,
  };
}"""


def measure(browser: Any, url: str, ready: str) -> dict[str, Any]:
    runs = []
    for _ in range(3):
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        page.goto(url)
        page.wait_for_selector(ready)
        page.wait_for_timeout(300)
        runs.append(page.evaluate(FIGURES_JS))
        ctx.close()
    out = dict(runs[-1])
    out["fcp"] = statistics.median(r["fcp"] or 0 for r in runs)
    return out


def main() -> None:
    from playwright.sync_api import sync_playwright

    with (
        tempfile.TemporaryDirectory() as tmp,
        serve(Path(tmp), "--no-rate-limit") as server,
        sync_playwright() as pw,
    ):
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        t = server.post("/api/tables", {"game": "samba", "options": {"max_hands": 1}})
        done = server.post(
            "/api/tables",
            {
                "game": "scat",
                "players": 3,
                "options": {"max_hands": 2},
                "seats": [{"kind": "bot", "bot": "basic"}] * 3,
            },
        )
        while server.get(f"/api/tables/{done['code']}")["status"] != "finished":
            time.sleep(0.2)
        pages = [
            ("lobby", "/", "#seats select"),
            ("samba table", f"/t/{t['code']}?seat={t['you']['token']}", "#hand .card"),
            ("rules (samba)", "/rules/samba", "#options"),
            ("replay (scat, 2 hands)", f"/replay/{done['code']}", "#verify-result"),
            ("chicago pad", "/chicago", "#next-deal b"),
        ]
        print("| page | over the wire | uncompressed | requests | first paint |")
        print("|---|---|---|---|---|")
        for name, path, ready in pages:
            f = measure(browser, server.base + path, ready)
            print(
                f"| {name} | {f['wire'] / 1024:.0f} KB | {f['body'] / 1024:.0f} KB "
                f"| {f['requests']} | {f['fcp']:.0f} ms |"
            )
        browser.close()


if __name__ == "__main__":
    main()
