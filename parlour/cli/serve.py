"""``parlour serve``: run the table server (lobby, tables, bots) and print the URL to open."""

from __future__ import annotations

import importlib
import importlib.util
import json
import logging
import os
from typing import Annotated, Any

import typer
from rich.markup import escape

from parlour.cli.base import app
from parlour.cli.common import console, fail, words
from parlour.core.said import N_
from parlour.server import GC_FULL_EVERY, GC_YOUNG

#: ``--header-timeout``'s default (``parlour.server.headtimeout.HEAD_TIMEOUT``; here so that
#: ``serve --help`` does not import uvicorn)
HEAD_TIMEOUT = 10.0

SETTINGS_ENV = "PARLOUR_SERVE_SETTINGS"


def build_app(settings: dict[str, Any]) -> tuple[Any, Any]:
    """The app (and its journal) for the settings ``serve`` was given."""
    from parlour.server.app import create_app
    from parlour.server.cluster import ClusterConfig, open_leased_storage
    from parlour.server.config import ServerConfig
    from parlour.server.guard import OriginPolicy
    from parlour.server.storage import Storage, open_storage

    if settings["game_module"]:
        register_game_modules(settings["game_module"])
    db, durability = settings["db"], settings["durability"]
    young = int(settings.get("gc_young", GC_YOUNG))
    cluster = None
    storage: Storage
    if settings.get("redis"):
        cluster = ClusterConfig(redis=settings["redis"], lease_ttl=float(settings["lease_ttl"]))
        storage = open_leased_storage(db, cluster)
    else:
        storage = open_storage(db, durability=durability if durability != "normal" else None)
    allow_origin = tuple(settings["allow_origin"])
    origins = OriginPolicy.for_bind(settings["host"], allow_origin)
    config = ServerConfig(
        bot_delay=settings["bot_delay"],
        grace=settings["grace"],
        waiting_expiry=settings["waiting_expiry"] * 3600.0,
        rate_limits=None if settings["rate_limit"] else {},
        allowed_hosts=None if settings["any_host"] else origins.hosts,
        allow_origins=allow_origin,
        bot_processes=int(settings.get("bot_processes", 1)),
        hint_seconds=float(settings.get("hint_seconds", 1.0)),
        review_seconds=float(settings.get("review_seconds", 0.25)),
        # --gc-young 0: the interpreter's own collector schedule, untouched
        tune_gc=young > 0,
        gc_young=young,
        gc_full_every=float(settings.get("gc_full_every", GC_FULL_EVERY)),
        loop_stats=os.environ.get("PARLOUR_LOOP_STATS") or None,
        switch_interval=0.0005,
    )
    return create_app(storage, config, cluster), storage


def app_from_env() -> Any:
    """The app of one worker of ``parlour serve --workers N`` (settings in the environment)."""
    from parlour.server.guard import install_log_redaction

    application, _ = build_app(json.loads(os.environ[SETTINGS_ENV]))
    install_log_redaction()
    return application


def _installed(module: str) -> bool:
    """Whether an optional client library (an extra) can be imported."""
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


def register_game_modules(modules: list[str]) -> None:
    """Import extra game modules (each with an ``ENTRY``) and register them (plug-in games)."""
    from parlour import games

    for name in modules:
        try:
            module = importlib.import_module(name)
            games.register(module.ENTRY, f"--game-module {name}")
        except (ImportError, AttributeError) as exc:
            raise fail(f"--game-module {name}: {exc}") from None


@app.command(
    short_help=N_("Run the table server: open the printed URL, start a table, share the link.")
)
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port (0: any free port)")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="journal database: sqlite:///path/file.db or postgresql://user@host/db "
            "(default: parlour.db in the user data directory)"
        ),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(help="seconds a bot waits before playing, so people can follow")
    ] = 0.6,
    grace: Annotated[
        float, typer.Option(help="seconds before a bot stands in for a disconnected player")
    ] = 30.0,
    game_module: Annotated[
        list[str] | None,
        typer.Option(help="extra game module to register (has an ENTRY); repeatable"),
    ] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "warning",
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            help="another address browsers may use to reach this server, e.g. "
            "https://cards.example.org (behind a proxy); repeatable"
        ),
    ] = None,
    any_host: Annotated[
        bool,
        typer.Option(
            "--any-host",
            help="answer any Host header (only behind a proxy that checks it); default: only the "
            "address served on",
        ),
    ] = False,
    durability: Annotated[
        str,
        typer.Option(
            help="SQLite: normal (a killed process loses nothing committed) or full (also "
            "survives power loss; an fsync per move)"
        ),
    ] = "normal",
    waiting_expiry: Annotated[
        float, typer.Option(help="hours after which a table nobody started expires")
    ] = 24.0,
    rate_limit: Annotated[
        bool,
        typer.Option(
            "--rate-limit/--no-rate-limit",
            help="limit table creation, joins and look-ups per client address",
        ),
    ] = True,
    redis: Annotated[
        str | None,
        typer.Option(
            help="redis://host:6379/0 — join the other server processes on the same "
            "PostgreSQL journal (needs --db postgresql://…; see docs/deploy.md)"
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            help="server processes sharing this port (more than 1 needs --db postgresql://… "
            "and --redis)",
            min=1,
        ),
    ] = 1,
    lease_ttl: Annotated[
        float,
        typer.Option(
            help="with --redis: seconds before the tables of a process that stopped answering "
            "are taken over by another"
        ),
    ] = 3.0,
    bot_processes: Annotated[
        int,
        typer.Option(
            help="worker processes that run the searching bots, so a long search never holds "
            "the interpreter the tables need (0: threads of the server process; random and "
            "basic play on the event loop either way)",
            min=0,
        ),
    ] = 1,
    hint_seconds: Annotated[
        float, typer.Option(help="seconds the search thinks for one hint (off the event loop)")
    ] = 1.0,
    review_seconds: Annotated[
        float, typer.Option(help="seconds of search per decision in a post-hand review")
    ] = 0.25,
    gc_young: Annotated[
        int,
        typer.Option(
            envvar="PARLOUR_GC_YOUNG",
            help="garbage collector: allocations between two collections of the young objects; "
            "what is loaded at start is frozen and the older generations are collected only by "
            "the server's own full collection (--gc-full-every). 0: Python's default schedule",
            min=0,
        ),
    ] = GC_YOUNG,
    gc_full_every: Annotated[
        float,
        typer.Option(
            envvar="PARLOUR_GC_FULL_EVERY",
            help="garbage collector: seconds between two full collections (they free the "
            "reference cycles among older objects)",
            min=1.0,
        ),
    ] = GC_FULL_EVERY,
    ws_compression: Annotated[
        bool,
        typer.Option(
            help="compress WebSocket messages (permessage-deflate, on by default): a whole Samba "
            "match is ~7x fewer bytes for a player; --no-ws-compression saves a few per cent of "
            "the server's CPU"
        ),
    ] = True,
    header_timeout: Annotated[
        float,
        typer.Option(
            help="seconds a client has to send a request's line and headers (then 408 and the "
            "connection is closed); an idle connection between requests is closed after "
            "--keep-alive seconds",
            min=0.1,
        ),
    ] = HEAD_TIMEOUT,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            envvar="FORWARDED_ALLOW_IPS",
            help="addresses (comma-separated; networks as 10.0.0.0/8) of the proxies whose "
            "X-Forwarded-For names the client (its rate limits are counted by that address); "
            "from anyone else the header is ignored. Give only your proxy's address: '*' lets "
            "every client choose its own address and so escape the rate limits",
        ),
    ] = "127.0.0.1,::1",
    keep_alive: Annotated[
        int,
        typer.Option(help="seconds an idle HTTP connection stays open between two requests"),
    ] = 5,
) -> None:
    """Run the table server: open the printed URL, start a table, share the link, play."""
    import uvicorn

    from parlour.server import sole
    from parlour.server.guard import install_log_redaction
    from parlour.server.headtimeout import ENV as HEAD_ENV
    from parlour.server.headtimeout import HTTP_PROTOCOL
    from parlour.server.storage import StorageError

    if durability not in ("normal", "full"):
        raise fail(f"--durability must be normal or full, not {durability!r}")
    is_pg = bool(db) and str(db).startswith(("postgresql://", "postgres://"))
    if redis is not None and not is_pg:
        raise fail("--redis joins processes on one PostgreSQL journal: give --db postgresql://…")
    # the clients of PostgreSQL and Redis are extras: say which to install, not a traceback
    if is_pg and not _installed("psycopg"):
        raise fail(
            "--db postgresql://… needs the PostgreSQL client: uv sync --extra postgres "
            "(or pip install 'parlour[postgres]')"
        )
    if redis is not None and not _installed("redis"):
        raise fail(
            "--redis needs the Redis client: uv sync --extra scale (or pip install 'parlour[scale]')"
        )
    if workers > 1 and (redis is None or not is_pg):
        raise fail(
            "--workers above 1 needs --db postgresql://… and --redis redis://… (the processes "
            "share the tables through them); SQLite serves one process"
        )
    settings = {
        "db": db,
        "durability": durability,
        "host": host,
        "bot_delay": bot_delay,
        "grace": grace,
        "waiting_expiry": waiting_expiry,
        "rate_limit": rate_limit,
        "any_host": any_host,
        "allow_origin": list(allow_origin or ()),
        "game_module": list(game_module or ()),
        "redis": redis,
        "lease_ttl": lease_ttl,
        "bot_processes": bot_processes,
        "hint_seconds": hint_seconds,
        "review_seconds": review_seconds,
        "gc_young": gc_young,
        "gc_full_every": gc_full_every,
    }
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    os.environ[HEAD_ENV] = str(header_timeout)  # read by each connection (and by the workers)
    served: dict[str, Any] = {  # uvicorn's settings, one process or several
        "host": host,
        "port": port,
        "log_level": log_level,
        "ws_max_size": 1024 * 1024,
        "http": HTTP_PROTOCOL,
        "forwarded_allow_ips": forwarded_allow_ips,
        "timeout_keep_alive": keep_alive,
        "ws_per_message_deflate": ws_compression,
        "lifespan": "on",
        # open sockets get 5 s to close on SIGTERM, then the server stops anyway
        "timeout_graceful_shutdown": 5,
    }
    if workers > 1:
        # the processes of a cluster share the journal's lock; a lone server holds it alone
        try:
            held = sole.hold(str(db), shared=True)
        except StorageError as exc:
            raise fail(str(exc)) from None
        # each worker builds its own app (its own journal pool, bus connection and node name)
        os.environ[SETTINGS_ENV] = json.dumps(settings)
        shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
        console.print(
            words()
            .gettext("Parlour is serving at [bold]{url}[/] with {count} processes")
            .format(url=f"http://{shown}:{port}/", count=workers),
            highlight=False,
        )
        console.file.flush()
        uvicorn.run("parlour.cli.serve:app_from_env", factory=True, workers=workers, **served)
        if held is not None:
            held.release()
        return
    try:
        application, storage = build_app(settings)
    except StorageError as exc:
        raise fail(str(exc)) from None
    try:
        application.state.sole_lock = sole.hold(storage.url, shared=redis is not None)
    except StorageError as exc:
        storage.close()
        raise fail(str(exc)) from None
    server = uvicorn.Server(uvicorn.Config(application, **served))

    install_log_redaction()  # after uvicorn configured its loggers: no seat token in a log line

    original_startup = server.startup

    async def startup(sockets: list | None = None) -> None:  # type: ignore[type-arg]
        await original_startup(sockets=sockets)
        bound = port
        for s in server.servers:
            for sock in s.sockets:
                bound = sock.getsockname()[1]
        shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
        t = words()  # the terminal's language (LANG …), as the other commands
        console.print(
            t.gettext("Parlour is serving at [bold]{url}[/]").format(
                url=f"http://{shown}:{bound}/"
            ),
            highlight=False,
        )
        console.print(
            escape(t.gettext("journal: {journal}").format(journal=storage.url)), highlight=False
        )
        console.file.flush()

    server.startup = startup  # type: ignore[method-assign]
    server.run()
