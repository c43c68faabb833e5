"""The ``basic`` Cheat bot: finishes games against itself, certain and probable challenges."""

from __future__ import annotations

from typing import Any

import pytest

from parlour import games
from parlour.core.cards import parse_card, parse_cards
from parlour.core.state import copy_with
from parlour.games.cheat import GAME, BasicCheatBot
from parlour.games.cheat.actions import Challenge, Claim, Pass, Pick
from parlour.games.cheat.bot import exposed_whereabouts, steer_value, voluntary_rate
from parlour.games.cheat.rules import RANK_RULES
from parlour.games.cheat.state import ALL_RANKS, State
from parlour.sim.match import make_bots

from .helpers import all_pass, answer, play, position


def _play_out(preset: str, seed: int, **options: Any) -> State:
    variant = games.get("cheat", preset=preset, **options)
    bots = make_bots(variant, ["basic"] * variant.rules.players, seed)  # type: ignore[attr-defined]
    state = GAME.new_game(variant.rules, seed)
    while (seat := GAME.to_act(state)) is not None:
        action = bots[seat].act(GAME.observe(state, seat), GAME.legal_actions(state))
        state, _ = GAME.apply(state, action)
    return state


def _bot_move(state: State, seat: int) -> object:
    return BasicCheatBot(GAME, seat, 1).act(GAME.observe(state, seat), GAME.legal_actions(state))


def test_basic_bots_finish_against_each_other() -> None:
    """001_e8630c614840283e.txt: "The first player to get rid of all their cards and survive
    any challenge resulting from their final play wins the game" — four basic bots reach that end on the default preset, far from the 1000-play cap (seeded;
    before the fix most such games hit the cap)."""
    for seed in range(4):
        state = _play_out("cheat", seed)
        assert state.termination == "went_out", seed
        assert state.turns < 400, (seed, state.turns)


@pytest.mark.parametrize("rank_rule", [r for r in RANK_RULES if r != "free"])
def test_basic_bots_finish_every_direction(rank_rule: str) -> None:
    """issue 16 item 11 — 001_e8630c614840283e.txt: "The first player to get rid of all their
    cards and survive any challenge resulting from their final play wins the game"; "you can
    (claim to) play either the next rank above or the next rank below the rank announced by
    the previous player"; "Some allow cards of the same rank as the last card to be played, as
    well as the next higher or lower rank". Twenty seeded 4-player basic-vs-basic games of
    every direction of the ranks finish under the 1,000-play cap (before the fix the bot's lies
    always named the lower allowed rank, and up-or-down games locked into a cycle)."""
    for seed in range(20):
        state = _play_out("cheat", seed, rank_rule=rank_rule)
        assert state.termination == "went_out", (rank_rule, seed, state.turns)
        assert state.turns < 1000


@pytest.mark.parametrize("players", [2, 3, 6, 10])
def test_basic_bots_finish_up_or_down_at_every_table_size(players: int) -> None:
    """issue 16 item 11 — 001_e8630c614840283e.txt: "you can (claim to) play either the next
    rank above or the next rank below the rank announced by the previous player"; "The game can
    be played by from 2 to 10 players". The up-or-down preset played by basic bots only ends by
    a player going out at other table sizes too (ten seeds each; measured over 50 seeds at 2, 3,
    4, 6 and 10 players: none reached the 1,000-play cap)."""
    for seed in range(10):
        state = _play_out("up-or-down", seed, players=players)
        assert state.termination == "went_out", (players, seed, state.turns)


def test_lie_steers_towards_own_ranks() -> None:
    """issue 16 item 11: a forced lie under up-or-down names the allowed rank from which the
    liar's own coming turns most likely reach the ranks it holds (three players: two claims
    come in between)."""
    state = position(["7C 7D 2H", "9S 9H", "3C 4C"], rank_rule="up_or_down")
    state = all_pass(play(state, "7C 7D", 7))  # seat 1 may claim 6 or 8, holds only 9s
    assert state.allowed == (6, 8)
    assert _bot_move(state, 1) == Pick(parse_card("9H"))
    state, _ = GAME.apply(state, Pick(parse_card("9H")))
    assert _bot_move(state, 1) == Claim(1, 8)  # from 8: 9s are asked for 3 times in 4
    nines = frozenset({9})
    assert steer_value("up_or_down", 8, nines, 3) > steer_value("up_or_down", 6, nines, 3)
    # two players, one parity of ranks each until the claims pass A–2: steer towards the wrap
    assert steer_value("up_or_down", 6, nines, 2) > steer_value("up_or_down", 8, nines, 2)


def test_basic_bots_finish_bullshit() -> None:
    """000_0fa2fe02243ab02b.txt: "After that, the game can continue among the other players"
    — four basic bots play the Bullshit preset through to the last player (seeded)."""
    state = _play_out("bullshit", 0)
    assert state.termination == "last_player"
    assert len(state.out) == 3


def test_the_same_view_gives_the_same_decision() -> None:
    """The bot is deterministic given its seed and view (a fresh bot and a bot that has seen
    the whole game so far decide alike, so its cache changes nothing)."""
    variant = games.get("cheat", preset="bullshit")
    bots = make_bots(variant, ["basic"] * 4, 7)
    state = GAME.new_game(variant.rules, 7)
    for _ in range(600):
        seat = GAME.to_act(state)
        if seat is None:
            break
        view, legal = GAME.observe(state, seat), GAME.legal_actions(state)
        action = bots[seat].act(view, legal)
        assert BasicCheatBot(GAME, seat, bots[seat].seed).act(view, legal) == action
        state, _ = GAME.apply(state, action)


def _exposed_threes() -> State:
    """Seat 0 lies "3 × A" with three 3s and is caught by seat 1: 3♣ 3♦ 3♥ go to seat 0 for
    all to see; seat 1 claims a two; seat 2 is to claim 3s."""
    hands = ["3C 3D 3H 7C 5H", "2D 8D 9D", "3S KH QH JH", "4C 5C 6C 7D"]
    state = answer(play(position(hands), "3C 3D 3H", 14), (1,))
    return all_pass(play(state, "2D", 2))


def test_certain_challenge_from_exposed_cards() -> None:
    """001_e8630c614840283e.txt: "the cards played by the challenged player are exposed" —
    three 3s were seen going to seat 0, which has not played since, so seat 2's "2 × 3" is
    impossible: seat 3 (holding no 3) challenges for certain."""
    state = play(_exposed_threes(), "3S KH", 3)
    assert GAME.to_act(state) == 3
    bot = BasicCheatBot(GAME, 3, 1)
    view = GAME.observe(state, 3)
    assert bot.lie_probability(view) == 1.0
    assert bot.act(view, GAME.legal_actions(state)) == Challenge()
    holders = {card: mask for card, mask, _ in exposed_whereabouts(view)}
    assert holders[parse_card("3C")] == 1 << 0
    # one 3 is unaccounted for: "1 × 3" is possible, no longer certain
    state = play(_exposed_threes(), "3S", 3)
    assert 0.0 < BasicCheatBot(GAME, 3, 1).lie_probability(GAME.observe(state, 3)) < 1.0


def test_exposed_card_may_move_with_the_pile() -> None:
    """001_e8630c614840283e.txt: "the challenger must pick up the whole discard pile" (or the
    liar) — once seat 0 has played again, the exposed 3s may be in the pile and go to whoever takes it."""
    state = _exposed_threes()
    state = answer(play(state, "3S KH", 3), (3,))  # a lie: seat 2 takes the pile
    state = all_pass(play(state, "4C", 4))  # seat 3
    view = GAME.observe(state, 1)
    holders = {card: mask for card, mask, _ in exposed_whereabouts(view)}
    assert holders[parse_card("3C")] == 1 << 0 and holders[parse_card("3S")] == 1 << 2
    # seat 0 plays its 5 (truly) and seat 1 wrongly challenges: the pile goes to seat 1,
    # and with it perhaps the 3s seat 0 held
    state = answer(play(state, "5H", 5), (1,))
    view = GAME.observe(state, 2)
    holders = {card: mask for card, mask, _ in exposed_whereabouts(view)}
    assert holders[parse_card("3C")] == (1 << 0) | (1 << 1)
    assert holders[parse_card("5H")] == 1 << 1 and holders[parse_card("3S")] == 1 << 2


def test_no_challenge_of_a_claim_known_true() -> None:
    """001_e8630c614840283e.txt: "the challenge is false, and the challenger must pick up the
    whole discard pile" — the bot never calls a claim it can verify: with two players it sees every card but the
    claimant's, all of which are Aces."""
    state = position(["AC AD AH", "2C"], fill=True)
    state = play(state, "AC AD", 14)
    bot = BasicCheatBot(GAME, 1, 1)
    view = GAME.observe(state, 1)
    assert bot.lie_probability(view) == 0.0
    assert bot.act(view, GAME.legal_actions(state)) == Pass()


def test_final_play_threshold_depends_on_the_others() -> None:
    """001_e8630c614840283e.txt: "survive any challenge resulting from their final play" — the
    bot weighs a call on a last card: it calls a likely lie when catching it keeps its own
    chances, but not when another player is about to win anyway and a wrong call costs cards."""
    many = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
    close = position(["9D", many, "10D", "JD QD KD AS"], fill=True)
    far = position(["9D", many, "10D 2D 3D 4D 5D 6D 7D 8D 2C 3C", "JD QD KD AS"], fill=True)
    decisions = []
    for state in (close, far):
        state = play(state, "9D", 14)  # a last card, claimed as an Ace
        bot = BasicCheatBot(GAME, 1, 1)
        view = GAME.observe(state, 1)
        assert bot.lie_probability(view) > 0.8
        decisions.append(bot.act(view, GAME.legal_actions(state)))
    assert decisions == [Pass(), Challenge()]


def test_lies_with_the_card_needed_last() -> None:
    """001_e8630c614840283e.txt: "you do not in fact have to play the rank you are calling" —
    forced to lie (no Ace), the bot puts down one card: the one its own turns reach last
    (with four players it will be asked for 5s, then 9s, then kings)."""
    for hand, expected in (("5C 9H", "9H"), ("9H KS 5D", "KS")):
        state = position([hand, "2D 3D", "3H 4H", "4S 6S"])
        while state.phase == "play":
            state, _ = GAME.apply(state, _bot_move(state, 0))  # type: ignore[arg-type]
        assert state.pile[-1].cards == (parse_card(expected),)
        assert state.claims[-1].count == 1


def test_duel_restart_makes_the_other_lie() -> None:
    """000_0fa2fe02243ab02b.txt: after a challenge "the next person in line will start another
    round" with any rank — two players left, the bot (knowing the other hand) starts with its
    5s, because it holds every 6 and the other must lie, rather than its four 6s or three 9s,
    which the other could follow until the bot has to lie."""
    state = position(["5C 5D 6C 6D 6H 6S 9C 9D 9H", "2C"], fill=True, rank_rule="bullshit")
    state = copy_with(state, allowed=ALL_RANKS)
    view = GAME.observe(state, 0)
    cards, count, rank = BasicCheatBot(GAME, 0, 1).plan(view)
    assert (count, rank) == (2, 5) and cards == sorted(parse_cards("5C 5D"))


def test_voluntary_lie_rate_learns_from_exposures() -> None:
    """000_0fa2fe02243ab02b.txt: "The only thing you have to avoid is being caught" — the
    bot's estimate of how freely a player lies rises with its exposed lies."""
    assert voluntary_rate(0, 5) < 0.1 < voluntary_rate(0, 0) < 0.5 < voluntary_rate(8, 1)


def test_an_unlikely_claim_is_called() -> None:
    """001_e8630c614840283e.txt: "If you think another player is lying, you can call Cheat" —
    the basic bot holding one 8 sees three 8s claimed by a player with six cards left
    (P(lie) about 0.86 from its view): it calls, even where its race alone would let it pass;
    with the rule off (``unlikely=None``) and a claimant far from going out it passes."""
    from parlour.games.cheat.position import position as build

    h0 = "2♣ 3♣ 4♣ 5♣ 6♣ 7♣"
    h1 = "8♥ 2♠ 3♠ 9♠ 10♠ K♥ Q♥ A♠ 5♠ 6♠ 7♠"
    state = build(
        hands={0: h0, 1: h1, 3: "4♦ 4♥ 5♦ 6♦ 9♦ 10♦"},
        rest=2,
        pile=[(3, "7♦", 7), (0, "8♣ 8♦ J♥", 8)],
        phase="window",
        turns=7,
    )
    view = GAME.observe(state, 1)
    bot = BasicCheatBot(GAME, 1, 0)
    assert bot.lie_probability(view) >= 0.8 and view.pile_size <= 4
    assert bot.act(view, GAME.legal_actions(state)) == Challenge()
    # a claim where the race alone would pass: a seeded random game, 217 moves in, seat 2 to
    # answer West's one 7 (P(lie) ≈ 0.82, a one-card pile, West holding 17 cards)
    from parlour import games
    from parlour.bots import make

    variant = games.get("cheat")
    state = GAME.new_game(variant.rules, 0)
    randoms = [make("random", variant, s, 0) for s in range(4)]
    for _ in range(217):
        s = GAME.to_act(state)
        assert s is not None
        state, _ = GAME.apply(state, randoms[s].act(None, GAME.legal_actions(state)))
    view = GAME.observe(state, 2)
    assert view.phase == "window" and view.pile[-1].seat == 1
    on, off = BasicCheatBot(GAME, 2, 0), BasicCheatBot(GAME, 2, 0, unlikely=None)
    assert 0.8 <= on.lie_probability(view) < 1.0
    assert on.should_challenge(view) and not off.should_challenge(view)
