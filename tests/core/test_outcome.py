"""One meaning of the outcome: ``parlour.core.outcome.decide`` and its tie rules, every game's
outcome built with it (how the match ended says whether a cap cut it short), and
``parlour simulate`` saying when matches were cut short."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from parlour import games
from parlour.cli import app
from parlour.core.outcome import Termination, TieRule, decide, winners


@pytest.mark.parametrize(
    ("scores", "rule", "expected"),
    [
        ((10.0, 5.0), TieRule.DRAW, (0,)),
        ((10.0, 10.0), TieRule.DRAW, ()),
        ((10.0, 10.0, 3.0), TieRule.DRAW, ()),
        ((10.0, 10.0, 3.0), TieRule.SHARE, (0, 1)),
        ((4.0, 4.0, 4.0), TieRule.SHARE, ()),
        ((0.0, -3.0, -1.0, -3.0), TieRule.ALL_BUT_LOWEST, (0, 2)),
        ((-2.0, -2.0), TieRule.ALL_BUT_LOWEST, ()),
    ],
)
def test_tie_rules(scores: tuple[float, ...], rule: TieRule, expected: tuple[int, ...]) -> None:
    assert winners(scores, rule) == expected


def test_first_place_goes_by_the_places_and_nobody_wins_an_unfinished_or_abandoned_match() -> None:
    assert winners((0.0, 0.0, -4.0), TieRule.FIRST_PLACE, places=(1, 0)) == (1,)
    sides = ((0,), (1,))
    running = decide(
        sides,
        (3, 1),
        finished=False,
        termination="",
        kind=Termination.FINISHED,
        tie_rule=TieRule.DRAW,
    )
    assert running.winners == () and running.kind == "" and not running.finished
    left = decide(
        sides,
        (3, 1),
        finished=True,
        termination="left",
        kind=Termination.ABANDONED,
        tie_rule=TieRule.DRAW,
    )
    assert left.winners == () and left.kind == "abandoned"
    capped = decide(
        sides,
        (3, 1),
        finished=True,
        termination="max_hands",
        kind=Termination.CAPPED,
        tie_rule=TieRule.DRAW,
    )
    assert capped.winners == (0,) and capped.capped and capped.ranking == (0, 1)
    assert json.loads(json.dumps(capped.to_json()))["kind"] == "capped"


def _random_match(variant: games.Variant, seed: int) -> object:
    game = variant.game
    state = variant.new_game(seed)
    rng = random.Random(seed)
    while game.to_act(state) is not None:
        legal = game.legal_actions(state)
        state, _ = game.apply(state, legal[rng.randrange(len(legal))])
    return game.outcome(state)


@pytest.mark.parametrize(
    ("name", "options", "kinds"),
    [
        ("scat", {"max_hands": 2}, {"capped"}),
        ("cheat", {"max_turns": 5}, {"capped"}),
        ("samba", {"max_hands": 1}, {"capped"}),
        ("handfoot", {"max_hands": 1}, {"capped"}),
        ("scat", {"lives": 1, "on_the_county": False}, {"finished"}),
        (
            "handfoot",
            {"opening_minimums": (50,), "stock_out": "end_round"},
            {"finished", "stock_out"},
        ),
    ],
)
def test_every_game_says_how_its_match_ended(
    name: str, options: dict[str, object], kinds: set[str]
) -> None:
    variant = games.get(name, **options)
    for seed in range(2):
        out = _random_match(variant, seed)
        assert out.finished and out.kind in kinds, (out.termination, out.kind)  # type: ignore[attr-defined]
        if out.kind == "capped":  # type: ignore[attr-defined]
            assert out.termination in ("max_hands", "max_turns")  # type: ignore[attr-defined]


def test_simulate_says_when_a_cap_cut_matches_short() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["simulate", "scat", "--games", "3", "--bots", "random"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "cut short by a safety cap" in text
    result = runner.invoke(app, ["simulate", "scat", "--games", "3", "--bots", "random", "--json"])
    data = json.loads(result.stdout)
    assert sum(data["endings"].values()) == 3 and data["endings"].get("capped", 0) >= 1
