"""The golden playthrough (tests/golden/samba_4p.json, written by scripts/golden.py) still
replays exactly: same legal-action counts, same actions, same public views, same outcome."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.scripts import load_script

ROOT = Path(__file__).resolve().parents[3]


def test_golden_samba_4p_playthrough() -> None:
    """002_91a2786a682fea8f.txt rules, pinned: a seeded 4-player Samba match (two hands)."""
    golden = load_script("scripts/golden.py", "golden")
    stored = json.loads((ROOT / "tests" / "golden" / "samba_4p.json").read_text())
    fresh = json.loads(
        json.dumps(golden.playthrough(**golden.GOLDEN["samba_4p.json"]), ensure_ascii=False)
    )
    assert len(fresh["steps"]) == len(stored["steps"]) > 100
    for i, (a, b) in enumerate(zip(fresh["steps"], stored["steps"], strict=True)):
        assert a == b, f"decision {i} differs"
    assert fresh["outcome"] == stored["outcome"]
    assert fresh == stored
