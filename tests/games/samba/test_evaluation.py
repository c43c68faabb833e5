"""The learned hand evaluation used by the ``strong`` bot's play-outs (parlour/games/samba/parts/evaluation.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from parlour.games.samba.parts import evaluation
from parlour.games.samba.position import make_position

HANDS = {0: "4♣ 5♦ 9♠", 1: "4♠ 5♣ 9♦", 2: "4♥ 6♣ 9♣", 3: "4♦ 6♠ J♠"}


def test_weights_match_the_features() -> None:
    s = make_position(hands=HANDS, pile="4♦")
    assert len(evaluation.WEIGHTS) == len(evaluation.FEATURES) == len(evaluation.features(s, 0))
    assert evaluation.FIT.startswith("20000 basic-vs-basic hands")


def test_a_samba_on_the_table_is_worth_more_than_its_cards() -> None:
    """002: a samba scores 1,500 — the evaluation must see far more than the cards' 70 points."""
    with_samba = make_position(
        hands=HANDS, melds={0: ["4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥"], 1: ["K♣ K♦ K♥"]}, pile="4♦"
    )
    without = make_position(hands=HANDS, melds={0: ["4♥ 5♥ 6♥"], 1: ["K♣ K♦ K♥"]}, pile="4♦")
    a, b = evaluation.evaluate(with_samba), evaluation.evaluate(without)
    assert (a[0] - a[1]) - (b[0] - b[1]) > 1000


def test_fit_script_runs() -> None:
    script = Path(__file__).parents[3] / "scripts" / "fit_samba_eval.py"
    out = subprocess.run(
        [sys.executable, str(script), "--hands", "30", "--dry-run"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    assert "held-out R2" in out and "sambas" in out


def test_a_sequence_near_a_samba_counts_by_its_length() -> None:
    """The features added on 2026-12-07 (issue 36): unfinished sequences and groups by length,
    the natural cards in the hands that extend the side's melds, the seven-card melds."""
    six = make_position(
        hands={**HANDS, 0: "4♣ 5♦ 9♠ 10♥"}, melds={0: ["4♥ 5♥ 6♥ 7♥ 8♥ 9♥"]}, pile="4♦"
    )
    f = dict(zip(evaluation.FEATURES, evaluation.features(six, 0), strict=True))
    assert f["unfinished sequences of 6 cards"] == 1
    assert f["unfinished sequences of 4 cards"] == f["unfinished sequences of 5 cards"] == 0
    # 10♥ extends the run; 4♣ does not (no group of 4s on the table)
    assert f["natural cards in the hands that fit the side's melds"] == 1
    assert f["seven-card melds, up to the two going out needs"] == 0
    four = make_position(hands=HANDS, melds={0: ["4♥ 5♥ 6♥ 7♥"]}, pile="4♦")
    a, b = evaluation.evaluate(six), evaluation.evaluate(four)
    assert a[0] - a[1] > b[0] - b[1]
