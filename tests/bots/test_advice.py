"""Hints and reviews (issue 19): the search's estimate from a view, reasons in words, and the
review of a hand's decisions (parlour/bots/advice.py)."""

from __future__ import annotations

import random

from parlour import games
from parlour.bots.advice import Decision, advise, reason, review
from parlour.games.samba import actions as A
from parlour.games.samba.position import make_position
from parlour.games.samba.state import MELD

SAMBA = games.get("samba")


def _view(state: object) -> object:
    return SAMBA.game.observe(state, 0)


def test_reasons_from_the_move_and_the_view_after() -> None:
    s = make_position(
        hands={0: "7♦ 9♠ 2♣ K♦ 5♥"}, melds={0: ["7♣ 7♦ 7♥ 7♠ 7♣ 7♥"]}, to_act=0, phase=MELD
    )
    game, view = SAMBA.game, _view(s)
    world = game.determinize(view, random.Random(1))
    legal = game.legal_actions(s)
    add = next(a for a in legal if isinstance(a, A.AddToMeld) and "7" in str(a))
    assert reason(SAMBA, view, add, world, 0) == "completes a canasta"
    wild = next(a for a in legal if isinstance(a, A.Discard) and "2♣" in str(a))
    assert "frozen" in reason(SAMBA, view, wild, world, 0)
    safe = next(a for a in legal if isinstance(a, A.Discard) and "K♦" in str(a))
    assert reason(SAMBA, view, safe, world, 0).startswith("discards a safe card")


def test_advice_depends_on_the_view_and_the_seed_only() -> None:
    s = make_position(hands={0: "9♥ 9♠ 5♣ K♦"}, melds={0: ["7♣ 7♦ 7♥"]}, pile="4♦ 6♣ 9♦", to_act=0)
    game, view = SAMBA.game, _view(s)
    legal = game.legal_actions(s)
    other = game.determinize(view, random.Random(7))  # other hidden cards, the same view
    assert game.observe(other, 0) == view and other != s
    a = advise(SAMBA, view, legal, 0, seed=3, budget="30it")
    b = advise(SAMBA, game.observe(other, 0), game.legal_actions(other), 0, seed=3, budget="30it")
    assert [(o.action, o.value, o.reason) for o in a.options] == [
        (o.action, o.value, o.reason) for o in b.options
    ]
    assert 2 <= len(a.options) <= 4 and a.rounds >= 2
    values = [o.value for o in a.options]
    assert values == sorted(values, reverse=True)
    assert all(o.points is not None for o in a.options)  # Samba has a score scale


def test_review_lists_the_decisions_the_search_would_change() -> None:
    s = make_position(hands={0: "9♥ 9♠ 5♣ K♦"}, melds={0: ["7♣ 7♦ 7♥"]}, pile="4♦ 6♣ 9♦", to_act=0)
    game, view = SAMBA.game, _view(s)
    legal = game.legal_actions(s)
    best = advise(SAMBA, view, legal, 0, seed=11, budget="30it").best
    worst = advise(SAMBA, view, legal, 0, seed=11, budget="30it").options[-1]
    assert best.value > worst.value
    made = [Decision(0, 5, view, legal, worst.action)]
    result = review(SAMBA, made, 0, seed=11 - 5, budget="30it", threshold=0.0)
    assert result.checked == 1 and result.decisions == 1
    assert len(result.remarks) == 1
    r = result.remarks[0]
    assert r.chosen.action == worst.action and r.better.action == best.action
    assert r.difference > 0
    # a move as good as the search's own is not remarked upon
    assert not review(
        SAMBA, [Decision(0, 5, view, legal, best.action)], 0, seed=6, budget="30it", threshold=0.0
    ).remarks
