"""Strength benchmark of the Samba bots (issue 7): 4 players in partnerships, duplicate hands.

    uv run python bench/strength.py                      # full run (~2 hours on two cores)
    uv run python bench/strength.py --deals 20 --budget 0.5 --workers 2   # a quick look

Measures, each with its 95 % Wilson interval over hands (every hand is one game: ``max_hands=1``;
each deal is played twice with the sides swapped so the luck of the cards cancels):

1. ``basic`` pair vs ``random`` pair — bar: ≥ 95 % of hands won;
2. ``strong`` pair (``--budget`` seconds or ``NNNit`` play-outs per decision) vs
   ``basic`` pair — bar: the interval's lower bound above 55 %;
3. the search's play-outs per second on Samba positions from real play, and its longest search.

Not a test: it takes a long time and its numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from parlour import games
from parlour.bots import make
from parlour.sim.stats import wilson
from parlour.sim.tournament import GameResult, Tournament, summarize


def match_up(
    bots: list[str], deals: int, seed: int, workers: int | None, executor: str, log: str | None
) -> dict[str, Any]:
    variant = games.get("samba", players=4, max_hands=1)
    started = time.perf_counter()
    done = [0]

    def tick(result: Any, results: Any) -> None:
        done[0] = len(results)
        if log:
            with open(log, "a") as f:
                f.write(json.dumps(result.to_json()) + "\n")
        print(f"\r  {bots[0]} vs {bots[1]}: {done[0]}/{2 * deals} hands", end="", file=sys.stderr)

    results = Tournament(variant, bots, games=deals, seed=seed, duplicate=True).run(
        executor, workers, None, tick
    )
    print(file=sys.stderr)
    s = summarize(results)["bots"][bots[0]]
    lo, hi = wilson(s["hands_won"], s["hands"])
    return {
        "bots": bots,
        "deals": deals,
        "hands": s["hands"],
        "hands_won": s["hands_won"],
        "hand_win_rate": s["hand_win_rate"],
        "wilson95": [lo, hi],
        "mean_hand_score_diff": s["mean_hand_score_diff"],
        "mean_hand_score_diff_ci": s["mean_hand_score_diff_ci"],
        "seconds": round(time.perf_counter() - started, 1),
        "seeds": [r.seed for r in results],
    }


def iterations_per_second(budget: str, decisions: int, seed: int) -> dict[str, Any]:
    variant = games.get("samba", players=4, max_hands=1)
    game = variant.game
    state = variant.new_game(seed)
    basics = [make("basic", variant, s, seed) for s in range(4)]
    strong = [make(f"strong:{budget}", variant, s, seed) for s in range(4)]
    n = 0
    while n < decisions and game.to_act(state) is not None:
        seat = game.to_act(state)
        legal = game.legal_actions(state)
        view = game.observe(state, seat)
        if len(legal) > 1 and n % 3 == 0:
            strong[seat].act(view, legal)
        state, _ = game.apply_unchecked(state, basics[seat].act(view, legal))
        n += 1
    its = sum(b.total_iterations for b in strong)  # type: ignore[attr-defined]
    secs = sum(b.total_seconds for b in strong)  # type: ignore[attr-defined]
    cpu = sum(b.total_cpu_seconds for b in strong)  # type: ignore[attr-defined]
    calls = sum(b.decisions for b in strong)  # type: ignore[attr-defined]
    longest = max(b.max_seconds for b in strong)  # type: ignore[attr-defined]
    return {
        "searches": calls,
        "iterations": its,
        "seconds": round(secs, 2),
        "cpu_seconds": round(cpu, 2),
        "longest_search_s": round(longest, 3),
        "iterations_per_s": round(its / secs, 1) if secs else 0.0,
        "iterations_per_cpu_s": round(its / cpu, 1) if cpu else 0.0,
    }


def summarize_log(path: str) -> dict[str, Any]:
    """Per match-up and bot over the games logged so far (one log may hold both match-ups); a
    deal counts only once both of its games are in."""
    with open(path) as f:
        rows = [json.loads(line) for line in f if line.strip()]

    def matchup(r: dict[str, Any]) -> str:
        return " vs ".join(
            dict.fromkeys(r["side_labels"] if r["rotation"] == 0 else r["side_labels"][::-1])
        )

    by_deal: dict[tuple[str, int], int] = {}
    for r in rows:
        key = (matchup(r), r["deal"])
        by_deal[key] = by_deal.get(key, 0) + 1
    out: dict[str, Any] = {}
    for name in dict.fromkeys(matchup(r) for r in rows):
        complete = [
            GameResult(
                **{
                    **r,
                    "seating": tuple(r["seating"]),
                    "side_labels": tuple(r["side_labels"]),
                    "scores": tuple(r["scores"]),
                    "winners": tuple(r["winners"]),
                    "hands": tuple(tuple(h) for h in r["hands"]),
                }
            )
            for r in rows
            if matchup(r) == name and by_deal[(name, r["deal"])] == 2
        ]
        if not complete:
            continue
        summary = summarize(complete)
        for b in summary["bots"].values():
            b["wilson95_hands"] = list(wilson(b["hands_won"], b["hands"]))
        out[name] = summary
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--deals", type=int, default=200, help="deals for strong vs basic")
    ap.add_argument("--basic-deals", type=int, default=200, help="deals for basic vs random")
    ap.add_argument("--budget", default="1.0", help="strong's budget: seconds or NNNit")
    ap.add_argument("--workers", type=int, default=None, help="processes (default all cores)")
    ap.add_argument("--executor", default="local", choices=("local", "ray"))
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--skip", default="", help="comma list of parts to skip: basic,strong,speed")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--log", default=None, help="append each finished game (JSON line) here")
    ap.add_argument(
        "--from-log", default=None, help="only summarise the games of a --log file (partial runs)"
    )
    args = ap.parse_args()
    if args.from_log:
        print(json.dumps(summarize_log(args.from_log), indent=1))
        return
    skip = set(filter(None, args.skip.split(",")))
    out: dict[str, Any] = {"budget": args.budget}
    if "speed" not in skip:
        out["speed"] = iterations_per_second(args.budget, 60, args.seed)
        print(f"ISMCTS on Samba: {out['speed']}", file=sys.stderr)
    if "basic" not in skip:
        r = match_up(
            ["basic", "random"], args.basic_deals, args.seed, args.workers, args.executor, args.log
        )
        r["bar"] = "hand win rate >= 95%"
        r["passed"] = r["hand_win_rate"] >= 0.95
        out["basic_vs_random"] = r
    if "strong" not in skip:
        r = match_up(
            [f"strong:{args.budget}", "basic"],
            args.deals,
            args.seed + 1,
            args.workers,
            args.executor,
            args.log,
        )
        r["bar"] = "95% Wilson lower bound of the hand win rate > 55%"
        r["passed"] = r["wilson95"][0] > 0.55
        out["strong_vs_basic"] = r
    if args.json:
        print(json.dumps(out))
        return
    for key in ("basic_vs_random", "strong_vs_basic"):
        if key in out:
            r = out[key]
            lo, hi = r["wilson95"]
            print(
                f"{key}: {r['hands_won']}/{r['hands']} hands = {100 * r['hand_win_rate']:.1f}% "
                f"[{100 * lo:.1f}%, {100 * hi:.1f}%], mean hand score diff "
                f"{r['mean_hand_score_diff']:+.0f}; bar: {r['bar']} -> "
                f"{'PASS' if r['passed'] else 'FAIL'} ({r['seconds']} s)"
            )


if __name__ == "__main__":
    main()
