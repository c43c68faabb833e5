"""Cheat / I Doubt It / Bullshit: engine, rules and presets, the basic bot,
and ``position(...)``, the validated builder of positions.

>>> from parlour import games
>>> games.get("bullshit").rules.rank_rule
'bullshit'
>>> games.get("i-doubt-it").preset
'cheat'
"""

from __future__ import annotations

from parlour.core.grammar import Form, Grammar
from parlour.core.registry import GameEntry, ModuleText
from parlour.core.said import N_
from parlour.games.cheat import actions as A
from parlour.games.cheat.bot import BasicCheatBot
from parlour.games.cheat.game import CheatGame
from parlour.games.cheat.parts.search import HINTS
from parlour.games.cheat.position import PositionError, position
from parlour.games.cheat.rules import PRESET_ALIASES, PRESET_DOCS, PRESETS, CheatRules

GAME = CheatGame()

#: every Cheat action as it is written (``str(action)``) and read back
GRAMMAR = Grammar(
    [
        Form(A.Pick, "pick {card:card}"),
        Form(A.Claim, "claim {count:int} × {rank:rank}"),
        Form(A.Challenge, "challenge"),
        Form(A.Pass, "pass"),
        Form(A.ChooseFirst, "seat {seat:int} plays first"),
    ]
)

ENTRY = GameEntry(
    text=ModuleText("parlour.games.cheat.text"),
    name="cheat",
    game=GAME,
    presets=PRESETS,
    default_preset="cheat",
    description=N_(
        "Shed your cards face down, claiming a rank; lie if you must — and call out "
        "the liars (Cheat, I Doubt It, Bullshit and national variants)."
    ),
    aliases=("i-doubt-it", "bs"),
    preset_aliases=PRESET_ALIASES,
    preset_docs=PRESET_DOCS,
    bots={"basic": BasicCheatBot},
    random_play_options={"max_turns": 30},
    hidden_information=True,
    several_hands=False,
    grammar=GRAMMAR,
    hints=HINTS,
    position=position,
)

__all__ = [
    "ENTRY",
    "GAME",
    "GRAMMAR",
    "BasicCheatBot",
    "CheatGame",
    "CheatRules",
    "PositionError",
    "position",
]
