"""The ``expert`` bot: the best search Parlour plays within 3 seconds a decision (issue 36).

``expert`` is :class:`~parlour.bots.ismcts.IsmctsBot` with a default budget of
:data:`EXPERT_SECONDS` and, per game, the settings in :data:`EXPERT_SETTINGS` (empty: the game's
own search hints, as ``strong``).  Like ``strong`` it takes a budget after a colon
(``expert:2500it`` = 2,500 play-outs a decision, for reproducible measurements; ``expert:2`` =
2 seconds).  What each game's settings are and how they were measured: docs/bots.md, "expert".

>>> from parlour import games
>>> from parlour.bots import make
>>> bot = make("expert", games.get("scat"), seat=0, seed=1)
>>> bot.name, bot.seconds, bot.iterations
('expert', 3.0, None)
>>> make("expert:40it", games.get("scat"), seat=0, seed=1).iterations
40
"""

from __future__ import annotations

from typing import Any

from parlour.core.game import Game, Seat

from .ismcts import IsmctsBot

#: the thinking time of ``expert`` a decision when no budget is given (the issue's bound)
EXPERT_SECONDS = 3.0

#: :class:`IsmctsBot` parameters by game name, over the game's search hints (measured in
#: docs/bots.md, "expert"; a game not listed searches as ``strong`` does, with more time)
EXPERT_SETTINGS: dict[str, dict[str, Any]] = {}


class ExpertBot(IsmctsBot):
    """``strong``'s search with ``expert``'s budget and the game's ``expert`` settings."""

    name = "expert"

    def __init__(
        self,
        game: Game[Any, Any, Any, Any],
        seat: Seat,
        seed: int = 0,
        *,
        budget: Any = None,
        **params: Any,
    ) -> None:
        settings = {**EXPERT_SETTINGS.get(game.name, {}), **params}
        if budget is None and "iterations" not in params and "seconds" not in params:
            budget = EXPERT_SECONDS
        super().__init__(game, seat, seed, budget=budget, **settings)
