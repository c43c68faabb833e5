"""The ``random`` bot: uniform over the legal actions (baseline and fuzzer)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.core.bot import Bot


class RandomBot(Bot):
    name = "random"
    needs_view = False

    def act(self, view: Any, legal: Sequence[Any]) -> Any:
        return legal[self.rng.randrange(len(legal))]
