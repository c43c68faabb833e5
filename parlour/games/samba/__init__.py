"""Samba (seeds 002, 000, 003): the engine, its rules options and presets (Samba, Bolivia), and
``position(...)``, the validated builder of positions at any point of a turn.

Modules: the common skeleton (docs/skeleton.md; ``state`` holds cards as count vectors), with
``parts/``: ``melds``, ``staging`` (melds built card by card), ``lookahead``/``reach``/
``placement`` (exact checks: can the first meld still reach its minimum, can the player go out)
and ``evaluation`` (the strong bot's estimate of a hand).

>>> from parlour import games
>>> v = games.get("samba", preset="bolivia", players=4)
>>> v.rules.wild_melds, v.rules.target_score
(True, 15000)
"""

from __future__ import annotations

from parlour.core.registry import GameEntry
from parlour.games.samba.bot import SambaBasicBot
from parlour.games.samba.game import SambaGame
from parlour.games.samba.position import PositionError, position
from parlour.games.samba.rules import PRESET_DOCS, PRESETS, SambaRules

GAME = SambaGame()

ENTRY = GameEntry(
    name="samba",
    game=GAME,
    presets=PRESETS,
    default_preset="samba",
    description="Samba, the three-deck Canasta with sequences (and Bolivia)",
    aliases=("samba-canasta", "straat-canasta"),
    preset_docs=PRESET_DOCS,
    random_play_options={"max_hands": 1},
    bots={"basic": SambaBasicBot},
)

__all__ = ["ENTRY", "GAME", "PositionError", "SambaGame", "SambaRules", "position"]
