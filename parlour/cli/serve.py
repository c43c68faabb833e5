"""``parlour serve``: run the table server (lobby, tables, bots) and print the URL to open."""

from __future__ import annotations

import importlib
import logging
from typing import Annotated

import typer

from parlour.cli import app
from parlour.cli.common import console, fail


def register_game_modules(modules: list[str]) -> None:
    """Import extra game modules (each with an ``ENTRY``) and register them (plug-in games)."""
    from parlour import games

    for name in modules:
        try:
            module = importlib.import_module(name)
            games.register(module.ENTRY, f"--game-module {name}")
        except (ImportError, AttributeError) as exc:
            raise fail(f"--game-module {name}: {exc}") from None


@app.command()
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
    hint_seconds: Annotated[
        float, typer.Option(help="seconds the search thinks for one hint (off the event loop)")
    ] = 1.0,
    review_seconds: Annotated[
        float, typer.Option(help="seconds of search per decision in a post-hand review")
    ] = 0.25,
) -> None:
    """Run the table server: open the printed URL, start a table, share the link, play."""
    import uvicorn

    from parlour.server.app import create_app
    from parlour.server.guard import OriginPolicy, install_log_redaction
    from parlour.server.lobby import ServerConfig
    from parlour.server.storage import StorageError, open_storage

    if game_module:
        register_game_modules(game_module)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if durability not in ("normal", "full"):
        raise fail(f"--durability must be normal or full, not {durability!r}")
    try:
        storage = open_storage(db, durability=durability if durability != "normal" else None)
    except StorageError as exc:
        raise fail(str(exc)) from None
    origins = OriginPolicy.for_bind(host, allow_origin or ())
    config = ServerConfig(
        bot_delay=bot_delay,
        grace=grace,
        waiting_expiry=waiting_expiry * 3600.0,
        rate_limits=None if rate_limit else {},
        allowed_hosts=None if any_host else origins.hosts,
        allow_origins=tuple(allow_origin or ()),
        hint_seconds=hint_seconds,
        review_seconds=review_seconds,
    )
    application = create_app(storage, config)
    server = uvicorn.Server(
        uvicorn.Config(
            application,
            host=host,
            port=port,
            log_level=log_level,
            ws_max_size=1024 * 1024,
            lifespan="on",
        )
    )

    install_log_redaction()  # after uvicorn configured its loggers: no seat token in a log line

    original_startup = server.startup

    async def startup(sockets: list | None = None) -> None:  # type: ignore[type-arg]
        await original_startup(sockets=sockets)
        bound = port
        for s in server.servers:
            for sock in s.sockets:
                bound = sock.getsockname()[1]
        shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
        console.print(f"Parlour is serving at [bold]http://{shown}:{bound}/[/]", highlight=False)
        console.print(f"journal: {storage.url}", highlight=False)
        console.file.flush()

    server.startup = startup  # type: ignore[method-assign]
    server.run()
