"""The ``strong`` bot on Samba: the paired search (the ``basic`` bot's move against a few
alternatives, compared on the same determinizations and play-out seeds)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from parlour import games
from parlour.bots import make
from parlour.bots.ismcts import IsmctsBot
from parlour.core.cards import parse_cards
from parlour.games.samba import ENTRY
from parlour.games.samba import actions as A
from parlour.games.samba.bot import SambaBasicBot
from parlour.games.samba.parts import search
from parlour.games.samba.position import make_position
from parlour.sim.tournament import Tournament, summarize

VARIANT = games.get("samba", players=4, max_hands=1)
GAME = VARIANT.game


SUITED = parse_cards("8♥ 9♥ 10♥")
HANDS = {0: "8♥ 9♥ 10♥ 4♣ K♠", 1: "4♠ 5♦ 6♥ 7♠ 9♦", 2: "4♥ 5♠ 6♣ 7♦ 9♣", 3: "4♦ 5♣ 6♠ J♠ Q♣"}


def _mid_hand(seed: int, decisions: int) -> Any:
    state = VARIANT.new_game(seed)
    bots = [make("basic", VARIANT, s, seed) for s in range(4)]
    for _ in range(decisions):
        seat = GAME.to_act(state)
        legal = GAME.legal_actions(state)
        state, _ = GAME.apply_unchecked(state, bots[seat].act(GAME.observe(state, seat), legal))
    return state


def _searched_decision(seed: int) -> Any:
    """A mid-hand state where the paired search has more than one candidate."""
    state = _mid_hand(seed, 30)
    bots = [make("basic", VARIANT, s, seed) for s in range(4)]
    while True:
        seat = GAME.to_act(state)
        view = GAME.observe(state, seat)
        legal = GAME.legal_actions(state)
        policy = SambaBasicBot(GAME, seat, 0)
        fav = policy.act(view, legal)
        if len(search.candidates(policy, view, legal, fav, 6)) > 2:
            return state
        state, _ = GAME.apply_unchecked(state, bots[seat].act(view, legal))


def test_samba_strong_uses_the_paired_search() -> None:
    bot = make("strong:24it", VARIANT, 0, 1)
    assert isinstance(bot, IsmctsBot)
    assert bot.search == "paired" and bot.rollout_steps == ENTRY.hints.paired_rollout_steps > 0  # type: ignore[union-attr]
    assert make("strong:24it", VARIANT, 0, 1, search="tree").search == "tree"
    with pytest.raises(ValueError, match="search must be"):
        make("strong:24it", VARIANT, 0, 1, search="deep")


def test_candidates_start_with_the_policys_move() -> None:
    """Every draw option is weighed; at a discard the three least harmful by the policy's ranking;
    a meld being staged is finished by the policy without search."""
    s = make_position(
        hands={**HANDS, 0: "9♥ 9♠ 5♣ K♦"}, melds={0: ["7♣ 7♦ 7♥"]}, pile="4♦ 6♣ 9♦", to_act=0
    )
    view = GAME.observe(s, 0)
    legal = GAME.legal_actions(s)
    policy = SambaBasicBot(GAME, 0, 0)
    fav = policy.act(view, legal)
    cands = search.candidates(policy, view, legal, fav, 6)
    assert cands[0] == fav and set(cands) == set(legal)
    state = _searched_decision(3)
    seat = GAME.to_act(state)
    view = GAME.observe(state, seat)
    legal = GAME.legal_actions(state)
    fav = policy.act(view, legal)
    cands = search.candidates(SambaBasicBot(GAME, seat, 0), view, legal, fav, 6)
    assert cands[0] == fav and len(cands) == len(set(cands)) <= 6
    assert set(cands) <= set(legal)
    staging = make_position(hands=HANDS, melds={0: ["7♣ 7♦ 7♥"]}, pile="4♦")
    staging, _ = GAME.apply_unchecked(staging, A.DRAW)
    staging, _ = GAME.apply_unchecked(staging, A.STAGE[SUITED[0]])
    view = GAME.observe(staging, 0)
    assert view.pending
    bot = make("strong:60it", VARIANT, 0, 1)
    legal = GAME.legal_actions(staging)
    assert bot.act(view, legal) in legal and bot.last_iterations == 0


def test_paired_search_overrules_only_on_clear_evidence(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _searched_decision(5)
    seat = GAME.to_act(state)
    view = GAME.observe(state, seat)
    legal = GAME.legal_actions(state)

    def run(value: Any) -> tuple[Any, Any, IsmctsBot]:
        bot = make("strong:60it", VARIANT, seat, 2)
        assert isinstance(bot, IsmctsBot)
        monkeypatch.setattr(bot, "_value_after", value)
        fav = bot._favourite(view, legal)
        return bot.act(view, legal), fav, bot

    # all moves worth the same: the policy's move
    choice, fav, bot = run(lambda world, action, seed, side: 0.5)
    assert choice == fav and not bot.last_overruled and bot.last_iterations <= 60
    # one alternative always better by 0.1: it is chosen
    cands = search.candidates(SambaBasicBot(GAME, seat, 0), view, legal, fav, bot.max_candidates)
    better = cands[-1]
    choice, _, bot = run(lambda world, action, seed, side: 0.6 if action == better else 0.5)
    assert choice == better and bot.last_overruled
    # an alternative better on average but within the noise: the policy's move stays
    noise = random.Random(1)
    choice, _, bot = run(
        lambda world, action, seed, side: noise.gauss(0.52 if action == better else 0.5, 0.3)
    )
    assert choice == fav and not bot.last_overruled


class _NeverTakesThePile(SambaBasicBot):
    """A weak policy: always draws from the stock."""

    def act(self, view: Any, legal: Any) -> Any:
        if A.DRAW in legal:
            return A.DRAW
        return super().act(view, legal)


def test_paired_search_finds_what_the_policy_misses() -> None:
    """With a policy that never takes the pile, the search still takes a pile of 14 cards that its
    natural pair of kings can take, opened, with canasta material in the pile (002: "the pile")."""
    pile = "4♦ Q♥ Q♠ Q♦ J♣ J♦ J♥ 10♠ 10♥ 10♣ 8♦ 8♣ 8♥ K♦"
    s = make_position(
        hands={**HANDS, 0: "K♥ K♠ 5♣ 6♦ 9♠"},
        melds={0: ["7♣ 7♦ 7♥"]},
        pile=pile,
        to_act=0,
    )
    view = GAME.observe(s, 0)
    legal = GAME.legal_actions(s)
    assert A.DRAW in legal and any(isinstance(a, A.TakePile) for a in legal)
    bot = IsmctsBot(GAME, 0, 7, iterations=240, policy=_NeverTakesThePile)
    assert bot.search == "paired"
    choice = bot.act(view, legal)
    assert isinstance(choice, A.TakePile) and bot.last_overruled


def test_samba_strong_is_deterministic_and_uses_only_the_view() -> None:
    state = _searched_decision(8)
    seat = GAME.to_act(state)
    other = GAME.determinize(GAME.observe(state, seat), random.Random(4))
    assert other.hands[seat] == state.hands[seat] and other.hands != state.hands
    picks = set()
    for st in (state, other, state):
        bot = make("strong:48it", VARIANT, seat, 11)
        picks.add(bot.act(GAME.observe(st, seat), GAME.legal_actions(st)))
        assert 0 < bot.last_iterations <= 48
    assert len(picks) == 1


def test_tiny_strong_tournament_is_reproducible() -> None:
    def run() -> Any:
        return Tournament(VARIANT, ["strong:12it", "basic"], games=1, seed=9, duplicate=True).run(
            workers=1
        )

    a, b = run(), run()
    assert a == b
    s = summarize(a)["bots"]["strong:12it"]
    assert s["hands"] == 2


def test_racing_gives_the_budget_to_the_moves_in_contention(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``race_z`` an alternative clearly behind the policy's move is played out no more
    after ``PAIRED_MIN_ROUNDS`` rounds; the others get the play-outs it would have had, within
    the same budget (issue 36)."""
    from parlour.bots.ismcts import PAIRED_MIN_ROUNDS

    state = _searched_decision(5)
    seat = GAME.to_act(state)
    view = GAME.observe(state, seat)
    legal = GAME.legal_actions(state)

    def run(race_z: float) -> tuple[dict[Any, int], IsmctsBot, Any]:
        bot = make("strong:120it", VARIANT, seat, 2, race_z=race_z)
        assert isinstance(bot, IsmctsBot)
        fav = bot._favourite(view, legal)
        cands = search.candidates(
            SambaBasicBot(GAME, seat, 0), view, legal, fav, bot.max_candidates
        )
        assert len(cands) >= 3
        worse, close = cands[1], cands[2]
        calls: dict[Any, int] = {}
        noise = random.Random(3)

        def value(world: Any, action: Any, seed: int, side: int) -> float:
            calls[action] = calls.get(action, 0) + 1
            if action == worse:
                return 0.3
            if action == close:
                return 0.5 + noise.gauss(0.0, 0.05)
            return 0.5

        monkeypatch.setattr(bot, "_value_after", value)
        bot.act(view, legal)
        return calls, bot, (fav, worse, close)

    plain, bot, (fav, worse, close) = run(0.0)
    assert plain[worse] == plain[close] == plain[fav] and bot.last_iterations <= 120
    raced, bot, _ = run(2.0)
    assert raced[worse] == PAIRED_MIN_ROUNDS  # clearly behind: dropped
    assert raced[close] > plain[close] and raced[fav] > plain[fav]
    assert bot.last_iterations == sum(raced.values()) <= 120


def test_grouped_candidates_differ_from_each_other() -> None:
    """``parlour.games.samba.parts.search.grouped_candidates``: the policy's move first, every way to draw,
    and at a meld step no two moves of one group (the same rank staged, the same rank added to
    one meld), so the comparison's places go to moves that differ (issue 36)."""
    s = make_position(
        hands={**HANDS, 0: "9♥ 9♠ 5♣ K♦"}, melds={0: ["7♣ 7♦ 7♥"]}, pile="4♦ 6♣ 9♦", to_act=0
    )
    view, legal = GAME.observe(s, 0), GAME.legal_actions(s)
    policy = SambaBasicBot(GAME, 0, 0)
    fav = policy.act(view, legal)
    assert search.grouped_candidates(policy, view, legal, fav, 6)[0] == fav
    assert set(search.grouped_candidates(policy, view, legal, fav, 6)) == set(legal)
    melding = make_position(
        hands={**HANDS, 0: "8♦ 8♥ 8♠ 7♠ 7♦ 4♣ K♠ Q♦"},
        melds={0: ["7♣ 7♥ 7♣"]},
        to_act=0,
        phase="meld",
    )
    view, legal = GAME.observe(melding, 0), GAME.legal_actions(melding)
    fav = policy.act(view, legal)
    old = search.candidates(policy, view, legal, fav, 6)
    new = search.grouped_candidates(policy, view, legal, fav, 6)
    assert new[0] == fav and set(new) <= set(legal) and len(new) == len(set(new)) <= 6
    groups = [search.group(a) for a in new if not isinstance(a, A.Discard)]
    assert len(groups) == len(set(groups))
    # the old list repeated a group here; the grouped one puts another move in its place
    old_groups = [search.group(a) for a in old if not isinstance(a, A.Discard)]
    assert len(old_groups) > len(set(old_groups))
