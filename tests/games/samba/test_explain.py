"""explain() gives a rule for every illegal action and agrees with legal_actions (seed 002 rules
throughout; issue 2: 'IllegalAction naming the rule, state unchanged')."""

from __future__ import annotations

import copy
import random

import pytest

from parlour.core.errors import IllegalAction
from parlour.games.samba import GAME
from parlour.games.samba import actions as A
from parlour.games.samba.rules import SambaRules


def _probe_actions(rng: random.Random) -> list[object]:
    card = lambda: rng.randrange(53)  # noqa: E731
    return [
        A.DRAW,
        A.TakePile((card(), card())),
        A.TakePile((card(),)),
        A.TakeTop(rng.randrange(-1, 6)),
        A.Stage(card()),
        A.UNSTAGE,
        A.AddToMeld(rng.randrange(-1, 8), card()),
        A.MergeGroups(rng.randrange(0, 5), rng.randrange(0, 5)),
        A.LayRedThree(card()),
        A.MeldBlackThrees((1, 1, 40)),
        A.MeldBlackThrees((1, 5)),
        A.MeldBlackThrees((1, 40, 52)),
        A.MeldBlackThrees((1, 1, 40, 52, 0)),
        A.UNDO,
        A.Discard(card()),
        A.PASS,
        A.ASK,
        A.YES,
        A.NO,
    ]


def test_explain_agrees_with_legal_actions_and_names_a_rule() -> None:
    """002_91a2786a682fea8f.txt: every refusal names the rule it applies."""
    rng = random.Random(4)
    checked = 0
    for preset in (
        {},
        {"wild_melds": True, "going_out": "two_sevens_one_sequence"},
        {"black_three_wilds": False},
    ):
        rules = SambaRules(max_hands=1, **preset)  # type: ignore[arg-type]
        for seed in range(6):
            s = GAME.new_game(rules, seed)
            while GAME.to_act(s) is not None:
                legal = GAME.legal_actions(s)
                if rng.random() < 0.3:
                    for probe in _probe_actions(rng):
                        reason = GAME.explain(s, probe)  # type: ignore[arg-type]
                        assert (reason is None) == (probe in legal), (probe, reason)
                        if reason is not None:
                            assert len(reason) > 10
                            checked += 1
                s, _ = GAME.apply_unchecked(s, legal[rng.randrange(len(legal))])
    assert checked > 1000


def test_rejected_action_leaves_state_unchanged() -> None:
    """002_91a2786a682fea8f.txt: a refused move changes nothing (issue 2: 'state unchanged')."""
    s = GAME.new_game(SambaRules(), 2)
    before = copy.deepcopy(s)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, A.Discard(0))
    assert "first draw" in err.value.rule
    assert s == before
