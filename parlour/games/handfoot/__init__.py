"""Samba Hand and Foot: a 7-deck hand-and-foot game for four players in two partnerships,
registered as ``handfoot`` (alias ``samba-hand-and-foot``).

Modules: the common skeleton (docs/skeleton.md), with ``parts/melds`` (card values, meld
rules) and ``parts/evaluation`` (the strong bot's estimate of how a round ends).
"""

# source: seed 004_bae80ddcdedd4514.txt (Samba Hand and Foot; docs/sources.md)

from __future__ import annotations

from typing import Any

from parlour.core.grammar import Form, Grammar
from parlour.core.registry import GameEntry, ModuleText, SearchHints
from parlour.core.said import N_
from parlour.games.handfoot import actions as A
from parlour.games.handfoot.bot import HandFootBasicBot, HandFootPlayoutBot, QuickView
from parlour.games.handfoot.game import HandFootGame
from parlour.games.handfoot.parts.evaluation import evaluate
from parlour.games.handfoot.position import position
from parlour.games.handfoot.rules import PRESET_DOCS, PRESETS, HandFootRules
from parlour.games.handfoot.state import State

GAME = HandFootGame()

#: every Hand and Foot action as it is written (``str(action)``) and read back
GRAMMAR = Grammar(
    [
        Form(A.Draw, "draw"),
        Form(A.TakePile, "take the pile, top card with {cards:cards} onto a new meld", meld=-1),
        Form(A.TakePile, "take the pile, top card with {cards:cards} onto meld {meld:int}"),
        Form(A.Meld, "meld {cards:cards}"),
        Form(A.AddToMeld, "add {card:card} to meld {meld:int}"),
        Form(A.Discard, "discard {card:card}"),
        Form(A.Retract, "take back this turn's melds"),
    ]
)


def _rollout_view(game: Any, state: State, seat: int) -> QuickView:
    return QuickView(state, seat)


def _evaluate(game: Any, state: State) -> tuple[float, ...]:
    return evaluate(state)


#: the ``strong`` bot's search for Hand and Foot, like Samba's: the play-out policy's move against a
#: few alternatives (how to draw, which card to discard) on shared determinizations, play-outs of
#: 20 decisions by that policy (``HandFootPlayoutBot``: the basic bot, sparing with wild cards),
#: then the round's end estimated by ``parts/evaluation``
HINTS = SearchHints(
    score_scale=3000.0,
    rollout_steps=60,
    search="paired",
    search_candidates_limit=4,
    paired_rollout_steps=20,
    rollout_view=_rollout_view,
    evaluate_state=_evaluate,
    search_candidates=HandFootBasicBot.search_candidates,
    rollout_bot=HandFootPlayoutBot,
)

ENTRY = GameEntry(
    text=ModuleText("parlour.games.handfoot.text"),
    name="handfoot",
    game=GAME,
    presets=PRESETS,
    default_preset="handfoot",
    description=N_(
        "Samba Hand and Foot: 4 players in partnerships, 7 decks with jokers, a hand and a foot "
        "of 15 each, draw 4, sambas and books of 7 cards, four rounds (50/90/120/150)"
    ),
    aliases=("samba-hand-and-foot", "hand-and-foot"),
    preset_aliases={"rotate-partners": "rotate", "samba-hand-and-foot": "handfoot"},
    preset_docs=PRESET_DOCS,
    bots={"basic": HandFootBasicBot},
    random_play_options={"stock_out": "end_round", "max_hands": 1},
    sides=GAME.sides,
    hidden_information=True,
    several_hands=True,
    grammar=GRAMMAR,
    hints=HINTS,
    position=position,
)

__all__ = ["ENTRY", "GAME", "GRAMMAR", "HandFootBasicBot", "HandFootGame", "HandFootRules"]
