"""Samba: the engine, its rules options and presets (Samba, Bolivia), and
``position(...)``, the validated builder of positions at any point of a turn.

Modules: the common skeleton (docs/skeleton.md; ``state`` holds cards as count vectors), with
``parts/``: ``melds``, ``staging`` (melds built card by card), ``lookahead``/``reach``/
``placement`` (exact checks: can the first meld still reach its minimum, can the player go out)
``evaluation`` (the strong bot's estimate of a hand) and ``search`` (the moves the
strong bot's paired search compares).

>>> from parlour import games
>>> v = games.get("samba", preset="bolivia", players=4)
>>> v.rules.wild_melds, v.rules.target_score
(True, 15000)
"""

from __future__ import annotations

from typing import Any

from parlour.core.grammar import Form, Grammar
from parlour.core.registry import GameEntry, ModuleText, SearchHints
from parlour.core.said import N_
from parlour.games.samba import actions as A
from parlour.games.samba.bot import FastView, SambaBasicBot
from parlour.games.samba.game import SambaGame
from parlour.games.samba.parts import search
from parlour.games.samba.parts.evaluation import evaluate
from parlour.games.samba.position import PositionError, position
from parlour.games.samba.rules import PRESET_DOCS, PRESETS, SambaRules
from parlour.games.samba.state import State, sides_for

GAME = SambaGame()

#: every Samba action as it is written (``str(action)``) and read back
GRAMMAR = Grammar(
    [
        Form(A.Draw, "draw"),
        Form(A.TakePile, "take the pile with {pair:cards}"),
        Form(A.TakeTop, "take the top card onto meld {meld:int}"),
        Form(A.MeldBlackThrees, "meld black 3s {cards:cards}"),
        Form(A.Stage, "meld {card:card}"),
        Form(A.Unstage, "take back the unfinished meld"),
        Form(A.AddToMeld, "add {card:card} to meld {meld:int}"),
        Form(A.MergeGroups, "merge meld {other:int} into meld {meld:int}"),
        Form(A.LayRedThree, "lay out {card:card}"),
        Form(A.UndoOpening, "take back the opening melds"),
        Form(A.Discard, "discard {card:card}"),
        Form(A.Pass, "pass"),
        Form(A.AskGoOut, "partner, may I go out?"),
        Form(A.AnswerGoOut, "yes, go out", yes=True),
        Form(A.AnswerGoOut, "no, do not go out", yes=False),
    ]
)


def _rollout_view(game: Any, state: State, seat: int) -> FastView:
    return FastView(state, seat)


def _evaluate(game: Any, state: State) -> tuple[float, ...]:
    return evaluate(state)


#: the ``strong`` bot's search for Samba: the basic bot's move against a few alternatives on
#: shared determinizations, play-outs to the end of the hand (30 decisions in the paired search)
HINTS = SearchHints(
    score_scale=1500.0,
    rollout_steps=40,
    search="paired",
    search_candidates_limit=6,
    paired_rollout_steps=30,
    rollout_view=_rollout_view,
    evaluate_state=_evaluate,
    search_candidates=search.candidates,
    # paired_z stays 2: 1 was ahead on 30 tuning deals but behind on 100 fresh ones (issue 36,
    # docs/bots.md "Samba strong:0.3, third pass")
)


def _sides(rules: SambaRules) -> tuple[tuple[int, ...], ...]:
    """Partnerships by seat (a named function, not a lambda: variants are pickled to workers)."""
    return sides_for(rules.players)


ENTRY = GameEntry(
    text=ModuleText("parlour.games.samba.text"),
    name="samba",
    game=GAME,
    presets=PRESETS,
    default_preset="samba",
    description=N_("Samba, the three-deck Canasta with sequences (and Bolivia)"),
    aliases=("samba-canasta", "straat-canasta"),
    preset_docs=PRESET_DOCS,
    random_play_options={"max_hands": 1},
    bots={"basic": SambaBasicBot},
    sides=_sides,
    hidden_information=True,
    several_hands=True,
    grammar=GRAMMAR,
    hints=HINTS,
    position=position,
)

__all__ = ["ENTRY", "GAME", "GRAMMAR", "PositionError", "SambaGame", "SambaRules", "position"]
