"""The server's modules form layers (issue 31): no import cycle inside ``parlour.server``, counting
function-level and ``TYPE_CHECKING`` imports — each pair of parts talks in one direction, the
upper one handing callbacks or objects typed by a protocol to the lower one.  The errors are at
the bottom: ``errors`` imports nothing of the server."""

from __future__ import annotations

import ast
from pathlib import Path

import parlour.server

SERVER = Path(parlour.server.__file__).parent
PACKAGE = "parlour.server"


def _server_imports(path: Path) -> set[str]:
    """The ``parlour.server`` modules a file imports, at any depth (in functions, under
    ``if TYPE_CHECKING``), as bare names (``table``, ``lobby``)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: inside parlour.server
                base = PACKAGE if node.level == 1 else "parlour"
                names = [f"{base}.{node.module}" if node.module else base]
                if node.module is None:
                    names += [f"{base}.{a.name}" for a in node.names]
            elif node.module == PACKAGE:
                names = [f"{PACKAGE}.{a.name}" for a in node.names]
            else:
                names = [node.module or ""]
        else:
            continue
        for name in names:
            if name.startswith(PACKAGE + "."):
                part = name.split(".")[2]
                if (SERVER / f"{part}.py").exists():
                    out.add(part)
    out.discard(path.stem)
    return out


def graph() -> dict[str, set[str]]:
    return {p.stem: _server_imports(p) for p in sorted(SERVER.glob("*.py"))}


def _cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (its modules in order, the first again at the end), or ``None``."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (found := visit(start)) is not None:
            return found
    return None


#: imports of issue 33's modules (players, chat, house settings, turn timers, ratings: work in
#: progress, merged as hooks) that reach back up into the lobby, the table or each other.  Each
#: one closes a cycle; they are to go the way the others went (a protocol or a callback handed
#: down).  The list may only shrink: an entry whose import is gone fails the test below.
IN_PROGRESS = {
    ("chat", "lobby"),
    ("chat", "table"),
    ("house", "lobby"),
    ("house", "table"),
    ("players", "lobby"),
    ("players", "table"),
    ("ratings", "lobby"),
    ("ratings", "players"),
    ("ratings", "table"),
    ("timers", "house"),
    ("timers", "table"),
}


def test_no_import_cycle_inside_the_server() -> None:
    edges = graph()
    assert len(edges) >= 20
    rest = {a: {b for b in bs if (a, b) not in IN_PROGRESS} for a, bs in edges.items()}
    cycle = _cycle(rest)
    assert cycle is None, " -> ".join(cycle or [])


def test_the_in_progress_list_only_shrinks() -> None:
    edges = graph()
    stale = sorted((a, b) for a, b in IN_PROGRESS if b not in edges.get(a, set()))
    assert not stale, f"these imports are gone: take them off IN_PROGRESS: {stale}"


def test_the_errors_are_at_the_bottom() -> None:
    assert graph()["errors"] == set()


def test_the_walk_sees_every_kind_of_import(tmp_path: Path) -> None:
    sample = tmp_path / "m.py"
    sample.write_text(
        "from typing import TYPE_CHECKING\n"
        "from parlour.server import lobby\n"
        "if TYPE_CHECKING:\n    from parlour.server.table import Table\n"
        "def f():\n    import parlour.server.cluster\n    from . import app\n"
    )
    assert _server_imports(sample) == {"lobby", "table", "cluster", "app"}
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
