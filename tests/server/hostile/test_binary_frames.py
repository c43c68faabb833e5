"""Binary WebSocket frames that are not UTF-8 (issue 31, hole 9): they were decoded with
replacement characters (a ping's ``t`` came back as ``"\\ufffd"``); they are refused with
``bad_json``, and the connection stays."""

from __future__ import annotations

import pytest

from tests.server.conftest import LiveServer


@pytest.mark.parametrize(
    "frame",
    [
        b'{"type": "ping", "t": "\xff"}',
        b"\xff\xfe{}",
        b'{"type": "ping", "t": "\xed\xa0\x80"}',  # a surrogate encoded as UTF-8: not UTF-8
        b'{"type": "ping", "t": "\xc3"}',  # cut in the middle of a character
    ],
)
def test_a_binary_frame_that_is_not_utf8_is_refused(server: LiveServer, frame: bytes) -> None:
    t = server.create(game="toy", players=2)
    c = server.ws(t["code"], t["you"]["token"])
    c.until("state")
    c.conn.send(frame)
    err = c.until("error")
    assert err["code"] == "bad_json" and "UTF-8" in err["message"]
    assert not any(m["type"] == "pong" for m in c.messages)
    # the connection stays, and a binary frame of UTF-8 text is read as text
    c.conn.send('{"type": "ping", "t": "é"}'.encode())
    assert c.until("pong")["t"] == "é"
    c.close()
