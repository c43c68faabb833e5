"""Long runs keep what they finished: a tournament or ladder stopped by its time limit or by
Ctrl-C prints and saves the table of the games finished (and a ladder publishes nothing); the
"hands won" column counts hands a side won alone."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import parlour.sim.executors as executors
from parlour import games
from parlour.cli import app
from parlour.sim.tournament import GameResult, Tournament, hand_winners, summarize
from tests.support import needs

runner = CliRunner()
TOURNAMENT = ["tournament", "samba", "--max-hands", "1", "--workers", "1"]


def _interrupt_after(monkeypatch: pytest.MonkeyPatch, games_done: int) -> list[int]:
    """Ctrl-C while game ``games_done + 1`` is being played (in this process)."""
    real = executors.run_game
    calls = [0]

    def run_game(variant: Any, spec: Any) -> GameResult:
        calls[0] += 1
        if calls[0] > games_done:
            raise KeyboardInterrupt
        return real(variant, spec)

    monkeypatch.setattr(executors, "run_game", run_game)
    return calls


def _slow_clock(monkeypatch: pytest.MonkeyPatch, seconds_per_game: float) -> None:
    """Every game takes ``seconds_per_game`` on ``time.monotonic``'s clock."""
    real = executors.run_game
    offset = [0.0]
    monotonic = time.monotonic

    def run_game(variant: Any, spec: Any) -> GameResult:
        offset[0] += seconds_per_game
        return real(variant, spec)

    monkeypatch.setattr(executors, "run_game", run_game)
    monkeypatch.setattr(time, "monotonic", lambda: monotonic() + offset[0])


def test_run_specs_returns_the_games_finished_at_ctrl_c(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _interrupt_after(monkeypatch, 3)
    tour = Tournament(games.get("samba", max_hands=1), ["basic", "random"], games=8)
    results = tour.run(workers=1)
    assert [r.index for r in results] == [0, 1, 2]
    assert calls[0] == 4


def test_run_specs_stops_at_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    _slow_clock(monkeypatch, 100.0)
    tour = Tournament(games.get("samba", max_hands=1), ["basic", "random"], games=8)
    results = tour.run(workers=1, deadline=time.monotonic() + 250.0)
    assert len(results) == 3  # started at 0, 100, 200; at 300 the deadline has passed


def test_pool_stops_at_the_deadline() -> None:
    # a real pool and a real clock: a deadline already past abandons every game ...
    tour = Tournament(games.get("samba", "bolivia"), ["basic", "random"], games=2000)
    assert tour.run(workers=2, deadline=time.monotonic() - 1.0) == []
    # ... and a short one stops long before 2,000 whole Bolivia matches are played (the compiled
    # basic bots play about a hundred a second on two idle cores: twenty were all done in 0.3 s)
    started = time.monotonic()
    results = tour.run(workers=2, deadline=time.monotonic() + 0.3)
    assert len(results) < 2000
    assert time.monotonic() - started < 15


def test_tournament_time_limit_prints_and_saves_the_games_finished(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _slow_clock(monkeypatch, 100.0)
    out = tmp_path / "partial.json"
    args = [*TOURNAMENT, "--bots", "basic,random", "--games", "10", "--time-limit", "250"]
    result = runner.invoke(app, [*args, "--save", str(out)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "stopped (time limit) after 3 of 10 games" in text
    assert "win rate" in text and "basic" in text
    saved = json.loads(out.read_text())
    assert saved["games"] == 3 and saved["planned"] == 10
    assert saved["stopped"] == "stopped (time limit) after 3 of 10 games"
    assert len(saved["games_played"]) == 3
    assert saved["results"]["basic"]["games"] == 3


def test_tournament_ctrl_c_saves_to_a_named_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _interrupt_after(monkeypatch, 2)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    result = runner.invoke(app, [*TOURNAMENT, "--bots", "basic,random", "--games", "5"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "stopped (Ctrl-C) after 2 of 5 games" in text
    (saved,) = tmp_path.glob("parlour-tournament-samba-*.json")
    assert f"results saved to {saved}" in text
    data = json.loads(saved.read_text())
    assert [g["index"] for g in data["games_played"]] == [0, 1]


def test_a_finished_tournament_saves_only_when_asked(tmp_path: Path) -> None:
    out = tmp_path / "all.json"
    args = [*TOURNAMENT, "--bots", "basic,random", "--games", "2", "--save", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "stopped" not in result.output
    data = json.loads(out.read_text())
    assert data["games"] == data["planned"] == 2 and "stopped" not in data


def test_tournament_refuses_a_negative_time_limit() -> None:
    result = runner.invoke(app, [*TOURNAMENT, "--bots", "basic,random", "--time-limit", "-1"])
    assert result.exit_code == 2 and "--time-limit" in result.output


def test_ladder_time_limit_prints_saves_and_publishes_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    needs.module("matplotlib", needs.PLOT)  # the ladder's plots
    _slow_clock(monkeypatch, 100.0)
    out = tmp_path / "ladder-partial.json"
    docs = tmp_path / "docs"
    args = ["ladder", "scat", "--bots", "random,basic", "--games", "3", "--workers", "1"]
    result = runner.invoke(
        app, [*args, "--time-limit", "150", "--save", str(out), "--docs", str(docs)]
    )
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "scat: stopped (time limit) after 2 of 6 games" in text
    assert "rating" in text and "nothing was published" in text
    assert not docs.exists()
    saved = json.loads(out.read_text())
    assert saved["meta"]["games"] == 2 and saved["meta"]["planned"] == 6
    assert sum(p["games"] for p in saved["pairs"]) == 2


def _result(hands: list[tuple[float, ...]], labels: tuple[str, ...]) -> GameResult:
    return GameResult(
        index=0,
        deal=0,
        rotation=0,
        seed=1,
        seating=labels,
        side_labels=labels,
        scores=(0.0,) * len(labels),
        winners=(0,),
        hands=tuple(hands),
        termination="last_player",
        decisions=10,
    )


def test_hands_won_counts_a_hand_won_alone() -> None:
    # Scat (lives): everyone but the loser scores 0 — nobody won those hands; a 31 (everyone
    # else loses a life) and a heads-up hand have a winner
    labels = ("basic", "random", "strong", "greedy")
    hands = [(0.0, 0.0, -1.0, 0.0), (0.0, -1.0, -1.0, -1.0), (0.0, 0.0, 0.0, -2.0), (-1.0, 0.0)]
    hands[3] = (-1.0, 0.0, -1.0, -1.0)
    summary = summarize([_result(hands, labels)])["bots"]
    assert summary["basic"]["hands_won"] == 1
    assert summary["random"]["hands_won"] == 1
    assert summary["strong"]["hands_won"] == 0
    assert summary["greedy"]["hands_won"] == 0
    assert summary["basic"]["hands"] == 4
    # two sides: the higher hand score wins, a tie is nobody's
    two = summarize([_result([(1200.0, 300.0), (500.0, 500.0)], ("basic", "random"))])["bots"]
    assert (two["basic"]["hands_won"], two["random"]["hands_won"]) == (1, 0)


def test_hand_winners_leave_out_the_players_already_out() -> None:
    from parlour.core.game import HandResult, Outcome

    sides = ((0,), (1,), (2,))
    hands = (
        HandResult(0, (0.0, 0.0, -1.0), note="hand_over", note_data={"out": ()}),
        HandResult(1, (0.0, -1.0, 0.0), note="hand_over", note_data={"out": (1,)}),
        # seat 1 is out: its 0 does not tie with seat 0, who survives the heads-up hand
        HandResult(2, (0.0, 0.0, -1.0), note="hand_over", note_data={"out": (2,)}),
    )
    outcome = Outcome(
        sides=sides,
        scores=(1.0, 0.0, 0.0),
        winners=(0,),
        finished=True,
        termination="last_player",
        hands=hands,
    )
    assert hand_winners(outcome) == (-1, -1, 0)


def test_scat_tournament_hands_won_is_not_every_hand_survived() -> None:
    # the issue: basic 98/106 and strong 103/106 — every hand a player did not lose
    variant = games.get("scat", players=4)
    results = Tournament(variant, ["basic", "random"], games=4, seed=3).run(workers=1)
    bots = summarize(results)["bots"]
    for row in bots.values():
        assert row["hands_won"] < row["hands"] / 2
    won = 0
    for res in results:
        assert len(res.hand_won_by) == len(res.hands)
        for side, scores in zip(res.hand_won_by, res.hands, strict=True):
            if side >= 0:
                won += 1
                assert scores[side] == max(scores)
    # the last hand of every match is heads-up (or a 31): someone won it
    assert all(res.hand_won_by[-1] >= 0 for res in results)
    assert sum(row["hands_won"] for row in bots.values()) == won
