"""The FastAPI application: lobby over HTTP, play over WebSockets, the static browser client.

``create_app(storage_url, config)`` builds it; ``parlour serve`` runs it with uvicorn.  The wire
protocol is documented in ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import html
import json
import logging
import sys
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, Literal, Protocol

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
)
from fastapi.staticfiles import StaticFiles
from fastapi.websockets import WebSocketState
from pydantic import BaseModel, Field
from websockets.exceptions import InvalidState

import parlour
from parlour import bots as bot_registry
from parlour import games, rules_pages
from parlour.core.registry import GameEntry
from parlour.server import (
    GC_FULL_EVERY,
    GC_YOUNG,
    chat,
    flow,
    house,
    players,
    ratings,
    replays,
)
from parlour.server.cluster import Cluster, ClusterConfig, open_leased_storage
from parlour.server.guard import WS_DENIED, BadInput, parse_json
from parlour.server.lobby import LobbyError, ServerConfig, TableServer, default_bot
from parlour.server.loopstats import LoopMonitor
from parlour.server.storage import Storage, open_storage
from parlour.server.table import Connection, Rejected, Table, encode

PROTOCOL = 1
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
log = logging.getLogger("parlour.server")

CLIENT_TYPES = ("action", "sync", "start", "ping", "contribute", "hint", "review", *chat.TYPES)


class SeatSpec(BaseModel):
    kind: Literal["human", "bot"] = Field("human", description="who sits here")
    bot: str | None = Field(
        None, max_length=40, description="bot level for a bot seat (one of the game's `bots`)"
    )
    open: bool = Field(
        False, description="a human seat anyone may take from the lobby (default: invite only)"
    )


class CreateTable(BaseModel):
    game: str = Field(..., description="game name, alias, or a preset name", examples=["samba"])
    preset: str | None = Field(None, description="preset name (default: the game's default)")
    options: dict[str, Any] = Field(
        default_factory=dict, description="rules option overrides, validated by the game's schema"
    )
    players: int | None = Field(None, description="number of seats (default: the preset's)")
    seats: list[SeatSpec] | None = Field(
        None,
        max_length=16,
        description="one entry per seat (default: seat 0 human, bots elsewhere)",
    )
    claim: int | Literal["default"] | None = Field(
        "default", description="the seat the creator takes (default: first human seat)"
    )
    name: str = Field("", max_length=80, description="a name shown in the lobby")
    player: str | None = Field(
        None, max_length=80, description="the creator's name, shown at the table (24 characters)"
    )
    hints: bool | None = Field(
        None,
        description="players may ask for hints (default: on with at most one human seat)",
    )


class JoinRequest(BaseModel):
    seat: int | None = Field(None, description="which open seat (default: the first open one)")
    player: str | None = Field(None, max_length=80, description="your name, shown at the table")


class TokenRequest(BaseModel):
    token: str = Field(..., max_length=200, description="the seat token")


class InviteRequest(BaseModel):
    token: str = Field(..., max_length=200, description="your seat token")
    seat: int | None = Field(
        None, description="the seat (default: your own; another seat: the table's host only)"
    )


class ClaimRequest(BaseModel):
    invite: str = Field(..., max_length=200, description="the invite from the invite link")
    player: str | None = Field(None, max_length=80, description="your name, shown at the table")


def _option_rows(entry: GameEntry) -> list[dict[str, Any]]:
    import dataclasses

    schema = entry.rules_type.json_schema()["properties"]
    rows = []
    described = {r["name"]: r for r in entry.rules_type.describe()}
    try:  # the rules page's words for each option (label and meaning), where the game has a page
        words = rules_pages.option_words(entry.name)
    except rules_pages.NoRulesPage:
        words = {}
    for f in dataclasses.fields(entry.rules_type):
        meta = f.metadata
        d = f.default
        default = list(d) if isinstance(d, tuple) else d
        rows.append(
            {
                "name": f.name,
                "default": default,
                "doc": meta.get("doc", ""),
                "label": words.get(f.name, {}).get("label", f.name.replace("_", " ").capitalize()),
                "meaning": words.get(f.name, {}).get("meaning", meta.get("doc", "")),
                "allowed": described[f.name]["allowed"],
                "choices": list(meta["choices"]) if meta.get("choices") is not None else None,
                "min": meta.get("min"),
                "max": meta.get("max"),
                "nullable": bool(meta.get("nullable")),
                "type": _first_type(
                    schema[f.name].get("type", "enum" if meta.get("choices") else "any")
                ),
            }
        )
    return rows


def _first_type(kind: Any) -> str:
    """``["integer", "null"]`` → ``"integer"`` (nullability is its own field)."""
    if isinstance(kind, list):
        return str(next((k for k in kind if k != "null"), "any"))
    return str(kind)


def games_catalogue(server: TableServer | None = None) -> list[dict[str, Any]]:
    out = []
    for name in games.names():
        entry = games.entry(name)
        variant = games.get(name)
        try:  # the rules page's words for each preset, where the game has a page
            preset_words = rules_pages.preset_words(name)
        except rules_pages.NoRulesPage:
            preset_words = {}
        presets = [
            {
                "name": p,
                "doc": preset_words.get(p) or entry.preset_docs.get(p, ""),
                "options": {k: list(v) if isinstance(v, tuple) else v for k, v in o.items()},
            }
            for p, o in entry.presets.items()
        ]
        out.append(
            {
                "name": name,
                "title": entry.title,
                "description": entry.description,
                "engine_version": entry.game.version,
                "default_preset": entry.default_preset,
                "aliases": list(entry.aliases),
                "preset_aliases": dict(entry.preset_aliases),
                "presets": presets,
                "options": _option_rows(entry),
                "schema": entry.rules_type.json_schema(),
                "bots": server.bot_levels(variant) if server else bot_registry.available(variant),
                "default_bot": default_bot(entry, variant),
                "random_play_options": dict(entry.random_play_options),
                "rules_url": f"/rules/{name}" if name in rules_pages.PAGES else None,
            }
        )
    return out


def _page(name: str, fallback: str = "index.html") -> Any:
    for candidate in (name, fallback):
        path = WEB_DIR / candidate
        if path.is_file():
            return FileResponse(path, media_type="text/html")
    return HTMLResponse(
        "<!doctype html><meta charset=utf-8><title>Parlour</title>"
        "<h1>Parlour</h1><p>The browser client is not installed (parlour/web is empty). "
        "The API is at <a href='/docs'>/docs</a>.</p>"
    )


class GuardMiddleware:
    """Every HTTP request: a known ``Host``; every JSON body: bounded in size and depth, strict
    (no lone surrogates, no NaN) — refused with a clear 4xx before any handler sees it."""

    def __init__(self, app: Any, server: TableServer) -> None:
        self.app = app
        self.server = server

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            if scope["type"] == "websocket":
                # the socket's own protocol, for writes without the ASGI layers (send_now)
                protocol = getattr(send, "__self__", None)
                if sansio_protocol(protocol):
                    scope[WS_PROTOCOL] = protocol
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        policy = self.server.origins
        if not policy.host_ok(headers.get("host")):
            await _plain(send, 400, "unknown Host: this server answers only its own address")
            return
        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        if not policy.origin_ok(headers.get("origin"), headers.get("host")):
            await _plain(send, 403, "requests from pages of another site are refused")
            return
        limit = self.server.config.max_message
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > limit:
                await _plain(send, 413, f"the request body is over {limit} bytes")
                return
        if body and scope["path"].startswith("/api/"):
            try:
                parse_json(bytes(body))
            except BadInput as exc:
                await _plain(send, 400, exc.message)
                return
        sent = False

        async def replay() -> Any:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _plain(send: Any, status: int, detail: str) -> None:
    data = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})


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


def _client(request: Request | WebSocket) -> str:
    return request.client.host if request.client else "unknown"


# --- what the lobby does to one table (in a cluster: run by the process that owns it) -------


async def _op_record(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    return table.record()


async def _op_claim(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    return await server.claim(table.code, args.get("invite"), args.get("player"))


async def _op_join(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    return await server.join(table.code, args.get("seat"), args.get("player"))


async def _op_invite(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    return await server.reinvite(table, args.get("token"), args.get("seat"))


async def _op_rotate(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    return await server.rotate(table, args.get("token"))


async def _op_leave(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    seat = await server.seat_of(table, args.get("token"))
    try:
        await table.leave(seat)
    except Rejected as exc:
        raise LobbyError(409, exc.message) from None
    return {"seat": seat, "left": True}


async def _op_start(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    await server.seat_of(table, args.get("token"))
    try:
        await table.start()
    except Rejected as exc:
        raise LobbyError(503, exc.message) from None
    return table.record()


async def _op_replay(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    if table.status != "finished":
        raise LobbyError(
            409, "the match is not finished; its replay (with the seed) opens when it ends"
        )
    return await asyncio.get_running_loop().run_in_executor(
        server.work_pool, replays.replay_json, table
    )


async def _op_verify(server: TableServer, table: Table, args: dict[str, Any]) -> dict[str, Any]:
    return await asyncio.get_running_loop().run_in_executor(
        server.work_pool, replays.verify_json, table
    )


TableOp = Callable[[TableServer, Table, dict[str, Any]], Awaitable[dict[str, Any]]]
TABLE_OPS: dict[str, TableOp] = {
    "record": _op_record,
    "claim": _op_claim,
    "join": _op_join,
    "invite": _op_invite,
    "rotate": _op_rotate,
    "leave": _op_leave,
    "start": _op_start,
    "replay": _op_replay,
    "verify": _op_verify,
    **flow.OPS,  # rematch, hold, speed
    **players.OPS,  # issue 33 hook: sit
    **house.OPS,  # issue 33 hook: house (rated, turn timer)
}


async def on_table(server: TableServer, code: str, op: str, args: dict[str, Any]) -> dict[str, Any]:
    """Run a lobby operation on a table: here, or (in a cluster) on the process that owns it."""
    if server.cluster is not None:
        return await server.cluster.call(code, op, args)
    table = await server.get(code)
    return await TABLE_OPS[op](server, table, args)


class Collector:
    """The garbage collector's schedule for a long-running server (``ServerConfig.tune_gc``).

    Measured at 1,000 bench tables (``parlour.server.loopstats``, docs/server.md "Tail at 1,000
    tables"): with Python's generations the collector paused the whole server for 60–250 ms a
    few times a second-and-a-bit, and those pauses — not the tables' work — made the round trips'
    tail (a 100 ms pause at 78 % load leaves a backlog that takes a few hundred ms to drain).  A
    collection walks every object of the generation it collects that is still alive, and a card
    server's objects live about as long as a table's version (0.6–2.4 s here: the state, each
    seat's payload and the last payload sent on each connection, the bots' timers): whatever
    generation is collected about that often holds every table's current state, ~100 objects a
    table, so its pause grows with the number of tables.

    So:

    - what is loaded at start is frozen (never walked again; it lives as long as the process);
    - the young generation is collected every ``young`` allocations (a few ms each: only what
      was made since the last one);
    - the older generations are never collected by the interpreter (their thresholds are out
      of reach): objects that survive a young collection are freed by their reference counts
      as before, and only garbage *cycles* among them wait;
    - a full collection runs every ``full_every`` seconds on the event loop (its pause is that
      of one walk over everything: ~0.2–0.5 s at 1,000 tables), so cycles are never kept longer
      than that.
    """

    def __init__(self, young: int = GC_YOUNG, full_every: float = GC_FULL_EVERY) -> None:
        self.young = young
        self.full_every = full_every
        self._timer: asyncio.TimerHandle | None = None
        self._saved: tuple[int, int, int] | None = None
        #: full collections run and the objects they freed (for tests and the curious)
        self.full_runs = 0
        self.full_freed = 0

    def start(self) -> None:
        self._saved = gc.get_threshold()
        gc.collect()
        gc.freeze()
        # the older generations' thresholds out of reach: 2**30 young collections
        gc.set_threshold(self.young, 1 << 30, 1 << 30)
        if self.full_every > 0:
            self._timer = asyncio.get_running_loop().call_later(self.full_every, self._full)

    def _full(self) -> None:
        self.full_runs += 1
        self.full_freed += gc.collect()
        self._timer = asyncio.get_running_loop().call_later(self.full_every, self._full)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None


def create_app(
    storage: Storage | str | None = None,
    config: ServerConfig | None = None,
    cluster: ClusterConfig | None = None,
) -> FastAPI:
    """The app on a journal (a :class:`Storage` or its URL).  With ``cluster`` (PostgreSQL and
    Redis), this process is one of several serving the same tables (``parlour.server.cluster``)."""
    if cluster is not None:
        store = storage if isinstance(storage, Storage) else open_leased_storage(storage, cluster)
        server = TableServer(store, config)
        server.cluster = Cluster(server, cluster, run_session, TABLE_OPS)
    else:
        store = storage if isinstance(storage, Storage) else open_storage(storage)
        server = TableServer(store, config)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        switch = sys.getswitchinterval()
        if server.config.switch_interval is not None:
            sys.setswitchinterval(server.config.switch_interval)
        await server.startup()
        collector = None
        if server.config.tune_gc:
            collector = Collector(server.config.gc_young, server.config.gc_full_every)
            collector.start()
        monitor = None
        if server.config.loop_stats:
            monitor = LoopMonitor(server.config.loop_stats, server)
            monitor.start()
        yield
        if monitor is not None:
            monitor.stop()
        if collector is not None:
            collector.stop()
        await server.shutdown()
        sys.setswitchinterval(switch)

    app = FastAPI(
        title="Parlour table server",
        version=parlour.__version__ if hasattr(parlour, "__version__") else "0.1.0",
        description="Lobby and replays over HTTP; play over the WebSocket `/ws/{code}?seat=TOKEN` "
        "(see docs/protocol.md).",
        lifespan=lifespan,
    )
    app.state.server = server
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    app.add_middleware(GuardMiddleware, server=server)

    @app.exception_handler(LobbyError)
    async def lobby_error(request: Request, exc: LobbyError) -> JSONResponse:
        return JSONResponse({"detail": exc.message}, status_code=exc.status, headers=exc.headers)

    # --- pages ---------------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def index() -> Any:
        return _page("index.html")

    @app.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str) -> Any:
        return _page("table.html")

    @app.get("/replay/{code}", include_in_schema=False)
    async def replay_page(code: str) -> Any:
        return _page("replay.html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(FAVICON, media_type="image/svg+xml", headers=STATIC_CACHE)

    @app.get("/chicago", include_in_schema=False)
    async def chicago_page() -> Any:
        return _page("chicago.html")

    @app.get("/rules", include_in_schema=False)
    async def rules_index() -> Any:
        return RedirectResponse("/rules/samba")

    @app.get("/t/{code}/rules", include_in_schema=False)
    async def table_rules(code: str, request: Request) -> Any:
        """The rules page of a table's game (the table page links here)."""
        await server.limit("lookup", _client(request))
        try:
            table = await server.get(code)
        except LobbyError:
            return RedirectResponse("/rules/samba")
        name = table.entry.name if table.entry.name in rules_pages.PAGES else "samba"
        return RedirectResponse(f"/rules/{name}")

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules_page(game: str) -> Any:
        try:
            return HTMLResponse(rules_pages.html_page(game), headers=STATIC_CACHE)
        except rules_pages.NoRulesPage as exc:
            return HTMLResponse(
                "<!doctype html><html lang=en><meta charset=utf-8><title>No such page — Parlour"
                "</title><link rel=stylesheet href=/static/css/parlour.css><main class=page>"
                f"<h1>No such rules page</h1><p>{html.escape(str(exc))}</p>"
                "<p><a href='/rules/samba'>How to play</a> · <a href='/'>Lobby</a></p></main>",
                status_code=404,
            )

    if WEB_DIR.is_dir():
        app.mount("/static", CachedStatic(directory=WEB_DIR, check_dir=False), name="static")

    # --- lobby ---------------------------------------------------------------------------------

    @app.get("/api/info", summary="Protocol and server version")
    async def info() -> dict[str, Any]:
        return {
            "protocol": PROTOCOL,
            "server": "parlour",
            "version": app.version,
            "games": games.names(),
        }

    @app.get("/api/games", summary="Games, presets, options and bot levels")
    async def list_games() -> dict[str, Any]:
        return {"games": games_catalogue(server)}

    @app.post("/api/tables", status_code=201, summary="Create a table")
    async def create_table(req: CreateTable, request: Request) -> dict[str, Any]:
        await server.limit("create", _client(request))
        _, response = await server.create(
            req.game,
            req.preset,
            req.options,
            req.players,
            [s.model_dump() for s in req.seats] if req.seats is not None else None,
            req.claim,
            req.name,
            req.player,
            req.hints,
        )
        return response

    @app.get("/api/tables", summary="List tables (paginated)")
    async def list_tables(
        request: Request,
        status: Literal["open", "all"] = Query(
            "open", description="open: with a seat anyone may take"
        ),
        offset: int = Query(0, ge=0, le=1_000_000, description="skip this many tables"),
        limit: int = Query(50, ge=1, le=200, description="at most this many tables"),
    ) -> dict[str, Any]:
        await server.limit("lookup", _client(request))
        limit = min(limit, server.config.list_limit)
        if server.cluster is not None:
            return await server.cluster.list(status, offset, limit)
        return server.list(status, offset, limit)

    @app.get("/api/tables/{code}", summary="One table")
    async def get_table(code: str, request: Request) -> dict[str, Any]:
        await server.limit("lookup", _client(request))
        return await on_table(server, code, "record", {})

    @app.post("/api/tables/{code}/claim", summary="Open an invite: a fresh seat token")
    async def claim(code: str, req: ClaimRequest, request: Request) -> dict[str, Any]:
        await server.limit("join", _client(request))
        return await on_table(server, code, "claim", {"invite": req.invite, "player": req.player})

    @app.post("/api/tables/{code}/join", summary="Take an open seat by table code")
    async def join(code: str, request: Request, req: JoinRequest | None = None) -> dict[str, Any]:
        await server.limit("join", _client(request))
        args = {"seat": req.seat if req else None, "player": req.player if req else None}
        return await on_table(server, code, "join", args)

    @app.post("/api/tables/{code}/invite", summary="A new one-time invite for a seat")
    async def reinvite(code: str, req: InviteRequest, request: Request) -> dict[str, Any]:
        await server.limit("join", _client(request))
        return await on_table(server, code, "invite", {"token": req.token, "seat": req.seat})

    @app.post("/api/tables/{code}/rotate", summary="A new token for your seat")
    async def rotate(code: str, req: TokenRequest, request: Request) -> dict[str, Any]:
        await server.limit("join", _client(request))
        return await on_table(server, code, "rotate", {"token": req.token})

    @app.post("/api/tables/{code}/leave", summary="Give up a seat for good (a bot plays it)")
    async def leave(code: str, req: TokenRequest, request: Request) -> dict[str, Any]:
        await server.limit("join", _client(request))
        return await on_table(server, code, "leave", {"token": req.token})

    @app.post("/api/tables/{code}/start", summary="Start now; bots fill the free seats")
    async def start(code: str, req: TokenRequest, request: Request) -> dict[str, Any]:
        await server.limit("join", _client(request))
        return await on_table(server, code, "start", {"token": req.token})

    @app.get("/api/tables/{code}/replay", summary="A finished match, step by step")
    async def replay(code: str, request: Request) -> dict[str, Any]:
        await server.limit("lookup", _client(request))
        return await on_table(server, code, "replay", {})

    @app.get("/api/tables/{code}/verify", summary="Check the revealed deals")
    async def verify(code: str, request: Request) -> dict[str, Any]:
        await server.limit("lookup", _client(request))
        return await on_table(server, code, "verify", {})

    replays.add_chicago(app)
    flow.add_flow(app, server, _client)
    # --- issue 33 hook: players, house settings, pages ---
    players.add_routes(app, server, _client)
    house.add_routes(app, server, _client)
    ratings.add_routes(app, server, _client)

    # --- play ----------------------------------------------------------------------------------

    @app.websocket("/ws/{code}")
    async def play(
        ws: WebSocket,
        code: str,
        seat: str | None = None,
        contrib: str | None = None,
        deltas: str | None = None,
    ) -> None:
        host, origin = ws.headers.get("host"), ws.headers.get("origin")
        if not server.origins.host_ok(host) or not server.origins.origin_ok(origin, host):
            WS_DENIED.set(True)
            await ws.send_denial_response(
                JSONResponse(
                    {"detail": "pages of another site may not open this table"}, status_code=403
                )
            )
            return
        wait = await server.rate_wait("lookup", _client(ws))
        if wait > 0:
            retry = str(max(1, int(wait + 0.999)))
            WS_DENIED.set(True)
            await ws.send_denial_response(
                JSONResponse(
                    {"detail": f"too many connections from your address; try again in {retry} s"},
                    status_code=429,
                    headers={"Retry-After": retry},
                )
            )
            return
        await ws.accept()
        transport = WsTransport(ws)
        wants = deltas == "1"
        if server.cluster is not None:
            await server.cluster.serve_socket(transport, code, seat, contrib, deltas=wants)
        else:
            await run_session(server, transport, code, seat, contrib, deltas=wants)

    return app


class Transport(Protocol):
    """Where a player's messages come from and go to: a WebSocket, or a connection served
    through another process (:mod:`parlour.server.cluster`)."""

    async def receive(self) -> str | None:
        """The next client message (``None``: the client is gone)."""
        ...

    async def send_text(self, text: str) -> None: ...

    async def close(self, code: int, reason: str = "") -> None: ...


#: the scope key under which ``GuardMiddleware`` leaves uvicorn's WebSocket protocol object
WS_PROTOCOL = "parlour.ws_protocol"


def sansio_protocol(protocol: Any) -> bool:
    """Is this uvicorn's ``websockets-sansio`` WebSocket protocol (what ``ws="auto"`` picks
    when websockets is installed), whose ``send`` of a text is synchronous once the socket is
    writable?  Only then does :meth:`WsTransport.send_now` write by itself."""
    if protocol is None:
        return False
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    except ImportError:  # pragma: no cover - another uvicorn
        return False
    return type(protocol) is WebSocketsSansIOProtocol and all(
        hasattr(protocol, name)
        for name in (
            "conn",
            "transport",
            "writable",
            "handshake_complete",
            "close_sent",
            "disconnected",
            "initial_response",
        )
    )


class WsTransport:
    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        protocol = ws.scope.get(WS_PROTOCOL)
        self._protocol = protocol if sansio_protocol(protocol) else None
        #: :meth:`send_now`, or ``None`` when this socket is not served by the sans-I/O protocol
        self.direct: Callable[[str], bool] | None = self.send_now if self._protocol else None

    def send_now(self, text: str) -> bool:
        """Write one text frame now, the way uvicorn's ``send`` does it (frame it with the
        connection's websockets ``ServerProtocol``, one ``transport.write``), without the ASGI
        layers or a task; ``False`` (nothing written) unless the socket is open and writable.

        ``send`` awaits only ``writable`` (set unless the transport's buffer is over its high
        mark) and then writes without awaiting, so when ``writable`` is set, writing here is
        what the sender task would have done, minus the task's wake-up, and nothing is written
        twice: a text either goes here or is queued for the sender, never both.  Order is kept by
        the caller (``Connection.send_text``: only while its queue is empty and its sender is not
        sending).  A socket that is paused, closing or closed gets ``False``, so its messages
        take the queue and the sender's timeout as before."""
        p = self._protocol
        if (
            p is None
            or self.ws.application_state is not WebSocketState.CONNECTED
            or not p.handshake_complete
            or p.close_sent
            or p.disconnected
            or p.initial_response is not None
            or not p.writable.is_set()
            or p.transport.is_closing()
        ):
            return False
        try:
            data = text.encode()
        except UnicodeEncodeError:  # never expected (encode() escapes surrogates): the queue's way
            return False
        try:
            p.conn.send_text(data)
        except InvalidState:  # closing: nothing was framed; the queue's way ends in the close
            return False
        try:
            p.transport.write(b"".join(p.conn.data_to_send()))
        except Exception:  # a transport gone under us: the frame is lost with it, and the
            return False  # queued copy's send fails and closes the connection as before
        return True

    async def receive(self) -> str | None:
        msg = await self.ws.receive()
        if msg["type"] == "websocket.disconnect":
            return None
        raw = msg.get("text")
        if raw is None and msg.get("bytes") is not None:
            raw = msg["bytes"].decode("utf-8", errors="replace")
        return raw or ""

    async def send_text(self, text: str) -> None:
        await self.ws.send_text(text)

    async def close(self, code: int, reason: str = "") -> None:
        await self.ws.close(code=code, reason=reason or None)


async def refuse(transport: Transport, exc: LobbyError) -> None:
    """A table that cannot be opened: the error, then the close (4404, 4410, 4503, …)."""
    kind = {410: "gone", 503: "unavailable"}.get(exc.status, "no_table")
    await transport.send_text(encode({"type": "error", "code": kind, "message": exc.message}))
    await transport.close(4000 + exc.status if exc.status < 1000 else 4404)


async def run_session(
    server: TableServer,
    transport: Transport,
    code: str,
    seat: str | None,
    contrib: str | None,
    table: Table | None = None,
    *,
    deltas: bool = False,
) -> None:
    """Serve one player's (or spectator's) connection to a table until it ends (``deltas``: the
    client asked for ``state`` deltas)."""
    if table is None:
        try:
            table = await server.get(code)
        except LobbyError as exc:
            await refuse(transport, exc)
            return
    seat_no: int | None = None
    bad_token = False
    if seat:
        seat_no = table.seat_for_token(seat)
        bad_token = seat_no is None
    cfg = server.config
    conn = Connection(
        seat_no,
        table.resync_text,
        max_messages=cfg.send_queue_messages,
        max_bytes=cfg.send_queue_bytes,
        deltas=deltas,
    )
    conn.direct = getattr(transport, "direct", None)
    sender = asyncio.create_task(_sender(transport, conn, cfg.send_timeout))
    receiver: asyncio.Task[None] | None = None
    try:
        contrib_error = None
        if seat_no is not None and contrib is not None and table.status == "waiting":
            try:
                await table.contribute(seat_no, contrib)
            except Rejected as exc:
                contrib_error = exc
        conn.send(
            {
                "type": "welcome",
                "protocol": PROTOCOL,
                "code": table.code,
                "seat": seat_no,
                "spectator": seat_no is None,
                "game": table.entry.name,
                "preset": table.meta.preset,
                "rules": table.meta.rules,
                "players": table.players,
                "table": table.record(),
            }
        )
        if bad_token:
            conn.send(
                {
                    "type": "error",
                    "code": "bad_token",
                    "message": "that seat token is not valid at this table (wrong link, or "
                    "the player left); you are watching as a spectator",
                    "version": table.version,
                }
            )
        if contrib_error is not None:
            _error(conn, table, contrib_error.code, contrib_error.message)
        changed = table.attach(conn)
        conn.send(table.state_message(conn, full=True))
        await table.connected(conn, changed)
        receiver = asyncio.create_task(_receive(transport, server, table, conn))
        await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
    except WebSocketDisconnect:
        pass
    finally:
        if receiver is not None and not receiver.done():
            receiver.cancel()
            with contextlib.suppress(BaseException):
                await receiver
        await table.disconnect(conn)
        conn.close()
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(sender, timeout=2)
        if not sender.done():
            sender.cancel()


async def _receive(
    transport: Transport, server: TableServer, table: Table, conn: Connection
) -> None:
    """Read client messages until the socket closes; one bad message never ends it."""
    while True:
        raw = await transport.receive()
        if raw is None:
            return
        try:
            await _handle(server, table, conn, raw)
        except Exception:  # one bad message must not drop the connection
            log.exception("table %s: message failed", table.code)
            _error(conn, table, "server_error", "the server failed on that message")


class _Watchdog:
    """Closes the connections whose message has waited too long for its socket.

    One timer per second for the whole process instead of a timeout per message sent (a
    ``wait_for`` task, or an ``asyncio.timeout`` timer, on every message was a few per cent of
    the server's time): a sender notes when its message started waiting
    (``Connection.sending_since``), and a message still waiting ``timeout`` seconds later gets
    its sender cancelled."""

    def __init__(self) -> None:
        self.senders: dict[asyncio.Task[None], tuple[Connection, float]] = {}
        self.timer: asyncio.TimerHandle | None = None
        self.overdue: set[asyncio.Task[None]] = set()

    @staticmethod
    def of(loop: asyncio.AbstractEventLoop) -> _Watchdog:
        dog = _watchdogs.get(loop)
        if dog is None:
            dog = _watchdogs[loop] = _Watchdog()
        return dog

    def add(self, task: asyncio.Task[None], conn: Connection, timeout: float) -> None:
        self.senders[task] = (conn, timeout)
        if self.timer is None:
            self.timer = asyncio.get_running_loop().call_later(min(1.0, timeout), self._check)

    def remove(self, task: asyncio.Task[None]) -> None:
        self.senders.pop(task, None)
        self.overdue.discard(task)

    def _check(self) -> None:
        self.timer = None
        if not self.senders:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        for task, (conn, timeout) in list(self.senders.items()):
            since = conn.sending_since
            if since is not None and now - since > timeout and task not in self.overdue:
                self.overdue.add(task)
                task.cancel()
        self.timer = loop.call_later(min(1.0, *(t for _, t in self.senders.values())), self._check)


_watchdogs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Watchdog] = (
    weakref.WeakKeyDictionary()
)


async def _sender(transport: Transport, conn: Connection, timeout: float) -> None:
    """Send the connection's messages; a socket that cannot take one within ``timeout`` seconds
    (its client is not reading) or fails in any way is closed with a reason."""
    reason = ""
    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()
    watchdog = _Watchdog.of(loop)
    watchdog.add(task, conn, timeout)
    try:
        while True:
            text = await conn.next()
            if text is None:
                reason = conn.close_reason
                break
            conn.sending_since = loop.time()
            try:
                await transport.send_text(text)
            except asyncio.CancelledError:
                if task not in watchdog.overdue:
                    raise
                task.uncancel()
                reason = f"too slow: a message waited over {timeout:g} s to be read"
                break
            except UnicodeEncodeError:  # never expected: encode() escapes surrogates
                await asyncio.wait_for(
                    transport.send_text(text.encode("utf-8", "replace").decode()), timeout
                )
            conn.sending_since = None
    except Exception as exc:
        reason = f"send failed: {type(exc).__name__}"
    finally:
        conn.sending_since = None
        watchdog.remove(task)
    conn.close(reason)
    if reason:
        log.info("closing a connection: %s", reason)
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(transport.close(4008, reason[:120]), 1.0)


def _error(conn: Connection, table: Any, code: str, message: str, request: Any = None) -> None:
    out: dict[str, Any] = {
        "type": "error",
        "code": code,
        "message": message,
        "version": table.version,
    }
    if isinstance(request, dict):
        out["request"] = request
        if "id" in request:
            out["id"] = request["id"]
    conn.send(out)


async def _handle(server: TableServer, table: Table, conn: Connection, raw: str) -> None:
    started = time.perf_counter()
    limit = server.config.max_message
    size = len(raw.encode("utf-8", "surrogatepass"))
    if size > limit:
        _error(conn, table, "too_large", f"message of {size} bytes; the limit is {limit}")
        return
    try:
        msg = parse_json(raw)
    except BadInput as exc:
        _error(conn, table, exc.code, exc.message)
        return
    if not isinstance(msg, dict):
        _error(conn, table, "bad_json", "a message must be a JSON object with a 'type'")
        return
    kind = msg.get("type")
    if kind not in CLIENT_TYPES:
        _error(
            conn,
            table,
            "unknown_type",
            f"unknown message type {str(kind)[:40]!r}; expected one of {', '.join(CLIENT_TYPES)}",
            msg,
        )
        return
    if kind == "ping":
        conn.send({"type": "pong", "t": msg.get("t")})
        return
    if kind == "sync":
        conn.send(table.state_message(conn, full=True))
        return
    if kind in chat.TYPES:  # --- issue 33 hook: table chat ---
        try:
            await chat.handle(server, table, conn, kind, msg)
        except chat.ChatRefused as exc:
            _error(conn, table, exc.code, exc.message, msg)
        return
    if kind in ("hint", "review"):
        try:
            if kind == "hint":
                await table.hint(conn)
            else:
                table.send_review(conn)
        except Rejected as exc:
            _error(conn, table, exc.code, exc.message, msg)
        return
    if kind in ("start", "contribute"):
        if conn.seat is None:
            _error(conn, table, "spectator", f"spectators cannot {kind}", msg)
            return
        try:
            if kind == "start":
                await table.start()
            else:
                await table.contribute(conn.seat, msg.get("value"))
        except Rejected as exc:
            _error(conn, table, exc.code, exc.message, msg)
        return
    # an action
    if "seat" in msg and msg["seat"] != conn.seat:
        _error(
            conn,
            table,
            "not_your_seat",
            f"this connection plays seat {conn.seat}; it cannot act for seat "
            f"{json.dumps(msg['seat'])[:20]}",
            msg,
        )
        return
    try:
        await table.submit(
            conn.seat,
            msg.get("version"),
            msg.get("action"),
            reply_to=conn,
            request_id=msg.get("id"),
        )
        # read → checked, journaled, applied, its state queued for this socket
        server.action_took(time.perf_counter() - started)
    except Rejected as exc:
        _error(conn, table, exc.code, exc.message, msg)
        if exc.code == "stale_version":
            conn.send(table.state_message(conn))
    except Exception:
        log.exception("table %s: action failed", table.code)
        _error(conn, table, "server_error", "the server could not apply the action", msg)
