"""Choose among settings of Samba's ``strong`` bot on small duplicate samples against ``basic``
(issue 36): each setting plays the same deals, each deal twice with the sides swapped, one hand
per game (the ladder's Samba: 4 players in partnerships), with an iteration budget so that the
result does not depend on the machine's load.

    uv run python scripts/tune_samba.py --deals 12 --seed 36001 \\
        base='{}' z1='{"z": 1.0}' short='{"rollout_steps": 12}'

Each setting is a name and the JSON of :class:`~parlour.bots.ismcts.IsmctsBot` parameters
(``budget`` defaults to ``--budget``), and three of this script's own: ``"grouped": true`` (the
grouped candidates of ``parlour/games/samba/parts/search.py``), ``"policy": "hold_out"``
(``basic`` with bench/samba_policy.py's ``hold_out`` rule as favourite and play-out policy) and
``"mlp": "file.npz"`` (the cut-off evaluation fitted by ``scripts/fit_samba_mlp.py``).  Prints, per setting, hands won of those played with the
95 % Wilson interval and the mean hand score difference (its side minus ``basic``'s) with its
95 % interval over deals; ``--log`` appends every game as JSON.  Single process (run it under
``nice``).  Seeds used for tuning must not be used for the confirming run (bench/strength.py).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

from parlour import bots as bot_registry
from parlour import games
from parlour.bots.ismcts import IsmctsBot
from parlour.sim.stats import wilson
from parlour.sim.tournament import plan, run_game


def run(
    name: str,
    params: dict[str, Any],
    deals: int,
    seed: int,
    log: str | None,
    budget: str = "250it",
) -> dict[str, Any]:
    params = {"budget": budget, **params}
    made = dict(params)
    if made.pop("grouped", False):  # the grouped candidates of parlour.games.samba.parts.search
        from parlour.games.samba.parts import search

        made["candidates_fn"] = search.grouped_candidates
    if made.get("policy") == "hold_out":  # basic with the hold_out rule of bench/samba_policy.py
        made["policy"] = _hold_out_bot()
    bot_registry.register_generic(name, partial(_Tuned, **made))
    variant = games.get("samba", players=4, max_hands=1)
    won = played = 0.0
    by_deal: dict[int, float] = {}
    started = time.process_time()
    for spec in plan(variant, [name, "basic"], deals, seed, duplicate=True):
        r = run_game(variant, spec)
        mine = next(i for i, label in enumerate(r.side_labels) if label == name)
        other = 1 - mine
        diff = r.scores[mine] - r.scores[other]
        played += 1
        won += 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
        by_deal[r.deal] = by_deal.get(r.deal, 0.0) + diff / 2
        if log:
            with open(log, "a") as f:
                f.write(json.dumps({"setting": name, "params": params, **r.to_json()}) + "\n")
        print(f"\r  {name}: {int(played)}/{2 * deals}", end="", file=sys.stderr)
    print(file=sys.stderr)
    diffs = list(by_deal.values())
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    lo, hi = wilson(won, int(played))
    return {
        "setting": name,
        "params": params,
        "won": won,
        "played": int(played),
        "win_rate": won / played,
        "wilson95": [round(lo, 3), round(hi, 3)],
        "mean_diff": round(mean, 1),
        "mean_diff_95": [round(mean - half, 1), round(mean + half, 1)],
        "cpu_seconds": round(time.process_time() - started, 1),
    }


def _hold_out_bot() -> type:
    """``basic`` that does not take the meld step leaving it at most one card (going out next)
    while its side would lose the hand by going out (``holds_back`` of bench/samba_policy.py,
    there on ``observe``'s views; here also on the search's ``FastView``)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from samba_policy import holds_back

    from parlour.games.samba.bot import SambaBasicBot

    class HoldOut(SambaBasicBot):
        def _meld_step(self, view: Any, legal: Any, named: Any) -> Any:
            choice = super()._meld_step(view, legal, named)
            if holds_back(view, choice, self._meld_plan, 10.0):
                self._meld_plan = []
                return None
            return choice

    return HoldOut


class _Tuned(IsmctsBot):
    """``strong`` with a candidate function of its own (``candidates_fn``)."""

    def __init__(
        self, *args: Any, candidates_fn: Any = None, mlp: str | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        if candidates_fn is not None:
            self._candidates = candidates_fn
        if mlp is not None:  # the evaluation of scripts/fit_samba_mlp.py (weights in an .npz)
            self._evaluate = _mlp_evaluate(mlp)


def _mlp_evaluate(path: str) -> Any:
    """The cut-off evaluation of ``scripts/fit_samba_mlp.py``: the linear model plus the network,
    per side (an experiment of issue 36's sixth pass, not shipped)."""
    import numpy as np

    from parlour.games.samba.parts import evaluation

    w = np.load(path)
    mu, sd, scale = w["mu"], w["sd"], float(w["scale"])
    w_lin, W1, b1, w2, lin = w["w_lin"], w["W1"], w["b1"], w["w2"], w["lin"]

    def evaluate(game: Any, state: Any) -> tuple[float, ...]:
        x = np.array([evaluation.features(state, s) for s in range(len(state.sides))])
        z = (x - mu) / sd
        out = x @ w_lin + scale * (np.maximum(z @ W1 + b1, 0.0) @ w2 + z @ lin)
        return tuple(float(v) for v in out)

    return evaluate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("settings", nargs="+", help="name=JSON parameters of IsmctsBot")
    ap.add_argument("--deals", type=int, default=8)
    ap.add_argument("--seed", type=int, default=36001)
    ap.add_argument("--log")
    ap.add_argument("--budget", default="250it", help="strong's budget unless a setting gives one")
    args = ap.parse_args()
    for item in args.settings:
        name, _, text = item.partition("=")
        out = run(name, json.loads(text or "{}"), args.deals, args.seed, args.log, args.budget)
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
