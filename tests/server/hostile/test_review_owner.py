"""A stranger who takes a seat someone left must not read that player's post-hand reviews
(issue 31, hole 6): reviews belong to the person who played the hand, not to the seat."""

from __future__ import annotations

import random
import time

from tests.server.conftest import live_server
from tests.server.test_hints import _hand_over_or_my_turn


def test_a_stranger_taking_a_left_seat_gets_no_review_of_the_hand_before() -> None:
    with live_server(review_iterations=8, review_threshold=0.0, review_decisions=2) as server:
        t = server.create(
            game="scat",
            players=2,
            seats=[{"kind": "human", "open": True}, {"kind": "bot", "bot": "random"}],
        )
        code = t["code"]
        c = server.ws(code, t["you"]["token"])
        c.send({"type": "review"})
        c.until("review")
        rng = random.Random(7)
        while True:
            state = _hand_over_or_my_turn(c)
            if state["status"] != "playing" or state["outcome"]["hands"]:
                break
            c.act(rng.choice(state["legal"])["action"])
            c.until("state", version=state["version"] + 1)
        assert state["status"] == "playing", "the match must go on after the first hand"
        deadline = time.monotonic() + 90
        while True:  # the first player's review of hand 1 is ready
            c.send({"type": "review"})
            msg = c.until("review", timeout=60)
            if not msg["pending"] and msg["hands"]:
                break
            assert time.monotonic() < deadline, msg
            time.sleep(0.3)
        r = server.http.post(f"/api/tables/{code}/leave", json={"token": t["you"]["token"]})
        assert r.status_code == 200, r.text
        c.close()
        r = server.http.post(f"/api/tables/{code}/join", json={"seat": 0})
        assert r.status_code == 200, r.text
        stranger = server.ws(code, r.json()["token"])
        stranger.until("state")
        stranger.send({"type": "review"})
        got = stranger.until("review")
        assert got["seat"] == 0
        assert got["hands"] == [] and got["pending"] is False, got
        stranger.close()
