"""The examples in parlour.rl's docstrings run (pytest collects doctests under tests/ only)."""

from __future__ import annotations

import doctest
import importlib

import pytest

from tests.rl.conftest import need

need("pyspiel")

MODULES = [
    "parlour.rl.encoding",
    "parlour.rl.pettingzoo",
    "parlour.rl.openspiel",
    "parlour.rl.gym",
    "parlour.rl.batch",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
