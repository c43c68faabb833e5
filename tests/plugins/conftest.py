"""Fixtures for the plug-in tests: an empty game registry that loads again from the entry points."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from parlour import games
from parlour.core.registry import Registry


@pytest.fixture
def fresh_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """An empty registry that loads again from the entry points (the real one comes back after)."""
    monkeypatch.setattr(games, "_registry", Registry())
    monkeypatch.setattr(games, "_loaded", False)
    monkeypatch.setattr(games, "_origins", {})
    monkeypatch.setattr(games, "_errors", {})
    yield
