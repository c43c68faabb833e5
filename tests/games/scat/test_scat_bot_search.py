"""The ``strong`` bot's hints for Scat (``parlour/games/scat/parts/search.py``): the paired
search over every legal move with ``basic`` play-outs, the showdown evaluation, the time budget.
Rules: seed ``001_e8630c614840283e.txt`` (lowest hand loses a life; a knocker with the lowest hand
loses two here; "31 wins the hand")."""

from __future__ import annotations

import time

from parlour import games
from parlour.bots import make
from parlour.bots.ismcts import IsmctsBot
from parlour.core.cards import parse_card
from parlour.games.scat import ENTRY, GAME
from parlour.games.scat import view as scat_view
from parlour.games.scat.actions import DrawStock, Knock, TakeDiscard
from parlour.games.scat.bot import BasicScatBot
from parlour.games.scat.parts import search
from parlour.games.scat.position import position
from parlour.games.scat.rules import ScatRules

HEADS_UP = games.get("scat", players=2)
NINE_D = parse_card("9♦")


def test_evaluation_ranks_the_better_hand_higher() -> None:
    """The seat with 30 expects to lose far fewer lives than the seat with 7; a knocker who holds
    the lowest hand risks two lives (option ``knocker_lowest_loses``)."""
    s = position(hands=["A♥ K♥ 9♥", "2♣ 7♦ 4♠"], pile="5♥")
    strong, weak = search.evaluate(GAME, s)
    assert strong > weak
    assert -0.05 < strong <= 0 and -1 <= weak < -0.95
    knocked = position(hands=["A♥ K♥ 9♥", "2♣ 7♦ 4♠"], pile="5♥", knocker=1, to_act=0)
    assert search.evaluate(GAME, knocked)[1] < 1.9 * weak
    points = position(
        ScatRules(players=2, showdown="highest_scores_point"),
        hands=["A♥ K♥ 9♥", "2♣ 7♦ 4♠"],
        pile="5♥",
    )
    high, low = search.evaluate(GAME, points)
    assert high > 0.95 and low < 0.05


def test_evaluation_counts_the_best_three_of_four_cards() -> None:
    s = GAME.apply(position(hands=["A♥ K♥ 2♣", "2♦ 7♦ 4♠"], pile="9♥"), TakeDiscard())[0]
    assert len(s.hands[0]) == 4
    assert search._showdown_value(s, 0) == 30


def test_candidates_are_every_legal_move_the_policys_first() -> None:
    s = position(hands=["K♥ Q♥ 2♣", "9♦ 8♦ 3♠"], pile="5♥")
    view = GAME.observe(s, 0)
    legal = GAME.legal_actions(s)
    policy = BasicScatBot(GAME, 0, 0)
    fav = policy.act(view, legal)
    cands = search.candidates(policy, view, legal, fav, 5)
    assert cands[0] == fav and set(cands) == set(legal) and len(cands) == len(legal)
    assert search.candidates(policy, view, legal, fav, 2) == cands[:2]


def test_strong_uses_the_paired_search_with_the_rollout_view() -> None:
    bot = make("strong:50it", HEADS_UP, 0, 1)
    assert isinstance(bot, IsmctsBot) and ENTRY.hints is not None
    assert bot.search == "paired" and bot.rollout_steps == 0
    assert ENTRY.hints.rollout_view is scat_view.rollout_view


def test_strong_knocks_against_a_hand_known_to_be_hopeless() -> None:
    """Heads-up, first turn: 23 is under the basic bot's knock threshold (24), so it draws; but
    the other hand is known (three cards taken from the pile) to be worth 4, and one last turn
    cannot bring it to 23 — the search knocks."""
    s = position(
        hands=["A♥ K♥ 2♥", "2♣ 3♦ 4♠"],
        known={1: "2♣ 3♦ 4♠"},
        pile="9♣",
        turn=0,
    )
    view = GAME.observe(s, 0)
    legal = GAME.legal_actions(s)
    assert BasicScatBot(GAME, 0, 0).act(view, legal) in (DrawStock(), TakeDiscard())
    bot = make("strong:600it", HEADS_UP, 0, 3)
    assert bot.act(view, legal) == Knock()


def test_a_decision_keeps_to_its_time_budget() -> None:
    """At 0.2 s a decision takes well under 0.5 s of CPU time."""
    s = position(hands=["K♥ Q♥ 2♣", "9♦ 8♦ 3♠"], pile="5♥")
    view = GAME.observe(s, 0)
    legal = GAME.legal_actions(s)
    bot = make("strong:0.2", HEADS_UP, 0, 5)
    started = time.process_time()
    bot.act(view, legal)
    assert time.process_time() - started < 0.5
    assert bot.last_iterations > 0


def test_losing_two_lives_weighs_about_twice_losing_one() -> None:
    """Seed 001: a knocker with the lowest hand loses two lives here (``knocker_lowest_loses``).
    The hints' score scale keeps rewards nearly linear in lives, so the search does not treat a
    failed knock as hardly worse than an ordinary lost hand."""
    bot = make("strong:50it", HEADS_UP, 0, 1)
    assert isinstance(bot, IsmctsBot)
    win, lose_one, lose_two = (bot._score_rewards([d, 0.0])[0] for d in (1.0, -1.0, -2.0))
    assert win > 0.5 > lose_one > lose_two
    assert 1.7 < (0.5 - lose_two) / (0.5 - lose_one) <= 2.0


def test_determinizations_give_the_other_hand_its_draws() -> None:
    """Six turns into a heads-up hand the other player has drawn three times and kept the best:
    the hint's deals give it a stronger hand than uniform deals do, and stay consistent with the
    view (own hand, the pile's top card and size — seed 001 keeps the pile squared up, so the
    cards under the top are dealt like any unseen card —, the card known to be held, every card
    once)."""
    import random
    import statistics

    s = position(hands=["K♥ Q♥ 2♣", "9♦ 8♦ 3♠"], known={1: "9♦"}, pile="5♥ 4♣ 6♠ 7♣", turn=6)
    view = GAME.observe(s, 0)
    rng = random.Random(4)
    hinted = [search.determinize(GAME, view, rng) for _ in range(300)]
    uniform = [GAME.determinize(view, rng) for _ in range(300)]
    for d in hinted:
        assert d.hands[0] == s.hands[0] and NINE_D in d.hands[1]
        assert d.pile[-1] == s.pile[-1] and len(d.pile) == len(s.pile)
        assert sorted((*d.hands[0], *d.hands[1], *d.stock, *d.pile)) == list(range(52))
        assert GAME.observe(d, 0) == view
    mean = statistics.mean(GAME.counted_value(d, 1) for d in hinted)
    assert mean > statistics.mean(GAME.counted_value(d, 1) for d in uniform) + 3


def test_the_search_deals_with_the_hint() -> None:
    bot = make("strong:50it", HEADS_UP, 0, 1)
    assert isinstance(bot, IsmctsBot) and bot._deal is search.determinize
