"""What a test needs that a fresh clone may not have, and one rule for when it is missing.

A fresh clone with nothing but Python and uv (``uv run pytest``) has the default dependencies and
the ``dev`` group, not the optional extras (``rl``, ``scale``, ``cluster``, ``postgres``, ``plot``),
no PostgreSQL or Redis server and no Chromium. A test that needs one of them **skips** there, with a
reason that says what to install — except under ``CI=true``, where it **fails**, so a CI image that
lost a piece cannot pass silently.

Called from a test, a fixture, or at module level (a test module or a ``conftest.py``: the whole
module or directory then skips)."""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import NoReturn

import pytest

#: the install command of each extra, as a skip reason names it
RL = "uv sync --extra rl"
SCALE = "uv sync --extra scale"
POSTGRES = "uv sync --extra postgres"
PLOT = "uv sync --extra plot"
CLUSTER = "uv sync --extra cluster"


def in_ci() -> bool:
    return os.environ.get("CI") == "true"


def missing(reason: str) -> NoReturn:
    """Skip (fail under ``CI=true``) because ``reason``, which says what to install."""
    if in_ci():
        pytest.fail(f"{reason} (CI=true requires it)", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def module(name: str, install: str) -> ModuleType:
    """``import name``, or skip saying ``install`` (the command that brings it)."""
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        missing(f"{name} is not installed ({exc}): {install}")
