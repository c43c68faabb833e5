#!/usr/bin/env python3
"""The cyclic garbage collector's share of Samba random play (issue 18, docs/speed.md): the
seeded games of ``bench/samba_games.py``, played twice in fresh child processes -- once with the
collector on (counting its collections and timing them in CPU time through ``gc.callbacks``)
and once with ``gc.disable()`` -- so the figure is the collector's work and nothing else.

    uv run python bench/gc_probe.py [GAMES] [--young] [--src CHECKOUT]

Prints, per generation, the collections and their CPU milliseconds, the objects collected, the CPU
seconds of the games with and without the collector, and the digest (equal to that of
``bench/samba_games.py GAMES``).  ``--young``: also count, by type, the objects tracked by the
collector that are alive after the games (what the engine's caches keep), the 20 most common.
``--src``: a checkout to import ``parlour`` from instead (another branch, built), e.g.
``/work/main/.venv/bin/python bench/gc_probe.py 200 --src /work/main``.

The probe only measures: the engine and ``bench/samba_games.py`` run with Python's default
thresholds (``gc.disable()`` is here only, in the second child, for the comparison).
"""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = sys.argv[sys.argv.index("--src") + 1] if "--src" in sys.argv else str(ROOT)
sys.path.insert(0, SRC)
sys.path.insert(1, str(ROOT / "bench"))

from samba_games import play  # noqa: E402  (the same seeded games)


def child(n_games: int, collector: bool, young: bool) -> dict[str, object]:
    import parlour  # noqa: F401  (start-up outside the figures)

    counts = [0, 0, 0]
    seconds = [0.0, 0.0, 0.0]
    collected = [0, 0, 0]
    started = [0.0]

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.process_time()
        else:
            generation = info["generation"]
            counts[generation] += 1
            seconds[generation] += time.process_time() - started[0]
            collected[generation] += info["collected"]

    if collector:
        gc.callbacks.append(callback)
    else:
        gc.disable()
    decisions, digest, cpu = play(n_games)
    if collector:
        gc.callbacks.remove(callback)
    result: dict[str, object] = {
        "decisions": decisions,
        "digest": digest,
        "cpu": cpu,
        "counts": counts,
        "ms": [1000 * s for s in seconds],
        "collected": collected,
    }
    if young:
        kinds = Counter(type(o).__name__ for o in gc.get_objects())
        result["alive"] = kinds.most_common(20)
        result["alive_total"] = sum(kinds.values())
    return result


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--") and a != SRC]
    young = "--young" in sys.argv
    n_games = int(args[0]) if args else 200
    if "--child" in sys.argv:
        print(json.dumps(child(n_games, "--on" in sys.argv, young)))
        return 0
    runs = {}
    for mode in ("--on", "--off"):
        flags = [mode] + (["--young"] if young and mode == "--on" else [])
        out = subprocess.run(
            [sys.executable, __file__, str(n_games), "--child", "--src", SRC, *flags],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        runs[mode] = json.loads(out)
    on, off = runs["--on"], runs["--off"]
    import parlour

    print(
        f"{n_games} games, {on['decisions']} decisions, digest {on['digest']}, "
        f"{parlour.BUILD.describe()}, parlour from {Path(parlour.__file__).parent}"
    )
    for g in range(3):
        print(
            f"  gen{g}: {on['counts'][g]:5d} collections, {on['ms'][g]:7.1f} ms, "
            f"{on['collected'][g]} objects collected"
        )
    total = sum(on["ms"])
    print(
        f"  GC total {total:.1f} ms; CPU {on['cpu']:.3f} s collector on, "
        f"{off['cpu']:.3f} s off ({on['cpu'] - off['cpu']:+.3f} s)"
    )
    if young:
        print(f"  alive after the games (tracked): {on['alive_total']}")
        for name, count in on["alive"]:
            print(f"    {count:8d} {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
