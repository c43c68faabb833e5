"""Strength benchmark of a game's bots (issues 7 and 19), in the ladder's setup of the game
(:data:`parlour.sim.ladder.SETUPS`: Samba and Hand and Foot one hand, 4 players in partnerships;
Scat a whole game heads-up; Cheat a whole game of 4 players, each bot at two seats across the
table, a bot winning when one of its seats goes out first), with duplicate deals.

    uv run python bench/strength.py                      # Samba, full run (~2 hours on two cores)
    uv run python bench/strength.py --deals 20 --budget 0.5 --workers 2   # a quick look
    uv run python bench/strength.py --game scat --deals 100 --budget 0.3 --skip basic,speed
    uv run python bench/strength.py --game samba --bots expert:2500it,strong:850it --deals 20 \
        --skip basic,speed --workers 2                   # any pair instead of strong vs basic

Measures, each with its 95 % Wilson interval over hands (partnership games: every hand is one
game, ``max_hands=1``) or whole games (Scat, Cheat: a draw counts half); each deal is played
twice with the sides swapped so the luck of the cards cancels:

1. ``basic`` vs ``random`` — bar: ≥ 95 % won;
2. ``strong`` (``--budget`` seconds or ``NNNit`` play-outs per decision) vs ``basic`` — bar:
   the interval's lower bound above 55 %;
3. the search's play-outs per second on positions from real play, its mean and longest search
   in CPU seconds (``--speed-decisions`` a few hundred to calibrate an ``NNNit`` budget).

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
from parlour.core.registry import Variant
from parlour.sim.ladder import SETUPS, ladder_variant
from parlour.sim.stats import wilson
from parlour.sim.tournament import GameResult, Tournament, summarize


def strength_variant(game: str) -> Variant:
    """The variant ``game`` is measured in: Samba's as it always was, the others the ladder's."""
    if game == "samba":
        return games.get("samba", players=4, max_hands=1)
    return ladder_variant(game)


def per_hand(game: str) -> bool:
    """Whether one game of the benchmark is one hand (partnership games) or a whole match."""
    return SETUPS[game].max_hands == 1


def match_up(
    bots: list[str],
    deals: int,
    seed: int,
    workers: int | None,
    executor: str,
    log: str | None,
    game: str = "samba",
) -> dict[str, Any]:
    variant = strength_variant(game)
    unit = "hands" if per_hand(game) else "games"
    started = time.perf_counter()
    done = [0]

    def tick(result: Any, results: Any) -> None:
        done[0] = len(results)
        if log:
            with open(log, "a") as f:
                f.write(json.dumps(result.to_json()) + "\n")
        print(f"\r  {bots[0]} vs {bots[1]}: {done[0]}/{2 * deals} {unit}", end="", file=sys.stderr)

    results = Tournament(variant, bots, games=deals, seed=seed, duplicate=True).run(
        executor, workers, None, tick
    )
    print(file=sys.stderr)
    s = summarize(results)["bots"][bots[0]]
    if per_hand(game):
        won, played = float(s["hands_won"]), int(s["hands"])
    else:  # whole games: a draw counts half, as on the ladder
        won, played = s["wins"] + s["draws"] / 2, int(s["games"])
    lo, hi = wilson(won, played)
    return {
        "bots": bots,
        "game": game,
        "unit": unit,
        "deals": deals,
        "played": played,
        "won": won,
        "win_rate": won / played if played else 0.0,
        "hands": s["hands"],
        "hands_won": s["hands_won"],
        "hand_win_rate": s["hand_win_rate"],
        "wilson95": [lo, hi],
        "mean_score_diff": s["mean_score_diff"],
        "mean_hand_score_diff": s["mean_hand_score_diff"],
        "mean_hand_score_diff_ci": s["mean_hand_score_diff_ci"],
        "same_seat_deals": same_seat_deals(results),
        "seconds": round(time.perf_counter() - started, 1),
        "seeds": [r.seed for r in results],
    }


def iterations_per_second(
    budget: str, decisions: int, seed: int, game_name: str = "samba"
) -> dict[str, Any]:
    variant = strength_variant(game_name)
    game = variant.game
    state = variant.new_game(seed)
    seats = range(int(getattr(variant.rules, "players", 0)))
    basics = [make("basic", variant, s, seed) for s in seats]
    strong = [make(f"strong:{budget}", variant, s, seed) for s in seats]
    n = 0
    played = 1
    while n < decisions:
        seat = game.to_act(state)
        if seat is None:  # a game over: the next one (new deal) until enough decisions
            state = variant.new_game(seed + played)
            played += 1
            for b in (*basics, *strong):
                b.reset(seed + played)
            continue
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
    longest_cpu = max(b.max_cpu_seconds for b in strong)  # type: ignore[attr-defined]
    return {
        "decisions": n,
        "games": played,
        "searches": calls,
        "iterations": its,
        "seconds": round(secs, 2),
        "cpu_seconds": round(cpu, 2),
        "longest_search_s": round(longest, 3),
        "longest_search_cpu_s": round(longest_cpu, 3),
        "mean_search_cpu_s": round(cpu / calls, 3) if calls else 0.0,
        "iterations_per_s": round(its / secs, 1) if secs else 0.0,
        "iterations_per_cpu_s": round(its / cpu, 1) if cpu else 0.0,
    }


def same_seat_deals(results: list[GameResult]) -> int:
    """Deals whose two games (the bots swapped) the same seats won: a split the deal decided,
    whoever played it, that tells nothing about the bots."""
    by_deal: dict[int, list[tuple[int, ...]]] = {}
    for r in results:
        by_deal.setdefault(r.deal, []).append(tuple(sorted(r.winners)))
    return sum(1 for w in by_deal.values() if len(w) == 2 and w[0] and w[0] == w[1])


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
        summary["same_seat_deals"] = same_seat_deals(complete)
        out[name] = summary
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--game", default="samba", choices=tuple(SETUPS), help="the game measured")
    ap.add_argument("--deals", type=int, default=200, help="deals for strong vs basic")
    ap.add_argument("--basic-deals", type=int, default=200, help="deals for basic vs random")
    ap.add_argument("--budget", default="1.0", help="strong's budget: seconds or NNNit")
    ap.add_argument(
        "--bots",
        default=None,
        help="A,B: the pair of the second part instead of strong:BUDGET,basic (e.g. "
        "expert:2500it,strong:850it); the first is the one measured",
    )
    ap.add_argument("--workers", type=int, default=None, help="processes (default all cores)")
    ap.add_argument("--executor", default="local", choices=("local", "ray"))
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument(
        "--speed-decisions",
        type=int,
        default=60,
        help="decisions played for the speed part (every third one searched; new deals after a "
        "game ends): a few hundred calibrate an NNNit budget's time per decision",
    )
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
    game = args.game
    unit = "hand" if per_hand(game) else "game"
    out: dict[str, Any] = {"game": game, "budget": args.budget}
    if "speed" not in skip:
        out["speed"] = iterations_per_second(args.budget, args.speed_decisions, args.seed, game)
        print(f"ISMCTS on {strength_variant(game).entry.title}: {out['speed']}", file=sys.stderr)
    if "basic" not in skip:
        r = match_up(
            ["basic", "random"],
            args.basic_deals,
            args.seed,
            args.workers,
            args.executor,
            args.log,
            game,
        )
        r["bar"] = f"{unit} win rate >= 95%"
        r["passed"] = r["win_rate"] >= 0.95
        out["basic_vs_random"] = r
    if "strong" not in skip:
        pair = args.bots.split(",") if args.bots else [f"strong:{args.budget}", "basic"]
        if len(pair) != 2:
            ap.error("--bots takes two names: A,B")
        r = match_up(
            pair,
            args.deals,
            args.seed + 1,
            args.workers,
            args.executor,
            args.log,
            game,
        )
        r["bar"] = f"95% Wilson lower bound of the {unit} win rate > 55%"
        r["passed"] = r["wilson95"][0] > 0.55
        out["pair" if args.bots else "strong_vs_basic"] = r
    if args.json:
        print(json.dumps(out))
        return
    for key in ("basic_vs_random", "strong_vs_basic", "pair"):
        if key in out:
            r = out[key]
            lo, hi = r["wilson95"]
            won = f"{r['won']:g}/{r['played']} {r['unit']}"
            diff = (
                f"mean hand score diff {r['mean_hand_score_diff']:+.0f}"
                if r["unit"] == "hands"
                else f"mean score diff {r['mean_score_diff']:+.2f}"
            )
            print(
                f"{key} ({' vs '.join(r['bots'])}): {won} = {100 * r['win_rate']:.1f}% "
                f"[{100 * lo:.1f}%, {100 * hi:.1f}%], {diff}; bar: {r['bar']} -> "
                f"{'PASS' if r['passed'] else 'FAIL'} ({r['seconds']} s)"
            )


if __name__ == "__main__":
    main()
