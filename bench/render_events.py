"""CPU per event line told to one viewer: what the server does for each event and each
connection (``redact.teller``: ``sentence(game.describe(event, seat, names))``).

Events come from seeded random play (the same events on any checkout); each is told to every
seat and to a spectator, as the server tells each connection.  Reported: microseconds per
(event, viewer) for each game, the events' count, and the language (issue 34: the sentences come
from the viewer's gettext catalog; English is the source text itself).

Runs on any checkout (``parlour`` from the interpreter's environment), so a before/after is this
file run by each checkout's interpreter, in the same run of the machine:

    ../main/.venv/bin/python bench/render_events.py              # before (English only)
    uv run python bench/render_events.py --lang en --lang nl --lang de
"""

from __future__ import annotations

import argparse
import inspect
import json
import random
import time
from typing import Any

from parlour import games
from parlour.core.text import Names, sentence


def events_of(name: str, seed: int, actions: int) -> list[tuple[Any, int, Any]]:
    variant = next(v for v in games.all_variants() if v.name == name)
    game = variant.game
    rules = variant.rules.replace(**variant.entry.random_play_options)
    rng = random.Random(seed)
    out: list[tuple[Any, int, Any]] = []
    state = game.new_game(rules, seed)
    for _ in range(actions):
        if game.to_act(state) is None:
            seed += 1
            state = game.new_game(rules, seed)
        state, events = game.apply(state, rng.choice(game.legal_actions(state)))
        out += [(e, game.num_seats(state), game.sides_of(state)) for e in events]
    return out


def measure(name: str, lang: str, seed: int, actions: int, repeat: int) -> dict[str, Any]:
    game = games.entry(name).game
    events = events_of(name, seed, actions)
    with_lang = "lang" in inspect.signature(Names.table).parameters
    if lang != "en" and not with_lang:
        raise SystemExit(f"this checkout has no languages: {lang}")
    names = {}
    for _e, n, sides in events:
        key = (n, tuple(map(tuple, sides)))
        if key not in names:
            kw = {"lang": lang} if with_lang else {}
            names[key] = Names.table(n, sides, ("Ann", None, "Cy", None)[:n], **kw)
    jobs = [
        (e, viewer, names[(n, tuple(map(tuple, sides)))])
        for e, n, sides in events
        for viewer in (None, *range(n))
        if e.visible_to(viewer)
    ]
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for e, viewer, nm in jobs:
            sentence(game.describe(e, viewer, nm))
        best = min(best, time.process_time() - t0)
    return {
        "game": name,
        "lang": lang,
        "lines": len(jobs),
        "us_per_line": round(best / len(jobs) * 1e6, 3),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", action="append", help="samba, handfoot, cheat, scat (all)")
    p.add_argument("--lang", action="append", help="languages to measure (en)")
    p.add_argument("--actions", type=int, default=3000, help="random actions per game")
    p.add_argument("--repeat", type=int, default=5, help="runs; the fastest is reported")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    for name in args.game or ["samba", "handfoot", "cheat", "scat"]:
        for lang in args.lang or ["en"]:
            print(json.dumps(measure(name, lang, args.seed, args.actions, args.repeat)))


if __name__ == "__main__":
    main()
