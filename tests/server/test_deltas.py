"""State deltas (docs/protocol.md, "Deltas"): a client that connects with ``?deltas=1`` gets,
after its first ``state``, only what changed since the previous one; made whole again it is the
very ``state`` a client without deltas gets, and it carries nothing from outside the seat's own
view."""

from __future__ import annotations

import json
import time
from typing import Any

from parlour.server.connection import patch
from tests.server.conftest import Client, LiveServer

PARTS = ("seat", "to_act", "your_turn", "view", "legal", "outcome", "seats")


class Whole:
    """Applies the deltas as the browser's delta.js does."""

    def __init__(self) -> None:
        self.last: dict[str, Any] | None = None

    def __call__(self, msg: dict[str, Any]) -> dict[str, Any]:
        if "patch" not in msg:
            self.last = json.loads(json.dumps({k: msg[k] for k in PARTS}))
            self.last["version"] = msg["version"]
            return msg
        assert self.last is not None and self.last["version"] == msg["base"]
        for op in msg["patch"]:
            obj = self.last
            for key in op[0][:-1]:
                obj = obj[key]
            if len(op) == 2:
                obj[op[0][-1]] = json.loads(json.dumps(op[1]))
            else:
                assert len(op) == 1
                del obj[op[0][-1]]
        self.last["version"] = msg["version"]
        out = {k: v for k, v in msg.items() if k not in ("base", "patch")}
        out.update(json.loads(json.dumps({k: self.last[k] for k in PARTS})))
        return out


def _at(data: Any, path: list[str]) -> Any:
    for key in path:
        data = data[key]
    return data


def test_patch_sets_changed_keys_descends_objects_and_removes() -> None:
    old = {"to_act": 1, "view": {"hand": [1, 2], "pile": {"top": 3, "size": 9}, "gone": 1}}
    new = {"to_act": 2, "view": {"hand": [1, 2], "pile": {"top": 4, "size": 9}, "new": None}}
    seats = [{"seat": 0}]
    ops = patch(old, new, seats, seats)
    assert sorted(ops, key=str) == sorted(
        [
            [["to_act"], 2],
            [["view", "pile", "top"], 4],
            [["view", "new"], None],
            [["view", "gone"]],
        ],
        key=str,
    )
    # a value that changes its kind is sent whole; lists are sent whole; the seats when changed
    assert patch({"view": None}, {"view": {"a": 1}}, seats, seats) == [[["view"], {"a": 1}]]
    assert patch({"legal": [1]}, {"legal": [1, 2]}, seats, seats) == [[["legal"], [1, 2]]]
    assert patch({}, {}, seats, [{"seat": 1}]) == [[["seats"], [{"seat": 1}]]]
    assert patch({"a": {"b": 1}}, {"a": {"b": 1}}, seats, list(seats)) == []


def _wait_playing(clients: list[Client]) -> None:
    for c in clients:
        while c.state is None or c.state["status"] != "playing":
            c.until("state")


def test_deltas_made_whole_are_the_full_states_and_only_the_seats_own(server: LiveServer) -> None:
    """Samba, one player (two tabs: one with deltas, one without) and three bots, plus two
    spectators (with and without): every state of a whole hand, made whole from the deltas, is
    the same as the full one sent to the same seat at the same point, and each value a delta
    sets is the value the seat's full state has there."""
    t = server.create(
        game="samba",
        options={"max_hands": 1},
        players=4,
        seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3,
    )
    code, token = t["code"], t["seats"][0]["token"]
    full = server.ws(code, token)
    base = f"{server.ws_base}/ws/{code}"
    delta = Client(f"{base}?seat={token}&deltas=1")
    watch_full = server.ws(code)
    watch_delta = Client(f"{base}?deltas=1")
    everyone = [full, delta, watch_full, watch_delta]
    _wait_playing(everyone)
    moves = 0
    while full.state is not None and full.state["status"] == "playing" and moves < 40:
        if full.state["your_turn"]:
            acted = full.state["version"]
            full.act(full.state["legal"][-1]["action"])
            moves += 1
            # wait for this action's answer (a newer state, or a refusal), not for any message:
            # a "table" message read in its place would leave the loop acting on a stale state,
            # every later action refused as "the table has moved on" (seen on a loaded machine)
            while True:
                m = full.recv()
                if m["type"] == "error" or (m["type"] == "state" and m["version"] > acted):
                    break
        else:
            full.recv()
        for c in (delta, watch_full, watch_delta):
            # read the others as we go: a client left unread stops reading its socket, and the
            # server then sends it the latest whole state instead of the backlog (fewer states)
            c.drain(0.001)
    for c in everyone:
        c.drain(0.5)
    pairs = [(full, delta), (watch_full, watch_delta)]
    patched = 0
    for plain, with_deltas in pairs:
        states = [m for m in plain.messages if m["type"] == "state"]
        made = Whole()
        wholes = [made(m) for m in with_deltas.messages if m["type"] == "state"]
        for sent, m in zip(
            [m for m in with_deltas.messages if m["type"] == "state"], wholes, strict=True
        ):
            # several states can share a version (the table started, a seat came or went)
            same = [r for r in states if r["version"] == m["version"]]
            ref = next((r for r in same if all(m[k] == r[k] for k in PARTS)), None)
            assert ref is not None, (m["version"], [k for k in PARTS if m[k] != same[-1][k]])
            if "patch" in sent:
                patched += 1
                assert sent["base"] < sent["version"] or sent["base"] == sent["version"]
                for op in sent["patch"]:
                    if len(op) == 2:  # only values of the seat's own full state
                        assert _at(ref, op[0]) == op[1]
        assert len(wholes) > 10
    assert patched > 20
    # deltas are smaller than the states they stand for
    plain_bytes = sum(len(r) for r in full.raw if '"type":"state"' in r)
    delta_bytes = sum(len(r) for r in delta.raw if '"type":"state"' in r)
    assert delta_bytes < plain_bytes / 2
    # a sync is always whole
    delta.send({"type": "sync"})
    got = delta.until("state")
    assert "patch" not in got and got["view"] is not None
    for c in everyone:
        c.close()


def test_the_state_seats_are_one_list_until_a_seat_changes(server: LiveServer) -> None:
    """The seat list sent in ``state`` messages is made again only when something in it
    changed (a connection, who plays a seat): the same object otherwise (a delta compares it by
    identity), always equal to the table's own ``seats_json``."""
    t = server.create(
        game="samba",
        options={"max_hands": 1},
        players=4,
        seats=[{"kind": "human"}, {"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 2,
    )
    code = t["code"]
    first = server.ws(code, t["seats"][0]["token"])
    first.until("state")
    table = server.app.state.server.tables[code]
    seats = table.state_seats()
    assert table.state_seats() is seats and seats == table.seats_json()
    assert not seats[1]["connected"]
    second = server.ws(code, t["seats"][1]["token"])
    second.until("state")
    now = table.state_seats()
    assert now is not seats and now == table.seats_json() and now[1]["connected"]
    assert table.state_seats() is now
    second.close()
    deadline = time.monotonic() + 5
    while table.state_seats()[1]["connected"] and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not table.state_seats()[1]["connected"]
    assert table.state_seats() == table.seats_json()
    first.close()


def test_every_view_of_a_table_shares_its_rules(server: LiveServer) -> None:
    """The rules told in each view are made anew by the engine; the table keeps the first and
    puts it in every later view whose rules are equal, so deltas skip them by identity."""
    t = server.create(
        game="samba",
        options={"max_hands": 1},
        players=4,
        seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3,
    )
    client = server.ws(t["code"], t["seats"][0]["token"])
    _wait_playing([client])
    table = server.app.state.server.tables[t["code"]]
    views: list[Any] = []
    m = client.state  # the state that said "playing" may already be this seat's turn
    assert m is not None
    while True:
        payload = table.payload(0)
        if not views or payload is not views[-1]:
            views.append(payload)
        if len(views) == 3:
            break
        if m["your_turn"]:  # play on: the bots' moves alone may not make three versions
            client.act(m["legal"][0]["action"])
        m = client.until("state")
    rules = [p["view"]["rules"] for p in views]
    assert rules[0] is rules[1] is rules[2]
    assert rules[0] == {"type": "SambaRules", **table.rules.to_json()}
    assert m["type"] == "state"
    client.close()
