"""CPU per action of the server's table/message path, in one process, without sockets.

N tables of 4-player Samba (one hand per match by default), each with one scripted person and
three ``basic`` bots, are played through the same code a WebSocket player goes through —
``parlour.server.session.run_session`` (the welcome, each client message parsed and handled,
``Table.submit``, the broadcast, the connection's send queue and sender) — over a fake transport
instead of a socket: the person's messages come from a queue, what the server sends is read by
a scripted client that answers its turn with the first legal action (after ``--think`` seconds).
The bots play on the event loop (``basic`` is an inline level).  A finished table is replaced by
a new one until ``--actions`` actions (all seats) were applied.

Reported: CPU microseconds per action of the whole process (``time.process_time``: the event
loop and the journal thread), of the event loop's thread alone (``time.thread_time``), and the
scripted client's share of the loop thread (it is not the server's and is subtracted in
``server_us``).  The journal is SQLite in memory unless ``--db`` says otherwise.

    uv run python bench/server_path.py                       # 40 tables, 20,000 actions
    uv run python bench/server_path.py --tables 200 --actions 40000 --repeat 3
    uv run python bench/server_path.py --profile 30          # the top of a cProfile (cumtime)

Runs on any checkout with the same ``run_session``/``TableServer`` API: ``parlour`` is imported
from the interpreter's environment, so a before/after is this file run by each checkout's
interpreter (``../main/.venv/bin/python bench/server_path.py``; ``--json``: one line a run).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import io
import json
import pstats
import random
import time
from typing import Any

import orjson

from parlour.server.lobby import ServerConfig, TableServer
from parlour.server.session import run_session
from parlour.server.storage import open_storage


class Meter:
    """The scripted clients' own CPU on the loop thread (subtracted from the server's)."""

    def __init__(self) -> None:
        self.client = 0.0
        self.messages = 0


class FakeTransport:
    """A player's socket as ``run_session`` sees it: messages in from a queue, messages out
    (``send_text``) read at once by the scripted client."""

    def __init__(self, meter: Meter, think: float, rng: random.Random) -> None:
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.meter = meter
        self.think = think
        self.rng = rng
        self.finished = asyncio.Event()
        self.errors = 0

    async def receive(self) -> str | None:
        return await self.inbox.get()

    def _read(self, text: str) -> None:
        # the clock is read for one message in 8 (a CPU clock is a system call, ~1.5 us)
        self.meter.messages += 1
        timed = self.meter.messages % 8 == 0
        started = time.thread_time() if timed else 0.0
        # only what a player needs: its turn, the version, the legal moves; the end
        if '"your_turn":true' in text or '"status":"finished"' in text or '"error"' in text:
            msg = orjson.loads(text)
            kind = msg.get("type")
            if kind == "error":
                self.errors += 1
            elif kind == "state":
                if msg.get("status") == "finished":
                    self.finished.set()
                elif msg.get("your_turn") and msg.get("legal"):
                    out = orjson.dumps(
                        {
                            "type": "action",
                            "version": msg["version"],
                            "action": msg["legal"][0]["action"],
                        }
                    ).decode()
                    if self.think > 0:
                        asyncio.get_running_loop().call_later(
                            self.think, self.inbox.put_nowait, out
                        )
                    else:
                        self.inbox.put_nowait(out)
        if timed:
            self.meter.client += (time.thread_time() - started) * 8

    async def send_text(self, text: str) -> None:
        self._read(text)

    async def close(self, code: int, reason: str = "") -> None:
        self.finished.set()
        self.inbox.put_nowait(None)


async def play_table(server: TableServer, meter: Meter, args: argparse.Namespace, i: int) -> None:
    table, info = await server.create(
        args.game,
        None,
        json.loads(args.options),
        4,
        [{"kind": "human"}] + [{"kind": "bot", "bot": args.bot}] * 3,
        "default",
        f"bench {i}",
    )
    you = info["you"]
    transport = FakeTransport(meter, args.think, random.Random(i))
    # issue 34: the person's language (a checkout without languages takes no ``lang``)
    extra = {"lang": args.lang} if args.lang != "en" else {}
    session = asyncio.create_task(
        run_session(server, transport, table.code, you["token"], None, **extra)
    )
    await transport.finished.wait()
    transport.inbox.put_nowait(None)
    with contextlib.suppress(BaseException):
        await asyncio.wait_for(session, 5)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    cfg = ServerConfig(bot_delay=0.0, grace=30.0, rate_limits={})
    server = TableServer(open_storage(args.db), cfg)
    meter = Meter()
    stop = False

    async def lane(i: int) -> None:
        n = i
        while not stop:
            await play_table(server, meter, args, n)
            n += args.tables

    # warm-up: the first tables (imports, caches) are not counted
    warm = args.warmup
    lanes = [asyncio.create_task(lane(i)) for i in range(args.tables)]
    while server.actions_applied < warm:
        await asyncio.sleep(0.01)
    gc.collect()
    a0, c0, t0, w0 = (
        server.actions_applied,
        time.process_time(),
        time.thread_time(),
        time.perf_counter(),
    )
    k0 = meter.client
    prof = cProfile.Profile() if args.profile else None
    if prof is not None:
        prof.enable()
    while server.actions_applied - a0 < args.actions:
        await asyncio.sleep(0.01)
    if prof is not None:
        prof.disable()
    a1, c1, t1, w1 = (
        server.actions_applied,
        time.process_time(),
        time.thread_time(),
        time.perf_counter(),
    )
    k1 = meter.client
    stop = True
    for t in lanes:
        t.cancel()
    await asyncio.gather(*lanes, return_exceptions=True)
    for table in list(server.tables.values()):
        table.close()
    n = a1 - a0
    out = {
        "tables": args.tables,
        "actions": n,
        "process_us": round((c1 - c0) / n * 1e6, 1),
        "loop_us": round((t1 - t0) / n * 1e6, 1),
        "client_us": round((k1 - k0) / n * 1e6, 1),
        "server_us": round(((c1 - c0) - (k1 - k0)) / n * 1e6, 1),
        "wall_s": round(w1 - w0, 2),
    }
    if prof is not None and args.profile_out:
        prof.dump_stats(args.profile_out)
    if prof is not None:
        s = io.StringIO()
        pstats.Stats(prof, stream=s).sort_stats(args.sort).print_stats(args.profile)
        out["profile"] = s.getvalue()
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--tables", type=int, default=40)
    p.add_argument("--actions", type=int, default=20_000, help="actions counted (all seats)")
    p.add_argument("--warmup", type=int, default=2_000, help="actions before counting starts")
    p.add_argument("--game", default="samba")
    p.add_argument("--lang", default="en", help="the person's language (issue 34): en, nl, de …")
    p.add_argument("--options", default='{"max_hands": 1}', help="rules options as JSON")
    p.add_argument("--bot", default="basic")
    p.add_argument("--think", type=float, default=0.0, help="the person's seconds per move")
    p.add_argument("--db", default="sqlite:///:memory:")
    p.add_argument("--repeat", type=int, default=1, help="runs, each in a fresh event loop")
    p.add_argument("--profile", type=int, default=0, help="print this many cProfile rows")
    p.add_argument("--profile-out", default="", help="write the cProfile stats to this file")
    p.add_argument("--sort", default="tottime", help="cProfile sort key")
    p.add_argument("--json", action="store_true", help="one JSON line a run")
    p.add_argument("--loop", choices=("asyncio", "uvloop"), default="uvloop")
    args = p.parse_args()
    for _ in range(args.repeat):
        if args.loop == "uvloop":
            import uvloop

            result = uvloop.run(run(args))
        else:
            result = asyncio.run(run(args))
        profile = result.pop("profile", None)
        if args.json:
            print(json.dumps(result), flush=True)
        else:
            print(
                f"{result['actions']} actions at {result['tables']} tables: "
                f"{result['server_us']} us server CPU/action "
                f"(process {result['process_us']}, loop thread {result['loop_us']}, "
                f"scripted client {result['client_us']}), {result['wall_s']} s",
                flush=True,
            )
        if profile:
            print(profile)


if __name__ == "__main__":
    main()
