"""A table page playing a position built in Python (the games' position builders), at any
stage of a hand, without playing up to it.

The page, its scripts and the HTTP API are the real server's (a real table of the same game
and size gives the page its code and the welcome's table record); only the table's WebSocket is
answered here (Playwright's ``route_web_socket``): a welcome for the seat, then the built
state as the server words it (``redact.seat_payload``). Actions the page sends are applied to
the Python state with the engine and answered with the new state, or refused with the
engine's explanation, as the server does.
"""

from __future__ import annotations

import json
from typing import Any

from parlour import games
from parlour.core.errors import IllegalAction
from parlour.server import redact
from tests.web.driver import wait_state


class FakeTable:
    def __init__(self, page: Any, server: Any, game_name: str, state: Any, seat: int) -> None:
        self.page = page
        self.game = games.entry(game_name).game
        self.state = state
        self.seat = seat
        self.version = 1
        self.sent: list[dict[str, Any]] = []  # the actions the page sent, in order
        self.refused: list[str] = []
        n = self.game.num_seats(state)
        t = server.post(
            "/api/tables",
            {
                "game": game_name,
                "players": n,
                "seats": [{"kind": "human"}] * n,
            },
        )
        self.code = t["code"]
        record = server.get(f"/api/tables/{self.code}")
        # the page's seat is a connected player, the others bots (as at a table with bots)
        seats = [
            {"seat": s, "kind": "human", "claimed": True, "connected": True, "controller": "human"}
            if s == seat
            else {
                "seat": s,
                "kind": "bot",
                "claimed": True,
                "connected": False,
                "controller": "bot",
                "bot": "basic",
            }
            for s in range(n)
        ]
        self.record = {**record, "status": "playing", "seats": seats, "free_seats": []}
        self.rules = record["rules"]
        self.socket: Any = None
        page.route_web_socket(f"**/ws/{self.code}**", self._on_socket)

    # --- the socket ---------------------------------------------------------------------------

    def _send(self, msg: dict[str, Any]) -> None:
        self.socket.send(json.dumps(msg, ensure_ascii=False))

    def _state_message(self, full: bool = True) -> dict[str, Any]:
        payload = redact.seat_payload(self.game, self.state, self.seat)
        return {
            "type": "state",
            "version": self.version,
            "status": "playing",
            **payload,
            "events": [],
            "full_log": full,
            "seats": self.record["seats"],
        }

    def _on_socket(self, ws: Any) -> None:
        self.socket = ws
        ws.on_message(self._on_message)
        self._send(
            {
                "type": "welcome",
                "protocol": 1,
                "code": self.code,
                "seat": self.seat,
                "spectator": False,
                "game": self.record["game"],
                "preset": self.record["preset"],
                "rules": self.rules,
                "players": self.record["players"],
                "table": self.record,
            }
        )
        self._send(self._state_message())

    def _on_message(self, raw: str | bytes) -> None:
        msg = json.loads(raw)
        kind = msg.get("type")
        if kind == "sync":
            self._send(self._state_message())
        elif kind == "action":
            self._act(msg)

    def _act(self, msg: dict[str, Any]) -> None:
        data = msg["action"]
        self.sent.append(data)
        try:
            action = self.game.action_from_json(data)
            if self.game.to_act(self.state) != self.seat:
                raise IllegalAction("it is not your turn")
            self.state, _ = self.game.apply(self.state, action)
        except (IllegalAction, ValueError, KeyError, TypeError) as exc:
            text = str(exc)
            if isinstance(exc, IllegalAction):
                text = self.game.explain(self.state, self.game.action_from_json(data)) or text
            self.refused.append(text)
            self._send(
                {
                    "type": "error",
                    "code": "illegal_action",
                    "message": text,
                    "request": {"type": "action", "id": msg.get("id")},
                    "version": self.version,
                }
            )
            return
        self.version += 1
        self._send(self._state_message(full=False))

    # --- the page -----------------------------------------------------------------------------

    def open(self) -> dict[str, Any]:
        """Load the table page and wait until it shows the position."""
        self.page.goto(f"{self.page.context.server_base}/t/{self.code}")
        st = wait_state(self.page)
        self.page.wait_for_function(
            "(v) => window.parlour && window.parlour.version === v && document.querySelector('#felt .card, #felt .empty-slot')",
            arg=self.version,
        )
        return st


def open_position(page: Any, server: Any, game_name: str, state: Any, seat: int) -> FakeTable:
    page.context.server_base = server.base
    table = FakeTable(page, server, game_name, state, seat)
    table.open()
    return table
