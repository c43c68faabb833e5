"""Samba Hand and Foot (seed ``004_bae80ddcdedd4514.txt``): a 7-deck hand-and-foot game for four
players in two partnerships, registered as ``handfoot`` (alias ``samba-hand-and-foot``).

Modules: the common skeleton (docs/skeleton.md), with ``parts/melds`` (card values, meld
rules).
"""

from __future__ import annotations

from parlour.core.registry import GameEntry
from parlour.games.handfoot.bot import HandFootBasicBot
from parlour.games.handfoot.game import HandFootGame
from parlour.games.handfoot.rules import PRESET_DOCS, PRESETS, HandFootRules

GAME = HandFootGame()

ENTRY = GameEntry(
    name="handfoot",
    game=GAME,
    presets=PRESETS,
    default_preset="handfoot",
    description=(
        "Samba Hand and Foot (seed 004): 4 players in partnerships, 7 decks with jokers, a hand "
        "and a foot of 15 each, draw 4, sambas and books of 7 cards, four rounds (50/90/120/150)"
    ),
    aliases=("samba-hand-and-foot", "hand-and-foot"),
    preset_aliases={"rotate-partners": "rotate", "samba-hand-and-foot": "handfoot"},
    preset_docs=PRESET_DOCS,
    bots={"basic": HandFootBasicBot},
    random_play_options={"stock_out": "end_round", "max_hands": 1},
)

__all__ = ["ENTRY", "GAME", "HandFootBasicBot", "HandFootGame", "HandFootRules"]
