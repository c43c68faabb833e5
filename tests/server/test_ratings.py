"""Ratings (issue 33): OpenSkill over the outcome's sides, bots at fixed ladder ratings, a match
counted once."""

from __future__ import annotations

from typing import Any

import pytest

from parlour.server import ratings
from parlour.server.players import PlayerStore
from parlour.server.storage import open_storage


@pytest.fixture
def store() -> Any:
    s = open_storage("sqlite:///:memory:")
    yield PlayerStore(s)
    s.close()


def _samba(code: str, a: str, b: str, winners: list[int], bot: str) -> dict[str, Any]:
    """Two players partners at seats 0 and 2 against two bots at 1 and 3 (Samba's sides)."""
    return {
        "code": code,
        "game": "samba",
        "preset": "samba",
        "finished": 1000.0 + len(code),
        "rated": True,
        "players": {0: a, 2: b},
        "seats": [{"bot": None}, {"bot": bot}, {"bot": None}, {"bot": bot}],
        "result": {
            "players": [],
            "sides": [[0, 2], [1, 3]],
            "scores": [3000, 1200] if winners == [0] else [900, 3100],
            "winners": winners,
            "ranking": [*winners, 1 - winners[0]],
        },
    }


def test_partners_move_together_and_bots_stay(store: PlayerStore) -> None:
    a, _ = store.create("Anna")
    b, _ = store.create("Bea")
    assert ratings.record_match(store, _samba("M1", a.id, b.id, [0], "strong:1"))
    ra, rb = ratings.current(store, a.id, "samba"), ratings.current(store, b.id, "samba")
    assert ra == rb and ra[0] > ratings.MU and ra[1] < ratings.SIGMA and ra[2] == 1
    # beating the strongest bot is worth more than beating the weakest
    c, _ = store.create("Cleo")
    d, _ = store.create("Dan")
    ratings.record_match(store, _samba("M2", c.id, d.id, [0], "random"))
    assert ratings.current(store, c.id, "samba")[0] < ra[0]
    # losing to random bots costs the most
    ratings.record_match(store, _samba("M3x", a.id, b.id, [1], "random"))
    after = ratings.current(store, a.id, "samba")
    assert after[0] < ra[0] and after[2] == 2
    # a bot's rating is the ladder's, whatever happened
    assert ratings.bot_rating("samba", "strong:1")[0] > ratings.bot_rating("samba", "random")[0]
    assert not store._q("SELECT 1 FROM parlour_ratings WHERE player IN ('random', 'strong:1')")


def test_a_match_counts_once(store: PlayerStore) -> None:
    a, _ = store.create("Anna")
    b, _ = store.create("Bea")
    info = _samba("M1", a.id, b.id, [0], "basic")
    assert ratings.record_match(store, info) is True
    once = ratings.current(store, a.id, "samba")
    assert ratings.record_match(store, info) is False
    assert ratings.current(store, a.id, "samba") == once
    assert store.game_counts(a.id) == {"samba": {"played": 1, "won": 1}}
    page = ratings.of_player(store, a.id)
    assert page["samba"]["matches"] == 1 and len(page["samba"]["history"]) == 1


def test_leaderboard_needs_five_rated_matches(store: PlayerStore) -> None:
    a, _ = store.create("Anna")
    b, _ = store.create("Bea")
    for i in range(4):
        ratings.record_match(store, _samba(f"L{i}", a.id, b.id, [0], "basic"))
    assert ratings.leaders(store, "samba") == []
    ratings.record_match(store, _samba("L4", a.id, b.id, [0], "basic"))
    board = ratings.leaders(store, "samba")
    assert sorted(row["name"] for row in board) == ["Anna", "Bea"]
    assert all(row["matches"] == 5 and row["rank"] in (1, 2) for row in board)
