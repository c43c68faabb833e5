"""The server's settings (``ServerConfig``): what ``parlour serve`` and the tests choose, read by
every part.  Below the parts that read it (it imports none of them)."""

from __future__ import annotations

from dataclasses import dataclass, field

from parlour.server import GC_FULL_EVERY, GC_YOUNG
from parlour.server.guard import LOOPBACK_NAMES, Limit

#: the bot levels a table may ask for (a fixed list: callers do not choose the thinking time)
BOT_LEVELS = ("random", "basic", "strong:0.3", "strong:1", "strong:3", "expert")
#: names a caller may use for a level
BOT_ALIASES = {"strong": "strong:1"}


@dataclass
class ServerConfig:
    #: seconds a bot waits before it plays, so people can follow
    bot_delay: float = 0.6
    #: seconds a disconnected player keeps the seat before a bot takes over
    grace: float = 30.0
    #: largest client message accepted, in bytes
    max_message: int = 64 * 1024
    #: threads that run bots
    bot_threads: int = 2
    #: processes that run bots instead of the threads (0: threads); see ``parlour.server.botpool``
    bot_processes: int = 0
    #: messages and bytes queued for one connection before it counts as fallen behind
    send_queue_messages: int = 64
    send_queue_bytes: int = 1 << 21
    #: seconds one message may take to go out before the connection is closed as too slow
    send_timeout: float = 20.0
    #: bot levels offered (each ``name`` or ``name:seconds``)
    bot_levels: tuple[str, ...] = BOT_LEVELS
    #: longest a bot may think about one move, in seconds (levels above it are refused)
    bot_move_cap: float = 5.0
    #: bot thinking time a table may bank, in seconds, and how fast it comes back (per second);
    #: a table over budget has its moves played by the quick stand-in bot
    bot_budget: float = 60.0
    bot_budget_rate: float = 0.5
    #: hints (issue 19): seconds of search per hint (or ``hint_iterations`` play-outs, fixed
    #: for a seed), and the fewest seconds between two hints of one seat
    hint_seconds: float = 1.0
    hint_iterations: int | None = None
    hint_interval: float = 2.0
    #: post-hand reviews: at most this many decisions per hand and seat, each searched for
    #: ``review_seconds`` (or ``review_iterations`` play-outs); a remark needs the search's own
    #: move to beat the player's by more than ``review_threshold`` (reward units, 0..1)
    review_decisions: int = 6
    review_seconds: float = 0.25
    review_iterations: int | None = None
    review_threshold: float = 0.05
    #: a table nobody started expires after this many seconds
    waiting_expiry: float = 24 * 3600.0
    #: a finished table with nobody watching leaves memory after this many seconds
    finished_linger: float = 120.0
    #: how often the lobby looks for tables to expire or unload, in seconds
    sweep_interval: float = 30.0
    #: rate limits per client address (``None``: the defaults; ``{}``: none)
    rate_limits: dict[str, Limit] | None = None
    #: ``Host`` names served (``None``: any); default: loopback names
    allowed_hosts: set[str] | None = field(default_factory=lambda: set(LOOPBACK_NAMES))
    #: extra browser origins allowed to open a WebSocket
    allow_origins: tuple[str, ...] = ()
    #: largest page of ``GET /api/tables``
    list_limit: int = 200
    #: bot levels played on the event loop instead of a bot thread (a move of these takes
    #: ~0.02-0.2 ms, less than handing it to a thread); a level whose moves take longer than
    #: ``bot_inline_cap`` seconds on average goes to the threads for that game from then on
    bot_inline: tuple[str, ...] = ("random", "basic")
    bot_inline_cap: float = 0.02
    #: once started, freeze what is loaded out of the garbage collector's way and collect the
    #: young objects less often (``parlour serve``; tests leave the interpreter as it is)
    tune_gc: bool = False
    #: with ``tune_gc``: allocations between two young-generation collections and seconds between
    #: the server's own full collections (``parlour serve --gc-young / --gc-full-every``)
    gc_young: int = GC_YOUNG
    gc_full_every: float = GC_FULL_EVERY
    #: a file the event loop's lag and the collector's pauses are written to every few seconds
    #: (``parlour.server.loopstats``; ``parlour serve`` reads ``PARLOUR_LOOP_STATS``)
    loop_stats: str | None = None
    #: seconds a thread may keep the interpreter lock while another thread waits for it
    #: (``sys.setswitchinterval``; ``None``: the interpreter's 5 ms).  ``parlour serve``: 0.5 ms.
    #: The event loop and the journal thread share the lock: with 5 ms, each of a batch's SQLite
    #: calls (each releases the lock) could wait up to 5 ms to get it back from the busy loop,
    #: which made the round trips' tail at 1,000 tables (docs/server.md "Tail at 1,000 tables")
    switch_interval: float | None = None
    #: PostgreSQL: action appends sent from the event loop, batched into one statement per turn
    #: of the loop (``parlour.server.pgloop``); ``None``: ``PARLOUR_PG_LOOP`` decides (on unless
    #: it is ``0``); False: on the journal threads as every other call
    pg_loop: bool | None = None
