"""Cheat's ``strong`` bot: determinizations from the public history (known cards, claims as
evidence), bounded searches, bluffs among the candidates and in the play-outs."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from parlour import games
from parlour.bots.ismcts import IsmctsBot
from parlour.core.cards import parse_card, parse_cards, rank_of
from parlour.games.cheat import GAME, BasicCheatBot
from parlour.games.cheat.actions import Challenge, Claim, Pass, Pick
from parlour.games.cheat.parts import belief as belief_module
from parlour.games.cheat.parts.belief import belief_of, determinize
from parlour.games.cheat.parts.search import (
    BLUFF_RATE,
    HINTS,
    SearchPolicy,
    candidates,
    evaluate,
)
from parlour.games.cheat.state import PLAY, WINDOW, State

from .helpers import all_pass, answer, play, position


def _positions(preset: str, players: int, seed: int, every: int = 7) -> list[tuple[State, int]]:
    """Positions (and the seat to act) from a game between basic bots."""
    variant = games.get("cheat", preset, players)
    state = variant.new_game(seed)
    bots = [BasicCheatBot(GAME, s, seed) for s in range(players)]
    out = []
    step = 0
    while GAME.to_act(state) is not None and state.turns < 120:
        seat = GAME.to_act(state)
        assert seat is not None
        if step % every == 0:
            out.append((state, seat))
        view = GAME.observe(state, seat)
        state = GAME.apply_quiet(state, bots[seat].act(view, GAME.legal_actions(state)))
        step += 1
    return out


@pytest.mark.parametrize(
    ("preset", "players", "options"),
    [("cheat", 2, {}), ("cheat", 4, {}), ("bullshit", 3, {}), ("cheat", 3, {"jokers": 2})],
)
def test_every_sampled_world_agrees_with_the_view(
    preset: str, players: int, options: dict[str, Any]
) -> None:
    """A determinization is a state the seat cannot tell from the real one."""
    rng = random.Random(5)
    variant = games.get("cheat", preset, players, **options)
    for seed in (1, 2):
        state = variant.new_game(seed)
        bots = [BasicCheatBot(GAME, s, seed) for s in range(players)]
        step = 0
        while GAME.to_act(state) is not None and state.turns < 60:
            seat = GAME.to_act(state)
            assert seat is not None
            view = GAME.observe(state, seat)
            if step % 3 == 0:
                for _ in range(3):
                    world = determinize(GAME, view, rng)
                    assert GAME.observe(world, seat) == view
                    assert sorted(GAME.all_cards(world)) == sorted(GAME.all_cards(state))
            state = GAME.apply_quiet(state, bots[seat].act(view, GAME.legal_actions(state)))
            step += 1


def _exposed_lie() -> State:
    """Three players: seat 1 lies with the 9♦ (claimed as a 2), seat 2 calls it and seat 1 takes
    the pile back — the A♣ seat 0 put down and the exposed 9♦.  Seat 0 then plays a 3."""
    state = position(["AC 3C 5H 6H", "2D 9D 4S 7S", "3H 4H 8C 8D"], fill=True)
    state = all_pass(play(state, "AC", 14))
    state = answer(play(state, "9D", 2), (2,))
    return state


def test_known_cards_are_placed_where_they_are_known_to_be() -> None:
    """001_e8630c614840283e.txt: the challenged cards are exposed and the liar takes the pile,
    so seat 2 (the challenger) knows the liar holds the 9♦: every sampled world puts it there,
    where a uniform deal would put it in seat 0's hand a good part of the time."""
    state = _exposed_lie()
    view = GAME.observe(state, 2)
    rng = random.Random(3)
    nine = parse_card("9D")
    for _ in range(200):
        world = determinize(GAME, view, rng)
        assert GAME.observe(world, 2) == view
        assert world.hands[1][nine] == 1
    uniform = sum(GAME.determinize(view, rng).hands[1][nine] for _ in range(200))
    assert uniform < 150  # the hook matters: a uniform deal misplaces it often
    assert (nine, frozenset({1})) in belief_of(GAME, view).known


def test_known_card_may_be_in_the_holders_later_play() -> None:
    """Once seat 1 has played again, the 9♦ it took back may be in that play (a lie claiming a
    5) or still in its hand — and nowhere else."""
    state = _exposed_lie()
    state = all_pass(play(state, "3H", 3))  # seat 2, left of the liar, plays on
    state = all_pass(play(state, "3C", 4))  # seat 0
    state = play(state, "9D", 5)  # seat 1
    view = GAME.observe(state, 2)
    assert view.phase == WINDOW
    rng = random.Random(4)
    nine = parse_card("9D")
    places = set()
    for _ in range(300):
        world = determinize(GAME, view, rng)
        assert GAME.observe(world, 2) == view
        in_hand = world.hands[1][nine] == 1
        in_play = nine in world.pile[-1].cards
        assert in_hand or in_play
        places.add("hand" if in_hand else "play")
    assert places == {"hand", "play"}


def test_unchallenged_claims_are_evidence() -> None:
    """A claim of three 3s nobody challenged puts 3s in that play in most sampled worlds (the
    claimant holds most of the pack: it could well have them) — a uniform deal of the cards the
    viewer cannot see almost never does."""
    state = position(["9C 3C 5H 6H 7D", "KC 4S 8S 10H", "3D 3H 3S"], fill=True)
    state = all_pass(play(state, "9C", 14))  # seat 0 lies (an Ace); nobody calls it
    state = all_pass(play(state, "KC", 2))  # seat 1 lies (a 2)
    state = all_pass(play(state, "3D 3H 3S", 3))  # seat 2: three 3s, the truth
    state = play(state, "5H", 4)  # seat 0 lies again; the others are asked
    view = GAME.observe(state, 0)
    rng = random.Random(9)

    def threes(world: State) -> bool:
        return all(rank_of(c) == 3 for c in world.pile[2].cards)

    weighted = sum(threes(determinize(GAME, view, rng)) for _ in range(300))
    uniform = sum(threes(GAME.determinize(view, rng)) for _ in range(300))
    assert weighted > 150
    assert uniform < 10


def test_the_play_being_judged_follows_the_basic_estimate() -> None:
    """The last play, open to a challenge, is a lie in the sampled worlds about as often as the
    basic bot's ``lie_probability`` says."""
    found = None
    for seed in range(1, 30):
        for state, seat in _positions("cheat", 2, seed, every=1):
            if state.phase == WINDOW:
                view = GAME.observe(state, seat)
                p = BasicCheatBot(GAME, seat).lie_probability(view)
                if 0.2 < p < 0.8:
                    found = view, p
                    break
        if found:
            break
    assert found is not None, "no uncertain claim in the sample games"
    view, p = found
    rng = random.Random(2)
    rank = view.pile[-1].rank
    n = 400
    lies = sum(
        not all(rank_of(c) == rank for c in determinize(GAME, view, rng).pile[-1].cards)
        for _ in range(n)
    )
    assert abs(lies / n - p) < 0.1


def test_a_search_respects_its_budget() -> None:
    """A decision at 0.2 s takes less than 0.5 s of CPU on a mid-game position."""
    state, seat = next(
        (state, seat)
        for state, seat in _positions("cheat", 2, 6, every=1)
        if state.turns >= 8 and state.phase == PLAY and not state.selection
    )
    bot = IsmctsBot(GAME, seat, 1, budget=0.2)
    view = GAME.observe(state, seat)
    legal = GAME.legal_actions(state)
    started = time.process_time()
    bot.act(view, legal)
    assert time.process_time() - started < 0.5
    assert bot.max_seconds < 0.3


def test_a_hundred_playout_search_stays_within_a_second_of_cpu() -> None:
    """The published budget (``strong:100it``, 4 players) is within the bar of 1 s a decision:
    every searched decision of a stretch of play takes far less CPU than that, and the early
    stop never spends more than the budget."""
    positions = [
        (state, seat)
        for state, seat in _positions("cheat", 4, 11, every=3)
        if state.turns >= 4 and len(GAME.legal_actions(state)) > 1
    ][:8]
    assert positions
    for i, (state, seat) in enumerate(positions):
        bot = IsmctsBot(GAME, seat, 5 + i, budget="100it")
        started = time.process_time()
        bot.act(GAME.observe(state, seat), GAME.legal_actions(state))
        assert time.process_time() - started < 1.0
        assert bot.total_iterations <= 100


def test_candidates_include_bluffs() -> None:
    """Holding two 7s among other cards, the search compares the truth with the 7s padded by
    one card of another rank (a claim of three 7s) — a lie the rules allow."""
    state = position(["7C 7D KS 4H 9H 10S JH", "2C 3C 8H 8D", "5D 6D"], fill=True)
    state = all_pass(play(state, "KS", 14))
    state = all_pass(play(state, "2C", 2))
    state = all_pass(play(state, "5D", 3))
    state = all_pass(play(state, "4H", 4))
    state = all_pass(play(state, "3C", 5))
    state = all_pass(play(state, "6D", 6))
    assert state.allowed == (7,) and state.turn_seat == 0
    policy = SearchPolicy(GAME, 0, 1)
    for c in parse_cards("7C 7D"):
        view = GAME.observe(state, 0)
        assert policy.act(view, GAME.legal_actions(state)) == Pick(c)
        state, _ = GAME.apply(state, Pick(c))
    view = GAME.observe(state, 0)
    legal = GAME.legal_actions(state)
    fav = policy.act(view, legal)
    cands = candidates(policy, view, legal, fav, 4)
    assert cands[0] == fav == Claim(2, 7)
    pads = [a for a in cands if isinstance(a, Pick)]
    assert pads and all(rank_of(a.card) != 7 for a in pads)
    # the policy finishes a padded play by claiming the three cards as 7s
    state, _ = GAME.apply(state, pads[0])
    view = GAME.observe(state, 0)
    assert policy.act(view, GAME.legal_actions(state)) == Claim(3, 7)


def test_play_out_policy_bluffs_at_its_rate_and_the_real_move_is_the_truth() -> None:
    """In play-outs (after ``reset``) about ``BLUFF_RATE`` of the truthful plays are padded; the
    policy's move in the real game (never reset) is the basic bot's."""
    playing = SearchPolicy(GAME, 0, 3)
    real = SearchPolicy(GAME, 0, 3)
    padded = total = 0
    for seed in range(40):
        playing.reset(seed)
        for state, seat in _positions("cheat", 2, seed, every=1):
            if state.phase != PLAY or state.selection or seat != 0:
                continue
            view = GAME.observe(state, 0)
            truth = real.truthful_plan(view)
            cards, _count, rank = truth
            if not all(rank_of(c) == rank for c in cards) or not real.bluffs(view, truth, 1):
                continue
            total += 1
            padded += playing.plan(view) != truth
            assert real.plan(view) == truth
    assert total > 100
    assert 0.3 * BLUFF_RATE < padded / total < 3 * BLUFF_RATE


def test_challenge_is_searched_only_when_uncertain() -> None:
    """Both answers are compared unless the claim is certainly a lie: the viewer holds three
    7s, so a claim of two 7s is impossible and the policy's call stands unsearched; a claim of
    one 7 could be true."""
    hands = ["7C 7D 7H AC 2C 3C", "5S 6S 9S"]
    for count, cards, searched in ((2, "5S 6S", False), (1, "5S", True)):
        state = position(hands, fill=True, rank_rule="free")
        state = all_pass(play(state, "AC", 14))
        state = play(state, cards, 7, count)
        view = GAME.observe(state, 0)
        policy = SearchPolicy(GAME, 0, 1)
        legal = GAME.legal_actions(state)
        fav = policy.act(view, legal)
        cands = candidates(policy, view, legal, fav, 4)
        if searched:
            assert set(cands) == {Challenge(), Pass()}
        else:
            assert cands == [Challenge()]


def test_evaluation_prefers_the_hand_closer_to_going_out() -> None:
    """Fewer own turns to go out (and no forced lie on the way) scores higher."""
    state = position(["AC 2D", "AD 3H 4S 5S 6S 7S"])
    scores = evaluate(GAME, state)
    assert scores[0] > scores[1]


def test_strong_uses_the_hint() -> None:
    """The registered hints carry the sampler, and the search draws its worlds from it."""
    assert games.entry("cheat").hints is HINTS
    assert HINTS.determinize is determinize
    assert HINTS.rollout_steps > 0 and HINTS.evaluate_state is evaluate
    calls = []
    original = belief_module.Belief.sample

    def spy(self: Any, rng: random.Random) -> State | None:
        calls.append(1)
        return original(self, rng)

    for state, seat in _positions("cheat", 2, 4, every=1):
        if state.phase == WINDOW:
            view = GAME.observe(state, seat)
            if 0.0 < BasicCheatBot(GAME, seat).lie_probability(view) < 1.0:
                break
    bot = IsmctsBot(GAME, seat, 1, budget="20it")
    try:
        belief_module.Belief.sample = spy  # type: ignore[method-assign]
        bot.act(view, GAME.legal_actions(state))
    finally:
        belief_module.Belief.sample = original  # type: ignore[method-assign]
    assert calls


def test_paired_search_stops_early_only_when_the_alternatives_clearly_trail() -> None:
    """With ``stop_z`` the paired search ends once every alternative trails the policy's move by
    that many standard errors: the same moves as the full budget, for fewer play-outs."""
    positions = [
        (state, seat)
        for state, seat in _positions("cheat", 4, 3, every=5)
        if len(GAME.legal_actions(state)) > 1
    ][:12]
    spent = []
    for stop_z in (0.0, 2.0):
        picks, its = [], 0
        for i, (state, seat) in enumerate(positions):
            bot = IsmctsBot(GAME, seat, 7 + i, budget="60it", stop_z=stop_z)
            picks.append(bot.act(GAME.observe(state, seat), GAME.legal_actions(state)))
            its += bot.total_iterations
            assert bot.total_iterations <= 60
        spent.append((picks, its))
    assert HINTS.paired_stop_z == 2.0  # Cheat's hint turns it on (off by default)
    assert IsmctsBot(GAME, 0, 1, budget="60it").stop_z == 2.0
    assert IsmctsBot(GAME, 0, 1, budget="60it", stop_z=0.0).stop_z == 0.0
    (full_picks, full_its), (early_picks, early_its) = spent
    assert early_picks == full_picks
    assert early_its < full_its


def test_play_out_seat_survives_a_world_its_counting_cannot_explain() -> None:
    """A sampled world can contradict what another seat's counting follows of the cards shown
    at challenges (the counting then fails with ``ValueError``): the play-out seat lets the
    claim stand and the search goes on."""

    class Confused(SearchPolicy):
        def should_challenge(self, view: Any) -> bool:
            raise ValueError("n must be a non-negative integer")

    state, seat = next(
        (state, seat) for state, seat in _positions("cheat", 4, 3, every=1) if state.phase == WINDOW
    )
    bot = Confused(GAME, seat, 1)
    legal = GAME.legal_actions(state)
    assert bot.act(GAME.observe(state, seat), legal) == Pass()
    assert bot.confused == 1
    assert SearchPolicy(GAME, seat, 1).confused == 0
