"""The HTML pages as a FastAPI router: the lobby, a table, a replay, the Chicago sheet, the
rules; and the static files' cache policy."""

from __future__ import annotations

import html
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from parlour import i18n, rules_pages
from parlour.server.errors import LobbyError
from parlour.server.guard import client_address as _client
from parlour.server.lobby import TableServer
from parlour.server.webpages import page as _page

#: static files: the browser keeps them but asks (ETag / Last-Modified) before using them again
STATIC_CACHE = {"Cache-Control": "no-cache"}
FAVICON = (
    b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
    b'<rect width="64" height="64" rx="12" fill="#1d5c3a"/>'
    b'<text x="32" y="46" font-size="40" text-anchor="middle" fill="#fff">&#9824;</text></svg>'
)


class CachedStatic(StaticFiles):
    """Static files with ``Cache-Control: no-cache``: kept by the browser and revalidated with
    their ETag (a 304 costs no body), so a new release is seen at once."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers.update(STATIC_CACHE)
        return response


def page_routes(server: TableServer) -> APIRouter:
    """The HTML pages: the lobby, a table, a replay, the Chicago sheet, the rules."""
    router = APIRouter()

    @router.get("/", include_in_schema=False)
    async def index() -> Any:
        return _page("index.html")

    @router.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str) -> Any:
        return _page("table.html")

    @router.get("/replay/{code}", include_in_schema=False)
    async def replay_page(code: str) -> Any:
        return _page("replay.html")

    @router.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(FAVICON, media_type="image/svg+xml", headers=STATIC_CACHE)

    @router.get("/chicago", include_in_schema=False)
    async def chicago_page() -> Any:
        return _page("chicago.html")

    @router.get("/rules", include_in_schema=False)
    async def rules_index(lang: str | None = None) -> Any:
        return RedirectResponse(rules_pages.rules_url("samba", lang))

    @router.get("/t/{code}/rules", include_in_schema=False)
    async def table_rules(code: str, request: Request, lang: str | None = None) -> Any:
        """The rules page of a table's game (the table page links here), in ``?lang=``."""
        await server.limit("lookup", _client(request))
        try:
            table = await server.get(code)
        except LobbyError:
            return RedirectResponse(rules_pages.rules_url("samba", lang))
        name = table.entry.name if table.entry.name in rules_pages.PAGES else "samba"
        return RedirectResponse(rules_pages.rules_url(name, lang))

    @router.get("/rules/{game}", include_in_schema=False)
    async def rules_page(game: str, request: Request, lang: str | None = None) -> Any:
        """The page in ``?lang=`` (``nl``, ``de``, ``es``, ``pt-BR``; a language we do not have,
        or a value that is no language at all, gives the English page); without ``?lang=``, in
        the browser's ``Accept-Language`` (issue 34)."""
        if lang is None:
            lang = i18n.from_accept_language(request.headers.get("accept-language"))
        try:
            page = rules_pages.html_page(game, rules_pages.language(lang))
            return HTMLResponse(page, headers={**STATIC_CACHE, "Vary": "Accept-Language"})
        except rules_pages.NoRulesPage as exc:
            t = i18n.messages(i18n.negotiate([lang]))
            title = html.escape(t.gettext("No such page — Parlour"))
            heading = html.escape(t.gettext("No such rules page"))
            how, lobby = html.escape(t.gettext("How to play")), html.escape(t.gettext("Lobby"))
            return HTMLResponse(
                f"<!doctype html><html lang={t.lang}><meta charset=utf-8><title>{title}</title>"
                "<link rel=stylesheet href=/static/css/parlour.css><main class=page>"
                f"<h1>{heading}</h1><p>{html.escape(str(exc))}</p>"
                f"<p><a href='/rules/samba'>{how}</a> · <a href='/'>{lobby}</a></p></main>",
                status_code=404,
                headers={"Vary": "Accept-Language"},
            )

    return router
