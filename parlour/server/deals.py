"""Fair shuffles you can check: commit to each hand's deal seed before it is played, reveal it after.

The server publishes ``commitment(game.hand_seed(state))`` (SHA-256) to everyone when a hand is
dealt and the seed itself when the hand is over.  Anyone holding the match record (rules, seed,
actions) and the published commitments can then check every deal: the revealed seed hashes to
the commitment, and dealing the hand again from it gives exactly the hands and stock that were
played (``game.redeal(state_at_hand_start, seed) == state_at_hand_start``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.core.game import Event, Game
from parlour.core.rng import commitment


@dataclass
class Deal:
    """One hand's deal: dealt after ``step`` actions, from ``seed`` (secret until revealed)."""

    hand: int
    step: int
    seed: int
    commitment: str
    revealed: bool = False

    def public_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hand": self.hand, "step": self.step, "commitment": self.commitment}
        if self.revealed:
            out["seed"] = self.seed
        return out


class DealTracker:
    """Watches a table's states and says when to publish a commitment or reveal a seed."""

    def __init__(self, game: Game[Any, Any, Any, Any], verify_url: str = "") -> None:
        self.game = game
        self.deals: list[Deal] = []
        self.verify_url = verify_url

    def after(self, state: Any, step: int) -> list[Event]:
        """Call with the state after the deal (step 0) and after every action (step = actions
        applied); returns the public events to add to the log."""
        game = self.game
        events: list[Event] = []
        number = game.hand_number(state)
        if not self.deals or self.deals[-1].hand != number:
            if self.deals and not self.deals[-1].revealed:
                events.append(self._reveal(self.deals[-1]))
            seed = game.hand_seed(state)
            deal = Deal(number, step, seed, commitment(seed))
            self.deals.append(deal)
            events.append(
                Event(
                    "deal_commitment",
                    f"Hand {number + 1}: deal committed, sha256 {deal.commitment[:16]}…",
                    None,
                    {"hand": number, "commitment": deal.commitment, "step": step},
                )
            )
        if game.to_act(state) is None and self.deals and not self.deals[-1].revealed:
            events.append(self._reveal(self.deals[-1]))
        return events

    def _reveal(self, deal: Deal) -> Event:
        deal.revealed = True
        data: dict[str, Any] = {
            "hand": deal.hand,
            "seed": deal.seed,
            "commitment": deal.commitment,
            "step": deal.step,
        }
        if self.verify_url:
            data["verify_url"] = self.verify_url
        return Event(
            "deal_reveal",
            f'Hand {deal.hand + 1}: deal seed {deal.seed} (check: sha256("parlour-deal:{deal.seed}"))',
            None,
            data,
        )

    def public(self) -> list[dict[str, Any]]:
        return [d.public_json() for d in self.deals]


def verify_deals(
    game: Game[Any, Any, Any, Any],
    rules: Any,
    seed: int,
    actions: Sequence[Mapping[str, Any]],
    published: Iterable[Mapping[str, Any]],
) -> list[dict[str, Any]]:
    """Check the published deals against a replay of the match (trusting only the commitments).

    For each published deal with a revealed seed: the seed hashes to the commitment, the hand was
    dealt at the published step, and dealing it again from the seed gives the very same state."""
    by_step: dict[int, list[Mapping[str, Any]]] = {}
    for d in published:
        by_step.setdefault(int(d["step"]), []).append(d)
    results: list[dict[str, Any]] = []
    state = game.new_game(rules, seed)
    step = 0

    def check(at: int, state: Any) -> None:
        for d in by_step.get(at, []):
            row: dict[str, Any] = {
                "hand": d["hand"],
                "step": at,
                "commitment": d["commitment"],
                "seed": d.get("seed"),
            }
            if d.get("seed") is None:
                row.update(commitment_ok=None, redeal_ok=None, verified=False, note="not revealed")
                results.append(row)
                continue
            s = int(d["seed"])
            row["commitment_ok"] = commitment(s) == d["commitment"]
            row["hand_ok"] = game.hand_number(state) == int(d["hand"])
            try:
                row["redeal_ok"] = bool(game.redeal(state, s) == state)
            except Exception as exc:  # a bad seed must give a clear "no", not a crash
                row["redeal_ok"] = False
                row["note"] = f"redeal failed: {exc}"
            row["verified"] = bool(row["commitment_ok"] and row["hand_ok"] and row["redeal_ok"])
            results.append(row)

    check(0, state)
    for action in actions:
        state, _ = game.apply(state, game.action_from_json(action))
        step += 1
        check(step, state)
    known = {int(d["step"]) for d in published}
    missing = sorted(known - set(range(step + 1)))
    for at in missing:
        for d in by_step[at]:
            results.append(
                {
                    "hand": d["hand"],
                    "step": at,
                    "commitment": d["commitment"],
                    "seed": d.get("seed"),
                    "verified": False,
                    "note": f"published step {at} is beyond the {step} actions of the match",
                }
            )
    return results
