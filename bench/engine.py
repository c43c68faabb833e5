#!/usr/bin/env python3
"""Engine throughput: random play on one core for every registered game (4 players where the
game allows, default preset), side by side with OpenSpiel / RLCard gin rummy when installed
(``uv sync --group bench``).

    uv run python bench/engine.py [--json] [--game samba] [--seconds 5] [--no-extras]
    uv run python bench/engine.py --compare [--seconds 5]   # interpreted vs compiled build

Reports decisions/s, hands/s and full (capped) matches/s of random play (a simulation that
does not save: ``apply_quiet``), and µs per ``legal_actions``, per ``apply`` (``apply_unchecked``,
events built), per ``apply_quiet``, per state clone and per ``determinize`` (each sampled view
once; ``determinize_search``: one view again and again, as the search deals it).  Rates are CPU
time of this process (``time.process_time``), so a loaded machine slows them less than wall
time; wall-clock decisions/s is reported too.

With Samba among the games (unless ``--no-extras``) two more figures (issue 18): the ``strong``
bot's play-outs per CPU-second on positions of real Samba play (a fixed number of play-outs a
decision), and the wall time of ``parlour tournament samba --bots basic,random --duplicate
--games 200 --workers 2`` (a fresh process, start-up included).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from parlour import games


def _variant(name: str, players: int | None) -> Any:
    entry = games.entry(name)
    try:
        return games.get(name, players=players or 4)
    except Exception:  # the game does not seat four: its default
        return games.get(name, preset=entry.default_preset)


def _clone(state: Any) -> Any:
    clone = getattr(state, "clone", None)
    return clone() if callable(clone) else copy.copy(state)


def _cpu_per_call(fn: Any, items: list[Any], min_calls: int = 3000) -> float:
    """CPU µs per call of ``fn(item)`` over the items (repeated to at least ``min_calls``)."""
    if not items:
        return 0.0
    calls = 0
    start = time.process_time()
    while calls < min_calls:
        for item in items:
            fn(item)
        calls += len(items)
    return 1e6 * (time.process_time() - start) / calls


def bench_game(name: str, seconds: float, players: int | None, seed: int = 1) -> dict[str, Any]:
    variant = _variant(name, players)
    game = variant.game
    rules = variant.rules.replace(**variant.entry.random_play_options)
    rng = random.Random(seed)
    clock = time.process_time
    decisions = hands = matches = 0
    samples: list[tuple[Any, Any]] = []
    start_cpu, start_wall = clock(), time.perf_counter()
    match_seed = seed
    # throughput: plain random play, no per-call timers in the loop
    while clock() - start_cpu < seconds:
        state = game.new_game(rules, match_seed)
        match_seed += 1
        while game.to_act(state) is not None:
            legal = game.legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            if decisions % 7 == 0 and len(samples) < 2000:
                samples.append((state, action))
            state = game.apply_quiet(state, action)
            decisions += 1
        matches += 1
        hands += len(game.outcome(state).hands)
    cpu = clock() - start_cpu
    wall = time.perf_counter() - start_wall
    # per-call costs on sampled states (CPU time, batches)
    states = [s for s, _ in samples]
    us_clone = _cpu_per_call(_clone, states)
    # legal_actions on a fresh clone (engines may cache the list on the state)
    us_legal = max(0.0, _cpu_per_call(lambda s: game.legal_actions(_clone(s)), states) - us_clone)
    us_apply = _cpu_per_call(lambda sa: game.apply_unchecked(sa[0], sa[1]), samples)
    us_quiet = _cpu_per_call(lambda sa: game.apply_quiet(sa[0], sa[1]), samples)
    views = [game.observe(s, game.to_act(s)) for s in states[:200]]
    us_det = _cpu_per_call(lambda v: game.determinize(v, rng), views, min_calls=200)
    again = [v for v in views[:20] for _ in range(20)]  # as the search: one view, many deals
    us_det_search = _cpu_per_call(lambda v: game.determinize(v, rng), again, min_calls=400)
    return {
        "game": name,
        "preset": variant.preset,
        "players": variant.rules.to_json().get("players"),
        "random_play_options": dict(variant.entry.random_play_options),
        "decisions": decisions,
        "cpu_seconds": round(cpu, 3),
        "decisions_per_s": round(decisions / cpu, 1),
        "decisions_per_s_wall": round(decisions / wall, 1),
        "hands_per_s": round(hands / cpu, 2),
        "matches_per_s": round(matches / cpu, 2),
        "us_legal_actions": round(us_legal, 2),
        "us_apply": round(us_apply, 2),
        "us_apply_quiet": round(us_quiet, 2),
        "us_clone": round(us_clone, 2),
        "us_determinize": round(us_det, 2),
        "us_determinize_search": round(us_det_search, 2),
    }


def bench_strong_playouts(seconds: float, iterations: int = 200, seed: int = 1) -> dict[str, Any]:
    """``strong`` play-outs per CPU-second on Samba: positions of real play (``basic`` bots, 4
    players), the strong bot searching ``iterations`` play-outs at every third decision with
    more than one legal action, for about ``seconds`` of search CPU time."""
    from parlour.bots import make

    variant = games.get("samba", players=4, max_hands=1)
    game = variant.game
    searched = its = 0
    cpu = 0.0
    match_seed = seed
    while cpu < seconds:
        state = variant.new_game(match_seed)
        basics = [make("basic", variant, s, match_seed) for s in range(4)]
        strong = [make(f"strong:{iterations}it", variant, s, match_seed) for s in range(4)]
        n = 0
        while game.to_act(state) is not None and cpu < seconds:
            seat = game.to_act(state)
            assert seat is not None
            legal = game.legal_actions(state)
            view = game.observe(state, seat)
            if len(legal) > 1 and n % 3 == 0:
                bot = strong[seat]
                before = bot.total_cpu_seconds  # type: ignore[attr-defined]
                bot.act(view, legal)
                cpu += bot.total_cpu_seconds - before  # type: ignore[attr-defined]
                its += bot.last_iterations  # type: ignore[attr-defined]
                searched += 1
            state = game.apply_quiet(state, basics[seat].act(view, legal))
            n += 1
        match_seed += 1
    return {
        "figure": "strong play-outs per CPU-second (samba)",
        "searches": searched,
        "playouts": its,
        "iterations_per_search": iterations,
        "cpu_seconds": round(cpu, 2),
        "playouts_per_cpu_s": round(its / cpu, 1) if cpu else 0.0,
    }


TOURNAMENT = "samba --bots basic,random --duplicate --games 200 --workers 2"
_MAIN = "import sys; from parlour.cli import main; sys.argv[0] = 'parlour'; main()"


def bench_tournament(timeout: float = 600.0) -> dict[str, Any]:
    """Wall time of ``parlour tournament samba --bots basic,random --duplicate --games 200
    --workers 2`` run as a user runs it: a fresh interpreter (start-up and imports included)."""
    script = Path(sys.executable).parent / "parlour"
    launcher = [str(script)] if script.exists() else [sys.executable, "-c", _MAIN]
    cmd = [*launcher, "tournament", *TOURNAMENT.split()]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    wall = time.perf_counter() - start
    out: dict[str, Any] = {"figure": f"parlour tournament {TOURNAMENT}", "wall_s": round(wall, 2)}
    if done.returncode != 0:
        out["error"] = done.stderr.strip().splitlines()[-1:] or [f"exit {done.returncode}"]
    return out


def bench_open_spiel(seconds: float) -> dict[str, Any] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(0)
    n = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                n += 1
    return {
        "peer": "open_spiel gin_rummy",
        "actions_per_s": round(n / (time.process_time() - start), 1),
    }


def bench_rlcard(seconds: float) -> dict[str, Any] | None:
    try:
        import rlcard  # type: ignore[import-not-found]
    except ImportError:
        return None
    env = rlcard.make("gin-rummy", config={"seed": 0})
    rng = random.Random(0)
    n = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            n += 1
    return {
        "peer": "rlcard gin-rummy",
        "actions_per_s": round(n / (time.process_time() - start), 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description="Parlour engine benchmark (random play, one core)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--game", action="append", help="game(s) to run (default: all)")
    parser.add_argument("--players", type=int, default=4, help="players where allowed (4)")
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per game")
    parser.add_argument("--no-peers", action="store_true", help="skip OpenSpiel / RLCard")
    parser.add_argument(
        "--no-extras", action="store_true", help="skip the strong play-outs and tournament figures"
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="interpreted (PARLOUR_PURE=1) vs compiled build, back to back per game: ratios",
    )
    args = parser.parse_args()
    if args.compare:
        return compare(args.game or games.names(), args.seconds, args.players, args.json)
    names = args.game or games.names()
    results = [bench_game(n, args.seconds, args.players) for n in names]
    extras: list[dict[str, Any]] = []
    if "samba" in names and not args.no_extras:
        extras.append(bench_strong_playouts(args.seconds))
        extras.append(bench_tournament())
    peers = []
    if not args.no_peers:
        for fn in (bench_open_spiel, bench_rlcard):
            try:
                r = fn(args.seconds)
            except Exception as exc:  # a peer that fails to run is reported, not fatal
                r = {"peer": fn.__name__, "error": str(exc)}
            if r is not None:
                peers.append(r)
    if args.json:
        print(json.dumps({"games": results, "peers": peers, "extras": extras}))
        return 0
    for r in results:
        print(
            f"{r['game']:>10} ({r['preset']}, {r['players']} players): "
            f"{r['decisions_per_s']:>9,.0f} decisions/s CPU ({r['decisions_per_s_wall']:,.0f} wall) "
            f"{r['hands_per_s']:>7,.1f} hands/s {r['matches_per_s']:>7,.1f} matches/s | µs: "
            f"legal_actions {r['us_legal_actions']}, apply {r['us_apply']}, "
            f"apply_quiet {r['us_apply_quiet']}, clone {r['us_clone']}, "
            f"determinize {r['us_determinize']} (search {r['us_determinize_search']})"
        )
    for p in peers:
        if "error" in p:
            print(f"{p['peer']:>24}: failed ({p['error']})")
        else:
            print(f"{p['peer']:>24}: {p['actions_per_s']:>9,.0f} actions/s CPU")
    for x in extras:
        if "playouts_per_cpu_s" in x:
            print(
                f"{x['figure']}: {x['playouts_per_cpu_s']:,.0f} "
                f"({x['searches']} searches of {x['iterations_per_search']} play-outs, "
                f"{x['cpu_seconds']} s CPU)"
            )
        else:
            print(f"{x['figure']}: {x['wall_s']} s wall {x.get('error', '')}")
    return 0


# --- interpreted vs compiled (--compare) ----------------------------------------------------

_COMPARED = (
    ("decisions_per_s", "decisions/s", True),
    ("us_legal_actions", "µs legal_actions", False),
    ("us_apply", "µs apply", False),
    ("us_determinize", "µs determinize", False),
)


def _build_of(env: dict[str, str]) -> str:
    code = "import parlour; print(parlour.BUILD.describe())"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


def _run_build(name: str, seconds: float, players: int | None, pure: bool) -> dict[str, Any]:
    """One game's figures from a fresh process running the interpreted or the compiled build."""
    env = {**os.environ, "PARLOUR_PURE": "1" if pure else "0"}
    cmd = [sys.executable, __file__, "--json", "--no-peers", "--game", name]
    cmd += ["--seconds", str(seconds)]
    if players is not None:
        cmd += ["--players", str(players)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(out.stdout)["games"][0]
    return result


def compare(names: list[str], seconds: float, players: int | None, as_json: bool) -> int:
    """Each game interpreted then compiled, back to back (a loaded machine drifts less between
    the two), and the speed-up of the compiled build on every figure."""
    builds = {
        pure: _build_of({**os.environ, "PARLOUR_PURE": "1" if pure else "0"})
        for pure in (True, False)
    }
    if not builds[False].startswith("compiled"):
        print(f"no compiled build to compare: {builds[False]}", file=sys.stderr)
        return 1
    rows = []
    for name in names:
        pure = _run_build(name, seconds, players, pure=True)
        compiled = _run_build(name, seconds, players, pure=False)
        ratios = {
            key: (compiled[key] / pure[key] if higher else pure[key] / compiled[key])
            if compiled[key] and pure[key]
            else None
            for key, _, higher in _COMPARED
        }
        rows.append({"game": name, "interpreted": pure, "compiled": compiled, "speedup": ratios})
    if as_json:
        print(
            json.dumps(
                {"builds": {"interpreted": builds[True], "compiled": builds[False]}, "games": rows}
            )
        )
        return 0
    print(f"interpreted: {builds[True]}\ncompiled:    {builds[False]}")
    print(f"speed-up of the compiled build ({seconds:g} CPU s per game and build):")
    for row in rows:
        cells = []
        for key, label, _ in _COMPARED:
            ratio = row["speedup"][key]
            before, after = row["interpreted"][key], row["compiled"][key]
            shown = f"{ratio:.2f}×" if ratio is not None else "n/a"
            cells.append(f"{label} {before:,.1f} → {after:,.1f} ({shown})")
        print(f"{row['game']:>10}: " + "; ".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
