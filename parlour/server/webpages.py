"""The browser client's pages on disk (``parlour/web``), answered as HTML; a plain page when the
client is not installed.  Below the routes: the page routes (``routes_pages``) and the players'
pages (``players``) both serve from here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.responses import FileResponse, HTMLResponse

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


def page(name: str, fallback: str = "index.html") -> Any:
    """``parlour/web/<name>`` (else ``fallback``) as an HTML response."""
    for candidate in (name, fallback):
        path = WEB_DIR / candidate
        if path.is_file():
            return FileResponse(path, media_type="text/html")
    return HTMLResponse(
        "<!doctype html><meta charset=utf-8><title>Parlour</title>"
        "<h1>Parlour</h1><p>The browser client is not installed (parlour/web is empty). "
        "The API is at <a href='/docs'>/docs</a>.</p>"
    )
