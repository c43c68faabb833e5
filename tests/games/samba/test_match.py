"""Table, deal and the match (RULES.md §1 "Table and cards", "Deal", "Game"; seed 002 "Setup",
"Winning the game"), the registry, options and views."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from parlour import games
from parlour.core import codec
from parlour.core.cards import JOKER
from parlour.core.errors import RulesError
from parlour.games.samba import GAME
from parlour.games.samba import actions as A
from parlour.games.samba.parts.melds import IS_WILD
from parlour.games.samba.rules import SambaRules
from parlour.games.samba.state import sides_for
from tests.games.samba.helpers import cs, play, pos

#: a random player that prefers melding, so matches reach the target score
WEIGHTS = {
    A.TakePile: 50,
    A.TakeTop: 50,
    A.AddToMeld: 20,
    A.Stage: 10,
    A.LayRedThree: 20,
    A.MeldBlackThrees: 50,
    A.UndoOpening: 2,
    A.Unstage: 1,
    A.AskGoOut: 1,
}


def play_match(rules: SambaRules, seed: int) -> object:
    rng = random.Random(seed)
    s = GAME.new_game(rules, seed)
    while GAME.to_act(s) is not None:
        legal = GAME.legal_actions(s)
        s, _ = GAME.apply_unchecked(
            s, rng.choices(legal, [WEIGHTS.get(type(a), 1) for a in legal])[0]
        )
    return s


def test_shoe_is_162_cards() -> None:
    """002_91a2786a682fea8f.txt: 'three standard 52-card decks and 6 jokers (162 cards)'."""
    s = GAME.new_game(SambaRules(), 1)
    cards = Counter(GAME.all_cards(s))
    assert sum(cards.values()) == 162
    assert cards[JOKER] == 6 and all(cards[k] == 3 for k in range(52))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deal_sizes_and_upcard(players: int) -> None:
    """002_91a2786a682fea8f.txt: 'The dealer deals 15 cards to each player … (with 6 players: 13
    each). The next card is turned face up to start the discard pile.'"""
    s = GAME.new_game(SambaRules(players=players), 7)
    per = 13 if players == 6 else 15
    assert s.sizes == [per] * players
    assert len(s.pile) == 1 and s.stock_len == 162 - per * players - 1
    assert s.to_act == (s.dealer + 1) % players


def test_hand_size_option() -> None:
    """RULES.md §1 'Deal' (15 or 13 cards) — option hand_size overrides it."""
    s = GAME.new_game(SambaRules(hand_size=11), 1)
    assert s.sizes == [11] * 4


def test_partnership_layouts() -> None:
    """002_91a2786a682fea8f.txt: 'With 4 players … partners sit opposite each other; with 6, in three
    partnerships of two … with two players between them. With 2, 3 or 5 players, everyone plays
    alone.'"""
    assert sides_for(2) == ((0,), (1,))
    assert sides_for(3) == ((0,), (1,), (2,))
    assert sides_for(4) == ((0, 2), (1, 3))
    assert sides_for(5) == tuple((i,) for i in range(5))
    assert sides_for(6) == ((0, 3), (1, 4), (2, 5))


def test_upcard_left_by_default_and_redeal_option() -> None:
    """RULES.md §1 Deal: a wild or 3 upcard — seeds silent; default: it stays (blocks the pile);
    option upcard_redeal turns another."""
    blocked = [
        seed
        for seed in range(300)
        if (lambda u: IS_WILD[u] or u % 13 == 1)(GAME.new_game(SambaRules(), seed).pile[0])
    ]
    assert blocked  # the default keeps such upcards
    for seed in blocked[:20]:
        up = GAME.new_game(SambaRules(upcard_redeal=True), seed).pile[0]
        assert not IS_WILD[up] and up % 13 != 1
        assert len(GAME.all_cards(GAME.new_game(SambaRules(upcard_redeal=True), seed))) == 162


def test_dealer_rotates_left() -> None:
    """002_91a2786a682fea8f.txt: 'the deal then passes to the left after each hand'."""
    s = pos(hands={0: "K♠", 1: "4♦"}, to_act=0, dealer=3)
    s.stock_len = 0
    after = play(s, A.DRAW)
    assert after.dealer == 0 and after.to_act == 1 and after.hand_no == 1


def test_target_score_wins_and_higher_wins() -> None:
    """002_91a2786a682fea8f.txt: 'The first side to reach 10,000 or more at the end of a hand wins.
    If both sides pass 10,000 in the same hand, the higher score wins.'"""
    s = pos(hands={0: "K♠", 1: "4♦"}, to_act=0, scores=(9990, 10050))
    s.stock_len = 0
    end = play(s, A.DRAW)  # 0 pass: −10 and −5
    out = GAME.outcome(end)
    assert out.finished and out.termination == "target_score"
    assert out.winners == (1,) and GAME.to_act(end) is None


def test_equal_scores_are_a_draw() -> None:
    """RULES.md §1 Game: 'equal = draw' (seed 002: the higher score wins)."""
    s = pos(hands={0: "K♠", 1: "K♦"}, to_act=0, scores=(10010, 10010))
    s.stock_len = 0
    out = GAME.outcome(play(s, A.DRAW))
    assert out.finished and out.winners == () and out.is_draw


def test_target_score_option() -> None:
    """RULES.md option target_score (Bolivia: 15,000)."""
    s = pos(hands={0: "K♠", 1: "4♦"}, to_act=0, scores=(10990, 0), target_score=15000)
    s.stock_len = 0
    assert not GAME.outcome(play(s, A.DRAW)).finished


def test_max_hands_termination() -> None:
    """Issue 2: a max_hands safety cap, reported as termination 'max_hands' (random play)."""
    s = pos(hands={0: "K♠", 1: "4♦"}, to_act=0, max_hands=1)
    s.stock_len = 0
    out = GAME.outcome(play(s, A.DRAW))
    assert out.finished and out.termination == "max_hands" and out.winners == (1,)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_match_played_to_the_end(players: int) -> None:
    """002_91a2786a682fea8f.txt: 'Add each hand's scores to a running total. The first side to reach
    10,000 or more at the end of a hand wins' — every player count, a whole match."""
    end = play_match(SambaRules(players=players), players)
    out = GAME.outcome(end)  # type: ignore[arg-type]
    assert out.finished and out.termination == "target_score"
    assert max(out.scores) >= 10000
    assert [sum(h.scores[i] for h in out.hands) for i in range(len(out.sides))] == list(out.scores)
    assert len(out.sides) == len(sides_for(players))


def test_registry_and_presets() -> None:
    """RULES.md §1 Bolivia preset: wild melds, 2,500, two 7-card melds with one sequence, 15,000,
    black 3 in hand −100, opening 150 from 7,000."""
    v = games.get("samba", preset="bolivia", players=4)
    r = v.rules
    assert isinstance(r, SambaRules)
    assert (r.wild_melds, r.bolivia_bonus, r.going_out, r.target_score, r.black_three_penalty) == (
        True,
        2500,
        "two_sevens_one_sequence",
        15000,
        100,
    )
    assert r.opening_minimum(7000) == 150
    assert games.get("bolivia").preset == "bolivia"
    assert games.get("samba").rules == SambaRules()


def test_bad_option_value_names_the_field() -> None:
    """Issue 2: 'a bad option value is rejected with a message naming the field and the allowed
    values'."""
    with pytest.raises(RulesError, match="going_out"):
        games.get("samba", going_out="never")
    with pytest.raises(RulesError, match="players"):
        games.get("samba", players=7)
    with pytest.raises(RulesError, match="unknown option"):
        games.get("samba", jokers=4)


def test_views_json_and_hide_hands() -> None:
    """002_91a2786a682fea8f.txt: hands are held face down — a view shows only its own hand."""
    s = GAME.new_game(SambaRules(), 3)
    for seat in range(4):
        v = GAME.observe(s, seat)
        data = GAME.view_to_json(v)
        json.dumps(data, ensure_ascii=False)
        assert data == codec.to_json(v)  # the fast encoder equals the generic one
        assert len(v.hand) == 15 and data["seat"] == seat
    spectator = GAME.observe(s, None)
    assert spectator.hand == () and spectator.players[1].hand_size == 15


def test_known_cards_from_the_pile_are_public_and_determinized() -> None:
    """000_0fa2fe02243ab02b.txt: the pile's cards are public; after a take they are known to be in
    the taker's hand until played."""
    s = pos(hands={0: "9♥ 9♠ K♣", 1: "4♣"}, melds={0: ["A♣ A♦ A♠"]}, pile="4♦ 7♣ 9♦", to_act=0)
    s = play(s, A.TakePile(cs("9♥ 9♠")))
    v = GAME.observe(s, 1)
    assert sorted(v.players[0].known) == sorted(cs("4♦ 7♣"))
    for seed in range(5):
        d = GAME.determinize(v, random.Random(seed))
        assert d.hands[0][cs("4♦")[0]] >= 1 and d.hands[0][cs("7♣")[0]] >= 1
        assert GAME.observe(d, 1) == v
    s = play(s, A.Discard(cs("7♣")[0]))
    assert GAME.observe(s, 1).players[0].known == cs("4♦")


def test_hand_seed_redeal_verifies_the_deal() -> None:
    """Issue 2 fair deals: each hand is dealt from derive_seed(match seed, 'deal', hand)."""
    s = GAME.new_game(SambaRules(), 11)
    assert GAME.redeal(s, GAME.hand_seed(s)) == s
    assert GAME.redeal(s, GAME.hand_seed(s) + 1) != s
    s.stock_len = 0  # end hand 0 at once: the state is then the start of hand 1
    nxt = play(s, A.DRAW)
    assert GAME.hand_number(nxt) == 1
    assert GAME.redeal(nxt, GAME.hand_seed(nxt)) == nxt


def test_legal_action_counts_stay_small() -> None:
    """Issue 2 action design: mean ≤ 30 and max ≤ 300 legal actions per decision (random play; the
    1,000-game figure is in the report and bench)."""
    total = decisions = most = 0
    rules = SambaRules(max_hands=1)
    for seed in range(40):
        rng = random.Random(seed)
        s = GAME.new_game(rules, seed)
        while GAME.to_act(s) is not None:
            legal = GAME.legal_actions(s)
            total += len(legal)
            decisions += 1
            most = max(most, len(legal))
            s, _ = GAME.apply_unchecked(s, legal[rng.randrange(len(legal))])
    assert total / decisions <= 30 and most <= 300
