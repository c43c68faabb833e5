"""The ``strong`` bot's hints for Hand and Foot: the paired search's candidates (how to draw,
which card to discard), the fitted estimate of how a round ends (``parts/evaluation``), the cheap
play-out view and the time budget.  Scoring: seed ``004_bae80ddcdedd4514.txt`` ("Scoring":
clean book 500, cards left in hand count against their side)."""

from __future__ import annotations

import time

from parlour import games
from parlour.bots import make
from parlour.bots.ismcts import IsmctsBot
from parlour.games.handfoot import ENTRY, GAME
from parlour.games.handfoot.actions import AddToMeld, Discard, Draw, Meld, TakePile
from parlour.games.handfoot.bot import HandFootBasicBot, HandFootPlayoutBot, QuickView
from parlour.games.handfoot.parts import evaluation
from parlour.games.handfoot.parts.melds import is_wild
from parlour.games.handfoot.position import position

VARIANT = games.get("handfoot", players=4, max_hands=1)
PILE = "4♦ 7♣ 8♠ 10♦ 6♥ J♣ K♠ 9♦"
#: two feet of the same card points (the estimate counts what a foot still to come holds)
FEET = {
    2: "4♣ 5♣ 6♣ 8♣ 9♣ 10♣ J♣ K♣ A♣ 2♣ Jk 7♣ 4♦ 5♦ 6♦",
    3: "4♥ 5♥ 6♥ 8♥ 9♥ 10♥ J♥ K♥ A♥ 2♥ Jk 7♥ 4♠ 5♠ 6♠",
}


def test_a_finished_clean_book_is_worth_more_than_loose_cards() -> None:
    """Late in the round (the stock drawn), every foot picked up: one side has made seven queens
    a clean book (500 + the cards on the table), the other holds them — the estimate puts the
    book's side ahead by more than the book's bonus."""
    book = "Q♥ Q♥ Q♠ Q♠ Q♣ Q♣ Q♦"
    s = position(
        hands={0: "5♣ 6♦", 1: "5♠ 6♥", 2: "8♣ 9♦ K♥", 3: f"8♠ 9♥ K♣ {book}"},
        melds={0: [book, "4♣ 4♣ 4♦"], 1: ["4♥ 4♥ 4♠"]},
        foot_taken=(0, 1, 2, 3),
        down=(0, 1, 2, 3),
        to_act=0,
    ).clone()
    s.stock = s.stock[:0]
    ours, theirs = evaluation.evaluate(s)
    assert ours - theirs > 500


def test_more_progress_towards_books_ranks_higher() -> None:
    """Two sides with the same hands: a five-card book on the table beats a three-card one."""
    s = position(
        hands={0: "5♣ 6♦ 8♣", 1: "5♠ 6♥ 8♠", 2: "9♦ K♥ 4♥", 3: "9♥ K♣ 4♣"},
        melds={0: ["J♥ J♠ J♣ J♦ J♦"], 1: ["J♥ J♠ J♣"]},
        feet=FEET,
        down=(0, 1),
        to_act=0,
    )
    ours, theirs = evaluation.evaluate(s)
    assert ours > theirs
    assert len(evaluation.features(s, 0)) == len(evaluation.FEATURES) == len(evaluation.WEIGHTS)


def test_stage_runs_from_one_to_zero() -> None:
    fresh = VARIANT.new_game(3)
    assert evaluation.stage(fresh) > 0.95
    late = fresh.clone()
    late.stock = late.stock[:0]
    assert evaluation.stage(late) == 0.0


def test_candidates_at_the_draw_weigh_drawing_and_the_pile() -> None:
    s = position(hands={0: "9♥ 9♠ 5♣"}, pile=PILE, to_act=0)
    view = GAME.observe(s, 0)
    legal = GAME.legal_actions(s)
    policy = HandFootBasicBot(GAME, 0, 0)
    fav = policy.act(view, legal)
    assert isinstance(fav, TakePile)  # the basic bot takes the pile whenever it may
    cands = HandFootBasicBot.search_candidates(policy, view, legal, fav, 4)
    assert cands[0] == fav and Draw() in cands and set(cands) == set(legal)


def test_candidates_at_a_discard_are_the_least_harmful_discards() -> None:
    s = position(hands={0: "9♥ 9♠ 5♣ K♦ 3♠"}, phase="drawn", to_act=0)
    view = GAME.observe(s, 0)
    legal = GAME.legal_actions(s)
    policy = HandFootBasicBot(GAME, 0, 0)
    fav = policy.act(view, legal)
    assert fav == Discard(parse("3♠"))  # a black 3 goes first
    cands = HandFootBasicBot.search_candidates(policy, view, legal, fav, 4)
    assert cands[0] == fav and len(cands) == 4
    assert all(isinstance(a, Discard) for a in cands[:3])
    assert Discard(parse("9♥")) not in cands[:3]  # a pair is kept


def test_meld_steps_are_not_searched() -> None:
    s = position(hands={0: "9♥ 9♠ 9♣ 5♣ K♦"}, phase="drawn", to_act=0)
    view = GAME.observe(s, 0)
    legal = GAME.legal_actions(s)
    policy = HandFootBasicBot(GAME, 0, 0)
    fav = policy.act(view, legal)
    assert not isinstance(fav, Discard)
    assert HandFootBasicBot.search_candidates(policy, view, legal, fav, 4) == [fav]


def test_strong_uses_the_paired_search_and_the_quick_view() -> None:
    bot = make("strong:24it", VARIANT, 0, 1)
    assert isinstance(bot, IsmctsBot) and ENTRY.hints is not None
    assert bot.search == "paired" and bot.rollout_steps == ENTRY.hints.paired_rollout_steps > 0
    state = VARIANT.new_game(1)
    assert isinstance(ENTRY.hints.rollout_view(GAME, state, 0), QuickView)  # type: ignore[misc]


def test_a_decision_keeps_to_its_time_budget() -> None:
    """At 0.2 s a searched decision (a discard) takes well under 0.5 s of CPU time."""
    s = position(hands={0: "9♥ 9♠ 5♣ K♦ 4♠ 7♦"}, phase="drawn", to_act=0)
    view = GAME.observe(s, 0)
    legal = GAME.legal_actions(s)
    bot = make("strong:0.2", VARIANT, 0, 5)
    started = time.process_time()
    bot.act(view, legal)
    assert time.process_time() - started < 0.5
    assert bot.last_iterations > 0


def parse(text: str) -> int:
    from parlour.core.cards import parse_card

    return parse_card(text)


# --- the search's play-out policy: basic with a discipline for wild cards -------------------


def _choices(state: object) -> tuple[object, object]:
    """What ``basic`` and the play-out policy do at seat 0 in ``state``."""
    view = GAME.observe(state, 0)  # type: ignore[arg-type]
    legal = GAME.legal_actions(state)  # type: ignore[arg-type]
    basic = HandFootBasicBot(GAME, 0, 0).act(view, legal)
    policy = HandFootPlayoutBot(GAME, 0, 0).act(view, legal)
    assert basic in legal and policy in legal
    return basic, policy


def test_strong_plays_out_with_the_wild_card_policy() -> None:
    assert ENTRY.hints is not None and ENTRY.hints.rollout_bot is HandFootPlayoutBot
    bot = make("strong:24it", VARIANT, 0, 1)
    assert isinstance(bot, IsmctsBot) and bot._rollout_cls is HandFootPlayoutBot


def test_the_policy_starts_no_meld_with_a_wild_once_down() -> None:
    """Down already, with two nines and a 2: basic melds 9 9 2, the policy keeps the 2."""
    s = position(
        hands={0: "9♥ 9♠ 2♣ 5♣ K♦ 4♠"},
        melds={0: ["J♥ J♠ J♣"]},
        down=(0,),
        phase="drawn",
        to_act=0,
    )
    basic, policy = _choices(s)
    assert isinstance(basic, Meld) and any(is_wild(c) for c in basic.cards)
    assert not (isinstance(policy, Meld) and any(is_wild(c) for c in policy.cards))


def test_the_policy_may_open_with_a_wild() -> None:
    """Not yet down: a meld with a wild still helps to meet the round's minimum."""
    s = position(hands={0: "K♥ K♠ 2♣ 5♣ 8♦ 4♠"}, phase="drawn", to_act=0)
    _, policy = _choices(s)
    assert isinstance(policy, Meld) and any(is_wild(c) for c in policy.cards)


def test_the_policy_starts_the_book_of_wilds_first() -> None:
    s = position(
        hands={0: "2♣ 2♦ Jk 9♥ 9♠ 9♣ 5♣ 4♠"},
        melds={0: ["J♥ J♠ J♣"]},
        down=(0,),
        phase="drawn",
        to_act=0,
    )
    _, policy = _choices(s)
    assert isinstance(policy, Meld) and all(is_wild(c) for c in policy.cards)


def test_the_policy_finishes_a_book_with_a_wild_only_late_in_the_round() -> None:
    """Six queens on the table and a 2 in hand: basic makes the dirty book at once; the policy
    waits for a seventh queen while the stock is long, and takes the 300 near its end."""
    melds = {0: ["Q♥ Q♥ Q♠ Q♠ Q♣ Q♣"]}
    hands = {0: "2♣ 5♣ K♦ 4♠ 8♥"}
    early = position(hands=hands, melds=melds, down=(0,), phase="drawn", to_act=0)
    basic, policy = _choices(early)
    assert basic == AddToMeld(0, parse("2♣"))
    assert not isinstance(policy, AddToMeld)
    late = early.clone()
    late.stock = late.stock[:20]
    assert _choices(late)[1] == AddToMeld(0, parse("2♣"))
