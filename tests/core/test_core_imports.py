"""``parlour.core`` is the rules core every game builds on: it never imports a game (nor the bots,
the server, the terminal or the simulation runner), so a third-party game needs only the core.
It may use ``parlour.i18n`` (the languages, issue 34: events told in the reader's language), a
leaf that imports nothing else of Parlour."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import parlour.core

CORE = Path(parlour.core.__file__).parent


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports, at any depth (function-local imports included)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: inside parlour.core
                base = "parlour.core"
                out.append((node.lineno, f"{base}.{node.module}" if node.module else base))
            elif node.module:
                out.append((node.lineno, node.module))
                if node.module == "parlour":
                    out.extend((node.lineno, f"parlour.{a.name}") for a in node.names)
    return out


def test_no_core_module_imports_outside_the_core() -> None:
    files = sorted(CORE.rglob("*.py"))
    assert len(files) >= 10
    bad = [
        f"{path.relative_to(CORE.parent.parent)}:{line}: imports {name}"
        for path in files
        for line, name in _imports(path)
        if (name == "parlour" or name.startswith("parlour."))
        and not (name == "parlour.core" or name.startswith("parlour.core."))
        and not (name == "parlour.i18n" or name.startswith("parlour.i18n."))
    ]
    assert not bad, "\n".join(bad)


def test_the_languages_the_core_uses_are_a_leaf() -> None:
    """``parlour.i18n``'s language core (what ``parlour.core`` imports) imports nothing else of
    Parlour; only its web router (served by the server) may import more."""
    import parlour.i18n

    path = Path(parlour.i18n.__file__)
    bad = [
        f"{path.name}:{line}: imports {name}"
        for line, name in _imports(path)
        if (name == "parlour" or name.startswith("parlour."))
        and not (name == "parlour.i18n" or name.startswith("parlour.i18n."))
    ]
    assert not bad, "\n".join(bad)


def test_the_walk_sees_function_local_imports(tmp_path: Path) -> None:
    sample = tmp_path / "m.py"
    sample.write_text("def f():\n    from parlour import games\n    import parlour.bots\n")
    assert [n for _, n in _imports(sample)] == ["parlour", "parlour.games", "parlour.bots"]


def test_importing_the_whole_core_loads_no_game() -> None:
    modules = sorted("parlour.core." + p.stem for p in CORE.glob("*.py") if p.stem != "__init__")
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "bad = sorted(m for m in sys.modules if m.startswith(('parlour.games', 'parlour.bots',"
        " 'parlour.server', 'parlour.cli', 'parlour.sim')))\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
