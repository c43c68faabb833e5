"""Every game's declared spec (``ENTRY``) against random play: the action grammar reads back the
text of every legal action (Hypothesis draws the seeds), the sides, the player range, the action
types, one hand or several — and the spec's other declarations hold together."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour import games
from parlour.core.conformance import check_spec
from parlour.core.grammar import GrammarError
from parlour.core.registry import GENERIC_TEXT, SearchHints

VARIANTS = games.all_variants()
IDS = [f"{v.name}-{v.preset}" for v in VARIANTS]


def _rules(variant: games.Variant) -> object:
    return variant.rules.replace(**variant.entry.random_play_options)


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**62))
def test_grammar_reads_back_every_legal_action(variant: games.Variant, seed: int) -> None:
    stats = check_spec(variant.entry, _rules(variant), seed, max_decisions=300)
    assert stats["actions_checked"] >= stats["decisions"]


@pytest.mark.parametrize("name", games.names())
def test_the_spec_declares_everything(name: str) -> None:
    entry = games.entry(name)
    assert entry.title and entry.description
    lo, hi = entry.players or (0, 0)
    assert 1 <= lo <= hi
    assert entry.grammar is not None and entry.basic_bot is not None
    assert entry.position is not None
    assert entry.hints is None or isinstance(entry.hints, SearchHints)
    assert hasattr(entry.text, "describe")
    for preset in entry.presets:
        rules = entry.rules(preset)
        assert lo <= rules.players <= hi  # type: ignore[attr-defined]
        assert sum(len(side) for side in entry.sides_for(rules)) == rules.players  # type: ignore[attr-defined]


def test_the_grammar_refuses_what_is_not_a_move() -> None:
    grammar = games.entry("samba").grammar
    assert grammar is not None
    with pytest.raises(GrammarError):
        grammar.parse("discard the queen of hearts")
    # cards may be written the ways people write them; case and spacing do not matter
    assert str(grammar.parse("DISCARD  th")) == "discard 10♥"
    assert str(grammar.parse("take the pile with 9d 9h")) == "take the pile with 9♦ 9♥"


def test_search_hints_are_declared_not_found_on_bot_classes() -> None:
    samba = games.entry("samba")
    assert samba.hints is not None and samba.hints.search == "paired"
    assert not hasattr(samba.basic_bot, "score_scale")
    assert not hasattr(games.entry("handfoot").basic_bot, "rollout_view")


def test_a_game_without_a_renderer_gets_the_generic_one() -> None:
    from tests.server.toygame import ENTRY

    assert ENTRY.text is GENERIC_TEXT
