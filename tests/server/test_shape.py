"""The server's shape (issue 31): parts a newcomer can read.  No module of ``parlour.server`` is
over 600 lines and no function over 80 (decorators counted, docstrings too); the import rules
are ``test_server_imports``'s."""

from __future__ import annotations

import ast
from pathlib import Path

import parlour.server

SERVER = Path(parlour.server.__file__).parent
MODULE_MAX = 600
FUNCTION_MAX = 80


def module_lines() -> dict[str, int]:
    return {p.stem: len(p.read_text().splitlines()) for p in sorted(SERVER.glob("*.py"))}


def function_lines(path: Path) -> dict[str, int]:
    """Each function's (and method's, nested ones included) length in lines, by dotted name."""
    out: dict[str, int] = {}

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    start = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                    out[name] = (child.end_lineno or child.lineno) - start + 1
                walk(child, name + ".")
            else:
                walk(child, prefix)

    walk(ast.parse(path.read_text(), filename=str(path)), f"{path.stem}.")
    return out


def test_no_server_module_is_over_600_lines() -> None:
    sizes = module_lines()
    assert len(sizes) >= 20
    big = {name: n for name, n in sizes.items() if n > MODULE_MAX}
    assert not big, f"modules over {MODULE_MAX} lines: {big}"


def test_no_server_function_is_over_80_lines() -> None:
    long = {
        name: n
        for path in sorted(SERVER.glob("*.py"))
        for name, n in function_lines(path).items()
        if n > FUNCTION_MAX
    }
    assert not long, f"functions over {FUNCTION_MAX} lines: {long}"


def test_the_measure_counts_what_it_should(tmp_path: Path) -> None:
    sample = tmp_path / "m.py"
    body = "\n".join(f"    x{i} = {i}" for i in range(80))
    sample.write_text(
        f"@decorator\ndef f():\n{body}\n\nclass C:\n    async def g(self):\n"
        "        def inner():\n            return 1\n        return inner\n"
    )
    got = function_lines(sample)
    assert got == {"m.f": 82, "m.C.g": 4, "m.C.g.inner": 2}
