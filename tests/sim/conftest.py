"""The Ray executor test starts a local Ray (several processes, seconds of start-up): it runs only
when ``PARLOUR_TEST_RAY=1`` (CI: ``uv sync --locked --extra cluster`` then
``PARLOUR_TEST_RAY=1 uv run pytest -m ray tests/sim``); otherwise it is deselected, not skipped."""

from __future__ import annotations

import os

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "ray: needs Ray (the cluster extra); PARLOUR_TEST_RAY=1")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("PARLOUR_TEST_RAY") == "1":
        return
    keep = [i for i in items if i.get_closest_marker("ray") is None]
    dropped = [i for i in items if i.get_closest_marker("ray") is not None]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep
