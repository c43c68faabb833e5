"""The FastAPI application: lobby over HTTP, play over WebSockets, the static browser client.

``create_app(storage_url, config)`` builds it; ``parlour serve`` runs it with uvicorn.  The wire
protocol is documented in ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import sys
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

from fastapi import FastAPI, Request
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import (
    JSONResponse,
)

import parlour
from parlour import i18n
from parlour.core.said import N_, Said
from parlour.core.text import tell
from parlour.i18n.web import router as i18n_routes
from parlour.server import (
    GC_FULL_EVERY,
    GC_YOUNG,
    flowroutes,
    house,
    players_routes,
    ratings,
    replays,
)
from parlour.server.cluster import Cluster, ClusterConfig, open_leased_storage
from parlour.server.config import ServerConfig
from parlour.server.errors import LobbyError
from parlour.server.guard import BadInput, parse_json
from parlour.server.guard import client_address as _client
from parlour.server.lobby import TableServer
from parlour.server.loopstats import LoopMonitor
from parlour.server.routes_pages import CachedStatic, page_routes
from parlour.server.routes_play import play_routes
from parlour.server.routes_tables import TABLE_OPS, table_routes
from parlour.server.session import WS_PROTOCOL, run_session, sansio_protocol
from parlour.server.storage import Storage, open_storage
from parlour.server.webpages import WEB_DIR

log = logging.getLogger("parlour.server")
T = TypeVar("T")


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
            await _plain(
                send, 400, N_("unknown Host: this server answers only its own address"), headers
            )
            return
        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        if not policy.origin_ok(headers.get("origin"), headers.get("host")):
            await _plain(send, 403, N_("requests from pages of another site are refused"), headers)
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
                await _plain(
                    send,
                    413,
                    N_("the request body is over {limit} bytes", limit=limit),
                    headers,
                )
                return
        if body and scope["path"].startswith("/api/"):
            try:
                parse_json(bytes(body), unique_keys=True)
            except BadInput as exc:
                await _plain(send, 400, exc.message, headers)
                return
        sent = False

        async def replay() -> Any:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _plain(send: Any, status: int, detail: str, headers: dict[str, str]) -> None:
    """A refusal before any route: ``detail`` told in the request's ``Accept-Language``."""
    lang = i18n.from_accept_language(headers.get("accept-language"))
    data = json.dumps({"detail": tell(detail, i18n.messages(lang))}).encode()
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
        # issue 33: matches that finished just before a stop get their history row now
        catching_up = asyncio.get_running_loop().create_task(ratings.catch_up(server))
        collector = None
        if server.config.tune_gc:
            collector = Collector(server.config.gc_young, server.config.gc_full_every)
            collector.start()
        monitor = None
        if server.config.loop_stats:
            monitor = LoopMonitor(server.config.loop_stats, server)
            monitor.start()
        yield
        catching_up.cancel()
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
        detail = _told(exc.message, request)
        return JSONResponse({"detail": detail}, status_code=exc.status, headers=exc.headers)

    app.include_router(page_routes(server))
    app.include_router(i18n_routes)  # issue 34: /i18n/<lang>.json, the catalogs for the browser
    if WEB_DIR.is_dir():
        app.mount("/static", CachedStatic(directory=WEB_DIR, check_dir=False), name="static")
    app.include_router(table_routes(server, app.version))

    async def work(fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(server.work_pool, fn, *args)

    async def limit(kind: str, request: Request) -> None:
        await server.limit(kind, _client(request))

    replays.add_chicago(app, work, limit)
    flowroutes.add_flow(app, server, _client)
    # --- issue 33 hook: players, house settings, pages ---
    players_routes.add_routes(app, server, _client)
    house.add_routes(app, server, _client)
    ratings.add_routes(app, server, _client)

    app.include_router(play_routes(server))

    return app


def _told(message: str, request: Request) -> str:
    """A refusal made of a catalog message, told in the caller's ``Accept-Language`` (issue 34:
    the pages send the language their reader picked); any other text as it is."""
    if not isinstance(message, Said):
        return message
    return tell(
        message, i18n.messages(i18n.from_accept_language(request.headers.get("accept-language")))
    )
