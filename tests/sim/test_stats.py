"""Confidence intervals and ratings against values computed by hand."""

from __future__ import annotations

import math

import pytest

from parlour.sim.stats import Z95, bradley_terry, mean_interval, wilson


def test_wilson_matches_hand_computation() -> None:
    # p = 0.8, n = 10, z = 1.96: centre (0.8 + z²/20) / (1 + z²/10), half-width
    # z·sqrt(p(1-p)/n + z²/400) / (1 + z²/10)
    z2 = Z95**2
    centre = (0.8 + z2 / 20) / (1 + z2 / 10)
    half = Z95 * math.sqrt(0.016 + z2 / 400) / (1 + z2 / 10)
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(centre - half) == pytest.approx(0.4902, abs=1e-4)
    assert hi == pytest.approx(centre + half) == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(1 - hi)
    with pytest.raises(ValueError, match="between 0 and n"):
        wilson(11, 10)


def test_mean_interval_matches_hand_computation() -> None:
    # mean 2.5, sample sd sqrt(5/3), standard error sqrt(5/3)/2
    m, lo, hi = mean_interval([1.0, 2.0, 3.0, 4.0])
    se = math.sqrt(5 / 3) / 2
    assert m == 2.5
    assert lo == pytest.approx(2.5 - Z95 * se)
    assert hi == pytest.approx(2.5 + Z95 * se)
    assert mean_interval([]) == (0.0, 0.0, 0.0)


def test_bradley_terry_two_players() -> None:
    # 30 wins to 10: strength ratio 3, Elo difference 400·log10(3) = 190.85, centred ±95.42;
    # Fisher information of the log-odds difference n·p·(1-p) = 40·0.75·0.25 = 7.5, so each
    # centred rating has s.e. (1/sqrt(7.5))/2 nats = 31.72 Elo
    a, b = bradley_terry({("a", "b"): 30, ("b", "a"): 10}, prior=0)
    assert a.elo == pytest.approx(200 * math.log10(3), abs=1e-6)
    assert b.elo == pytest.approx(-200 * math.log10(3), abs=1e-6)
    se = 0.5 / math.sqrt(7.5) * 400 / math.log(10)
    assert a.stderr == pytest.approx(se, rel=1e-6)
    assert a.interval[0] == pytest.approx(a.elo - Z95 * se)


def test_bradley_terry_prior_keeps_a_clean_sweep_finite() -> None:
    # 10-0 plus one virtual draw: 10.5 to 0.5, ratio 21
    a, b = bradley_terry({("a", "b"): 10, ("b", "a"): 0}, prior=1.0)
    assert a.elo - b.elo == pytest.approx(400 * math.log10(21), abs=1e-6)


def test_bradley_terry_three_players_cycle() -> None:
    # a beats b, b beats c, c beats a, equally often: everyone rated 0
    res = {("a", "b"): 3, ("b", "a"): 1, ("b", "c"): 3, ("c", "b"): 1, ("c", "a"): 3, ("a", "c"): 1}
    ratings = bradley_terry(res, prior=0)
    assert [r.name for r in ratings] == ["a", "b", "c"]
    for r in ratings:
        assert r.elo == pytest.approx(0.0, abs=1e-6)
        assert r.stderr > 0


def test_laplacian_pseudo_inverse_matches_numpy() -> None:
    """The plain-Python pseudo-inverse of the ratings' Fisher information (a weighted graph
    Laplacian) equals numpy's on connected graphs, and on disconnected ones the components'
    pseudo-inverses, put together, equal numpy's too."""
    import random

    from tests.support import needs

    np = needs.module("numpy", needs.RL)
    from parlour.sim.stats import _centred_stderr, components_pinv, laplacian_pinv

    rng = random.Random(18)
    for k in range(2, 9):
        for _ in range(20):
            lap = [[0.0] * k for _ in range(k)]
            for i in range(k):
                for j in range(i + 1, k):
                    # a path through every bot keeps the graph connected; other pairs sometimes
                    w = rng.uniform(0.01, 50) if j == i + 1 or rng.random() < 0.5 else 0.0
                    lap[i][j] -= w
                    lap[j][i] -= w
                    lap[i][i] += w
                    lap[j][j] += w
            mine = laplacian_pinv(lap)
            assert mine is not None
            assert np.allclose(mine, np.linalg.pinv(np.array(lap)), rtol=1e-9, atol=1e-12)
    split = [[1.0, -1.0, 0.0, 0.0], [-1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 2.0, -2.0], [0, 0, -2.0, 2.0]]
    assert laplacian_pinv(split) is None
    games = [[0.0, 4.0, 0.0, 0.0], [4.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 6.0], [0.0, 0.0, 6.0, 0.0]]
    assert np.allclose(components_pinv(split), np.linalg.pinv(np.array(split)), atol=1e-12)
    errors = _centred_stderr([0.1, -0.1, 0.3, -0.3], games)  # the components' pseudo-inverse
    assert all(e > 0 for e in errors)


def test_pseudo_inverse_of_bots_that_never_met_without_numpy() -> None:
    """Two pairs that never met each other: each pair's block is the pseudo-inverse of its own
    Laplacian (``[[w, -w], [-w, w]]⁺ = [[1, -1], [-1, 1]] / 4w``), the blocks between them zero."""
    from parlour.sim.stats import components_pinv

    split = [[1.0, -1.0, 0.0, 0.0], [-1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 2.0, -2.0], [0, 0, -2.0, 2.0]]
    want = [
        [0.25, -0.25, 0.0, 0.0],
        [-0.25, 0.25, 0.0, 0.0],
        [0.0, 0.0, 0.125, -0.125],
        [0.0, 0.0, -0.125, 0.125],
    ]
    got = components_pinv(split)
    assert all(abs(got[i][j] - want[i][j]) < 1e-12 for i in range(4) for j in range(4)), got
    assert components_pinv([[0.0]]) == [[0.0]]  # a bot alone: no information at all
