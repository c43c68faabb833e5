"""The strength ladder: the Bradley–Terry fit, a tiny round robin end to end, the command."""

from __future__ import annotations

import json
import math
import os
import pickle
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from parlour.cli import app
from parlour.sim.ladder import (
    LadderResult,
    ladder_plan,
    ladder_variant,
    load_all,
    publish,
    run_ladder,
    tally,
)
from parlour.sim.stats import ELO_PER_NAT, bradley_terry
from parlour.sim.tournament import GameResult, summarize

runner = CliRunner()
PNG = b"\x89PNG\r\n\x1a\n"


def _need_matplotlib() -> None:
    """The page's plots need the ``plot`` extra; under CI it must be installed."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("matplotlib (the plot extra) is not installed; CI=true requires it")
        pytest.skip("matplotlib (the plot extra) is not installed")


def test_bradley_terry_recovers_known_strengths() -> None:
    true_elo = {"a": -300.0, "b": -60.0, "c": 40.0, "d": 320.0}
    rng = random.Random(7)
    results: dict[tuple[str, str], float] = {}
    names = list(true_elo)
    for i, x in enumerate(names):
        for y in names[i + 1 :]:
            p = 1 / (1 + math.exp((true_elo[y] - true_elo[x]) / ELO_PER_NAT))
            wins = sum(rng.random() < p for _ in range(1500))
            results[(x, y)] = wins
            results[(y, x)] = 1500 - wins
    fitted = {r.name: r for r in bradley_terry(results, names, prior=0)}
    mean_true = sum(true_elo.values()) / len(true_elo)
    for name, elo in true_elo.items():
        r = fitted[name]
        assert r.elo == pytest.approx(elo - mean_true, abs=3.5 * r.stderr)
        assert abs(r.elo - (elo - mean_true)) < 40
        assert 3 < r.stderr < 20  # ~1,500 games per pair: about ±5–10 Elo
    assert sum(r.elo for r in fitted.values()) == pytest.approx(0, abs=1e-6)
    # the order is recovered and the intervals separate neighbours 100+ Elo apart
    order = sorted(fitted, key=lambda n: fitted[n].elo)
    assert order == ["a", "b", "c", "d"]
    assert fitted["b"].interval[1] < fitted["c"].interval[1]
    assert fitted["a"].interval[1] < fitted["b"].interval[0]


def test_bradley_terry_intervals_cover_the_truth() -> None:
    """Over 60 synthetic round robins the 95 % intervals (Fisher information, sum-zero
    centring) hold the true centred rating about 95 % of the time."""
    true_elo = {"a": -200.0, "b": 0.0, "c": 150.0}
    names = list(true_elo)
    mean_true = sum(true_elo.values()) / 3
    rng = random.Random(11)
    covered = total = 0
    for _ in range(60):
        results: dict[tuple[str, str], float] = {}
        for i, x in enumerate(names):
            for y in names[i + 1 :]:
                p = 1 / (1 + math.exp((true_elo[y] - true_elo[x]) / ELO_PER_NAT))
                wins = sum(rng.random() < p for _ in range(120))
                results[(x, y)], results[(y, x)] = wins, 120 - wins
        for r in bradley_terry(results, names, prior=0):
            lo, hi = r.interval
            covered += lo <= true_elo[r.name] - mean_true <= hi
            total += 1
    assert 0.88 <= covered / total <= 0.995


def test_tally_counts_wins_draws_and_sides() -> None:
    bots = ["x", "y", "z"]
    owners = [("x", "y"), ("x", "y"), ("x", "z"), ("y", "z")]

    def game(i: int, labels: tuple[str, str], winners: tuple[int, ...]) -> GameResult:
        return GameResult(
            i, 0, 0, 1, labels, labels, (0.0, 0.0), winners, (), "", 10, kind="finished"
        )

    results = [
        game(0, ("x", "y"), (0,)),  # x wins
        game(1, ("y", "x"), (1,)),  # x wins with the sides swapped
        game(2, ("x", "z"), ()),  # drawn
        game(3, ("z", "y"), (0,)),  # z wins
    ]
    pairs, ratings = tally(bots, owners, results)
    xy, xz, yz = pairs
    assert (xy.games, xy.a_wins, xy.b_wins, xy.draws) == (2, 2, 0, 0)
    assert (xz.games, xz.a_score, xz.a_rate) == (1, 0.5, 0.5)
    assert (yz.a_wins, yz.b_wins) == (0, 1)
    assert ratings["x"]["elo"] > ratings["y"]["elo"]
    assert ratings["x"]["lo"] < ratings["x"]["elo"] < ratings["x"]["hi"]


def test_tally_counts_a_win_of_either_seat_of_a_bot_taking_turns_round_the_table() -> None:
    # 4-player Cheat: every player is a side; bot x at seats 0 and 2, y at 1 and 3 (then swapped)
    bots, owners = ["x", "y"], [("x", "y")] * 3
    xyxy, yxyx = ("x", "y", "x", "y"), ("y", "x", "y", "x")
    scores = (0.0, -3.0, -6.0, -2.0)  # seats 0 and 2 average -3, seats 1 and 3 -2.5

    def game(i: int, labels: tuple[str, ...], winners: tuple[int, ...]) -> GameResult:
        return GameResult(i, i, 0, 1, labels, labels, scores, winners, (), "", 10)

    results = [game(0, xyxy, (2,)), game(1, yxyx, (2,)), game(2, yxyx, (1,))]
    (pair,), _ = tally(bots, owners, results)
    assert (pair.games, pair.a_wins, pair.b_wins, pair.draws) == (3, 2, 1, 0)
    summary = summarize(results)["bots"]
    assert (summary["x"]["games"], summary["x"]["wins"]) == (3, 2)
    assert (summary["y"]["games"], summary["y"]["wins"]) == (3, 1)
    # a team's score difference: its mean against the other team's (x at 0 and 2 once, at 1 and 3
    # twice; one deal each)
    assert summary["x"]["mean_score_diff"] == pytest.approx((-0.5 + 0.5 + 0.5) / 3)


def test_cheat_ladder_seats_two_bots_alternately_at_four_seats() -> None:
    variant = ladder_variant("cheat")
    assert variant.rules.players == 4
    specs, _ = ladder_plan(variant, ["random", "basic"], 1, seed=3)
    assert [s.seating for s in specs] == [
        ("random", "basic", "random", "basic"),
        ("basic", "random", "basic", "random"),
    ]
    (pair,) = run_ladder("cheat", ["random", "basic"], deals=3, seed=1, workers=1).pairs
    assert pair.games == 6 and pair.a_wins + pair.b_wins + pair.draws == 6
    assert pair.b_wins >= 5  # basic outplays random at a 4-player table too


def test_plan_gives_every_pair_the_same_duplicate_deals() -> None:
    variant = ladder_variant("samba")
    specs, owners = ladder_plan(variant, ["random", "basic", "strong:10it"], 2, seed=3)
    assert len(specs) == 3 * 2 * 2 and [s.index for s in specs] == list(range(12))
    by_pair: dict[tuple[str, str], list[int]] = {}
    for s, o in zip(specs, owners, strict=True):
        by_pair.setdefault(o, []).append(s.seed)
    seeds = list(by_pair.values())
    assert all(v == seeds[0] for v in seeds) and seeds[0][0] == seeds[0][1]
    assert specs[0].seating == ("random", "basic", "random", "basic")
    assert specs[1].seating == ("basic", "random", "basic", "random")
    with pytest.raises(ValueError, match="must differ"):
        ladder_plan(variant, ["basic", "basic"], 1, 0)
    with pytest.raises(ValueError, match="no ladder"):
        ladder_variant("bridge")


@pytest.mark.parametrize("game", ["samba", "handfoot", "cheat", "scat"])
def test_ladder_variants_pickle_for_the_process_pool(game: str) -> None:
    # the pool sends the variant to every worker: no lambdas in a game's entry
    variant = ladder_variant(game)
    assert pickle.loads(pickle.dumps(variant)).rules == variant.rules


def test_tiny_ladder_writes_page_and_png_and_is_reproducible(tmp_path: Path) -> None:
    _need_matplotlib()
    first = run_ladder("samba", ["random", "basic"], deals=2, seed=5, workers=1)
    again = run_ladder("samba", ["random", "basic"], deals=2, seed=5, workers=2)  # a pool
    assert first.to_json() == again.to_json()
    (pair,) = first.pairs
    assert (pair.a, pair.b, pair.games) == ("random", "basic", 4)
    assert pair.b_wins == 4  # basic beats random at every one-hand game
    assert first.endings == {"capped": 4}
    assert first.ratings["basic"]["elo"] > 0 > first.ratings["random"]["elo"]
    first.meta = {"command": "test", "date": "today", "machine": "here"}
    page, png = publish(first, tmp_path)
    assert png is not None and png.read_bytes()[:8] == PNG
    assert png == tmp_path / "img" / "ladder-samba.png"
    text = page.read_text()
    assert "## Samba" in text and "](img/ladder-samba.png)" in text
    assert "| `random` | `basic` | 4 | 0 | 4 | 0 | 0.0 % | [0.0 %, 49.0 %] |" in text
    assert "Command: `test`" in text and "today on here" in text
    # a second game adds its section and keeps the first
    scat = run_ladder("scat", ["random", "basic"], deals=1, seed=5, workers=1)
    publish(scat, tmp_path)
    text = page.read_text()
    assert text.index("## Samba") < text.index("## Scat")
    assert [r.game for r in load_all(tmp_path)] == ["samba", "scat"]
    saved = json.loads((tmp_path / "ladder" / "samba.json").read_text())
    assert LadderResult.from_json(saved).to_json() == first.to_json()


def test_cli_writes_the_page(tmp_path: Path) -> None:
    _need_matplotlib()
    args = ["ladder", "cheat", "--bots", "random,basic", "--games", "1", "--workers", "1"]
    result = runner.invoke(app, [*args, "--seed", "2", "--docs", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "rating" in result.output and "basic" in result.output
    text = (tmp_path / "ladder.md").read_text()
    assert "## Cheat" in text
    assert "uv run parlour ladder cheat --bots random,basic --games 1 --seed 2" in text
    assert (tmp_path / "img" / "ladder-cheat.png").read_bytes()[:8] == PNG
    # --render rewrites the page and PNG from the saved results, with a hand-added note kept
    data = json.loads((tmp_path / "ladder" / "cheat.json").read_text())
    data["meta"]["note"] = "machine shared with other work"
    (tmp_path / "ladder" / "cheat.json").write_text(json.dumps(data))
    (tmp_path / "img" / "ladder-cheat.png").unlink()
    result = runner.invoke(app, ["ladder", "--render", "--docs", str(tmp_path)])
    assert result.exit_code == 0, result.output
    rendered = (tmp_path / "ladder.md").read_text()
    note = "\n- Note: machine shared with other work\n\nRatings ("
    assert rendered == text.replace("\n\nRatings (", note, 1)
    assert (tmp_path / "img" / "ladder-cheat.png").read_bytes()[:8] == PNG


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "name one game or give --all"),
        (["samba", "--all"], "name one game or give --all"),
        (["bridge"], "no ladder for 'bridge'"),
        (["scat", "--bots", "random,nobody"], "no bot 'nobody'"),
        (["scat", "--bots", "basic,basic"], "must differ"),
        (["scat", "--games", "0"], "at least 1"),
        (["scat", "--executor", "mpi"], "unknown executor"),
        (["--render"], "no saved ladder"),
    ],
)
def test_cli_refuses_bad_requests(tmp_path: Path, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["ladder", *args, "--docs", str(tmp_path)])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
    assert not (tmp_path / "ladder.md").exists()


@pytest.mark.ray
def test_ray_ladder_matches_the_process_pool() -> None:
    local = run_ladder("scat", ["random", "basic"], deals=2, seed=1, workers=1)
    ray = run_ladder("scat", ["random", "basic"], deals=2, seed=1, executor="ray", workers=2)
    assert ray.to_json() == local.to_json()
