"""A pytest plugin that hides the optional extras, as on a fresh clone without them.

Loaded with ``-p tests.support.hide_extras`` and ``PARLOUR_HIDE_EXTRAS=1`` in the environment, it
makes ``import numpy`` (and every other module of the extras, or the comma-separated top-level
names in ``PARLOUR_HIDE_MODULES``) raise ``ModuleNotFoundError`` for the whole run.
``tests/test_fresh_clone.py`` uses it to prove that the suite collects and skips cleanly without
the extras. Without ``PARLOUR_HIDE_EXTRAS=1`` importing it does nothing (``--doctest-modules``
imports every module under ``tests/``)."""

from __future__ import annotations

import importlib.abc
import os
import sys
from collections.abc import Sequence
from types import ModuleType

#: the top-level modules of the extras rl, cluster, scale, postgres and plot
EXTRAS = (
    "numpy",
    "pettingzoo",
    "gymnasium",
    "pyspiel",
    "open_spiel",
    "ray",
    "redis",
    "psycopg",
    "psycopg_pool",
    "matplotlib",
)


class _Hider(importlib.abc.MetaPathFinder):
    def __init__(self, names: set[str]) -> None:
        self.names = names

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> None:
        if fullname.split(".", 1)[0] in self.names:
            raise ModuleNotFoundError(f"No module named {fullname!r} (hidden)", name=fullname)
        return None


def hidden() -> set[str]:
    raw = os.environ.get("PARLOUR_HIDE_MODULES")
    return set(EXTRAS) if raw is None else {n.strip() for n in raw.split(",") if n.strip()}


def install() -> None:
    names = hidden()
    for name in list(sys.modules):
        if name.split(".", 1)[0] in names:
            del sys.modules[name]
    sys.meta_path.insert(0, _Hider(names))


if os.environ.get("PARLOUR_HIDE_EXTRAS") == "1":
    install()
