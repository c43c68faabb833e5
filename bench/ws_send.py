"""CPU of the server's event-loop thread per WebSocket message out, with and without
``WsTransport.send_now`` (a message written at once instead of through the sender task).

A real uvicorn server (``ws="auto"``, as ``parlour serve``) runs in a thread of this process with
one 2-seat toy table; a WebSocket client in another process sends ``ping``s one at a time
(each waits for its ``pong``), so every ``pong`` goes out alone, as a ``state`` does in a
running room.  The loop thread's CPU clock (``pthread_getcpuclockid``) is read around the
pings; the client's CPU is not counted.  Modes alternate (``on``, ``off``, ``off``, ``on`` …).

    uv run python bench/ws_send.py --pings 4000 --repeat 3
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def client(url: str, pings: int, ready: Any) -> None:
    from websockets.sync.client import connect

    with connect(url, max_size=1 << 22) as ws:
        while True:  # the welcome and the first state
            if json.loads(ws.recv())["type"] == "state":
                break
        ready.send("go")
        ready.recv()
        for i in range(pings):
            ws.send(json.dumps({"type": "ping", "t": i}))
            while True:
                m = json.loads(ws.recv())
                if m["type"] == "pong":
                    break
        ready.send("done")


_TICKS = os.sysconf("SC_CLK_TCK")
#: the kernel's share of the loop thread's CPU in each run (system / (user + system))
SYSTEM: list[float] = []


def _system_ticks(stat: Path) -> int:
    with contextlib.suppress(OSError):
        return int(stat.read_text().rsplit(")", 1)[1].split()[12])
    return 0


def run(pings: int, direct: bool) -> float:
    import parlour.server.session as app_module
    from tests.server import toygame
    from tests.server.conftest import live_server

    original = app_module.sansio_protocol
    if not direct:
        app_module.sansio_protocol = lambda protocol: False  # type: ignore[assignment]
    try:
        with toygame.registered(), live_server() as server:
            t = server.create(game="toy", players=2, seats=[{"kind": "human"}, {"kind": "bot"}])
            url = f"{server.ws_base}/ws/{t['code']}?seat={t['seats'][0]['token']}"
            here, there = multiprocessing.Pipe()
            proc = multiprocessing.Process(target=client, args=(url, pings, there))
            proc.start()
            assert here.recv() == "go"
            # live_server's uvicorn thread (``Thread(target=server.run)``: "Thread-N (run)")
            loop_thread = next(th for th in threading.enumerate() if th.name.endswith("(run)"))
            clock = time.pthread_getcpuclockid(loop_thread.ident or 0)
            stat = Path(f"/proc/self/task/{loop_thread.native_id}/stat")
            started, sys_before = time.clock_gettime(clock), _system_ticks(stat)
            here.send("go")
            assert here.recv() == "done"
            used = time.clock_gettime(clock) - started
            SYSTEM.append((_system_ticks(stat) - sys_before) / _TICKS / used if used else 0.0)
            proc.join()
            return used / pings * 1e6
    finally:
        app_module.sansio_protocol = original


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pings", type=int, default=4000)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    results: dict[str, list[float]] = {"on": [], "off": []}
    order = ["on", "off", "off", "on"] * args.repeat
    for mode in order[: 2 * args.repeat]:
        us = run(args.pings, mode == "on")
        results[mode].append(us)
        print(
            f"send_now {mode:3s}: {us:6.1f} us of loop-thread CPU per ping/pong "
            f"(kernel {SYSTEM[-1]:.0%})",
            flush=True,
        )
    with contextlib.suppress(statistics.StatisticsError):
        print(
            json.dumps(
                {k: round(statistics.median(v), 1) for k, v in results.items()}
                | {"pings": args.pings}
            )
        )


if __name__ == "__main__":
    main()
