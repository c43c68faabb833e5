"""The worked example keeps working: a tiny run trains, evaluates with an interval and writes
its learning curve."""

from __future__ import annotations

from pathlib import Path

from tests.rl.conftest import need
from tests.support.scripts import load_script

need("gymnasium")

import numpy as np  # noqa: E402


def _load():  # type: ignore[no-untyped-def]
    return load_script("examples/train_scat.py", "train_scat")


def test_tiny_training_run(tmp_path: Path) -> None:
    ex = _load()
    policy, history = ex.train(episodes=30, seed=3, block=15, log=False, scale_matches=3)
    assert history.matches == [0, 15, 30]
    assert all(0.0 <= w <= 1.0 for w in history.win_rate)
    assert np.abs(policy.w).sum() > 0  # it learned something
    wins, n, (lo, hi) = ex.evaluate(policy, 10)
    assert n == 10 and 0 <= wins <= 10 and lo <= wins / n <= hi
    out = tmp_path / "curve.png"
    ex.plot(history, out, "tiny")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_wilson_interval() -> None:
    ex = _load()
    lo, hi = ex.wilson(880, 1000)
    assert 0.85 < lo < 0.88 < hi < 0.91
    assert ex.wilson(0, 0) == (0.0, 1.0)


def test_main_reports_the_median_and_range_over_seeds(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    ex = _load()
    out = tmp_path / "c.png"
    args = ["--episodes", "10", "--eval", "5", "--block", "5", "--scale-matches", "2"]
    assert ex.main([*args, "--seeds", "3", "--seed", "7", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    lines = [line for line in text.splitlines() if line.startswith("seed ")]
    assert [line.split(":")[0] for line in lines] == ["seed 7", "seed 8", "seed 9"]
    assert all("95 % interval" in line for line in lines)
    rates = sorted(float(line.split(" = ")[1].split()[0]) for line in lines)
    summary = f"median win rate against random over 3 seeds: {rates[1]:.3f} "
    summary += f"(range {rates[0]:.3f}-{rates[2]:.3f})"
    assert summary in text
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_default_plot_goes_to_the_temporary_folder(
    tmp_path: Path,
    monkeypatch,  # type: ignore[no-untyped-def]
) -> None:
    import tempfile

    ex = _load()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    monkeypatch.chdir(tmp_path)
    args = ["--episodes", "5", "--eval", "2", "--block", "5", "--scale-matches", "1"]
    assert ex.main([*args, "--seeds", "1"]) == 0
    assert (tmp_path / "tmp" / "scat_learning_curve.png").exists()
    assert not list(tmp_path.glob("*.png"))  # nothing in the current directory


def test_summary_is_the_median_and_range() -> None:
    ex = _load()
    results = [
        ex.SeedResult(s, w, 1000, (0.0, 1.0), ex.History()) for s, w in enumerate([887, 803, 852])
    ]
    assert ex.summary(results) == (
        "median win rate against random over 3 seeds: 0.852 (range 0.803-0.887)"
    )
