"""The players' HTTP routes (issue 33): ``/api/players…`` (a player made, renamed, moved to
another device; its tables), the pages ``/p/{id}``, ``/leaders/{game}`` and ``/move/…``, a
table's chat history, and a seat taken again or bound to a player (``/api/tables/{code}/reseat``,
``/sit``).  What they call is :mod:`parlour.server.players`."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from pydantic import BaseModel, Field

from parlour.core.said import N_
from parlour.server.players import (
    LOBBY_MATCHES,
    MOVE_SECONDS,
    OPS,
    PAGE_MATCHES,
    _db,
    check_name,
    player_for,
    store,
    valid_id,
    valid_key,
)
from parlour.server.storage import StorageError
from parlour.server.webpages import page

if TYPE_CHECKING:
    from parlour.server.lobby import TableServer


# --- routes ------------------------------------------------------------------------------------


class NewPlayer(BaseModel):
    name: Any = Field(..., description="the display name (1 to 24 printable characters)")


class KeyRequest(BaseModel):
    key: str = Field(..., max_length=200, description="your player key")


class RenameRequest(BaseModel):
    key: str = Field(..., max_length=200, description="your player key")
    name: Any = Field(..., description="the new display name")


class MoveClaim(BaseModel):
    link: str = Field(..., max_length=200, description="the move link's secret")


class SitRequest(BaseModel):
    key: str = Field(..., max_length=200, description="your player key")
    token: str = Field(..., max_length=200, description="your seat token at this table")


def qr_svg(text: str) -> str:
    """A QR code of ``text`` as an SVG document (segno: a small, pure-Python, well-kept QR
    encoder; writing a Reed–Solomon encoder by hand would be neither)."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=4, border=2, xmldecl=False)
    return out.getvalue().decode()


def public_player(server: TableServer, pid: str) -> dict[str, Any] | None:
    """What ``/p/<id>`` shows (blocking): name, games, the last matches, ratings."""
    from parlour.server import ratings

    st = store(server)
    player = st.by_id(pid)
    if player is None:
        return None
    matches = st.matches_of(pid, PAGE_MATCHES)
    return {
        "id": player.id,
        "name": player.name,
        "url": f"/p/{player.id}",
        "games": st.game_counts(pid),
        "matches": matches,
        "ratings": ratings.of_player(st, pid),
    }


def add_routes(app: FastAPI, server: TableServer, client: Callable[[Request], str]) -> None:
    """``/api/players…``, ``/api/tables/{code}/sit``, the pages ``/p/{id}`` and ``/move/…``."""
    page_data = _account_routes(app, server, client)
    _page_routes(app, server, client, page_data)
    _table_routes(app, server, client)


PageData = Callable[[str, Request], Awaitable[dict[str, Any]]]


async def _on_table(
    server: TableServer, code: str, op: str, args: dict[str, Any]
) -> dict[str, Any]:
    """One of this module's table operations (``OPS``), run by the process that plays it."""
    if server.cluster is not None:
        return await server.cluster.call(code, op, args)
    return await OPS[op](server, await server.get(code), args)


def _account_routes(
    app: FastAPI, server: TableServer, client: Callable[[Request], str]
) -> PageData:
    """A player's account: made, renamed, moved to another device, its tables; its page's
    data (returned: the page route answers with it when asked for JSON)."""
    from parlour.server.errors import LobbyError, LobbyUnavailable

    @app.post("/api/players", status_code=201, summary="A new player: a name and a secret key")
    async def new_player(req: NewPlayer, request: Request) -> dict[str, Any]:
        await server.limit("create", client(request))
        name = check_name(req.name)
        player, key = await _db(server, store(server).create, name)
        return {"id": player.id, "name": player.name, "key": key, "url": f"/p/{player.id}"}

    @app.post("/api/players/me", summary="Who this key is")
    async def me(req: KeyRequest, request: Request) -> dict[str, Any]:
        await server.limit("lookup", client(request))
        player = await player_for(server, req.key)
        return {"id": player.id, "name": player.name, "url": f"/p/{player.id}"}

    @app.post("/api/players/rename", summary="A new display name")
    async def rename(req: RenameRequest, request: Request) -> dict[str, Any]:
        await server.limit("join", client(request))
        player = await player_for(server, req.key)
        name = check_name(req.name)
        await _db(server, store(server).rename, player.id, name)
        # the seats the player holds follow now, not when the table is next opened
        for row in await _db(server, store(server).tables_of, player.id):
            with contextlib.suppress(LobbyError, LobbyUnavailable):
                await _on_table(server, row["code"], "renamed", {"key": req.key})
        return {"id": player.id, "name": name, "url": f"/p/{player.id}"}

    @app.post("/api/players/move", summary="A one-time link to use this player on another device")
    async def move(req: KeyRequest, request: Request) -> dict[str, Any]:
        await server.limit("join", client(request))
        player = await player_for(server, req.key)
        link, expires = await _db(server, store(server).new_move, player.id)
        base = str(request.base_url).rstrip("/")
        url = f"{base}/move/{link}"
        return {
            "url": f"/move/{link}",
            "expires": expires,
            "seconds": MOVE_SECONDS,
            "qr_svg": qr_svg(url),
        }

    @app.post("/api/players/move/claim", summary="Open a move link: a key for this device")
    async def move_claim(req: MoveClaim, request: Request) -> dict[str, Any]:
        await server.limit("join", client(request))
        if not valid_key(req.link):
            raise LobbyError(403, N_("this move link is not valid"))
        got = await _db(server, store(server).use_move, req.link)
        if isinstance(got, str):
            raise LobbyError(410 if "not valid" not in got else 403, got)
        player, key = got
        return {"id": player.id, "name": player.name, "key": key, "url": f"/p/{player.id}"}

    @app.post("/api/players/tables", summary="Your tables and your last matches")
    async def my_tables(req: KeyRequest, request: Request) -> dict[str, Any]:
        await server.limit("lookup", client(request))
        player = await player_for(server, req.key)
        st = store(server)
        tables = await _db(server, st.tables_of, player.id)
        matches = await _db(server, st.matches_of, player.id, LOBBY_MATCHES)
        return {"id": player.id, "name": player.name, "tables": tables, "matches": matches}

    @app.get("/api/players/{pid}", summary="A player's page: name, games, matches, ratings")
    async def player_page_data(pid: str, request: Request) -> dict[str, Any]:
        await server.limit("lookup", client(request))
        if not valid_id(pid):
            raise LobbyError(404, N_("no such player"))
        data = await _db(server, public_player, server, pid)
        if data is None:
            raise LobbyError(404, N_("no such player"))
        return data  # type: ignore[no-any-return]

    return player_page_data


def _page_routes(
    app: FastAPI, server: TableServer, client: Callable[[Request], str], page_data: PageData
) -> None:
    """The pages ``/p/{id}``, ``/leaders/{game}`` and ``/move/{link}``."""

    def wants_json(request: Request) -> bool:
        """A program asking for JSON (``Accept: application/json``, not a browser's
        ``text/html``) gets the page's data at the page's own address."""
        accept = request.headers.get("accept", "")
        return "application/json" in accept and "text/html" not in accept

    @app.get("/p/{pid}", include_in_schema=False)
    async def player_page(pid: str, request: Request) -> Any:
        if wants_json(request):
            return await page_data(pid, request)
        return page("player.html")

    @app.get("/leaders/{game}", include_in_schema=False)
    async def leaders_page(game: str, request: Request) -> Any:
        if wants_json(request):
            from parlour.server import ratings

            return await ratings.leaders_json(server, game, client(request))
        return page("leaders.html")

    @app.get("/move/{link}", include_in_schema=False)
    async def move_page(link: str) -> Any:
        return page("index.html")


def _table_routes(app: FastAPI, server: TableServer, client: Callable[[Request], str]) -> None:
    """A table's chat history; a seat taken again (``reseat``) or bound to a player (``sit``)."""
    from parlour.server.errors import LobbyError

    @app.get("/api/tables/{code}/chat", summary="The table's chat, as journaled")
    async def chat_history(code: str, request: Request) -> dict[str, Any]:
        from parlour.server import chat

        await server.limit("lookup", client(request))
        from parlour.server.lobby import TABLE_CODE

        table_code = code.strip().upper()
        if not TABLE_CODE.fullmatch(table_code):
            raise LobbyError(404, N_("no such table"))
        try:
            records = await server.db(server.storage.records, table_code)
        except StorageError as exc:
            raise LobbyError(
                503, N_("the chat cannot be read just now: {error}", error=str(exc))
            ) from None
        if not records:  # every table has its secret's commitment
            raise LobbyError(404, N_("no table {code}", code=repr(table_code)))
        return {"code": table_code, "messages": chat.history(records)}

    @app.post("/api/tables/{code}/reseat", summary="Your seat again, on another device")
    async def reseat(code: str, req: KeyRequest, request: Request) -> dict[str, Any]:
        await server.limit("join", client(request))
        return await _on_table(server, code, "reseat", {"key": req.key})

    @app.post("/api/tables/{code}/sit", summary="Bind your seat to your player")
    async def sit(code: str, req: SitRequest, request: Request) -> dict[str, Any]:
        await server.limit("join", client(request))
        return await _on_table(server, code, "sit", {"token": req.token, "key": req.key})
