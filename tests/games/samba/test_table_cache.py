"""The solver's table of a side's melds (:class:`parlour.games.samba.parts.placement.Table`) is
derived by ``apply`` from the table before the move (a meld made, a card added, a pile or top
card taken, two groups merged) instead of being built again from every meld: the derived table
must equal the one built from scratch, after every move of seeded random play (Samba and
Bolivia, whose wild melds and escaleras take the other branches).  Rules: seed 002 (RULES.md §1
"Melds", "Going out")."""

from __future__ import annotations

import random

import pytest

from parlour import games
from parlour.games.samba import actions as A
from parlour.games.samba.parts.placement import Table, cached_table, table_of

FIELDS = ("bolivias", "canastas", "groups", "sambas", "seqs", "value", "wild_sizes")


def _same(a: Table, b: Table) -> bool:
    return all(getattr(a, f) == getattr(b, f) for f in FIELDS)


@pytest.mark.parametrize("preset", ["samba", "bolivia"])
def test_derived_tables_equal_tables_built_from_the_melds(preset: str) -> None:
    variant = games.get("samba", preset=preset, players=4, max_hands=1)
    game = variant.game
    rng = random.Random(5)
    derived = 0
    kinds: set[type] = set()
    for seed in range(40):
        state = game.new_game(variant.rules, 900 + seed)
        while game.to_act(state) is not None:
            for melds in state.melds:
                table_of(melds)  # as the legal actions do: the table before the move is cached
            legal = game.legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            before = state.melds
            state = game.apply_quiet(state, action)
            for side, melds in enumerate(state.melds):
                if melds is before[side]:
                    continue
                table = cached_table(melds)
                if table is None:
                    continue
                derived += 1
                kinds.add(type(action))
                fresh = Table(melds)
                assert _same(table, fresh), (action, melds)
    assert derived > 1000
    # every move that changes the melds and keeps the side's table derivable was seen
    assert {A.Stage, A.AddToMeld, A.TakePile, A.MergeGroups} <= kinds
