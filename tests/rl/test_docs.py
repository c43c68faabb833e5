"""docs/research.md stays true: its Python blocks run in order, and its id and layout tables
are what the encodings say."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.rl.conftest import need

need("pyspiel")
need("pettingzoo")

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def test_python_blocks_run(capsys: pytest.CaptureFixture[str]) -> None:
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 7
    namespace: dict[str, object] = {"__name__": "research_doc"}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)
    assert "stage[31] = meld 7♥" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["samba", "handfoot", "cheat", "scat"])
def test_tables_match_the_encodings(name: str) -> None:
    from parlour import games
    from parlour.rl.encoding import encoding_for

    text = DOC.read_text(encoding="utf-8")
    m = re.search(rf"<!-- encoding:{name} -->\n(.*?)\n<!-- /encoding:{name} -->", text, re.S)
    assert m, f"no table for {name}"
    assert m.group(1) == encoding_for(games.get(name)).markdown()
