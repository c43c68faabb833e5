"""Scat / 31 / Blitz (seed 001): the common skeleton (docs/skeleton.md): rules and
presets (``rules``), who loses a life (``scoring``), the ``basic`` bot (``bot``),
``position(...)``, the validated builder of positions (``position``), and hand values in
``parts/values``."""

from __future__ import annotations

from parlour.core.registry import GameEntry
from parlour.games.scat.bot import BasicScatBot
from parlour.games.scat.game import ScatGame
from parlour.games.scat.position import PositionError, position
from parlour.games.scat.rules import PRESET_DOCS, PRESETS

GAME = ScatGame()

ENTRY = GameEntry(
    name="scat",
    game=GAME,
    presets=PRESETS,
    default_preset="scat",
    description="Scat / 31 / Blitz: three-card draw and discard, best suit to 31, lives",
    aliases=("31", "blitz", "thirty-one"),
    preset_aliases={
        "grand_cadillac": "cadillac",
        "bus": "ride_the_bus",
        "french": "french_canadian",
    },
    preset_docs=PRESET_DOCS,
    bots={"basic": BasicScatBot},
    random_play_options={"max_hands": 5},
)

__all__ = ["ENTRY", "GAME", "BasicScatBot", "PositionError", "ScatGame", "position"]
