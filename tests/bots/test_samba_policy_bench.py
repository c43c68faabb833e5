"""bench/samba_policy.py re-writes parts of Samba's ``basic`` with its thresholds as knobs: with
the defaults it must play exactly as ``basic`` (else its screen measures the re-writing, not the
knob), and a knob must change the play."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("bench_samba_policy", ROOT / "bench/samba_policy.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
sys.modules["bench_samba_policy"] = bench
_spec.loader.exec_module(bench)


def test_default_knobs_play_as_basic() -> None:
    from parlour.games.samba.bot import SambaBasicBot

    same = bench.make_variant("same")
    for seed in (1, 2, 3, 4):
        assert bench.hand(seed, (same, SambaBasicBot, same, SambaBasicBot)) == bench.hand(
            seed, (SambaBasicBot,) * 4
        )


def test_a_knob_changes_the_play() -> None:
    out = bench.duel(bench.make_variant("wild_min=7,big_pile=3,pair_w=0"), deals=6, seed=5)
    assert out["hands"] == 12
    assert out["mean_hand_score_diff"] != 0.0


def test_make_variant_parses_knobs() -> None:
    v = bench.make_variant("wild_min=4,pair_w=80")
    assert v.wild_min == 4 and v.pair_w == 80.0 and isinstance(v.pair_w, float)
    assert bench.make_variant("same").wild_min == bench.Knobs.wild_min
