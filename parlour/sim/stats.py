"""Confidence intervals and ratings for tournament results.

>>> lo, hi = wilson(8, 10)
>>> round(lo, 4), round(hi, 4)
(0.4902, 0.9433)
>>> m, lo, hi = mean_interval([1.0, 2.0, 3.0, 4.0])
>>> m, round(lo, 3), round(hi, 3)
(2.5, 1.235, 3.765)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
ELO_PER_NAT = 400.0 / math.log(10.0)


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (95 % by default); (0, 1) when n = 0."""
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= n:
        raise ValueError(f"successes ({successes}) must lie between 0 and n ({n})")
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return lo, hi


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and its normal-approximation interval ``mean ± z·s/√n`` (s = sample std dev)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    if n == 1:
        return mean, -math.inf, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


@dataclass(frozen=True)
class Rating:
    """A Bradley–Terry rating on the Elo scale (mean 0) with its standard error."""

    name: str
    elo: float
    stderr: float

    @property
    def interval(self) -> tuple[float, float]:
        return self.elo - Z95 * self.stderr, self.elo + Z95 * self.stderr


def bradley_terry(
    results: Mapping[tuple[str, str], float],
    names: Sequence[str] | None = None,
    *,
    prior: float = 1.0,
    iterations: int = 10_000,
    tol: float = 1e-10,
) -> list[Rating]:
    """Maximum-likelihood Bradley–Terry ratings from pairwise scores.

    ``results[(a, b)]`` = points a scored against b (win 1, draw ½ each way), so the games between
    a and b are ``results[(a, b)] + results[(b, a)]``.  ``prior`` adds that many virtual draws to
    every pair that met (keeps ratings finite when one side won everything; 0 = pure MLE).
    Ratings are on the Elo scale (``400·log10`` of the strength), centred on mean 0; standard
    errors come from the observed Fisher information under that centring.

    >>> [round(r.elo, 2) for r in bradley_terry({("a", "b"): 30, ("b", "a"): 10}, prior=0)]
    [95.42, -95.42]
    """
    names = list(names) if names is not None else sorted({x for pair in results for x in pair})
    idx = {n: i for i, n in enumerate(names)}
    k = len(names)
    wins = [[0.0] * k for _ in range(k)]
    for (a, b), score in results.items():
        if a != b:
            wins[idx[a]][idx[b]] += score
    games = [[wins[i][j] + wins[j][i] for j in range(k)] for i in range(k)]
    if prior:
        for i in range(k):
            for j in range(k):
                if i != j and games[i][j] > 0:
                    wins[i][j] += prior / 2
                    games[i][j] += prior
    strength = [1.0] * k
    for _ in range(iterations):
        new = []
        for i in range(k):
            w = sum(wins[i])
            d = sum(games[i][j] / (strength[i] + strength[j]) for j in range(k) if j != i)
            new.append(w / d if d > 0 and w > 0 else (1e-9 if d > 0 else strength[i]))
        g = math.exp(sum(math.log(s) for s in new) / k)
        new = [s / g for s in new]
        delta = max(abs(math.log(a) - math.log(b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if delta < tol:
            break
    theta = [math.log(s) for s in strength]
    mean = sum(theta) / k
    theta = [t - mean for t in theta]
    errors = _centred_stderr(theta, games)
    return [Rating(n, theta[i] * ELO_PER_NAT, errors[i] * ELO_PER_NAT) for i, n in enumerate(names)]


def _centred_stderr(theta: Sequence[float], games: Sequence[Sequence[float]]) -> list[float]:
    """Standard errors of sum-zero log-strengths: the diagonal of the pseudo-inverse of the
    Fisher information (a graph Laplacian weighted by n·p·(1−p))."""
    k = len(theta)
    if k < 2:
        return [0.0] * k
    info = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(k):
            if i != j and games[i][j] > 0:
                p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
                w = games[i][j] * p * (1 - p)
                info[i][j] -= w
                info[i][i] += w
    cov = components_pinv(info)
    return [float(math.sqrt(max(cov[i][i], 0.0))) for i in range(k)]


def components_pinv(lap: Sequence[Sequence[float]]) -> list[list[float]]:
    """The pseudo-inverse of any weighted graph Laplacian: bots that never met, even through
    others, split it into connected components, and the pseudo-inverse of a block-diagonal matrix
    is the block-diagonal of the blocks' pseudo-inverses (each by :func:`laplacian_pinv`)."""
    k = len(lap)
    seen: set[int] = set()
    out = [[0.0] * k for _ in range(k)]
    for start in range(k):
        if start in seen:
            continue
        part, todo = [start], [start]
        seen.add(start)
        while todo:
            i = todo.pop()
            for j in range(k):
                if j not in seen and (lap[i][j] != 0.0 or lap[j][i] != 0.0):
                    seen.add(j)
                    part.append(j)
                    todo.append(j)
        part.sort()
        block = laplacian_pinv([[lap[i][j] for j in part] for i in part])
        assert block is not None, "a connected Laplacian has a pseudo-inverse"
        for a, i in enumerate(part):
            for b, j in enumerate(part):
                out[i][j] = block[a][b]
    return out


def laplacian_pinv(lap: Sequence[Sequence[float]]) -> list[list[float]] | None:
    """The pseudo-inverse of a connected graph's weighted Laplacian, ``inv(L + J/k) − J/k``
    (``J`` all ones: ``L`` is singular only along the constant vector, which ``J/k`` fills in),
    by Gauss–Jordan elimination in plain Python — tournaments rate a handful of bots, and
    importing numpy for it took longer than the arithmetic.  ``None`` when ``L + J/k`` is
    singular too (the graph is not connected)."""
    k = len(lap)
    shift = 1.0 / k
    a = [
        [lap[i][j] + shift for j in range(k)] + [float(i == j) for j in range(k)] for i in range(k)
    ]
    scale = max(1.0, max(abs(lap[i][i]) for i in range(k)))
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) <= 1e-12 * scale:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        row = a[col]
        inv = 1.0 / row[col]
        for j in range(2 * k):
            row[j] *= inv
        for r in range(k):
            if r != col and a[r][col] != 0.0:
                factor = a[r][col]
                other = a[r]
                for j in range(2 * k):
                    other[j] -= factor * row[j]
    return [[a[i][k + j] - shift for j in range(k)] for i in range(k)]
