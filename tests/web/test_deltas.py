"""The page asks for state deltas and makes them whole (``parlour/web/js/delta.js``): after a few
turns of Samba its view, legal moves and seats are the very ones a whole ``state`` of the same
seat carries."""

from __future__ import annotations

import json
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.web.driver import play_until, seat_path, wait_state

pytestmark = pytest.mark.browser

COUNT_FRAMES = """
window.__frames = [];
const Plain = window.WebSocket;
window.WebSocket = class extends Plain {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (e) => window.__frames.push(e.data));
  }
};
"""


def test_the_page_plays_on_deltas_and_sees_the_whole_state(page: Any, server: Any) -> None:
    bots = [{"kind": "bot", "bot": "random"}] * 3
    table = server.post(
        "/api/tables",
        {
            "game": "samba",
            "players": 4,
            "options": {"max_hands": 1},
            "seats": [{"kind": "human"}, *bots],
        },
    )
    page.add_init_script(COUNT_FRAMES)
    page.goto(server.base + seat_path(table))
    first = wait_state(page)
    # stop on the player's own turn: nobody else moves until the player does
    play_until(
        page, lambda s: s["version"] >= first["version"] + 12 and bool(s["legal"]), timeout=90
    )
    page.wait_for_timeout(300)
    frames = [json.loads(f) for f in page.evaluate("window.__frames")]
    states = [f for f in frames if f["type"] == "state"]
    assert "patch" not in states[0]  # the first state on a socket is whole
    assert sum("patch" in s for s in states) >= 10  # the rest came as deltas
    # what the page holds against a whole state of the same seat and version
    url = server.base.replace("http", "ws") + f"/ws/{table['code']}?seat={table['you']['token']}"
    with connect(url) as ws:
        while True:
            msg = json.loads(ws.recv(timeout=10))
            if msg["type"] == "state":
                break
    mine = page.evaluate(
        "({version: window.parlour.version, view: window.parlour.view, "
        "legal: window.parlour.legal, seats: window.parlour.seats})"
    )
    assert mine["version"] == msg["version"]
    assert mine["view"] == msg["view"]
    assert mine["legal"] == msg["legal"]
    assert page.js_errors == []
