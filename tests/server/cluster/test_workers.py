"""``parlour serve --workers 2 --db postgresql://… --redis …``: two processes behind one port (the
kernel hands each new connection to either); seats and versions agree whichever one answers
(before issue 21, ``uvicorn --workers 2`` showed a seat version 0 or 2 depending on the worker)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import httpx

from tests.server.cluster.conftest import (
    REDIS_URL,
    Player,
    check_against_journal,
    claim,
    create,
    finished,
    require_redis,
    run_until,
)
from tests.server.conftest import ROOT, free_port
from tests.server.test_recovery import pg_schema


def test_workers_share_one_port_and_agree(tmp_path: object) -> None:
    require_redis()
    with pg_schema() as db:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        cmd = [
            sys.executable,
            "-c",
            "from parlour.cli import main; main()",
            "serve",
            "--port",
            str(port),
            "--db",
            db,
            "--redis",
            REDIS_URL,
            "--workers",
            "2",
            "--bot-delay",
            "0",
            "--no-rate-limit",
            "--game-module",
            "tests.server.toygame",
        ]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # the workers with it, to end them all at the end
        )
        players: list[Player] = []
        try:
            deadline = time.monotonic() + 120
            up = 0
            while up < 10:  # both workers up: a run of answers
                assert time.monotonic() < deadline and proc.poll() is None
                try:
                    up += httpx.get(f"{base}/api/info", timeout=1).status_code == 200
                except httpx.HTTPError:
                    up = 0
                    time.sleep(0.1)
            t = create(
                base, players=2, seats=[{"kind": "human"}] * 2, game="toy", options={"max_hands": 1}
            )
            code = t["code"]
            token = claim(base, code, t["seats"][1]["invite"])
            ws = base.replace("http", "ws")
            players = [Player(ws, code, t["you"]["token"], 1), Player(ws, code, token, 2)]
            run_until(
                players, lambda: all(p.state and p.state["version"] >= 3 for p in players), 60
            )
            # many look-ups (each may reach either worker) agree with the players: never behind
            # what a player saw (at most the move just sent, not yet acknowledged, ahead)
            for _ in range(8):
                for p in players:
                    p.poll(0.01)
                seen = max(p.state["version"] for p in players)  # type: ignore[index]
                rec = httpx.get(f"{base}/api/tables/{code}", timeout=30).json()
                assert seen <= rec["version"] <= seen + 1
            run_until(players, finished(players), 90)
            check_against_journal(db, code, players)
        finally:
            for p in players:
                p.close()
            proc.terminate()
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)
                raise
