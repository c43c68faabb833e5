"""Hints and reviews (issue 19): the search's estimate from a view, reasons in words, and the
review of a hand's decisions (parlour/bots/advice.py)."""

from __future__ import annotations

import math
import random

import pytest

from parlour import games
from parlour.bots.advice import NOISE_Z, Decision, advise, move_text, reason, review, tiers
from parlour.core.cards import parse_card as card_of
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


#: a big pile the hand can take with a pair of kings, holding pairs of most of what is in it:
#: taking is clearly better than drawing (by about four of the paired standard errors)
_PILE = dict(
    hands={0: "K♥ K♦ A♣ A♦ 8♥ 8♠ 10♥ 10♣ 5♣ 4♠ 6♥"},
    melds={0: ["7♣ 7♦ 7♥"], 1: ["Q♣ Q♥ Q♠"]},
    pile="4♦ 6♣ 9♦ K♣ K♠ A♥ A♠ 8♦ 8♣ 10♦ 10♠ J♦ J♠ Q♦ 5♦ 5♥ K♣",
    to_act=0,
)


def test_review_lists_the_decisions_the_search_would_change() -> None:
    s = make_position(**_PILE)  # type: ignore[arg-type]
    game, view = SAMBA.game, _view(s)
    legal = game.legal_actions(s)
    advice = advise(SAMBA, view, legal, 0, seed=11, budget="120it")
    best, worst = advice.best, advice.options[-1]
    assert isinstance(best.action, A.TakePile) and isinstance(worst.action, A.Draw)
    assert best.value > worst.value and worst.rank > 1  # beyond the search's noise
    made = [Decision(0, 5, view, legal, worst.action)]
    result = review(SAMBA, made, 0, seed=11 - 5, budget="120it", threshold=0.0)
    assert result.checked == 1 and result.decisions == 1
    assert len(result.remarks) == 1
    r = result.remarks[0]
    assert r.chosen.action == worst.action and r.better.action == best.action
    assert r.difference > r.noise > 0
    # a move as good as the search's own is not remarked upon
    assert not review(
        SAMBA, [Decision(0, 5, view, legal, best.action)], 0, seed=6, budget="120it", threshold=0.0
    ).remarks


def test_no_remark_for_a_move_within_the_noise() -> None:
    """Three ways to start the same meld of 7s play out alike: whichever the player chose, the
    review has nothing to say, even with no threshold at all."""
    s = make_position(hands={0: "7♦ 7♣ 7♥ K♠ 9♦ 4♣"}, melds={0: ["A♣ A♦ A♠"]}, to_act=0, phase=MELD)
    game, view = SAMBA.game, _view(s)
    legal = game.legal_actions(s)
    advice = advise(SAMBA, view, legal, 0, seed=11, budget="60it")
    assert len(advice.options) >= 3
    stages = [o for o in advice.options if isinstance(o.action, A.Stage)]
    assert stages and all(o.rank == 1 for o in stages)
    for o in advice.options[1:]:
        if o.rank == 1:
            made = [Decision(0, 5, view, legal, o.action)]
            got = review(SAMBA, made, 0, seed=11 - 5, budget="60it", threshold=0.0)
            assert not got.remarks


# --- the search's noise ----------------------------------------------------------------------


def test_tiers_from_the_paired_spread() -> None:
    # the same play-outs: equal; a steady gap: a rank below, however small
    same = [0.2, 0.9, 0.5, 0.7]
    ranks, noise = tiers([same, list(same)], [0, 1])
    assert ranks == [1, 1] and noise == [0.0, 0.0]
    lower = [v - 0.01 for v in same]
    assert tiers([same, lower], [0, 1])[0] == [1, 2]
    # a larger but noisy gap: within the noise (mean gap 0.1, paired spread 0.4)
    noisy = [0.6, 0.5, 0.5, 0.3]
    assert tiers([same, noisy], [0, 1])[0] == [1, 1]
    # one round: no spread to judge by, so nothing is told apart
    ranks, noise = tiers([[0.9], [0.1], [0.0]], [0, 1, 2])
    assert ranks == [1, 1, 1] and math.isinf(noise[1])
    # tiers chain: C is within B's noise but not A's; B is not within A's
    a, b, c = [1.0] * 4, [0.5, 0.52, 0.5, 0.52], [0.5, 0.5, 0.5, 0.5]
    assert tiers([a, b, c], [0, 1, 2])[0] == [1, 2, 2]


def test_noise_is_the_documented_band() -> None:
    a = [0.6, 0.4, 0.7, 0.5, 0.55]
    b = [0.5, 0.45, 0.5, 0.5, 0.45]
    d = [x - y for x, y in zip(a, b, strict=True)]
    n = len(d)
    mean = sum(d) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1) / n)
    _, noise = tiers([a, b], [0, 1])
    assert noise[1] == pytest.approx(NOISE_Z * se)


# --- reasons that agree with the values --------------------------------------------------------


def _draw_position() -> tuple[object, list[object], object, object]:
    s = make_position(**_PILE)  # type: ignore[arg-type]
    view = _view(s)
    legal = SAMBA.game.legal_actions(s)
    draw = next(a for a in legal if isinstance(a, A.Draw))
    take = next(a for a in legal if isinstance(a, A.TakePile))
    return view, legal, draw, take


@pytest.mark.parametrize(
    ("draw_rank", "take_rank", "says", "never"),
    [
        (1, 2, "the pile is not worth taking", "rated higher"),
        (1, 1, "about as good as taking the pile", "not worth taking"),
        (2, 1, "though taking the pile is rated higher", "not worth taking"),
    ],
)
def test_draw_reason_follows_the_ranks(
    draw_rank: int, take_rank: int, says: str, never: str
) -> None:
    view, legal, draw, take = _draw_position()
    world = SAMBA.game.determinize(view, random.Random(1))
    compared = sorted([(draw, 0.5, draw_rank), (take, 0.5, take_rank)], key=lambda x: x[2])
    text = reason(SAMBA, view, draw, world, 0, compared=compared, legal=legal)
    assert says in text and never not in text


def test_draw_reason_claims_no_comparison_it_cannot_make() -> None:
    view, legal, draw, _ = _draw_position()
    world = SAMBA.game.determinize(view, random.Random(1))
    # without the values: no claim about the pile
    assert reason(SAMBA, view, draw, world, 0) == "draws from the stock"
    # the pile cannot be taken: say so, not that it is not worth it
    only = [a for a in legal if not isinstance(a, A.TakePile | A.TakeTop)]
    text = reason(SAMBA, view, draw, world, 0, compared=[(draw, 0.6, 1)], legal=only)
    assert text == "draws from the stock: the pile cannot be taken now"


def test_hint_reasons_never_contradict_their_values() -> None:
    """The reported contradiction ("draw — the pile is not worth taking" under "take the pile …
    0.96") on a built position: taking is clearly better here, and the draw's reason says so."""
    view, legal, draw, _ = _draw_position()
    advice = advise(SAMBA, view, legal, 0, seed=3, budget="120it")
    by_action = {o.action: o for o in advice.options}
    assert isinstance(advice.best.action, A.TakePile)
    d = by_action[draw]
    assert d.rank > advice.best.rank
    assert "not worth taking" not in d.reason
    assert d.reason == "draws from the stock, though taking the pile is rated higher"


@pytest.mark.parametrize(
    ("mine", "theirs", "says"),
    [
        (1, 2, "lets the claim stand: a challenge looks too risky"),
        (1, 1, "lets the claim stand: about as good as challenging"),
        (2, 1, "lets the claim stand, though a challenge is rated higher"),
    ],
)
def test_cheat_pass_reason_follows_the_ranks(mine: int, theirs: int, says: str) -> None:
    from parlour.games.cheat import actions as C

    cheat = games.get("cheat")
    p, ch = C.Pass(), C.Challenge()
    compared = sorted([(p, 0.5, mine), (ch, 0.5, theirs)], key=lambda x: x[2])
    assert reason(cheat, None, p, None, 0, compared=compared) == says
    back = reason(cheat, None, ch, None, 0, compared=compared)
    assert ("likely lie" in back) == (theirs < mine)


def test_fallback_reason_says_best_only_of_the_best() -> None:
    view, _, _, _ = _draw_position()
    unstage = A.Unstage()
    assert reason(SAMBA, view, unstage, None, 0, compared=[(unstage, 0.4, 2)]) == (
        "the search rates it below the suggestion"
    )
    assert reason(SAMBA, view, unstage, None, 0) == "the search rates it best"


# --- a staged card named as the meld it builds --------------------------------------------------


def test_staged_card_named_as_the_meld_it_starts() -> None:
    s = make_position(hands={0: "7♦ 7♣ 7♥ K♠ 9♦ 4♣"}, melds={0: ["A♣ A♦ A♠"]}, to_act=0, phase=MELD)
    game, view = SAMBA.game, _view(s)
    world = game.determinize(view, random.Random(1))
    stage = A.Stage(card_of("7♦"))
    assert stage in game.legal_actions(s) and str(stage) == "meld 7♦"
    assert move_text(SAMBA, view, stage, world, 0) == "start a meld of 7s with 7♦"
    assert reason(SAMBA, view, stage, world, 0) == "begins 7♣ 7♦ 7♥, a meld of 7s"
    # the second card of it
    s2 = make_position(
        hands={0: "7♣ 7♥ K♠ 9♦ 4♣"}, melds={0: ["A♣ A♦ A♠"]}, to_act=0, phase=MELD, pending="7♦"
    )
    v2 = _view(s2)
    w2 = game.determinize(v2, random.Random(1))
    add = A.Stage(card_of("7♣"))
    assert move_text(SAMBA, v2, add, w2, 0) == "add 7♣ to the new meld of 7s"
    # the hint carries the words
    got = advise(SAMBA, view, game.legal_actions(s), 0, seed=2, budget="40it")
    staged = [o for o in got.options if isinstance(o.action, A.Stage)]
    assert staged and all(o.text and o.text.startswith("start a meld of 7s with") for o in staged)
    assert all(o.text is None for o in got.options if not isinstance(o.action, A.Stage))


def test_staged_card_of_a_sequence() -> None:
    s = make_position(hands={0: "5♦ 6♦ 7♦ K♠ 9♣ 4♣"}, melds={0: ["A♣ A♦ A♠"]}, to_act=0, phase=MELD)
    view = _view(s)
    world = SAMBA.game.determinize(view, random.Random(1))
    stage = A.Stage(card_of("6♦"))
    assert move_text(SAMBA, view, stage, world, 0) == "start a sequence of ♦ from 5 to 7 with 6♦"


def test_no_meld_words_for_other_games_or_moves() -> None:
    view, _, draw, _ = _draw_position()
    world = SAMBA.game.determinize(view, random.Random(1))
    assert move_text(SAMBA, view, draw, world, 0) is None


@pytest.mark.parametrize(
    ("rank", "value", "says"),
    [
        (1, 0.7, "knocks: the hand is likely to beat the others"),
        (1, 0.4, "knocks: the hand is likely to end behind, but waiting is rated no better"),
        (2, 0.7, "knocks, though another move is rated higher"),
    ],
)
def test_scat_knock_reason_follows_value_and_rank(rank: int, value: float, says: str) -> None:
    from parlour.games.scat import actions as SC

    scat = games.get("scat")
    knock, draw = SC.Knock(), SC.DrawStock()
    compared = sorted([(knock, value, rank), (draw, 0.5, 3 - rank)], key=lambda x: x[2])
    assert reason(scat, None, knock, None, 0, compared=compared) == says
