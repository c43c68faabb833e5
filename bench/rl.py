#!/usr/bin/env python3
"""Research-API throughput: env steps/s of random play through each interface of
``parlour.rl`` beside OpenSpiel's C++ gin rummy and RLCard's gin rummy, in the same run.

    uv sync --extra rl --group bench
    uv run python bench/rl.py [--seconds 3] [--game scat --game samba] [--json]
    uv run python bench/rl.py --rounds 5 --seconds 0.3   # interleaved medians ÷ gin rummy

A *step* is one decision of one player, with what a learning agent needs to take it: the
observation tensor and the legal actions (mask or list).  Rows:

- ``engine``: the Parlour engine alone (legal actions + apply, no observation) — the ceiling;
- ``batch``: :class:`parlour.rl.batch.BatchEnv` with 64 matches (observations and masks for
  all 64 in numpy arrays each call);
- ``pettingzoo``: the AEC env (``last()`` then ``step``);
- ``openspiel``: the python game through pyspiel (``legal_actions``, ``observation_tensor``,
  ``apply_action``);
- peers: OpenSpiel's C++ ``gin_rummy`` the same way (chance nodes sampled, not counted) and
  with legal actions only; RLCard's ``gin-rummy`` (``env.step`` builds its observation).

Rates are CPU time of this process (``time.process_time``); ratios compare rows of the same
run, so a shared machine slows them alike.  Gin rummy (obs + legal) is measured before and
after the games and the ratios divide by the mean of the two (both are printed): the load of
a shared machine drifts during a run.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from parlour import games

GAMES = ("scat", "cheat", "samba", "handfoot")


def _variant_options(name: str) -> dict[str, Any]:
    return dict(games.entry(name).random_play_options)


def _timed(fn: Callable[[float], int], seconds: float) -> float:
    start = time.process_time()
    steps = fn(start + seconds)
    return steps / (time.process_time() - start)


def bench_engine(name: str, seconds: float) -> float:
    variant = games.get(name, **_variant_options(name))
    game = variant.game
    rng = random.Random(0)

    def run(deadline: float) -> int:
        n = seed = 0
        while time.process_time() < deadline:
            state = game.new_game(variant.rules, seed)
            seed += 1
            while game.to_act(state) is not None:
                legal = game.legal_actions(state)
                state, _ = game.apply_unchecked(state, legal[rng.randrange(len(legal))])
                n += 1
        return n

    return _timed(run, seconds)


def bench_batch(name: str, seconds: float, n: int = 64) -> float:
    from parlour.rl.batch import BatchEnv

    env = BatchEnv(name, n, options=_variant_options(name))
    rng = np.random.default_rng(0)

    def run(deadline: float) -> int:
        steps = 0
        _, mask, _ = env.reset()
        while time.process_time() < deadline:
            _, mask, _, _, _ = env.step(env.sample(mask, rng))
            steps += n
        return steps

    return _timed(run, seconds)


def bench_pettingzoo(name: str, seconds: float) -> float:
    from parlour.rl.pettingzoo import env as make_env

    env = make_env(name, options=_variant_options(name))
    rng = random.Random(0)

    def run(deadline: float) -> int:
        steps = seed = 0
        while time.process_time() < deadline:
            env.reset(seed=seed)
            seed += 1
            for _agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"]).tolist()
                env.step(legal[rng.randrange(len(legal))])
                steps += 1
        return steps

    return _timed(run, seconds)


def _spiel_run(game: Any, deadline: float, observe: bool) -> int:
    rng = random.Random(0)
    steps = 0
    while time.process_time() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            if observe:
                state.observation_tensor(state.current_player())
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    return steps


def bench_openspiel(name: str, seconds: float) -> float:
    from parlour.rl import openspiel

    game = openspiel.load(name, **_variant_options(name))
    return _timed(lambda d: _spiel_run(game, d, True), seconds)


def bench_gin_rummy(seconds: float, observe: bool) -> float | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    return _timed(lambda d: _spiel_run(game, d, observe), seconds)


def bench_rlcard(seconds: float) -> float | None:
    try:
        import rlcard  # type: ignore[import-not-found]
    except ImportError:
        return None
    env = rlcard.make("gin-rummy", config={"seed": 0})
    rng = random.Random(0)

    def run(deadline: float) -> int:
        steps = 0
        while time.process_time() < deadline:
            state, _ = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _ = env.step(legal[rng.randrange(len(legal))])
                steps += 1
        return steps

    return _timed(run, seconds)


def interleaved(names: list[str], rounds: int, seconds: float) -> list[dict[str, Any]]:
    """Per game, ``rounds`` rounds of gin rummy, PettingZoo, gin rummy, batch, gin rummy, each
    interface divided by the mean of the two gin rummy rows around it: the median and range
    of the rounds (steadier than one long run on a shared machine, whose load drifts)."""
    out: list[dict[str, Any]] = []
    for name in names:
        ratios: dict[str, list[float]] = {"pettingzoo": [], "batch x64": []}
        for _ in range(rounds):
            gin = [bench_gin_rummy(seconds, True)]
            pz = bench_pettingzoo(name, seconds)
            gin.append(bench_gin_rummy(seconds, True))
            batch = bench_batch(name, seconds)
            gin.append(bench_gin_rummy(seconds, True))
            if any(g is None for g in gin):
                raise SystemExit("interleaved rounds need open_spiel (the rl extra)")
            g0, g1, g2 = (float(g) for g in gin if g is not None)
            ratios["pettingzoo"].append(pz / ((g0 + g1) / 2))
            ratios["batch x64"].append(batch / ((g1 + g2) / 2))
        for iface, values in ratios.items():
            values.sort()
            out.append(
                {
                    "game": name,
                    "interface": iface,
                    "median": round(values[len(values) // 2], 3),
                    "low": round(values[0], 3),
                    "high": round(values[-1], 3),
                }
            )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per row")
    ap.add_argument("--game", action="append", choices=GAMES, help="games (default: all four)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument(
        "--rounds",
        type=int,
        default=0,
        help="instead of the table: this many interleaved rounds per game (gin rummy, "
        "PettingZoo, gin rummy, batch, gin rummy; --seconds per row), medians of the ratios",
    )
    args = ap.parse_args(argv)
    s = args.seconds
    if args.rounds:
        rounds = interleaved(list(args.game or GAMES), args.rounds, s)
        if args.json:
            print(json.dumps(rounds, indent=2))
            return 0
        print(f"{'game':<9} {'interface':<11} {'median ÷ gin C++':>17} {'range':>14}")
        for r in rounds:
            span = f"{r['low']:.2f}–{r['high']:.2f}"
            print(f"{r['game']:<9} {r['interface']:<11} {r['median']:>17.3f} {span:>14}")
        return 0
    peers: dict[str, float | None] = {
        "open_spiel C++ gin_rummy (obs + legal)": bench_gin_rummy(s, True),
        "open_spiel C++ gin_rummy (legal only)": bench_gin_rummy(s, False),
        "rlcard gin-rummy (step builds obs)": bench_rlcard(s),
    }
    rlc = peers["rlcard gin-rummy (step builds obs)"]
    rows: list[dict[str, Any]] = []
    for name in args.game or GAMES:
        for iface, fn in (
            ("engine (no obs)", bench_engine),
            ("batch x64", bench_batch),
            ("pettingzoo", bench_pettingzoo),
            ("openspiel (python)", bench_openspiel),
        ):
            rows.append({"game": name, "interface": iface, "rate": fn(name, s)})
    # gin rummy once more after the games: on a shared machine the load drifts during a run,
    # so the ratios divide by the mean of the two measurements (both are listed)
    first = peers["open_spiel C++ gin_rummy (obs + legal)"]
    gin = None
    if first is not None:
        last = bench_gin_rummy(s, True)
        assert last is not None
        gin = (first + last) / 2
        peers["open_spiel C++ gin_rummy (obs + legal)"] = gin
        peers["  first measurement (before the games)"] = first
        peers["  second measurement (after the games)"] = last
    for peer, rate in peers.items():
        if rate is not None:
            rows.append({"game": "peer", "interface": peer, "rate": rate})
    for r in rows:
        rate = r.pop("rate")
        r["steps_per_s"] = round(rate, 1)
        r["vs_gin_rummy_cpp"] = round(rate / gin, 3) if gin else None
        r["vs_rlcard_gin"] = round(rate / rlc, 3) if rlc else None
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'game':<9} {'interface':<40} {'steps/s':>10} {'÷ gin C++':>10} {'÷ RLCard':>9}")
    for r in rows:
        g = "-" if r["vs_gin_rummy_cpp"] is None else f"{r['vs_gin_rummy_cpp']:.3f}"
        c = "-" if r["vs_rlcard_gin"] is None else f"{r['vs_rlcard_gin']:.3f}"
        print(f"{r['game']:<9} {r['interface']:<40} {r['steps_per_s']:>10.1f} {g:>10} {c:>9}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
