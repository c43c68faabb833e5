"""The bot interface.  A bot sees only what its seat may know: the view and the legal actions.

Game-specific bots (``games/<game>/bot.py``) subclass :class:`Bot` and are listed in the game's
registry entry; generic bots (random, ISMCTS) live in ``parlour.bots``."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from parlour.core.game import Game, Seat
from parlour.core.rng import derive_seed


class Bot(ABC):
    """A player program for one seat.  Deterministic given its seed and what it is shown."""

    name: ClassVar[str] = "bot"
    #: False lets a runner skip building views for bots that do not read them (random play)
    needs_view: ClassVar[bool] = True

    def __init__(self, game: Game[Any, Any, Any, Any], seat: Seat, seed: int = 0, **params: Any):
        self.game = game
        self.seat = seat
        self.seed = seed
        self.params = params
        self.rng = random.Random(derive_seed(seed, "bot", self.name, seat))

    @abstractmethod
    def act(self, view: Any, legal: Sequence[Any]) -> Any:
        """Choose one of ``legal`` given ``view`` (the seat's own observation)."""

    def reset(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(derive_seed(seed, "bot", self.name, self.seat))
