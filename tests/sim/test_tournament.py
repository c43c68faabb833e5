"""Tournaments: seating by side, duplicate deals, reproducible results on every executor."""

from __future__ import annotations

from typing import Any

import pytest

from parlour import games
from parlour.sim.match import play_match
from parlour.sim.tournament import (
    RunningTally,
    Tournament,
    plan,
    running_text,
    seatings,
    summarize,
    team_won,
    teams,
)
from tests.bots.toygame import toy_variant


def test_bots_sit_by_side_and_rotate() -> None:
    v = toy_variant(4)
    assert seatings(v, ["A", "B"]) == [("A", "B", "A", "B"), ("B", "A", "B", "A")]
    per_seat = seatings(v, ["A", "B", "C", "D"])
    assert per_seat[0] == ("A", "B", "C", "D") and per_seat[1] == ("D", "A", "B", "C")
    with pytest.raises(ValueError, match="one bot per side"):
        seatings(v, ["A", "B", "C"])


def test_fewer_bots_than_sides_take_turns_round_the_table() -> None:
    v = games.get("cheat", None, 4)  # every player a side of its own
    assert seatings(v, ["A", "B"]) == [("A", "B", "A", "B"), ("B", "A", "B", "A")]
    with pytest.raises(ValueError, match="divides the sides"):
        seatings(v, ["A", "B", "C"])
    assert teams(("A", "B", "A", "B")) == [("A", (0, 2)), ("B", (1, 3))]
    assert teams(("A", "A")) == [("A", (0,)), ("A", (1,))]  # self-play: every side on its own
    assert team_won((0, 2), (2,)) and not team_won((1, 3), (2,))


def test_duplicate_plan_replays_each_deal_rotated() -> None:
    v = toy_variant(4)
    specs = plan(v, ["A", "B"], 3, seed=7, duplicate=True)
    assert len(specs) == 6
    for first, second in zip(specs[::2], specs[1::2], strict=True):
        assert first.seed == second.seed and first.deal == second.deal
        assert first.seating != second.seating
    assert len({s.seed for s in specs}) == 3
    plain = plan(v, ["A", "B"], 4, seed=7)
    assert [s.rotation for s in plain] == [0, 1, 0, 1]
    with pytest.raises(ValueError, match="at least 1"):
        plan(v, ["A", "B"], 0)


def test_duplicate_random_self_play_is_balanced() -> None:
    v = toy_variant(2)
    res = Tournament(v, ["random", "random"], games=10, duplicate=True).run(workers=1)
    s = summarize(res)
    assert s["games"] == 20 and s["deals"] == 10
    assert s["bots"]["random"]["games"] == 40  # both sides are "random"
    assert s["bots"]["random"]["mean_score_diff"] == pytest.approx(0.0)


def test_recorded_seed_and_seating_replay_the_game() -> None:
    v = toy_variant(4)
    res = Tournament(v, ["strong:10it", "random"], games=2, seed=3, duplicate=True).run(workers=1)
    for r in res:
        again = play_match(v, r.seed, r.seating)
        assert tuple(again.outcome.scores) == r.scores


def test_results_are_the_same_inline_and_in_a_process_pool() -> None:
    v = toy_variant(4)
    tour = Tournament(v, ["strong:10it", "random"], games=4, seed=5, duplicate=True)
    inline = tour.run(workers=1)
    pooled = tour.run(workers=2)
    assert inline == pooled
    assert summarize(inline) == summarize(pooled)
    text = running_text(inline)
    assert "random" in text and "strong:10it" in text
    tally = RunningTally()  # kept up game by game, as the progress bar does
    for i, res in enumerate(inline):
        tally.add(res)
        assert tally.text() == running_text(inline[: i + 1])


def test_executor_errors_are_clear() -> None:
    tour = Tournament(toy_variant(2), ["random", "random"], games=1)
    with pytest.raises(ValueError, match="unknown executor"):
        tour.run(executor="slurm")
    with pytest.raises(ValueError, match="only used with --executor ray"):
        tour.run(address="ray://x:1")
    with pytest.raises(ValueError, match="at least 1"):
        tour.run(workers=0)


def test_the_basic_bots_see_the_cheap_view_and_play_the_same_matches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The runner shows the game's own basic bot the play-out view (``SearchHints.rollout_view``)
    instead of ``observe``'s: the same matches, action by action, as with ``observe`` for all;
    a subclass of the basic bot (it may read more of the view) and bots without a declared view
    still get ``observe``, the random bot none."""
    from parlour.games.samba.bot import FastView, SambaBasicBot
    from parlour.sim import match

    class Mine(SambaBasicBot):
        pass

    v = games.get("samba", "samba", max_hands=2)
    game = v.game
    bots = [
        SambaBasicBot(game, 0),
        Mine(game, 1),
        match.make_bots(v, ["random"], 0)[0],
        SambaBasicBot(game, 3),
    ]
    makers = match.view_makers(v, bots)
    state = v.new_game(3)
    assert isinstance(makers[0](state, 0), FastView)  # type: ignore[misc]
    assert makers[1] == game.observe and makers[2] is None
    cheat = games.get("cheat", None, 4)  # no play-out view declared
    assert match.view_makers(cheat, bots[:1]) == [cheat.game.observe]

    def observed(variant: Any, bots: list[Any]) -> list[Any]:
        return [variant.game.observe if b.needs_view else None for b in bots]

    for names, seed in ((["basic", "random"], 5), (["basic", "basic"], 6)):
        fast = play_match(v, seed, names)
        with monkeypatch.context() as m:
            m.setattr(match, "view_makers", observed)
            slow = play_match(v, seed, names)
        assert fast.record.actions == slow.record.actions and len(fast.record.actions) > 100
        assert fast.outcome.scores == slow.outcome.scores
