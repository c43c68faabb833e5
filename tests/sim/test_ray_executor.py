"""The Ray executor gives exactly the results of the local executor for the same seeds."""

from __future__ import annotations

import pytest

from parlour import games
from parlour.sim.tournament import Tournament, summarize


@pytest.mark.ray
def test_ray_and_local_give_the_same_results() -> None:
    variant = games.get("samba", max_hands=1)
    tour = Tournament(variant, ["strong:8it", "basic"], games=1, seed=12, duplicate=True)
    local = tour.run(workers=1)
    on_ray = tour.run(executor="ray", workers=2)
    assert on_ray == local
    assert summarize(on_ray) == summarize(local)
