#!/usr/bin/env python3
"""Regenerate the golden playthrough files (``tests/golden/``) that pin engine behaviour.

A playthrough is one seeded match played by a seeded uniform-random player: every decision's
seat, number of legal actions, chosen action (JSON) and a digest of the public view afterwards,
plus the final outcome.  ``tests/games/samba/test_golden.py`` replays it and compares.

    uv run python scripts/golden.py            # rewrite tests/golden/samba_4p.json
    uv run python scripts/golden.py --check    # exit 1 if the engine no longer reproduces it
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from parlour import games  # noqa: E402
from parlour.core.text import Names  # noqa: E402

GOLDEN = {
    "samba_4p.json": {
        "game": "samba",
        "preset": "samba",
        "players": 4,
        "seed": 20261129,
        "options": {"max_hands": 2},
    },
}


def digest(data: Any) -> str:
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def playthrough(
    game: str, preset: str, players: int, seed: int, options: dict[str, Any]
) -> dict[str, Any]:
    variant = games.get(game, preset=preset, players=players, **options)
    g = variant.game
    rng = random.Random(seed)
    state = g.new_game(variant.rules, seed)
    names = Names.numbered(g.num_seats(state))
    steps = []
    while (seat := g.to_act(state)) is not None:
        legal = g.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        state, events = g.apply(state, action)
        steps.append(
            {
                "seat": seat,
                "legal": len(legal),
                "action": g.action_to_json(action),
                "view": digest(g.view_to_json(g.observe(state, None))),
                "events": [g.describe(e, None, names) for e in events if e.seats is None],
            }
        )
    return {
        "game": game,
        "preset": preset,
        "players": players,
        "engine_version": g.version,
        "rules": variant.rules.to_json(),
        "seed": seed,
        "steps": steps,
        "outcome": g.outcome(state).to_json(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of rewriting")
    args = parser.parse_args()
    out_dir = ROOT / "tests" / "golden"
    out_dir.mkdir(parents=True, exist_ok=True)
    status = 0
    for name, spec in GOLDEN.items():
        data = playthrough(**spec)  # type: ignore[arg-type]
        path = out_dir / name
        if args.check:
            if json.loads(path.read_text()) != json.loads(json.dumps(data, ensure_ascii=False)):
                print(f"{name}: the engine no longer reproduces the golden playthrough")
                status = 1
            continue
        path.write_text(json.dumps(data, ensure_ascii=False, indent=0) + "\n")
        print(f"wrote {path.relative_to(ROOT)}: {len(data['steps'])} decisions")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
