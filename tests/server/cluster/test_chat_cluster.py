"""Issue 33 across processes (``--redis``): chat said on one process reaches the readers another
process carries, a seat is bound to a player through any process, and the history and rating the
table's owner writes are read by every process."""

from __future__ import annotations

import random
import time

import httpx

from tests.server.cluster.conftest import Cluster, create
from tests.server.conftest import Client

TOY = {"game": "toy", "options": {"max_hands": 1, "hand_size": 2}}


def _ws(base: str, code: str, token: str | None = None) -> Client:
    c = Client(f"{base}/ws/{code}" + (f"?seat={token}" if token else ""))
    c.until("welcome")
    return c


def test_chat_crosses_processes(cluster: Cluster) -> None:
    a, b = cluster.a, cluster.b
    t = create(a.base, players=2, seats=[{"kind": "human"}, {"kind": "human"}], **TOY)
    code = t["code"]
    other = httpx.post(
        f"{b.base}/api/tables/{code}/claim", json={"invite": t["seats"][1]["invite"]}, timeout=30
    ).json()["token"]
    on_a = _ws(a.ws_base, code, t["you"]["token"])
    on_b = _ws(b.ws_base, code, other)
    watcher = _ws(b.ws_base, code)
    on_b.send({"type": "chat", "text": "from the other process ♠ <i>x</i>"})
    for c in (on_a, on_b, watcher):
        assert c.until("chat")["text"] == "from the other process ♠ <i>x</i>"
    on_a.send({"type": "chat", "text": "Thanks", "quick": True})
    assert on_b.until("chat")["quick"] is True
    # refusals come back through the tunnel too
    on_b.send({"type": "chat", "text": "z" * 300})
    assert on_b.until("error")["code"] == "too_long"
    # the journal has it: any process serves the chat
    msgs = httpx.get(f"{b.base}/api/tables/{code}/chat", timeout=30).json()["messages"]
    assert [m["text"] for m in msgs] == ["from the other process ♠ <i>x</i>", "Thanks"]
    for c in (on_a, on_b, watcher):
        c.close()


def test_players_and_ratings_reach_every_process(cluster: Cluster) -> None:
    a, b = cluster.a, cluster.b
    p = httpx.post(f"{b.base}/api/players", json={"name": "Cleo"}, timeout=30).json()
    t = create(
        a.base, players=2, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}], **TOY
    )
    code, token = t["code"], t["you"]["token"]
    sat = httpx.post(
        f"{b.base}/api/tables/{code}/sit", json={"key": p["key"], "token": token}, timeout=30
    )
    assert sat.status_code == 200 and sat.json()["name"] == "Cleo"
    assert httpx.get(f"{a.base}/api/tables/{code}", timeout=30).json()["seats"][0]["name"] == "Cleo"
    c = _ws(b.ws_base, code, token)
    rng = random.Random(1)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        st = c.until("state")
        if st.get("status") == "finished":
            break
        if st.get("your_turn"):
            c.act(rng.choice(st["legal"])["action"])
    c.close()
    page: dict = {}
    for _ in range(100):
        page = httpx.get(f"{a.base}/api/players/{p['id']}", timeout=30).json()
        if page["matches"] and page["ratings"]:
            break
        time.sleep(0.1)
    assert [m["code"] for m in page["matches"]] == [code]
    assert page["ratings"]["toy"]["matches"] == 1
    other = httpx.get(f"{b.base}/api/players/{p['id']}", timeout=30).json()
    assert other["ratings"] == page["ratings"]
