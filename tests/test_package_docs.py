"""A package's docstring that lists its modules lists every one of them, and only them."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

PACKAGES = ["parlour.server", "parlour.cli.tui"]


@pytest.mark.parametrize("name", PACKAGES)
def test_the_package_docstring_lists_every_module(name: str) -> None:
    package = importlib.import_module(name)
    folder = Path(package.__file__ or "").parent
    modules = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
    modules |= {p.name for p in folder.iterdir() if (p / "__init__.py").exists()}
    doc = package.__doc__ or ""
    listed = set(re.findall(r"^- (.*?)(?:\s{2,}|$)", doc, flags=re.M))
    named = {m for line in listed for m in re.findall(r"``(\w+)``", line)}
    assert modules - named == set(), f"not described in {name}'s docstring"
    assert named - modules == set(), f"described in {name}'s docstring but absent"
