"""Bytes on the wire of a whole match as one browser receives it, with and without WebSocket
compression (permessage-deflate, ``parlour serve --ws-compression``).

For each mode a real ``parlour serve`` (127.0.0.1, fresh SQLite) runs a table of four bots; a
watcher connects as the browser does (``?deltas=1``, a client that offers permessage-deflate)
through a small TCP relay that counts the bytes the server sends, and reads every message until
the match is over. Deals are the server's own (random), so the two modes play different
matches: compare the wire bytes with the JSON bytes of the same run (without compression the
wire carries the JSON plus 2–10 bytes of frame header a message), and the runs by bytes per
message.

    uv run python bench/ws_bytes.py --game samba
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


async def _relay(listen_port: int, target_port: int, counts: dict[str, int]) -> asyncio.Server:
    async def pipe(reader: Any, writer: Any, key: str) -> None:
        try:
            while data := await reader.read(65536):
                counts[key] += len(data)
                writer.write(data)
                await writer.drain()
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    async def handle(client_r: Any, client_w: Any) -> None:
        server_r, server_w = await asyncio.open_connection("127.0.0.1", target_port)
        await asyncio.gather(pipe(client_r, server_w, "up"), pipe(server_r, client_w, "down"))

    return await asyncio.start_server(handle, "127.0.0.1", listen_port)


async def _watch(server: Any, code: str, relay_port: int, counts: dict[str, int]) -> dict[str, Any]:
    from websockets.asyncio.client import connect

    messages = 0
    text_bytes = 0
    url = f"ws://127.0.0.1:{relay_port}/ws/{code}?deltas=1"
    async with connect(url, max_size=1 << 24, compression="deflate") as ws:
        deflate = any(
            "permessage-deflate" in (e.name if hasattr(e, "name") else str(e))
            for e in ws.protocol.extensions
        )
        while True:
            raw = await asyncio.wait_for(ws.recv(), timeout=120)
            messages += 1
            text_bytes += len(raw.encode() if isinstance(raw, str) else raw)
            msg = json.loads(raw)
            if msg.get("type") == "state" and msg.get("status") == "finished":
                break
    return {
        "messages": messages,
        "json_bytes": text_bytes,
        "wire_bytes_down": counts["down"],
        "deflate_negotiated": deflate,
    }


def measure(game: str, compression: bool, options: dict[str, Any]) -> dict[str, Any]:
    from tests.web.conftest import _free_port, serve

    with tempfile.TemporaryDirectory() as tmp:
        extra = ["--no-rate-limit", "--ws-compression" if compression else "--no-ws-compression"]
        with serve(Path(tmp), *extra) as server:
            t = server.post(
                "/api/tables",
                {
                    "game": game,
                    "options": options,
                    "seats": [{"kind": "bot", "bot": "basic"}] * 4,
                },
            )
            port = int(server.base.rsplit(":", 1)[1])
            relay_port = _free_port()
            counts = {"up": 0, "down": 0}

            async def run() -> dict[str, Any]:
                relay = await _relay(relay_port, port, counts)
                try:
                    return await _watch(server, t["code"], relay_port, counts)
                finally:
                    relay.close()

            return asyncio.run(run())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="samba")
    parser.add_argument("--max-hands", type=int, default=None)
    args = parser.parse_args()
    options = {} if args.max_hands is None else {"max_hands": args.max_hands}
    out = {}
    for mode in (False, True):
        out["on" if mode else "off"] = measure(args.game, mode, options)
        print(("on " if mode else "off"), out["on" if mode else "off"], flush=True)
    on = out["on"]
    ratio = on["json_bytes"] / max(1, on["wire_bytes_down"])
    print(json.dumps({"game": args.game, **out, "json_to_wire_with_compression": ratio}))


if __name__ == "__main__":
    main()
