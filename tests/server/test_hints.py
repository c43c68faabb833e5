"""Hints and post-hand reviews over the WebSocket (issue 19).

The hint is computed from the seat's view only: with the same view and a different deal of the
cards the seat cannot see (``game.determinize`` of its view), the answer is the same, message for
message (the search's seed is fixed by the table, the version and the seat; its budget is a
number of play-outs, so it does not depend on the machine's speed)."""

from __future__ import annotations

import itertools
import random
import time
from typing import Any

import pytest

from tests.server.conftest import Client, LiveServer, live_server


def _my_turn(c: Client) -> dict[str, Any]:
    while c.state is None or not c.state["your_turn"]:
        c.until("state")
    return c.state


def _hand_over_or_my_turn(c: Client) -> dict[str, Any]:
    while True:
        s = c.state
        if s is not None and (
            s["your_turn"] or s["status"] != "playing" or (s["outcome"] or {}).get("hands")
        ):
            return s
        c.until("state")


def _hint(c: Client) -> dict[str, Any]:
    c.send({"type": "hint"})
    while True:
        msg = c.recv()
        if msg["type"] in ("hint", "error"):
            return msg


@pytest.mark.parametrize(
    ("game", "processes"), [("samba", 0), ("scat", 0), ("handfoot", 0), ("samba", 1)]
)
def test_hint_does_not_depend_on_hidden_cards(game: str, processes: int) -> None:
    """With ``processes`` bot worker processes the search runs in a worker, not a thread."""
    with live_server(hint_iterations=24, hint_interval=0.0, bot_processes=processes) as server:
        if processes:
            # the threads are gone: only a worker process can answer
            server.app.state.server.bot_pool.shutdown()
        t = server.create(game=game)
        assert t["hints"] is True  # one human seat: hints are on by default
        me = t["you"]
        c = server.ws(t["code"], me["token"])
        state = _my_turn(c)
        first = _hint(c)
        assert first["type"] == "hint", first
        assert first["version"] == state["version"]
        legal = [x["action"] for x in state["legal"]]
        assert first["move"] in legal
        assert 2 <= len(first["options"]) <= 4 or len(legal) == 1
        for o in first["options"]:
            assert o["action"] in legal and o["text"] and o["reason"]
            assert 0.0 <= o["value"] <= 1.0
        values = [o["value"] for o in first["options"]]
        assert values == sorted(values, reverse=True)
        assert first["text"] == first["options"][0]["text"]
        # ranks: 1 for the suggestion, then never down and never by more than one (tiers of
        # moves within the search's noise, parlour.bots.advice.tiers)
        ranks = [o["rank"] for o in first["options"]]
        assert ranks[0] == 1
        assert all(b in (a, a + 1) for a, b in itertools.pairwise(ranks))
        # deal the cards the seat cannot see again, keeping its view: the same hint
        table = server.app.state.server.tables[t["code"]]
        g, seat = table.game, me["seat"]
        view = g.observe(table.state, seat)
        rng = random.Random(3)
        for _ in range(5):
            other = g.determinize(view, rng)
            if g.observe(other, seat) == view and other != table.state:
                break
        else:
            raise AssertionError("no different deal with the same view")
        table.state = other
        second = _hint(c)
        first.pop("seconds")
        second.pop("seconds")
        assert second == first
        c.close()


def test_hints_off_with_two_humans_unless_asked() -> None:
    with live_server(hint_iterations=12, hint_interval=0.0) as server:
        two = [{"kind": "human"}, {"kind": "human"}]
        t = server.create(game="scat", players=3, seats=[*two, {"kind": "bot", "bot": "basic"}])
        assert t["hints"] is False
        c = server.ws(t["code"], t["seats"][0]["token"])
        msg = _hint(c)
        assert msg["type"] == "error" and msg["code"] == "hints_off"
        c.close()
        on = server.create(game="scat", players=3, seats=[*two, {"kind": "bot"}], hints=True)
        assert on["hints"] is True
        off = server.create(game="scat", hints=False)
        assert off["hints"] is False


def test_hint_is_rate_limited_and_for_the_seat_to_act(server: LiveServer) -> None:
    with live_server(hint_iterations=12, hint_interval=30.0) as server:
        t = server.create(game="scat")
        c = server.ws(t["code"], t["you"]["token"])
        _my_turn(c)
        assert _hint(c)["type"] == "hint"
        again = _hint(c)
        assert again["type"] == "error" and again["code"] == "too_many"
        watcher = server.ws(t["code"])
        watcher.until("state")
        msg = _hint(watcher)
        assert msg["type"] == "error" and msg["code"] == "spectator"
        watcher.close()
        c.close()


@pytest.mark.parametrize("processes", [0, 1])
def test_review_after_a_hand(processes: int) -> None:
    """After a hand the player's decisions are searched again from the views they had; the
    ones where the search's own move was estimated better by more than the threshold are
    listed with both moves and the difference (in a bot worker process when there is one)."""
    with live_server(
        review_iterations=16, review_threshold=0.0, review_decisions=4, bot_processes=processes
    ) as server:
        if processes:
            server.app.state.server.work_pool.shutdown()
        t = server.create(game="scat", players=2, options={"lives": 1})
        c = server.ws(t["code"], t["you"]["token"])
        c.send({"type": "review"})
        first = c.until("review")
        assert first["hands"] == [] and first["pending"] is False
        rng = random.Random(4)
        while True:
            state = _hand_over_or_my_turn(c)
            if state["status"] != "playing" or state["outcome"]["hands"]:
                break
            # a careless player: moves at random
            c.act(rng.choice(state["legal"])["action"])
            c.until("state", version=state["version"] + 1)
        # The finished review may already have been pushed while the loop above waited for
        # states (and `until` skipped it), so ask for it until it is there.
        deadline = time.monotonic() + 90
        while True:
            c.send({"type": "review"})
            msg = c.until("review", timeout=60)
            if not msg["pending"] and msg["hands"]:
                break
            assert time.monotonic() < deadline, msg
            time.sleep(0.5)
        review = msg["hands"][0]
        assert review["hand"] == 1
        assert 1 <= review["checked"] <= 4
        assert review["decisions"] >= review["checked"]
        for r in review["remarks"]:
            assert r["played"]["text"] and r["better"]["text"]
            assert r["played"]["action"] != r["better"]["action"]
            assert r["difference"] > 0
            # beyond the search's noise: the move played is not of the suggestion's rank
            assert r["better"]["rank"] == 1 < r["played"]["rank"]
            assert r["difference"] == pytest.approx(
                r["better"]["value"] - r["played"]["value"], abs=0.002
            )
        c.close()
