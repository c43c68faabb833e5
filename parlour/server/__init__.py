"""The table server: lobby over HTTP, play over WebSockets, the journal, bots in empty seats.

- ``app``        the FastAPI application (``create_app``): middleware, routers, lifespan
- ``routes_pages``  the HTML pages (a FastAPI router) and the static files' cache policy
- ``webpages``   the browser's pages on disk (``parlour/web``) answered as HTML
- ``routes_tables`` the lobby and seat calls over HTTP (a router) and what each does to a table
- ``routes_play``   the WebSocket route a player or a spectator plays through
- ``session``    one WebSocket: each client message parsed and handled, the send queue
- ``lobby``      creating, listing, joining and loading tables (``TableServer``)
- ``lobby_create`` a new table as the lobby makes it: game, rules and seats from the request
- ``lobby_seats``  the seat desk: invites opened, open seats taken, seats left and given again
- ``config``     the server's settings (``ServerConfig``) and the bot levels offered
- ``errors``     the server's errors, at the bottom of the package
- ``table``      one table (``Table``): its parts below put together, and a move submitted
- ``table_base``   what every part of a table shares: its server, state, seats and checks
- ``seats``      a table's seats and their tokens, kept hashed
- ``connection`` one WebSocket's side of a table: the text sent and its bounded queue
- ``table_messages`` what each seat is sent: its own view only, and the table's other messages
- ``table_journal`` a table's journal: read back when loaded, written move by move
- ``table_fair`` a table's fair-deal records: the server's secret, the players' contributions
- ``table_advice`` hints and post-hand reviews
- ``table_bots`` the bot driver: bot seats, and stand-ins for players away or gone
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
- ``storage_base`` the journal's interface below its two backends: errors, records, rows
- ``storage_sqlite`` the SQLite journal: one file in WAL mode
- ``storage_pg`` the PostgreSQL journal: psycopg 3 with a small pool
- ``batch``      journal calls handed to the journal threads in batches
- ``pgloop``     PostgreSQL journal appends sent from the event loop
- ``leases``     table ownership across processes: PostgreSQL leases with fencing tokens
- ``cluster``    several processes serving the same tables
- ``cluster_tunnel`` a player's WebSocket served by another process
- ``summary``    a table's lobby record read from its journal row (tables another process plays)
- ``bus``        the message bus between processes (Redis pub/sub)
- ``loopstats``  how late the event loop runs (a diagnostic, off by default)
- ``players``    players without accounts: a name and a key, seats bound to them, move links
- ``players_routes`` the players' HTTP routes: made, renamed, moved, seated; their pages
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
