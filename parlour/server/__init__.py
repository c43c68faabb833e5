"""The table server: lobby over HTTP, play over WebSockets, the journal, bots in empty seats.

- ``app``        the FastAPI application (``create_app``): middleware, routers, lifespan
- ``routes_pages``  the HTML pages (a FastAPI router) and the static files' cache policy
- ``routes_tables`` the lobby and seat calls over HTTP (a router) and what each does to a table
- ``routes_play``   the WebSocket route a player or a spectator plays through
- ``session``    one WebSocket: each client message parsed and handled, the send queue
- ``lobby``      creating, listing, joining and loading tables (``TableServer``)
- ``config``     the server's settings (``ServerConfig``) and the bot levels offered
- ``errors``     the server's errors, at the bottom of the package
- ``table``      one table: seats and tokens, the journaled state, connections, bots
- ``flow``       what a table reads of its flow: rematch, holds while a score sheet is read, speed
- ``flowroutes`` the flow's HTTP calls: rematch, hold, speed
- ``redact``     what each connection may see (its own view, its legal actions, visible events)
- ``deals``      deal-seed commitments and reveals, and checking deals again
- ``replays``    finished matches as step-by-step replays; the Chicago score sheet endpoint
- ``guard``      strict JSON, rate limits, origins and logs between strangers and the tables
- ``headtimeout`` uvicorn's HTTP protocols with a deadline for a request's headers
- ``sole``       one server per journal (a lock), unless the processes share it through Redis
- ``fairshare``  the bot worker's searches shared between tables (hints first)
- ``botpool``    bots thinking in processes of their own, off the event loop
- ``storage``    the journal: SQLite (default) and PostgreSQL behind one interface
- ``batch``      journal calls handed to the journal threads in batches
- ``pgloop``     PostgreSQL journal appends sent from the event loop
- ``leases``     table ownership across processes: PostgreSQL leases with fencing tokens
- ``cluster``    several processes serving the same tables
- ``bus``        the message bus between processes (Redis pub/sub)
- ``loopstats``  how late the event loop runs (a diagnostic, off by default)
- ``players``    players without accounts: a name and a key, seats bound to them, move links
- ``chat``       table chat: messages, limits, mutes, the host's settings
- ``house``      a table's house settings beyond the rules: rated, turn timer
- ``timers``     the turn clock and the stand-in bot's move when it runs out
- ``ratings``    match history and OpenSkill ratings per game, leaderboards
- ``schema``     the journal database's numbered migrations

The wire protocol is in ``docs/protocol.md``; running it is in ``docs/server.md``; how the parts
fit is in ``docs/architecture.md``.
"""

#: the collector's young-generation threshold under ``parlour serve`` (Python's default: 700);
#: here, not in ``app``, so that ``parlour serve --help`` shows it without loading the server
GC_YOUNG = 2_000
#: seconds between the full collections ``parlour serve`` runs itself (the collector's own
#: older generations are switched off: see ``app.Collector``)
GC_FULL_EVERY = 300.0
