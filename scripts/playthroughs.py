#!/usr/bin/env python3
"""Regenerate the readable golden playthroughs (``tests/golden/playthroughs/``): one seeded
random match per game and preset, step by step (see ``parlour/sim/playthrough.py``).

    uv run python scripts/playthroughs.py                 # rewrite every file
    uv run python scripts/playthroughs.py samba handfoot  # only these games
    uv run python scripts/playthroughs.py --check         # exit 1 where a file differs

Files of presets that no longer exist are removed (listed with --check).  After a deliberate
rules change, regenerate and review the diff: it shows where play started to differ.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from parlour.sim import playthrough as recording  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games to regenerate (default: all)")
    parser.add_argument("--check", action="store_true", help="compare instead of rewriting")
    args = parser.parse_args()
    folder = ROOT / recording.FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    specs = [s for s in recording.specs() if not args.games or s.game in args.games]
    status = 0
    for spec in specs:
        path = folder / spec.file_name
        text = recording.render(spec)
        if args.check:
            old = path.read_text(encoding="utf-8") if path.exists() else ""
            diff = recording.first_difference(old, text)
            if diff is not None:
                line, want, got = diff
                print(f"{spec.file_name}:{line}: stored {want!r}, engine now {got!r}")
                status = 1
            continue
        path.write_text(text, encoding="utf-8")
        steps = text.count("\n--- step ")
        print(f"wrote {path.relative_to(ROOT)}: {steps} steps, {len(text.encode()) // 1024} KB")
    if not args.games:
        known = {s.file_name for s in specs}
        for stale in sorted(folder.glob("*.txt")):
            if stale.name not in known:
                if args.check:
                    print(f"{stale.name}: no such game and preset any more")
                    status = 1
                else:
                    stale.unlink()
                    print(f"removed {stale.relative_to(ROOT)} (no such game and preset)")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
