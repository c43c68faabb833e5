"""Hostile table chat (issue 33): whatever a client sends as chat gets a clear refusal or is
shown harmlessly (the exact text, as text), and the connection stays."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.server.conftest import Client, LiveServer, live_server


def _table(server: LiveServer) -> tuple[str, Client, Client]:
    t = server.create(game="toy", players=2, seats=[{"kind": "human"}] * 2)
    a, b = (server.ws(t["code"], row["token"]) for row in t["seats"])
    for c in (a, b):
        c.until("welcome")
        c.until("state")
    return t["code"], a, b


def _refused(c: Client, message: Any, code: str) -> dict[str, Any]:
    c.send(message)
    err = c.until("error")
    assert err["code"] == code, err
    return err


def _still_talks(a: Client, b: Client) -> None:
    a.send({"type": "chat", "text": "still here"})
    assert b.until("chat")["text"] == "still here"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("x" * 10_000, "too_long"),
        ("y" * 201, "too_long"),
        ("", "bad_chat"),
        ("   ", "bad_chat"),
        ("line\nbreak", "bad_chat"),
        ("bell\x07", "bad_chat"),
        ("nul\x00", "bad_chat"),
        ("esc\x1b[31mred", "bad_chat"),
        ("del\x7f", "bad_chat"),
        ("rtl \u202egnp.exe", "bad_chat"),
        (5, "bad_chat"),
        (None, "bad_chat"),
        (["a"], "bad_chat"),
        ({"a": "b"}, "bad_chat"),
        (True, "bad_chat"),
    ],
)
def test_bad_texts_are_refused_with_a_reason(db_url: str, text: Any, code: str) -> None:
    with live_server(db_url) as server:
        _, a, b = _table(server)
        err = _refused(a, {"type": "chat", "text": text}, code)
        assert err["message"] and err["request"]["type"] == "chat"
        _still_talks(a, b)
        # nothing of the refused one was journaled
        a.send({"type": "chat_log"})
        assert [m["text"] for m in a.until("chat_log")["messages"]] == ["still here"]


def test_lone_surrogates_and_nesting_are_refused_before_chat(server: LiveServer) -> None:
    _, a, b = _table(server)
    a.send('{"type": "chat", "text": "\\ud800 lone"}')
    assert a.until("error")["code"] == "bad_text"
    deep = {"type": "chat", "text": "x"}
    inner: Any = "deep"
    for _ in range(40):
        inner = {"n": inner}
    deep["text"] = inner
    a.send(json.dumps(deep))
    assert a.until("error")["code"] == "bad_json"
    a.send({"type": "chat", "text": {"n": {"n": {"n": "nested"}}}})
    assert a.until("error")["code"] == "bad_chat"
    a.send('{"type": "chat", "text": NaN}')
    assert a.until("error")["code"] == "bad_json"
    _still_talks(a, b)


def test_html_is_delivered_as_the_exact_text(server: LiveServer) -> None:
    """The server never rewrites a message: HTML arrives as the same characters, and the
    browser shows it with textContent (tests/web)."""
    _, a, b = _table(server)
    for text in (
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "[link](javascript:alert(1)) &amp; &lt;",
        "👨‍👩‍👧 family (ZWJ kept)",
    ):
        a.send({"type": "chat", "text": text})
        assert b.until("chat")["text"] == text


def test_a_flood_is_refused_after_five_in_ten_seconds(server: LiveServer) -> None:
    _, a, b = _table(server)
    for i in range(5):
        a.send({"type": "chat", "text": f"m{i}"})
        assert b.until("chat")["text"] == f"m{i}"
    for _ in range(50):
        a.send({"type": "chat", "text": "flood"})
    errors = [a.until("error") for _ in range(50)]
    assert {e["code"] for e in errors} == {"too_fast"}
    assert "try again in" in errors[0]["message"]
    # the other seat is not held back by A's flood
    b.send({"type": "chat", "text": "my turn to talk"})
    assert a.until("chat")["text"] == "my turn to talk"
    b.drain()
    assert not any(m["type"] == "chat" and m["text"] == "flood" for m in b.messages)


def test_quick_phrases_and_mutes_are_checked(server: LiveServer) -> None:
    _, a, b = _table(server)
    _refused(a, {"type": "chat", "text": "<b>hi</b>", "quick": True}, "bad_chat")
    _refused(a, {"type": "chat", "text": "Thanks", "quick": "yes"}, "bad_chat")
    for bad in (0, 7, -1, "1", None, True, 1.5, [1]):
        _refused(a, {"type": "chat_mute", "seat": bad}, "bad_chat")
    _refused(a, {"type": "chat_mute", "seat": 1, "mute": "yes"}, "bad_chat")
    for bad in ({"on": "no"}, {"silenced": "all"}, {"silenced": [9]}, {"silenced": [True]}, {}):
        _refused(a, {"type": "chat_settings", **bad}, "bad_chat")
    _refused(b, {"type": "chat_settings", "on": False}, "not_host")
    # a muted player writes on, is not told, and the one who muted never sees it
    a.send({"type": "chat_mute", "seat": 1, "mute": True})
    a.until("chat_muted")
    for i in range(3):
        b.send({"type": "chat", "text": f"muted {i}"})
        assert b.until("chat")["text"] == f"muted {i}"  # B sees its own messages
    a.send({"type": "chat_log"})
    assert a.until("chat_log")["messages"] == []
    assert not any(m["type"] == "chat" for m in a.messages)


def test_a_spectator_cannot_mute_or_set(server: LiveServer) -> None:
    code, _, _ = _table(server)
    w = server.ws(code)
    w.until("welcome")
    _refused(w, {"type": "chat_mute", "seat": 0}, "spectator")
    _refused(w, {"type": "chat_settings", "on": False}, "not_host")
    _refused(w, {"type": "chat", "text": "hello"}, "spectator")
