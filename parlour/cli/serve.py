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

    games.names()  # load the built-in games first
    for name in modules:
        try:
            module = importlib.import_module(name)
            games._registry.register(module.ENTRY)
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
) -> None:
    """Run the table server: open the printed URL, start a table, share the link, play."""
    import uvicorn

    from parlour.server.app import create_app
    from parlour.server.lobby import ServerConfig
    from parlour.server.storage import StorageError, open_storage

    if game_module:
        register_game_modules(game_module)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        storage = open_storage(db)
    except StorageError as exc:
        raise fail(str(exc)) from None
    config = ServerConfig(bot_delay=bot_delay, grace=grace)
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
