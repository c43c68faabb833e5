"""Rule tests for Cheat / I Doubt It / Bullshit; each names its seed and quotes the rule."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from parlour import games
from parlour.core.cards import JOKER, parse_card, parse_cards
from parlour.core.conformance import check_view_consistency
from parlour.core.errors import IllegalAction, RulesError
from parlour.games.cheat import GAME
from parlour.games.cheat.actions import Challenge, ChooseFirst, Claim, Pass, Pick
from parlour.games.cheat.legal import successors
from parlour.games.cheat.state import ALL_RANKS

from .helpers import all_pass, answer, play, position, rules


def hand_of(state, seat: int) -> Counter[int]:  # type: ignore[no-untyped-def]
    return Counter({k: n for k, n in enumerate(state.hands[seat]) if n})


def test_deal_all_cards_two_to_ten_players() -> None:
    """001_e8630c614840283e.txt: "All the cards are dealt out … some may have more than
    others, but not by much"; "from 2 to 10 players"."""
    for n in range(2, 11):
        state = GAME.new_game(rules(players=n), 7)
        sizes = [sum(h) for h in state.hands]
        assert sum(sizes) == 52 * rules(players=n).packs
        assert max(sizes) - min(sizes) <= 1
    with pytest.raises(RulesError, match="players"):
        rules(players=11)


def test_one_pack_for_any_number_of_players() -> None:
    """issue 16 item 7 — 001_e8630c614840283e.txt: "The game can be played by from 2 to 10
    players. One standard pack of 52 cards is used." Two or more packs are the variation "If
    there are a lot of players, you may use two or more packs shuffled together" (option
    decks)."""
    for n in range(2, 11):
        assert rules(players=n).decks == 1
        assert len(GAME.all_cards(GAME.new_game(rules(players=n), 1))) == 52
    assert len(GAME.all_cards(GAME.new_game(rules(players=6, decks=2), 1))) == 104
    assert len(GAME.all_cards(GAME.new_game(rules(players=3, decks=3), 1))) == 156
    with pytest.raises(RulesError, match="decks"):
        rules(decks=0)
    assert games.get("cheat", players=10).rules.decks == 1  # type: ignore[attr-defined]
    assert GAME.version == 2  # a changed default: matches of engine v1 are not replayed


def test_jokers_are_wild() -> None:
    """000_0fa2fe02243ab02b.txt: keep the Jokers in "and use them as wild cards – a stand-in
    for any other card"."""
    assert Counter(GAME.all_cards(GAME.new_game(rules(jokers=2), 1)))[JOKER] == 2
    state = position(["AC JK 3D", "5H 6H", "8S 9S"], jokers=1)
    state = play(state, "AC JK", 14)
    state = answer(state, (1,))
    record = state.challenges[-1]
    assert record.truthful and record.takers == (1,)
    assert hand_of(state, 1)[JOKER] == 1


def test_ascending_from_aces() -> None:
    """001_e8630c614840283e.txt: "The first player must discard Aces, the second player
    discards Twos, the next player Threes … After Tens come Jacks, then Queens, then Kings,
    then back to Aces"."""
    state = position(["AC 2C 3C", "AD 2D 3D", "AH 2H KH"])
    assert {a.rank for a in GAME.legal_actions(play_pick(state, "AC")) if isinstance(a, Claim)} == {
        14
    }
    with pytest.raises(IllegalAction, match="the claim must name A"):
        GAME.apply(play_pick(state, "AC"), Claim(1, 2))
    state = all_pass(play(state, "AC", 14))
    assert state.turn_seat == 1 and state.allowed == (2,)
    state = all_pass(play(state, "2D", 2))
    assert state.allowed == (3,)
    s2 = position(["KC 2C", "AD 2D"])
    s2 = dataclasses.replace(s2, allowed=(13,))
    s2 = all_pass(play(s2, "KC", 13))
    assert s2.allowed == (14,)


def play_pick(state, cards: str):  # type: ignore[no-untyped-def]
    for c in sorted(parse_cards(cards)):
        state, _ = GAME.apply(state, Pick(c))
    return state


def test_bullshit_two_of_clubs_starts() -> None:
    """000_0fa2fe02243ab02b.txt: "The player who is holding the two of clubs begins the game by
    laying the card down on the table along with any other twos"; then threes, fours …"""
    for seed in range(5):
        state = GAME.new_game(rules(rank_rule="bullshit"), seed)
        holder = next(s for s in range(4) if state.hands[s][parse_card("2C")])
        assert state.turn_seat == holder == state.first_player
        assert state.allowed == (2,)
        assert GAME.legal_actions(state) == [Pick(parse_card("2C"))]
        other = next(c for c in range(1, 52) if state.hands[holder][c])
        with pytest.raises(IllegalAction, match="2♣"):
            GAME.apply(state, Pick(other))
    state = position(["2C 2H 5D", "3D 4D", "3S 9S"], rank_rule="bullshit")
    state = all_pass(play(state, "2C 2H", 2))
    assert state.allowed == (3,)
    state = position(["AC 5D", "2D 4D"], rank_rule="bullshit")
    state = dataclasses.replace(state, allowed=(14,))
    assert all_pass(play(state, "AC", 14)).allowed == (2,)


def test_descending() -> None:
    """001_e8630c614840283e.txt: "the sequence of ranks … goes downward rather than upward,
    beginning A, K, Q, J, 10"."""
    state = position(["AC 2C", "KD 2D"], rank_rule="descending")
    assert state.allowed == (14,)
    state = all_pass(play(state, "AC", 14))
    assert state.allowed == (13,)
    state = all_pass(play(state, "KD", 13))
    assert state.allowed == (12,)


def test_descending_from_twos() -> None:
    """issue 16 item 9 — 000_0fa2fe02243ab02b.txt: "Consider changing the sequence of ranks. For
    example, play the cards in descending order of rank instead of ascending. That means that you
    will start with twos, then move back to aces, kings, queens, etc." (rank_rule
    descending_from_twos; preset bullshit-descending). As in seed 000's game, the holder of the
    two of clubs begins."""
    state = GAME.new_game(rules(rank_rule="descending_from_twos"), 3)
    holder = next(s for s in range(4) if state.hands[s][parse_card("2C")])
    assert state.turn_seat == holder and state.allowed == (2,)
    assert GAME.legal_actions(state) == [Pick(parse_card("2C"))]
    state = position(["2C 2H 5D", "AD 4D", "KS 9S", "QH 3C"], rank_rule="descending_from_twos")
    seen = [state.allowed]
    for cards, rank in (("2C 2H", 2), ("AD", 14), ("KS", 13), ("QH", 12)):
        state = all_pass(play(state, cards, rank))
        seen.append(state.allowed)
    assert seen == [(2,), (14,), (13,), (12,), (11,)]
    variant = games.get("cheat", preset="bullshit-descending")
    assert variant.rules.rank_rule == "descending_from_twos"  # type: ignore[attr-defined]
    assert variant.rules.starter_rule == "two_of_clubs"  # type: ignore[attr-defined]
    assert successors("descending_from_twos", 3) == (2,)  # … 4, 3, 2, A, K …
    assert successors("descending_from_twos", 2) == (14,)


def test_first_play_forced_lie_is_refused() -> None:
    """issue 16 item 9 — 000_0fa2fe02243ab02b.txt: "The player who is holding the two of clubs
    begins the game by laying the card down on the table along with any other twos"; combined
    with an order whose first claim cannot be 2s (001_e8630c614840283e.txt: "The first player
    must discard Aces"), that first play would be a forced lie: the rules are refused."""
    for rank_rule in ("ascending", "descending"):
        with pytest.raises(RulesError, match="forced lie") as err:
            rules(rank_rule=rank_rule, first_player="two_of_clubs")
        assert "first_player" in str(err.value) and "Aces" in str(err.value)
    with pytest.raises(RulesError, match="forced lie"):
        games.get("cheat", preset="descending", first_player="two_of_clubs")
    for rank_rule in ("bullshit", "descending_from_twos", "up_or_down", "same_up_or_down", "free"):
        assert rules(rank_rule=rank_rule, first_player="two_of_clubs").starter_rule == (
            "two_of_clubs"
        )
    assert rules(rank_rule="descending_from_twos", first_player="random").starter_rule == "random"


def test_up_or_down_and_same() -> None:
    """001_e8630c614840283e.txt: "if the player before you … said 'two tens' … you have a
    choice of playing jacks or nines"; "Some allow cards of the same rank as the last card"."""
    state = position(["TC TD 2C", "9D JD 2D"], rank_rule="up_or_down")
    assert state.allowed == ALL_RANKS  # any rank opens
    state = all_pass(play(state, "TC TD", 10))
    assert state.allowed == (9, 11)
    state = position(["TC TD 2C", "9D JD 2D"], rank_rule="same_up_or_down")
    state = all_pass(play(state, "TC TD", 10))
    assert state.allowed == (9, 10, 11)
    state = position(["AC 3C", "9D JD"], rank_rule="up_or_down")
    assert all_pass(play(state, "AC", 14)).allowed == (2, 13)  # cyclic


def test_free_rank_chinese() -> None:
    """001_e8630c614840283e.txt: 吹牛 "there is no restriction on the rank of cards to be played
    except that the cards in each set played must all be (claimed to be) equal"."""
    state = position(["TC TD 2C", "9D JD 2D"], rank_rule="free")
    state = all_pass(play(state, "TC TD", 10))
    assert state.allowed == ALL_RANKS
    claims = {a for a in GAME.legal_actions(play_pick(state, "9D JD")) if isinstance(a, Claim)}
    assert claims == {Claim(2, r) for r in ALL_RANKS}


def test_no_limit_on_cards_per_play_by_default() -> None:
    """issue 16 item 8 — 001_e8630c614840283e.txt: "A turn consists of discarding one or more
    cards face down on the pile, and calling out their rank" (no upper limit); "up to four" is
    the online game of 000_0fa2fe02243ab02b.txt only: "click on up to four of the cards in your
    hand" (preset online; option max_cards)."""
    hand = "2C 2D 2H 2S KS AS"
    assert rules().max_cards is None
    state = play_pick(position([hand, "5D 6D"]), "2C 2D 2H 2S KS")
    assert Pick(parse_card("AS")) in GAME.legal_actions(state)
    state = play_pick(state, "AS")
    assert GAME.legal_actions(state) == [Claim(6, 14)]  # the whole hand, claimed as six Aces
    online = games.get("cheat", preset="online").rules
    assert online.max_cards == 4  # type: ignore[attr-defined]
    assert [n for n, p in games.entry("cheat").presets.items() if p.get("max_cards") == 4] == [
        "online"
    ]
    state = play_pick(position([hand, "5D 6D"], max_cards=4), "2C 2D 2H 2S")
    assert not any(isinstance(a, Pick) for a in GAME.legal_actions(state))
    with pytest.raises(IllegalAction, match="at most 4 cards"):
        GAME.apply(state, Pick(parse_card("KS")))
    state = play_pick(position([hand, "5D 6D"], max_cards=2), "2C 2D")
    assert not any(isinstance(a, Pick) for a in GAME.legal_actions(state))


def test_claim_count_is_cards_played_unless_overplay() -> None:
    """001_e8630c614840283e.txt: "Some play that you can try cheat by playing more cards than
    you claim … say three eights while playing three eights and a jack … you pick up the
    discard pile if your play did not match your call"."""
    cards = "8C 8D 8H JS"
    state = play_pick(position([cards + " 2C", "5D 6D 7D"]), cards)
    with pytest.raises(IllegalAction, match="number of cards played"):
        GAME.apply(state, Claim(3, 14))
    state = play_pick(position([cards + " 2C", "5D 6D 7D"], overplay=True), cards)
    assert {a.count for a in GAME.legal_actions(state) if isinstance(a, Claim)} == {1, 2, 3, 4}
    state, _ = GAME.apply(state, Claim(3, 14))
    assert state.shown[0] == 2  # as counted from the claim: 5 − 3
    after = answer(state, (1,))
    assert not after.challenges[-1].truthful
    assert after.challenges[-1].takers == (0,)
    assert after.shown[0] == 5 and sum(after.hands[0]) == 5
    # four eights claimed as three is also "not what you called"
    state = position(["8C 8D 8H 8S 2C", "5D 6D"], overplay=True)
    state = answer(play(state, "8C 8D 8H 8S", 14, count=3), (1,))
    assert not state.challenges[-1].truthful


def test_hawaiian_over_claim() -> None:
    """issue 16 item 10 — 000_0fa2fe02243ab02b.txt (Hawaiian): players "can take their bluffing
    to the extreme, by claiming that there are 14 Jokers on the table, for example. In other
    words, they can lie about the number of cards they are playing" (option overclaim, on in
    the hawaiian preset). An over-claim is a false claim (the count is false even when every
    card is of the rank): challenged, the player takes the pile. The pile holds the cards really
    put down; hand and pile sizes are as counted from the claims until an exposure shows the
    true number."""
    hawaiian = games.get("cheat", preset="hawaiian").rules
    assert hawaiian.overclaim and hawaiian.overplay  # type: ignore[attr-defined]
    assert not rules().overclaim
    hands = ["AC AD 5H 9S", "2C 7D", "3S 4S"]
    # without the option the claim is the number of cards put down
    assert {
        a for a in GAME.legal_actions(play_pick(position(hands), "AC")) if isinstance(a, Claim)
    } == {Claim(1, 14)}
    state = play_pick(position(hands, overclaim=True, fill=True), "AC")
    claims = {a.count for a in GAME.legal_actions(state) if isinstance(a, Claim)}
    assert claims == {1, 2, 3, 4}  # up to the four Aces of one pack (and the 4 cards held)
    assert "between 1 and 4" in (GAME.explain(state, Claim(5, 14)) or "")
    state, _ = GAME.apply(state, Claim(3, 14))
    assert state.shown[0] == 1 and sum(state.hands[0]) == 3  # counted 4 − 3; really 3 left
    assert GAME.observe(state, 2).pile_size == 3 and GAME.observe(state, 2).hand_sizes[0] == 1
    check_view_consistency(GAME, state, random.Random(1))
    caught = answer(state, (1,))
    record = caught.challenges[-1]
    assert record.cards == (parse_card("AC"),) and record.count == 3
    assert not record.truthful and record.takers == (0,)  # all Aces, but not three of them
    assert hand_of(caught, 0) == Counter(parse_cards("AC AD 5H 9S"))
    assert caught.shown[0] == 4  # the exposure corrected the count
    # unchallenged, the over-claim stands; a later taker gets the cards really in the pile
    state = all_pass(play(position(hands, overclaim=True), "AC", 14, count=2))
    state = answer(play(state, "2C", 2), (2,))
    assert state.challenges[-1].truthful and state.challenges[-1].takers == (2,)
    assert hand_of(state, 2) == Counter(parse_cards("3S 4S AC 2C"))
    assert state.shown[2] == 2 + 3  # counted: the claims 2 + 1
    # the claim never exceeds the hand as counted, nor max_cards
    state = play_pick(position(["AC 5H", "2C 7D"], overclaim=True), "AC")
    assert {a.count for a in GAME.legal_actions(state) if isinstance(a, Claim)} == {1, 2}
    state = play_pick(position(hands, overclaim=True, max_cards=2), "AC")
    assert {a.count for a in GAME.legal_actions(state) if isinstance(a, Claim)} == {1, 2}


def test_challenge_truthful_and_lie() -> None:
    """001_e8630c614840283e.txt: "if they are all of the rank that was called, the challenge is
    false, and the challenger must pick up the whole discard pile; if any of the played cards
    is different … the person who played the cards must pick up the whole discard pile"."""
    state = position(["AC 5C 6C", "2D 9D", "3H 9H", "4S 9S"])
    state = all_pass(play(state, "AC", 14))
    state = all_pass(play(state, "2D", 2))
    state = answer(play(state, "3H", 3), (0,))
    record = state.challenges[-1]
    assert record.truthful and record.takers == (0,) and record.cards == (parse_card("3H"),)
    assert record.shares == (3,) and sum(state.hands[0]) == 5 and state.pile == ()
    state = position(["AC 5C 6C", "2D 9D", "3H 9H", "4S 9S"])
    state = all_pass(play(state, "AC", 14))
    state = answer(play(state, "9D", 2), (3,))
    record = state.challenges[-1]
    assert not record.truthful and record.takers == (1,)
    assert hand_of(state, 1) == Counter(parse_cards("2D 9D AC"))


def test_several_wrong_challengers_split_the_pile() -> None:
    """000_0fa2fe02243ab02b.txt: "When two or more people call out a player and it turns out
    they were wrong, the pile will be divided among them" (evenly, remainder by seat order
    from the player's left; option challenge_split)."""
    hands = ["AC AD 5C", "2D 2C 9D", "3H 3C 9H", "4S 4C 9S"]
    state = position(hands)
    state = all_pass(play(state, "AC AD", 14))
    state = all_pass(play(state, "2D 2C", 2))
    state = answer(play(state, "3H 3C", 3), (0, 1, 3))
    record = state.challenges[-1]
    assert record.truthful and record.challengers == (3, 0, 1)  # asked from seat 2's left
    assert record.takers == (3, 0, 1) and record.shares == (2, 2, 2)
    state = position(hands)
    state = all_pass(play(state, "AC AD", 14))
    state = answer(play(state, "2D 2C", 2), (0, 3))
    record = state.challenges[-1]
    assert record.takers == (3, 0) and record.shares == (2, 2)
    state = position(["AC AD 5C", "2D 2C 9D", "3H 3C 9H", "4S 9S"])
    state = all_pass(play(state, "AC AD", 14))
    state = answer(play(state, "2D", 2), (0, 2, 3))
    assert state.challenges[-1].shares == (1, 1, 1)
    state = position(["AC AD 5C", "2D 2C 9D", "3H 3C 9H", "4S 9S"])
    state = all_pass(play(state, "AC", 14))
    state = answer(play(state, "2D 2C", 2), (0, 2, 3))
    rec = state.challenges[-1]
    assert rec.takers == (2, 3, 0) and rec.shares == (1, 1, 1)
    state = position(["AC AD 5C", "2D 2C 9D", "3H 3C 9H", "4S 9S"], challenge_split=False)
    state = all_pass(play(state, "AC AD", 14))
    state = answer(play(state, "2D 2C", 2), (0, 3))
    assert state.challenges[-1].takers == (3,) and state.challenges[-1].shares == (4,)


def test_remainder_by_seat_order() -> None:
    """000_0fa2fe02243ab02b.txt: "the pile will be divided among them" — 5 cards between two
    challengers: the first from the player's left gets 3, the exposed cards dealt first."""
    state = position(["AC AD AH 5C", "2D 2C 9D", "3H 3C 9H"])
    state = all_pass(play(state, "AC AD AH", 14))
    state = answer(play(state, "2D 2C", 2), (0, 2))
    rec = state.challenges[-1]
    assert rec.takers == (2, 0) and rec.shares == (3, 2) and rec.exposed_to == (2, 0)


def test_after_challenge_next_rank_or_restart() -> None:
    """001_e8630c614840283e.txt: "the player to the left of the one who was challenged plays
    and calls the next rank in sequence"; 000_0fa2fe02243ab02b.txt: "After Bullshit is called,
    the next person in line will start another round"."""
    state = position(["AC 5C 6C", "2D 9D", "3H 9H"])
    state = all_pass(play(state, "AC", 14))
    state = answer(play(state, "9D", 2), (0,))
    assert state.turn_seat == 2 and state.allowed == (3,)
    state = position(["AC 5C 6C", "2D 9D", "3H 9H"], after_challenge="restart")
    state = all_pass(play(state, "AC", 14))
    state = answer(play(state, "9D", 2), (0,))
    assert state.turn_seat == 2 and state.allowed == ALL_RANKS


def test_win_only_if_last_play_survives() -> None:
    """001_e8630c614840283e.txt: "The first player to get rid of all their cards and survive any
    challenge resulting from their final play wins … If you play your last remaining card(s),
    but someone challenges you and the cards you played are not what you called, you pick up
    the pile and play continues"."""
    state = position(["AC", "2D 9D", "3H 9H"])
    won = all_pass(play(state, "AC", 14))
    assert GAME.to_act(won) is None and won.termination == "went_out"
    outcome = GAME.outcome(won)
    assert outcome.winners == (0,) and outcome.scores == (0.0, -2.0, -2.0)
    won = answer(play(state, "AC", 14), (1, 2))
    assert GAME.outcome(won).winners == (0,)
    state = position(["5C", "2D 9D", "3H 9H"])
    caught = answer(play(state, "5C", 14), (2,))
    assert GAME.to_act(caught) == 1 and sum(caught.hands[0]) == 1 and caught.out == ()


def test_play_on_for_places() -> None:
    """000_0fa2fe02243ab02b.txt: "The winner of the game is the player who manages to get rid of
    all their cards first. After that, the game can continue among the other players"."""
    state = position(["AC", "2D 9D", "3H 9H"], play_on_for_places=True)
    state = all_pass(play(state, "AC", 14))
    assert GAME.to_act(state) == 1 and state.out == (0,)
    state = all_pass(play(state, "2D", 2))
    state = all_pass(play(state, "3H", 3))
    state = all_pass(play(state, "9D", 4))
    assert GAME.to_act(state) is None and state.termination == "last_player"
    outcome = GAME.outcome(state)
    assert outcome.ranking == (0, 1, 2) and outcome.winners == (0,)


def test_loser_mode() -> None:
    """000_0fa2fe02243ab02b.txt (Canada, Spain): "The main aim … is not necessarily to win, but
    to not be the person who is left with the most cards when the game is over"."""
    hands = ["AC", "2D 9D", "3H 9H 8H"]
    plain = GAME.outcome(all_pass(play(position(hands), "AC", 14)))
    assert plain.winners == (0,)
    loser = GAME.outcome(all_pass(play(position(hands, loser_mode=True), "AC", 14)))
    assert loser.winners == (0, 1)


def test_first_player_highest_card_and_dealer_chooses() -> None:
    """000_0fa2fe02243ab02b.txt: "In Spain, the individual with the highest card will be the
    first to play"; Canada: "the first player … is picked by another player"."""
    for seed in range(4):
        state = GAME.new_game(rules(first_player="highest_card"), seed)
        assert state.hands[state.turn_seat][parse_card("AS")] == 1
        state = GAME.new_game(rules(first_player="highest_card", jokers=1), seed)
        assert state.hands[state.turn_seat][JOKER] == 1
    state = GAME.new_game(rules(first_player="dealer_chooses"), 3)
    assert state.phase == "choose_first" and GAME.to_act(state) == 3
    assert GAME.legal_actions(state) == tuple(ChooseFirst(s) for s in range(4))
    state, _ = GAME.apply(state, ChooseFirst(2))
    assert GAME.to_act(state) == 2 and state.phase == "play"


def test_challenge_any_time_late_round() -> None:
    """000_0fa2fe02243ab02b.txt (Hawaiian): "a player can challenge another player regardless of
    whose turn it currently is" — after a blind window nobody used, the others may still
    challenge, openly, before the next play."""
    state = position(["AC 5C", "2D 9D", "3H 9H", "4S 9S"], challenge_any_time=True)
    state = play(state, "5C", 14)
    for _ in range(3):
        state, _ = GAME.apply(state, Pass())
    assert state.phase == "late" and GAME.to_act(state) == 1
    state, _ = GAME.apply(state, Pass())
    assert state.late_passed == (1,) and GAME.to_act(state) == 2
    state, _ = GAME.apply(state, Challenge())
    rec = state.challenges[-1]
    assert rec.late and rec.challengers == (2,) and rec.takers == (0,)
    default = all_pass(play(position(["AC 5C", "2D 9D", "3H 9H", "4S 9S"]), "5C", 14))
    assert default.phase == "play" and default.challenges == ()


def test_max_turns_cap() -> None:
    """Safety cap (not in the seeds): random play can cycle, so the game stops after max_turns
    plays with termination 'max_turns' and no winner."""
    state = position(["AC 5C", "2D 9D"], max_turns=2)
    state = all_pass(play(state, "5C", 14))
    assert GAME.to_act(state) == 1
    state = all_pass(play(state, "9D", 2))
    assert GAME.to_act(state) is None and state.termination == "max_turns"
    assert GAME.outcome(state).winners == ()
    state = position(["AC 5C", "2D 9D 8D"], max_turns=1, loser_mode=True)
    state = all_pass(play(state, "5C", 14))
    assert GAME.outcome(state).winners == (0,)


def test_wrong_phase_and_bad_input_explained() -> None:
    """Errors name the rule (001_e8630c614840283e.txt: "A turn consists of discarding one or
    more cards face down on the pile, and calling out their rank")."""
    state = position(["AC 5C", "2D 9D"])
    assert GAME.explain(state, Claim(1, 14)) == "pick at least one card before claiming"
    assert "answered only right after a play" in (GAME.explain(state, Challenge()) or "")
    assert "no 2♦" in (GAME.explain(state, Pick(parse_card("2D"))) or "")
    state = play_pick(state, "AC")
    assert "in order" in (GAME.explain(state, Pick(parse_card("5C"))) or "")
    before = state
    with pytest.raises(IllegalAction, match="number of cards played"):
        GAME.apply(state, Claim(2, 14))
    assert state == before


def test_presets_and_aliases() -> None:
    """000_0fa2fe02243ab02b.txt names Bullshit, I Doubt It (Hoyle), Bologna and the national
    variants; every preset is documented."""
    entry = games.entry("cheat")
    assert games.get("bullshit").preset == "bullshit"
    assert games.get("i-doubt-it").preset == "cheat"
    assert games.get("bologna").preset == "bullshit"
    assert games.get("cheat").preset == "cheat"
    assert games.get("cheat", preset="hawaiian").rules.challenge_any_time  # type: ignore[attr-defined]
    assert set(entry.presets) <= set(entry.preset_docs)
    for name in entry.presets:
        assert games.get("cheat", preset=name).rules.players == 4  # type: ignore[attr-defined]


def test_first_player_option_overrides_auto() -> None:
    """001_e8630c614840283e.txt: "Select at random who should go first"; 000_0fa2fe02243ab02b.txt:
    "The player who is holding the two of clubs begins" — first_player picks either rule."""
    starters = {
        GAME.new_game(rules(rank_rule="bullshit", first_player="random"), s).turn_seat
        for s in range(12)
    }
    assert len(starters) > 1
    state = GAME.new_game(rules(rank_rule="bullshit", first_player="random"), 0)
    assert state.must_include == -1 and state.allowed == (2,)
    state = GAME.new_game(rules(rank_rule="up_or_down", first_player="two_of_clubs"), 0)
    assert state.hands[state.turn_seat][parse_card("2C")] and state.allowed == ALL_RANKS
    assert GAME.legal_actions(state) == [Pick(parse_card("2C"))]
