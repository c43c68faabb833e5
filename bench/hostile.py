"""Attack ``parlour serve`` the way a stranger would, and count what happens (the script starts
its own server in a temp folder; ``run_probe`` attacks any server at a given address).

    uv run python bench/hostile.py                 # starts its own server (temp folder)
    uv run python bench/hostile.py --messages 20000 --lobby 3000 --seed 7
    uv run python bench/hostile.py --db postgresql://postgres@127.0.0.1:5432/test
    # also: 10 sockets that never read for 30 s on a busy table, and the creation limit
    uv run python bench/hostile.py --slow-readers 30 --rate-limit

It opens tables of every game, connects seats and spectators, and sends hostile WebSocket
messages (wrong types, lone surrogates, deep nesting, huge and binary frames, mutated legal
actions, other seats' moves, stale versions) and hostile lobby calls (junk bodies and options,
strange codes and queries, stolen or made-up tokens and invites).  It prints:

- messages tried / answered with a clear refusal / answered otherwise,
- server errors (HTTP 5xx, ``server_error`` replies) — target 0,
- crashes (the server process died, or stopped answering) — target 0,
- tracebacks in the server's log — target 0;

and on request:

- ``--slow-readers S``: the server's memory (RSS) and a busy table's pace over S seconds with no
  socket, then over S seconds with 10 raw WebSocket connections to that table that never read
  (target: growth < 50 MB beyond the table's own log, pace kept);
- ``--rate-limit``: a second server with the default limits; tables one address creates before
  the first ``429`` (and its ``Retry-After``).

``run_probe`` is used by the hostile test suite with smaller counts.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["samba", "handfoot", "cheat", "scat"]
JUNK: list[Any] = [
    None,
    True,
    0,
    -1,
    1.5,
    10**30,
    "",
    "x" * 300,
    "\udfff",
    "Jk",
    "10♥",
    [],
    [1, [2, [3]]],
    {},
    {"a": {"b": {}}},
    "'; DROP TABLE parlour_tables; --",
    "../../etc/passwd",
]


@dataclass
class Counts:
    tried: int = 0
    refused: int = 0  # a clear error answer (4xx, or an `error` message with a code)
    answered: int = 0  # accepted or otherwise answered without an error
    server_errors: int = 0
    crashes: int = 0
    tracebacks: int = 0
    codes: dict[str, int] = field(default_factory=dict)

    def note(self, code: str) -> None:
        self.codes[code] = self.codes.get(code, 0) + 1


def _junk(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth < 3 and roll < 0.15:
        return [_junk(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if depth < 3 and roll < 0.3:
        return {rng.choice(["type", "card", "cards", "meld", "x", "\udfff"]): _junk(rng, depth + 1)}
    return rng.choice(JUNK)


def _mutate(action: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    out = dict(action)
    keys = list(out) or ["type"]
    for _ in range(rng.randint(1, 2)):
        key = rng.choice([*keys, "extra"])
        if rng.random() < 0.2:
            out.pop(key, None)
        else:
            out[key] = _junk(rng)
    return out


def _ws_messages(state: dict[str, Any] | None, rng: random.Random) -> list[str]:
    """One batch of hostile raw texts for a seat's socket."""
    version = state["version"] if state else 0
    legal = [x["action"] for x in (state or {}).get("legal") or []]
    base = legal[0] if legal else {"type": "Draw"}
    deep = "[" * 5000 + "]" * 5000
    texts = [
        '{"type":"ping","t":"\\udfff"}',
        '{"type":"\\udfff"}',
        '{"type":"action","version":0,"id":"\\ud800","action":{"type":"Draw"}}',
        '{"type":"ping","t":' + deep + "}",
        '{"type":"ping","t":NaN}',
        "{not json",
        "[1,2,3]",
        '"just a string"',
        "null",
        '{"type":"action"}',
        json.dumps({"type": "action", "version": "0", "action": base}),
        json.dumps({"type": "action", "version": version, "action": "Draw"}),
        json.dumps({"type": "action", "version": version, "action": _mutate(base, rng)}),
        json.dumps({"type": "action", "version": version, "action": _junk(rng)}),
        json.dumps({"type": "action", "version": version - 1, "action": base}),
        json.dumps({"type": "action", "version": version, "seat": 3, "action": base}),
        json.dumps({"type": "action", "version": True, "action": base}),
        json.dumps({"type": "contribute", "value": _junk(rng)}),
        json.dumps({"type": "start", "x": _junk(rng)}),
        json.dumps({"type": rng.choice(["sync", "ping", "nope", 5, None]), "t": _junk(rng)}),
        json.dumps({"type": "ping", "t": "y" * 70_000}),
    ]
    return texts


def _answers(ws: Any, sent: int, counts: Counts, timeout: float = 5.0) -> dict[str, Any] | None:
    """Read until every message sent got its answer (an error, a pong or a state)."""
    state: dict[str, Any] | None = None
    got = 0
    deadline = time.monotonic() + timeout
    while got < sent and time.monotonic() < deadline:
        try:
            msg = json.loads(ws.recv(timeout=max(0.05, deadline - time.monotonic())))
        except TimeoutError:
            break
        kind = msg.get("type")
        if kind == "error":
            got += 1
            code = str(msg.get("code"))
            counts.note(code)
            if code == "server_error":
                counts.server_errors += 1
            else:
                counts.refused += 1
        elif kind in ("pong", "table"):  # ``start`` on a started table answers with the table
            got += 1
            counts.answered += 1
        elif kind == "state":
            state = msg
            if msg.get("id") is not None or msg.get("full_log"):
                got += 1
                counts.answered += 1
    return state


def _lobby_calls(base: str, code: str, rng: random.Random) -> list[tuple[str, str, Any]]:
    junk = _junk(rng)
    return [
        ("POST", "/api/tables", {"game": rng.choice(GAMES), "options": {"max_hands": junk}}),
        ("POST", "/api/tables", {"game": junk}),
        ("POST", "/api/tables", {"game": "samba", "seats": [{"kind": "bot", "bot": junk}] * 4}),
        ("POST", "/api/tables", {"game": "samba", "name": junk, "claim": junk}),
        ("POST", "/api/tables", {"game": "samba", "players": junk}),
        ("POST", "/api/tables", "[" * 3000 + "]" * 3000),
        ("POST", "/api/tables", '{"game": "samba", "name": "\\udfff"}'),
        ("POST", f"/api/tables/{code}/claim", {"invite": junk}),
        ("POST", f"/api/tables/{code}/join", {"seat": junk}),
        ("POST", f"/api/tables/{code}/rotate", {"token": junk}),
        ("POST", f"/api/tables/{code}/invite", {"token": junk, "seat": _junk(rng)}),
        ("POST", f"/api/tables/{code}/leave", {"token": "x" * 43}),
        ("POST", f"/api/tables/{code}/start", {"token": junk}),
        ("GET", f"/api/tables/{rng.choice(['ZZZZZZ', 'é' * 10, 'x' * 500, '%00'])}", None),
        (
            "GET",
            f"/api/tables?limit={rng.choice([-1, 0, 10**9, 'x'])}&offset={quote(json.dumps(junk))}",
            None,
        ),
        ("GET", f"/api/tables/{code}/replay", None),
        ("GET", f"/api/tables/{code}/verify", None),
        ("GET", "/t/%2e%2e/%2e%2e/etc/passwd", None),
    ]


def _alive(base: str) -> bool:
    try:
        return httpx.get(f"{base}/api/info", timeout=10).status_code == 200
    except httpx.HTTPError:
        return False


def run_probe(base: str, *, messages: int, lobby: int, seed: int = 1, proc: Any = None) -> Counts:
    """Send about ``messages`` hostile WebSocket messages and ``lobby`` hostile lobby calls."""
    rng = random.Random(seed)
    counts = Counts()
    http = httpx.Client(base_url=base, timeout=20)
    ws_base = base.replace("http://", "ws://")
    tables = []
    for game in GAMES:
        r = http.post("/api/tables", json={"game": game, "seats": None})
        assert r.status_code == 201, r.text
        tables.append(r.json())
    per_table = max(1, messages // len(tables))
    for t in tables:
        sent_here = 0
        with connect(f"{ws_base}/ws/{t['code']}?seat={t['you']['token']}", max_size=1 << 24) as ws:
            state = _answers(ws, 1, Counts())  # the first state
            while sent_here < per_table:
                batch = _ws_messages(state, rng)
                for text in batch:
                    ws.send(text)
                counts.tried += len(batch)
                sent_here += len(batch)
                state = _answers(ws, len(batch), counts) or state
                if proc is not None and proc.poll() is not None:
                    counts.crashes += 1
                    return counts
            # binary frames and invalid UTF-8 inside them
            ws.send(b"\xff\xfe\x00")
            ws.send(json.dumps({"type": "ping", "t": 1}).encode())
            counts.tried += 2
            _answers(ws, 2, counts)
        # a spectator trying to act, with another seat's moves
        with connect(f"{ws_base}/ws/{t['code']}") as spy:
            _answers(spy, 1, Counts())
            spy.send(json.dumps({"type": "action", "version": 0, "action": {"type": "Draw"}}))
            counts.tried += 1
            _answers(spy, 1, counts)
    done = 0
    while done < lobby:
        t = rng.choice(tables)
        for method, path, body in _lobby_calls(base, t["code"], rng):
            kwargs: dict[str, Any] = {}
            if isinstance(body, str):
                kwargs = {"content": body, "headers": {"content-type": "application/json"}}
            elif body is not None:
                kwargs = {
                    "content": json.dumps(body, ensure_ascii=True),
                    "headers": {"content-type": "application/json"},
                }
            try:
                r = http.request(method, path, **kwargs)
            except httpx.HTTPError:
                counts.crashes += 1
                return counts
            counts.tried += 1
            done += 1
            counts.note(f"HTTP {r.status_code}")
            if r.status_code >= 500:
                counts.server_errors += 1
            elif r.status_code >= 400:
                counts.refused += 1
            else:
                counts.answered += 1
    if not _alive(base):
        counts.crashes += 1
    http.close()
    return counts


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def _raw_ws(port: int, path: str) -> socket.socket:
    """A WebSocket handshake on a raw socket that will never read another byte."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    return s


def slow_readers(base: str, pid: int, seconds: float, sockets: int = 10) -> dict[str, float]:
    """RSS growth and a busy table's pace over ``seconds`` alone, then with ``sockets`` raw
    connections to it that never read."""
    http = httpx.Client(base_url=base, timeout=20)
    t = http.post(
        "/api/tables",
        json={
            "game": "samba",
            "players": 4,
            "seats": [{"kind": "bot", "bot": "random"}] * 4,
            "options": {"target_score": 1_000_000},
        },
    ).json()

    def version() -> int:
        return int(http.get(f"/api/tables/{t['code']}").json()["version"])

    time.sleep(2)
    rss0, v0, t0 = _rss_mb(pid), version(), time.monotonic()
    time.sleep(seconds)
    rss1, v1, t1 = _rss_mb(pid), version(), time.monotonic()
    port = int(base.rsplit(":", 1)[1])
    held = [_raw_ws(port, f"/ws/{t['code']}") for _ in range(sockets)]
    time.sleep(3)  # their buffers fill; the server's queues reach their bounds
    rss2, v2, t2 = _rss_mb(pid), version(), time.monotonic()
    time.sleep(seconds)
    rss3, v3, t3 = _rss_mb(pid), version(), time.monotonic()
    started = time.monotonic()
    answered = http.get("/api/info").status_code == 200
    answer_s = time.monotonic() - started
    for s in held:
        s.close()
    http.close()
    per_move = max(0.0, rss1 - rss0) / max(1, v1 - v0)
    return {
        "alone_mb": rss1 - rss0,
        "alone_pace": (v1 - v0) / (t1 - t0),
        "before_mb": rss2,
        "after_mb": rss3,
        "with_mb": rss3 - rss2,
        "beyond_log_mb": (rss3 - rss2) - per_move * (v3 - v2),
        "with_pace": (v3 - v2) / (t3 - t2),
        "answer_s": answer_s if answered else float("inf"),
    }


def creations_before_limit(base: str, most: int = 50) -> tuple[int, str]:
    """Tables one address creates before the first 429, and that answer's Retry-After."""
    with httpx.Client(base_url=base, timeout=20) as http:
        for made in range(most):
            r = http.post("/api/tables", json={"game": "scat", "players": 2})
            if r.status_code == 429:
                return made, r.headers.get("Retry-After", "")
            if r.status_code != 201:
                raise RuntimeError(f"creating a table: HTTP {r.status_code} {r.text}")
    return most, ""


def _start(folder: Path, db: str, name: str, *extra: str) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    log = folder / f"{name}.log"
    cmd = [
        sys.executable,
        "-c",
        "from parlour.cli import main; main()",
        "serve",
        "--port",
        str(port),
        "--db",
        db,
        "--bot-delay",
        "0",
        *extra,
    ]
    env = {**os.environ, "XDG_DATA_HOME": str(folder / "data")}
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while not _alive(base):
        if time.monotonic() > deadline or proc.poll() is not None:
            proc.kill()
            sys.exit(f"the server did not start:\n{log.read_text()}")
        time.sleep(0.1)
    return proc, base


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--messages", type=int, default=10_000, help="hostile WebSocket messages")
    p.add_argument("--lobby", type=int, default=1_500, help="hostile lobby calls")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--db", default=None, help="journal URL (default: SQLite in a temp folder)")
    p.add_argument(
        "--slow-readers",
        type=float,
        default=0.0,
        metavar="S",
        help="also: memory and pace over S s alone, then S s with 10 sockets that never read",
    )
    p.add_argument(
        "--rate-limit",
        action="store_true",
        help="also: tables created before the first 429 on a server with the default limits",
    )
    args = p.parse_args()
    readers: dict[str, float] | None = None
    limit: tuple[int, str] | None = None
    with tempfile.TemporaryDirectory(prefix="parlour-hostile-") as tmp:
        folder = Path(tmp)
        db = args.db or f"sqlite:///{folder / 'journal.db'}"
        # the probe is one address; the limits have their own measurement (--rate-limit)
        proc, base = _start(folder, db, "server", "--no-rate-limit")
        try:
            started = time.monotonic()
            counts = run_probe(
                base, messages=args.messages, lobby=args.lobby, seed=args.seed, proc=proc
            )
            elapsed = time.monotonic() - started
            if args.slow_readers > 0 and proc.poll() is None:
                readers = slow_readers(base, proc.pid, args.slow_readers)
                if not _alive(base):
                    counts.crashes += 1
        finally:
            proc.terminate()
            proc.wait(timeout=20)
        text = (folder / "server.log").read_text()
        counts.tracebacks = text.count("Traceback")
        if args.rate_limit:
            limited, limited_base = _start(folder, db, "limited")
            try:
                limit = creations_before_limit(limited_base)
            finally:
                limited.terminate()
                limited.wait(timeout=20)
    print(f"hostile probe: {elapsed:.0f} s, seed {args.seed}")
    print(f"  messages and calls tried: {counts.tried}")
    print(f"  refused with a clear error: {counts.refused}")
    print(f"  answered (pong, state, 2xx): {counts.answered}")
    print(f"  server errors: {counts.server_errors}")
    print(f"  crashes: {counts.crashes}")
    print(f"  tracebacks in the server log: {counts.tracebacks}")
    print("  answers by code: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.codes.items())))
    if readers is not None:
        print(
            f"  {args.slow_readers:g} s alone: RSS {readers['alone_mb']:+.1f} MB, "
            f"{readers['alone_pace']:.0f} moves/s"
        )
        print(
            f"  {args.slow_readers:g} s with 10 sockets that never read: RSS "
            f"{readers['before_mb']:.0f} → {readers['after_mb']:.0f} MB "
            f"({readers['with_mb']:+.1f} MB, {readers['beyond_log_mb']:+.1f} MB beyond the "
            f"table's own log), {readers['with_pace']:.0f} moves/s; /api/info answered in "
            f"{readers['answer_s'] * 1000:.0f} ms"
        )
    if limit is not None:
        print(
            f"  tables created before the rate limit (default limits): {limit[0]}, "
            f"then 429 with Retry-After {limit[1]} s"
        )
    if counts.server_errors or counts.crashes or counts.tracebacks:
        sys.exit(1)


if __name__ == "__main__":
    main()
