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
        self._rng: random.Random | None = None

    @property
    def rng(self) -> random.Random:
        """The bot's generator, made from its seed when first used: a play-out bot reset for
        every play-out and never drawing from it costs no seed derivation (the stream is the
        same as if it had been made at once)."""
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(derive_seed(self.seed, "bot", self.name, self.seat))
        return rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._rng = rng

    @abstractmethod
    def act(self, view: Any, legal: Sequence[Any]) -> Any:
        """Choose one of ``legal`` given ``view`` (the seat's own observation)."""

    def reset(self, seed: int) -> None:
        self.seed = seed
        self._rng = None
