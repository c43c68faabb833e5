"""Every cell of the seed's bridge scoring tables (seed ``003_8b94f64b123ab947.txt``).

The seed's tables are: "Trick Score (bid & made)", "Overtricks", "Bonuses" and "Sets"; the
expected numbers below are copied from them row by row."""

from __future__ import annotations

import pytest

from parlour.scoring.contract import Contract, Doubling, HonorKind, Honors
from parlour.scoring.tables import (
    DealScore,
    game_bonus,
    honors_points,
    insult_bonus,
    overtrick_points,
    score_deal,
    slam_bonus,
    trick_score,
    undertrick_points,
)

SEED = "003_8b94f64b123ab947.txt"


def items(score: DealScore) -> dict[str, int]:
    return {i.what: i.points for i in score.declarer}


@pytest.mark.parametrize(
    ("contract", "points"),
    [
        ("1C", 20),
        ("1D", 20),
        ("2C", 40),
        ("5D", 100),
        ("1H", 30),
        ("1S", 30),
        ("4H", 120),
        ("4S", 120),
        ("1NT", 40),
        ("2NT", 70),
        ("3NT", 100),
        ("7NT", 220),
        ("7C", 140),
        ("7S", 210),
    ],
)
def test_trick_score_per_strain(contract: str, points: int) -> None:
    """003_8b94f64b123ab947.txt: "Clubs or diamonds, each 20; Hearts or spades, each 30;
    Notrump, first trick 40; Notrump, each add'l trick 30"."""
    assert trick_score(Contract.parse(contract)) == points


@pytest.mark.parametrize("strain", ["C", "D", "H", "S", "NT"])
@pytest.mark.parametrize("level", range(1, 8))
def test_trick_score_doubled_and_redoubled(strain: str, level: int) -> None:
    """003_8b94f64b123ab947.txt: "If doubled multiply by 2; If redoubled multiply by 4"."""
    plain = trick_score(Contract.parse(f"{level}{strain}"))
    assert trick_score(Contract.parse(f"{level}{strain}X")) == 2 * plain
    assert trick_score(Contract.parse(f"{level}{strain}XX")) == 4 * plain


@pytest.mark.parametrize(
    ("contract", "vulnerable", "each"),
    [
        # Undoubled, each: trick score (20 minors, 30 majors and notrump), NV and V alike.
        ("2C", False, 20),
        ("2D", True, 20),
        ("2H", False, 30),
        ("2S", True, 30),
        ("1NT", False, 30),
        ("1NT", True, 30),
        # Doubled, each: 100 NV, 200 V.
        ("2CX", False, 100),
        ("2HX", True, 200),
        ("1NTX", False, 100),
        ("1NTX", True, 200),
        # Redoubled, each: 200 NV, 400 V.
        ("2DXX", False, 200),
        ("2SXX", True, 400),
        ("1NTXX", False, 200),
        ("1NTXX", True, 400),
    ],
)
def test_overtricks(contract: str, vulnerable: bool, each: int) -> None:
    """003_8b94f64b123ab947.txt "Overtricks": "Undoubled, each trick score; Doubled, each 100
    200; Redoubled, each 200 400"."""
    c = Contract.parse(contract)
    for over in (1, 2, 3):
        assert overtrick_points(c, over, vulnerable) == each * over
        deal = score_deal(c, c.tricks_needed + over, vulnerable=vulnerable)
        label = {1: "", 2: " doubled", 4: " redoubled"}[c.doubling]
        word = "overtrick" if over == 1 else "overtricks"
        assert items(deal)[f"{over} {word}{label}"] == each * over


def test_game_bonus() -> None:
    """003_8b94f64b123ab947.txt bonuses: "Game bid & made 300 500"."""
    assert (game_bonus(False), game_bonus(True)) == (300, 500)
    assert items(score_deal(Contract.parse("4S"), 10, vulnerable=False))["game"] == 300
    assert items(score_deal(Contract.parse("5D"), 11, vulnerable=True))["game"] == 500
    assert "game" not in items(score_deal(Contract.parse("2NT"), 10, vulnerable=True))


def test_slam_bonus() -> None:
    """003_8b94f64b123ab947.txt bonuses: "Slam bid & made 500 750"."""
    assert (slam_bonus(6, False), slam_bonus(6, True)) == (500, 750)
    assert items(score_deal(Contract.parse("6C"), 12, vulnerable=False))["slam"] == 500
    assert items(score_deal(Contract.parse("6NT"), 13, vulnerable=True))["slam"] == 750
    assert slam_bonus(5, True) == 0


def test_grand_slam_bonus() -> None:
    """003_8b94f64b123ab947.txt bonuses: "Grand slam bid & made 1000 1500"."""
    assert (slam_bonus(7, False), slam_bonus(7, True)) == (1000, 1500)
    assert items(score_deal(Contract.parse("7H"), 13, vulnerable=False))["grand slam"] == 1000
    assert items(score_deal(Contract.parse("7NT"), 13, vulnerable=True))["grand slam"] == 1500
    # A slam bid and not made earns nothing for declarer.
    assert score_deal(Contract.parse("7NT"), 12, vulnerable=True).declarer == ()


def test_non_game_made_on_fourth_deal() -> None:
    """003_8b94f64b123ab947.txt bonuses: "Non-game bid made on 4th deal — 100"."""
    deal = score_deal(Contract.parse("2S"), 8, vulnerable=True, fourth_deal=True)
    assert items(deal)["partscore on the 4th deal"] == 100
    game = score_deal(Contract.parse("4S"), 10, vulnerable=True, fourth_deal=True)
    assert "partscore on the 4th deal" not in items(game)
    down = score_deal(Contract.parse("2S"), 7, vulnerable=True, fourth_deal=True)
    assert down.declarer == ()


@pytest.mark.parametrize(("doubling", "bonus"), [("X", 50), ("XX", 100)])
def test_making_doubled_or_redoubled(doubling: str, bonus: int) -> None:
    """003_8b94f64b123ab947.txt bonuses: "Making doubled contract 50; Making redoubled contract
    100"."""
    assert insult_bonus(Doubling.DOUBLED if doubling == "X" else Doubling.REDOUBLED) == bonus
    for vulnerable in (False, True):
        deal = score_deal(Contract.parse(f"1C{doubling}"), 7, vulnerable=vulnerable)
        name = "making doubled" if doubling == "X" else "making redoubled"
        assert items(deal)[name] == bonus


@pytest.mark.parametrize(
    ("contract", "kind", "points"),
    [
        ("4S", HonorKind.FOUR_TRUMPS, 100),
        ("4S", HonorKind.FIVE_TRUMPS, 150),
        ("3NT", HonorKind.FOUR_ACES, 150),
    ],
)
def test_honors(contract: str, kind: HonorKind, points: int) -> None:
    """003_8b94f64b123ab947.txt bonuses: "Four trump honors in one hand 100; Five trump honors
    in one hand 150; Four aces in one hand at notrump 150" — scored even when the contract fails,
    to the side that holds them."""
    assert honors_points(kind) == points
    c = Contract.parse(contract)
    made = score_deal(c, c.tricks_needed, vulnerable=False, honors=Honors(kind))
    assert sum(i.points for i in made.declarer if "honors" in i.what or "aces" in i.what) == points
    failed = score_deal(c, c.tricks_needed - 1, vulnerable=False, honors=Honors(kind))
    assert failed.declarer_total == points
    held_by_defenders = score_deal(c, c.tricks_needed, vulnerable=False, honors=Honors(kind, True))
    assert held_by_defenders.defenders_total == points


# "Sets" table, columns Nonvul, Vul, NV ×, Vul × (rows Down 1–4 and "Each add'l") and the rule
# "If redoubled multiply doubled score by 2", written out for down 1 to 7.
SETS = {
    ("", False): [50, 100, 150, 200, 250, 300, 350],
    ("", True): [100, 200, 300, 400, 500, 600, 700],
    ("X", False): [100, 300, 500, 800, 1100, 1400, 1700],
    ("X", True): [200, 500, 800, 1100, 1400, 1700, 2000],
    ("XX", False): [200, 600, 1000, 1600, 2200, 2800, 3400],
    ("XX", True): [400, 1000, 1600, 2200, 2800, 3400, 4000],
}


@pytest.mark.parametrize(("doubling", "vulnerable"), list(SETS))
def test_undertricks_every_column(doubling: str, vulnerable: bool) -> None:
    """003_8b94f64b123ab947.txt "Sets": "Down 1 50 100 100 200 … Each add'l 50 100 300 300; If
    redoubled multiply doubled score by 2" — down 1 to 7 in every column."""
    d = {"": Doubling.UNDOUBLED, "X": Doubling.DOUBLED, "XX": Doubling.REDOUBLED}[doubling]
    for down, expected in enumerate(SETS[(doubling, vulnerable)], start=1):
        assert undertrick_points(down, d, vulnerable) == expected
        contract = Contract.parse(f"7NT{doubling}")
        deal = score_deal(contract, 13 - down, vulnerable=vulnerable)
        assert deal.defenders_total == expected
        assert deal.declarer == ()
        assert not deal.made


def test_undertricks_all_thirteen() -> None:
    """003_8b94f64b123ab947.txt "Sets": "Each add'l" goes on to down 13 (7NT, no trick)."""
    assert undertrick_points(13, Doubling.UNDOUBLED, False) == 650
    assert undertrick_points(13, Doubling.DOUBLED, False) == 800 + 9 * 300
    assert undertrick_points(13, Doubling.REDOUBLED, True) == 2 * (1100 + 9 * 300)


def test_everything_but_trick_score_is_above_the_line() -> None:
    """003_8b94f64b123ab947.txt: "We do not score a game because we did not get 100 points below
    the line" — only the trick score goes below the line."""
    deal = score_deal(
        Contract.parse("6NTXX"), 13, vulnerable=True, honors=Honors(HonorKind.FOUR_ACES)
    )
    below = [i for i in deal.declarer if i.below]
    assert [(i.what, i.points) for i in below] == [("trick score", 760)]
    assert deal.below == 760
    assert items(deal) == {
        "trick score": 760,
        "1 overtrick redoubled": 400,
        "game": 500,
        "slam": 750,
        "making redoubled": 100,
        "four aces": 150,
    }
