"""Load run of the table server (not a test): N concurrent tables on loopback.

Starts ``parlour serve`` as its own process (pinned to one CPU core with ``taskset`` when it is
available), opens N tables (default 4-player Samba, one hand per match, a new table replaces each
finished one), and plays them with WebSocket clients for people and server-side bots for the other
seats.  Each client acts as soon as it is its turn after ``--think`` seconds and measures the round
trip: from sending the action to receiving the state that carries it.  Reports actions/s (all
seats, from the table versions), and p50/p90/p99/max round-trip latency.

    uv run python bench/server.py --tables 100 --duration 30
    uv run python bench/server.py --tables 20 --humans 4 --think 0 --bot-delay 0   # flat out

Numbers depend on the machine and its load; say which when you quote them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stats:
    def __init__(self) -> None:
        self.rtt: list[float] = []
        self.ping: list[float] = []
        self.errors = 0
        self.finished = 0
        self.versions: dict[str, int] = {}


async def seat_client(
    url: str, stats: Stats, think: float, stop: float, rng: random.Random, code: str
) -> None:
    async with connect(url, max_size=1 << 23) as ws:
        pending: dict[int, float] = {}
        next_id = 0
        async for raw in ws:
            msg = json.loads(raw)
            if msg["type"] == "pong":
                stats.ping.append(time.perf_counter() - msg["t"])
                continue
            if msg["type"] == "error":
                stats.errors += 1
                continue
            if msg["type"] != "state":
                continue
            sent = pending.pop(msg.get("id", -1), None)
            if sent is not None:
                stats.rtt.append(time.perf_counter() - sent)
            stats.versions[code] = max(stats.versions.get(code, 0), msg["version"])
            if msg["status"] == "finished":
                stats.finished += 1
                return
            if time.monotonic() > stop:
                return
            # a transport-only probe (only when not about to think: the reader must be free)
            if not msg["your_turn"] and rng.random() < 0.2:
                await ws.send(json.dumps({"type": "ping", "t": time.perf_counter()}))
            if msg["your_turn"]:
                if think:
                    await asyncio.sleep(think * (0.5 + rng.random()))
                choice = rng.choice(msg["legal"])["action"]
                next_id += 1
                pending[next_id] = time.perf_counter()
                await ws.send(
                    json.dumps(
                        {
                            "type": "action",
                            "version": msg["version"],
                            "action": choice,
                            "id": next_id,
                        }
                    )
                )


async def table_loop(
    http: httpx.AsyncClient, ws_base: str, args: argparse.Namespace, stats: Stats, k: int
) -> None:
    rng = random.Random(k)
    stop = time.monotonic() + args.duration
    while time.monotonic() < stop:
        seats = [{"kind": "human"}] * args.humans + [{"kind": "bot", "bot": args.bot}] * (
            args.players - args.humans
        )
        r = await http.post(
            "/api/tables",
            json={
                "game": args.game,
                "players": args.players,
                "seats": seats,
                "options": json.loads(args.options),
            },
        )
        r.raise_for_status()
        t = r.json()
        code = t["code"]
        humans = [s for s in t["seats"] if s["kind"] == "human"]
        tasks = [
            seat_client(
                f"{ws_base}/ws/{code}?seat={s['token']}", stats, args.think, stop, rng, code
            )
            for s in humans
        ]
        if not tasks:  # all bots: watch
            tasks = [seat_client(f"{ws_base}/ws/{code}", stats, 0, stop, rng, code)]
        await asyncio.gather(*tasks)


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(p / 100 * len(s)))]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    db = Path(tempfile.mkdtemp()) / "bench.db"
    cmd = [
        sys.executable,
        "-c",
        "from parlour.cli import main; main()",
        "serve",
        "--port",
        str(port),
        "--db",
        f"sqlite:///{db}",
        "--bot-delay",
        str(args.bot_delay),
    ]
    if args.cpu is not None and shutil.which("taskset"):
        cmd = ["taskset", "-c", str(args.cpu), *cmd]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            for _ in range(400):
                try:
                    if (await http.get("/api/info")).status_code == 200:
                        break
                except httpx.HTTPError:
                    await asyncio.sleep(0.1)
            stats = Stats()
            t0 = time.perf_counter()
            cpu0 = _cpu(proc.pid)
            await asyncio.gather(
                *(
                    table_loop(http, base.replace("http", "ws"), args, stats, k)
                    for k in range(args.tables)
                )
            )
            wall = time.perf_counter() - t0
            cpu = _cpu(proc.pid) - cpu0
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
    actions = sum(stats.versions.values())
    ms = [x * 1000 for x in stats.rtt]
    return {
        "tables": args.tables,
        "players": args.players,
        "humans_per_table": args.humans,
        "game": args.game,
        "bot": args.bot,
        "bot_delay_s": args.bot_delay,
        "think_s": args.think,
        "wall_s": round(wall, 1),
        "server_cpu_s": round(cpu, 1),
        "server_cpu_share": round(cpu / wall, 2) if wall else None,
        "actions": actions,
        "actions_per_s": round(actions / wall, 1),
        # machine-load-independent cost: server CPU time per accepted action (all its work:
        # HTTP, WebSocket frames, engine, bots, journal, JSON for every connection)
        "server_cpu_ms_per_action": round(1000 * cpu / actions, 2) if actions else None,
        "matches_finished": stats.finished,
        "round_trips": len(ms),
        "errors": stats.errors,
        "rtt_ms": _summary(ms),
        "ping_ms": _summary([x * 1000 for x in stats.ping]),
        "load_average": os.getloadavg(),
        "cpus": os.cpu_count(),
    }


def _summary(ms: list[float]) -> dict[str, Any]:
    return {
        "n": len(ms),
        "p50": round(pct(ms, 50), 1),
        "p90": round(pct(ms, 90), 1),
        "p99": round(pct(ms, 99), 1),
        "max": round(max(ms), 1) if ms else None,
    }


def _cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        # the server may run under taskset: count its children too
        total = int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
        return total / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--humans", type=int, default=1, help="WebSocket clients per table")
    p.add_argument("--game", default="samba")
    p.add_argument("--options", default='{"max_hands": 1}', help="rules options as JSON")
    p.add_argument("--bot", default="random", help="bot level of the other seats")
    p.add_argument("--bot-delay", type=float, default=0.6)
    p.add_argument("--think", type=float, default=0.6, help="mean seconds a client thinks")
    p.add_argument("--duration", type=float, default=30.0)
    p.add_argument("--cpu", type=int, default=0, help="pin the server to this CPU (taskset)")
    args = p.parse_args()
    print(json.dumps(asyncio.run(run(args)), indent=1))


if __name__ == "__main__":
    main()
