"""The ``strong`` bot's play-out policy for Hand and Foot (``HandFootPlayoutBot``: ``basic`` with
a discipline for wild cards) against ``basic`` by itself, without any search, in the ladder's
setup (one hand, 4 players in partnerships, duplicate deals: each deal twice, sides swapped).

    uv run python bench/handfoot_policy.py --deals 200      # 400 hands, a few CPU-minutes

Prints hands won by the policy's side (a tied hand counts half), the 95 % Wilson interval and
the mean hand score difference.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from parlour.games.handfoot.bot import HandFootBasicBot, HandFootPlayoutBot
from parlour.sim.duel import duel as policy_duel


def duel(deals: int, seed: int) -> dict[str, Any]:
    return policy_duel("handfoot", HandFootPlayoutBot, HandFootBasicBot, deals, seed)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    print(json.dumps(duel(args.deals, args.seed)))


if __name__ == "__main__":
    main()
