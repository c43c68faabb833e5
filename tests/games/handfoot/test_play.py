"""Whole matches, views and the action space of Samba Hand and Foot (seed 004_bae80ddcdedd4514.txt)."""

from __future__ import annotations

import json
import random

import pytest

from parlour.core.conformance import check_view_consistency, run_random_game
from parlour.games.handfoot import ENTRY, GAME
from parlour.games.handfoot.actions import Discard, Draw, TakePile
from parlour.games.handfoot.view import HandFootView
from tests.games.handfoot.util import cards, scenario


@pytest.mark.parametrize("preset", ["handfoot", "rotate"])
def test_full_four_round_match_conformance(preset: str) -> None:
    """004_bae80ddcdedd4514.txt: "Each game consists of 4 rounds of play" — a whole random match
    of every preset passes the conformance checks (the CI suite caps random matches at 1 round)."""
    rules = ENTRY.rules(preset).replace(stock_out="end_round")
    stats = run_random_game(GAME, rules, 7, deep_every=41)
    assert stats["decisions"] > 400
    state = GAME.new_game(rules, 7)
    rng = random.Random(7)
    while GAME.to_act(state) is not None:
        legal = GAME.legal_actions(state)
        state, _ = GAME.apply_unchecked(state, legal[rng.randrange(len(legal))])
    out = GAME.outcome(state)
    assert out.finished and len(out.hands) == 4
    assert out.scores == tuple(sum(h.scores[i] for h in out.hands) for i in range(len(out.sides)))
    assert out.winners and out.scores[out.winners[0]] == max(out.scores)


def test_reshuffle_option_conformance() -> None:
    """stock_out='reshuffle' (not in 004_bae80ddcdedd4514.txt; an option): random play of a
    capped match still conserves cards and replays exactly."""
    rules = ENTRY.rules().replace(stock_out="reshuffle", max_hands=1, draw_count=6)
    # random players never finish the books, so a reshuffled stock could last forever: check a
    # bounded stretch of play instead
    state = GAME.new_game(rules, 3)
    rng = random.Random(3)
    reshuffled = False
    for _ in range(4000):
        legal = GAME.legal_actions(state)
        state, events = GAME.apply(state, legal[rng.randrange(len(legal))])
        reshuffled |= any(e.kind == "reshuffle" for e in events)
        assert len(GAME.all_cards(state)) == 378
    assert reshuffled
    check_view_consistency(GAME, state, rng)


def test_views_hide_hands_feet_and_stock() -> None:
    """004_bae80ddcdedd4514.txt: the foot is "placed to the side" face down and hands are private;
    views show sizes only (the pile is public: every card was discarded face up)."""
    state = GAME.new_game(ENTRY.rules(), 21)
    for seat in range(4):
        view = GAME.observe(state, seat)
        assert isinstance(view, HandFootView)
        assert sorted(view.hand) == sorted(
            c for c, n in enumerate(state.hands[seat]) for _ in range(n)
        )
        text = json.dumps(GAME.view_to_json(view), ensure_ascii=False)
        assert "feet" not in text and 'stock"' not in text
        assert view.players[seat].foot_size == 15 and view.stock_size == len(state.stock)
    spectator = GAME.observe(state, None)
    assert spectator.hand == ()
    check_view_consistency(GAME, state, random.Random(1))


def test_known_pile_cards_follow_the_taker() -> None:
    """004_bae80ddcdedd4514.txt: the 7 cards taken with the pile join the hand after the discard;
    everyone saw them discarded, so views list them as known in that hand."""
    pile = "Kc 4c 5c 6c 7c 8c 9c 10c Qh"
    s = scenario(hands={0: "Qc Qd 5s"}, pile=pile, phase="draw", down=[0], foot_taken=[0])
    s, _ = GAME.apply(s, TakePile(tuple(cards("Qc Qd")), -1))
    s, _ = GAME.apply(s, Discard(cards("5s")[0]))
    view = GAME.observe(s, 1)
    assert sorted(view.players[0].known) == sorted(cards("4c 5c 6c 7c 8c 9c 10c"))
    check_view_consistency(GAME, s, random.Random(2))
    again = GAME.determinize(view, random.Random(3))
    assert sorted(c for c, n in enumerate(again.hands[0]) for _ in range(n)) == sorted(
        cards("4c 5c 6c 7c 8c 9c 10c")
    )


def test_small_action_space() -> None:
    """Structured actions keep decisions small (one card added at a time, three-card meld starts,
    interchangeable cards listed once): mean ≤ 30 and max ≤ 300 legal actions in random play."""
    rules = ENTRY.rules().replace(**ENTRY.random_play_options)
    total = decisions = most = 0
    for seed in range(6):
        state = GAME.new_game(rules, seed)
        rng = random.Random(seed)
        while GAME.to_act(state) is not None:
            legal = GAME.legal_actions(state)
            total += len(legal)
            decisions += 1
            most = max(most, len(legal))
            state, _ = GAME.apply_unchecked(state, legal[rng.randrange(len(legal))])
    assert total / decisions <= 30
    assert most <= 300


def test_draw_is_listed_first_and_actions_round_trip() -> None:
    """004_bae80ddcdedd4514.txt: "To begin your turn you draw 4 cards, from any pile you want"."""
    state = GAME.new_game(ENTRY.rules(), 2)
    legal = GAME.legal_actions(state)
    assert legal[0] == Draw()
    for a in legal:
        assert GAME.action_from_json(json.loads(json.dumps(GAME.action_to_json(a)))) == a


def test_simulate_cli_json() -> None:
    """`parlour simulate handfoot --json` plays capped random matches and prints one object."""
    from typer.testing import CliRunner

    from parlour.cli import app

    result = CliRunner().invoke(app, ["simulate", "handfoot", "--games", "2", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.strip().splitlines()[-1])
    assert summary["game"] == "handfoot" and summary["games"] == 2
    assert summary["terminations"] == {"max_hands": 2}


def test_fast_view_json_matches_the_generic_codec() -> None:
    """The engine's quick view JSON has exactly the shape of parlour.core.codec.to_json."""
    from parlour.core.codec import to_json

    rules = ENTRY.rules().replace(**ENTRY.random_play_options)
    state = GAME.new_game(rules, 5)
    rng = random.Random(5)
    for step in range(600):
        if GAME.to_act(state) is None:
            break
        if step % 50 == 0:
            for seat in (0, 1, None):
                view = GAME.observe(state, seat)
                assert GAME.view_to_json(view) == to_json(view)
        legal = GAME.legal_actions(state)
        state, _ = GAME.apply_unchecked(state, legal[rng.randrange(len(legal))])


def test_basic_bot_plays_whole_matches_and_beats_random() -> None:
    """The ``basic`` bot (views only) plays 004_bae80ddcdedd4514.txt's four rounds to the end and
    outscores random players."""
    from parlour import games
    from parlour.sim.match import play_match

    variant = games.get("handfoot")
    result = play_match(variant, 3, ["basic", "random"])
    out = result.outcome
    assert out.finished and out.termination == "rounds" and len(out.hands) == 4
    assert out.scores[0] > out.scores[1]
