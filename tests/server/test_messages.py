"""Issue 21 item 4: a seat's state message is built once per version of the table and encoded
once for every connection that gets the same text (spectators, a player's second tab)."""

from __future__ import annotations

from typing import Any

import pytest

from parlour.server.connection import encode
from parlour.server.table import Table
from tests.server.conftest import LiveServer


def test_one_build_per_seat_and_version_whatever_the_connections(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = server.create(game="toy", players=2, seats=[{"kind": "human"}] * 2)
    code = t["code"]
    players = [server.ws(code, s["token"]) for s in t["seats"]]
    second_tab = server.ws(code, t["seats"][0]["token"])
    watchers = [server.ws(code) for _ in range(3)]
    everyone = [*players, second_tab, *watchers]
    for c in everyone:
        while c.state is None or c.state["status"] != "playing":
            c.until("state")
    built: list[Any] = []
    original = Table._build_payload

    def counting(self: Table, seat: int | None, lang: str = "en") -> dict[str, Any]:
        built.append(seat)
        return original(self, seat, lang)

    monkeypatch.setattr(Table, "_build_payload", counting)
    mover = next(c for c in players if c.state["your_turn"])  # type: ignore[index]
    version = mover.state["version"]  # type: ignore[index]
    mover.act(mover.state["legal"][0]["action"])  # type: ignore[index]
    for c in everyone:
        while c.until("state")["version"] != version + 1:
            pass
    # seats 0, 1 and the spectators: three payloads for six connections
    assert sorted(built, key=str) == sorted([0, 1, None], key=str)
    # the watchers got the very same text
    texts = {c.raw[-1] for c in watchers}
    assert len(texts) == 1
    # a sync of the same version builds nothing new
    watchers[0].send({"type": "sync"})
    watchers[0].until("state")
    assert len(built) == 3
    for c in everyone:
        c.close()


def test_encode_falls_back_for_what_orjson_refuses() -> None:
    assert encode({"a": 1, "b": [1.5, None, "é"]}) == '{"a":1,"b":[1.5,null,"é"]}'
    assert encode({"t": "\udfff"}) == '{"t": "\\udfff"}'  # a lone surrogate: escaped
    assert encode({"n": 1 << 70}) == f'{{"n": {1 << 70}}}'  # beyond 64 bits
    assert encode({1: "x"}) == '{"1":"x"}'
