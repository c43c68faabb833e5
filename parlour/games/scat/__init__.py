"""Scat / 31 / Blitz: the common skeleton (docs/skeleton.md): rules and
presets (``rules``), who loses a life (``scoring``), the ``basic`` bot (``bot``),
``position(...)``, the validated builder of positions (``position``), hand values in
``parts/values`` and the ``strong`` bot's hints in ``parts/search``."""

from __future__ import annotations

from parlour.core.grammar import Form, Grammar
from parlour.core.registry import GameEntry, ModuleText, SearchHints
from parlour.core.said import N_
from parlour.games.scat import actions as S
from parlour.games.scat import view
from parlour.games.scat.bot import BasicScatBot
from parlour.games.scat.game import ScatGame
from parlour.games.scat.parts import search
from parlour.games.scat.position import PositionError, position
from parlour.games.scat.rules import PRESET_DOCS, PRESETS

GAME = ScatGame()

#: every Scat action as it is written (``str(action)``) and read back
GRAMMAR = Grammar(
    [
        Form(S.DrawStock, "draw from the stock"),
        Form(S.TakeDiscard, "take the discard"),
        Form(S.Knock, "knock"),
        Form(S.Hammer, "hammer (show down now)"),
        Form(S.ThrowDown, "throw down (show down now)", call=True),
        Form(S.ThrowDown, "play on", call=False),
        Form(S.Discard, "discard {card:card} and declare 31", declare=True),
        Form(S.Discard, "discard {card:card}", declare=False),
        Form(S.EndHand, "end the hand (stock is empty)"),
        Form(S.Declare31, "declare the 31 I was dealt"),
    ]
)

#: the ``strong`` bot's search for Scat: every legal move against the basic bot's on shared
#: determinizations, played out by the basic bot to the end of the hand (see ``parts/search``);
#: a score scale of 4 lives keeps rewards nearly linear in lives, so a knock that costs two
#: weighs about twice one that costs one (at 1 life, tanh saturates and knocks came too cheap)
HINTS = SearchHints(
    score_scale=4.0,
    rollout_steps=12,
    search="paired",
    paired_rollout_steps=0,
    search_candidates_limit=5,
    rollout_view=view.rollout_view,
    evaluate_state=search.evaluate,
    search_candidates=search.candidates,
    determinize=search.determinize,
)

ENTRY = GameEntry(
    text=ModuleText("parlour.games.scat.text"),
    name="scat",
    game=GAME,
    presets=PRESETS,
    default_preset="scat",
    description=N_("Scat / 31 / Blitz: three-card draw and discard, best suit to 31, lives"),
    aliases=("31", "blitz", "thirty-one"),
    preset_aliases={
        "grand_cadillac": "cadillac",
        "bus": "ride_the_bus",
        "french": "french_canadian",
    },
    preset_docs=PRESET_DOCS,
    bots={"basic": BasicScatBot},
    random_play_options={"max_hands": 5},
    hidden_information=True,
    several_hands=True,
    grammar=GRAMMAR,
    position=position,
    hints=HINTS,
)

__all__ = ["ENTRY", "GAME", "GRAMMAR", "BasicScatBot", "PositionError", "ScatGame", "position"]
