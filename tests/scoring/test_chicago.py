"""Chicago rounds and sessions (seed ``003_8b94f64b123ab947.txt``, RULES.md §5)."""

from __future__ import annotations

import json

import pytest

from parlour.core.errors import RulesError
from parlour.scoring.chicago import (
    ChicagoOptions,
    EntryError,
    PassedOut,
    Seat,
    Session,
    Side,
    round_hundred,
    sheet_from_entries,
    vulnerable_sides,
)

# The seed's sample round.  "You will be the first dealer": you are North, so We = N-S.
SEED_ROUND = [
    "3S N +1",  # Deal 1 — We bid 3 (a major) and win 10 tricks.
    "3NT E =",  # Deal 2 — They bid 3 NT and win nine tricks.
    "3DX W =",  # Deal 3 — They bid 3 (a minor), you double, they make it.
    "6S S = honors4",  # Deal 4 — We bid 6 and win 12 tricks. Dummy held A-Q-J-10.
]


def points(session: Session, deal_index: int, side: Side) -> dict[str, int]:
    record = session.rounds[0].deals[deal_index]
    return {i.what: i.points for i in record.items[side]}


def test_seed_worked_example_exactly() -> None:
    """003_8b94f64b123ab947.txt: "Adding up all the scores gives us 1650 to their 1070. We win
    the round by 580 points, which is customarily rounded off to the nearest hundred so we score
    +600 or +6"."""
    s = sheet_from_entries(SEED_ROUND)
    r = s.rounds[0]
    assert points(s, 0, Side.NS) == {"trick score": 90, "1 overtrick": 30}
    assert points(s, 1, Side.EW) == {"trick score": 100, "game": 500}
    assert points(s, 2, Side.EW) == {"trick score": 120, "game": 300, "making doubled": 50}
    assert points(s, 3, Side.NS) == {
        "trick score": 180,
        "game": 500,
        "slam": 750,
        "four trump honors": 100,
    }
    assert r.totals == {Side.NS: 1650, Side.EW: 1070}
    assert (r.difference, r.rounded, r.display) == (580, 600, "+6")
    assert r.complete and r.winner is Side.NS
    assert s.score(Side.NS) == 6 and s.score(Side.EW) == -6
    sheet = s.to_json()
    assert sheet["rounds"][0]["totals"] == {"NS": 1650, "EW": 1070}
    assert sheet["rounds"][0]["rounded_difference"] == 600
    assert sheet["rounds"][0]["display"] == "+6"
    assert sheet["session"] == {"complete_rounds": 1, "score": {"NS": 6, "EW": -6}, "display": "+6"}


def test_seed_example_lines_and_vulnerability() -> None:
    """003_8b94f64b123ab947.txt: "On Deal 1 neither side is vulnerable, on Deals 2 and 3 the
    dealer side is vulnerable, and on Deal 4 both sides are vulnerable"; "A new line is drawn to
    indicate that a game has been won"; "We do not score a game because we did not get 100"."""
    s = sheet_from_entries(SEED_ROUND)
    deals = s.rounds[0].deals
    assert [d.dealer for d in deals] == [Seat.N, Seat.E, Seat.S, Seat.W]
    assert [d.vulnerable for d in deals] == [(), (Side.EW,), (Side.NS,), (Side.NS, Side.EW)]
    assert [d.game for d in deals] == [None, Side.EW, Side.EW, Side.NS]
    # Deal 1's 90 is a partial; deal 2's game cancels it.
    assert deals[0].partials_after == {Side.NS: 90, Side.EW: 0}
    assert deals[1].partials_after == {Side.NS: 0, Side.EW: 0}
    assert [d.next.vulnerable for d in deals] == [(Side.EW,), (Side.NS,), (Side.NS, Side.EW), ()]


def test_vulnerability_option_dealers_opponents() -> None:
    """RULES.md §5 (seed 003 default "the dealer side is vulnerable"): option 'non_dealer' makes
    the dealer's opponents vulnerable on deals 2 and 3."""
    opts = ChicagoOptions(vulnerability="non_dealer")
    assert vulnerable_sides(1, Seat.N, opts) == ()
    assert vulnerable_sides(2, Seat.E, opts) == (Side.NS,)
    assert vulnerable_sides(3, Seat.S, opts) == (Side.EW,)
    assert vulnerable_sides(4, Seat.W, opts) == (Side.NS, Side.EW)
    s = sheet_from_entries(["pass", "1C N =", "4H N ="], opts)
    # Deal 2, dealer E: N-S vulnerable, so their game is worth 500.
    assert {i.what: i.points for i in s.rounds[0].deals[2].items[Side.NS]}["game"] == 500


def test_passed_out_deal_is_redealt_and_not_counted() -> None:
    """003_8b94f64b123ab947.txt: "If a deal is passed out, it is not counted and the same player
    deals again"."""
    s = sheet_from_entries(["pass", "pass", "1NT N =", "pass", "2C E =", "2D S =", "pass"])
    deals = s.rounds[0].deals
    assert [(d.deal, d.dealer, d.passed_out) for d in deals] == [
        (1, Seat.N, True),
        (1, Seat.N, True),
        (1, Seat.N, False),
        (2, Seat.E, True),
        (2, Seat.E, False),
        (3, Seat.S, False),
        (4, Seat.W, True),
    ]
    assert s.rounds[0].counted == 3 and not s.rounds[0].complete
    assert all(d.total(side) == 0 for d in deals if d.passed_out for side in Side)
    nd = s.next_deal()
    assert (nd.round, nd.deal, nd.dealer, nd.vulnerable) == (1, 4, Seat.W, (Side.NS, Side.EW))
    assert isinstance(s.entries[0], PassedOut)


def test_partscores_carry_over_and_a_game_cancels_both_partials() -> None:
    """RULES.md §5 (seed 003): "Partscores carry over below the line toward game ... a game
    cancels both sides' partials"."""
    s = sheet_from_entries(["2S N =", "1NT E =", "2H S =", "1NT W ="])
    deals = s.rounds[0].deals
    assert deals[1].partials_after == {Side.NS: 60, Side.EW: 40}
    # 60 + 60 = 120 below the line: N-S make a game on deal 3 (dealer S: N-S vulnerable, 500).
    assert deals[2].game is Side.NS
    assert {i.what: i.points for i in deals[2].items[Side.NS]}["game"] == 500
    assert deals[2].partials_after == {Side.NS: 0, Side.EW: 0}
    # E-W's 40 was cancelled: their 1NT on deal 4 is 40 again, a partscore, which earns 100.
    assert deals[3].game is None
    assert {i.what: i.points for i in deals[3].items[Side.EW]} == {
        "trick score": 40,
        "partscore on the 4th deal": 100,
    }


def test_fourth_deal_partscore_completing_a_game_gets_game_not_100() -> None:
    """003_8b94f64b123ab947.txt bonuses: "Non-game bid made on 4th deal 100" — a partscore on
    deal 4 that completes a game with a carried partial scores the game instead."""
    s = sheet_from_entries(["2S N =", "pass", "1C E -1", "1C W -1", "2H N ="])
    last = s.rounds[0].deals[-1]
    assert last.game is Side.NS
    assert {i.what: i.points for i in last.items[Side.NS]} == {"trick score": 60, "game": 500}


def test_partials_do_not_survive_the_round() -> None:
    """RULES.md §5: a round is four deals; partscores carry over within it."""
    s = sheet_from_entries(["2S N =", "1C E -1", "1C S -1", "1C W -1", "2S N ="])
    second = s.rounds[1].deals[0]
    assert second.game is None and second.partials_after[Side.NS] == 60


def test_partscore_carryover_off_scores_each_deal_alone() -> None:
    """RULES.md §5: "Option partscore_carryover off = each deal scored alone (duplicate-style
    Chicago, 50 per partscore)"."""
    opts = ChicagoOptions(partscore_carryover=False)
    s = sheet_from_entries(["2S N =", "2S N =", "3NT S =", "2H N ="], opts)
    deals = s.rounds[0].deals
    assert [d.game for d in deals] == [None, None, Side.NS, None]
    assert {i.what: i.points for i in deals[1].items[Side.NS]} == {
        "trick score": 60,
        "partscore": 50,
    }
    assert {i.what: i.points for i in deals[3].items[Side.NS]} == {
        "trick score": 60,
        "partscore": 50,
    }
    assert all(d.partials_after == {Side.NS: 0, Side.EW: 0} for d in deals)


def test_defenders_score_undertricks_at_declarers_vulnerability() -> None:
    """003_8b94f64b123ab947.txt "Sets": the defenders score the set, by the declarer's
    vulnerability (deal 2, dealer E: E-W vulnerable)."""
    s = sheet_from_entries(["pass", "1NT N =", "4HX E -2"])
    d = s.rounds[0].deals[-1]
    assert d.total(Side.NS) == 500 and d.total(Side.EW) == 0
    assert d.above(Side.NS) == 500 and d.below(Side.NS) == 0


@pytest.mark.parametrize(
    ("difference", "half", "rounded"),
    [
        (580, "up", 600),
        (549, "up", 500),
        (551, "down", 600),
        (550, "up", 600),
        (-550, "up", -600),
        (550, "down", 500),
        (-550, "down", -500),
        (550, "even", 600),
        (650, "even", 600),
        (-650, "even", -600),
        (50, "down", 0),
        (50, "up", 100),
        (0, "up", 0),
        (-20, "up", 0),
    ],
)
def test_round_to_nearest_hundred(difference: int, half: str, rounded: int) -> None:
    """003_8b94f64b123ab947.txt: "customarily rounded off to the nearest hundred"; exact 50 per
    option round_half (not sourced; RULES.md §5)."""
    assert round_hundred(difference, half) == rounded


def test_round_half_option_in_a_round() -> None:
    """RULES.md §5: "Exact 50: not sourced — option round_half (up default)"."""
    entries = ["1NT N -1", "1NT E -1", "1NT S -1", "1NT W -1"]
    # E-W score 50 (deal 1, nobody vul) + 100 (deal 3, N-S vul); N-S 100 + 100: +50 net.
    s = sheet_from_entries(entries)
    assert s.rounds[0].totals == {Side.NS: 200, Side.EW: 150}
    assert s.rounds[0].difference == 50
    assert s.rounds[0].rounded == 100 and s.rounds[0].display == "+1"
    down = sheet_from_entries(entries, {"round_half": "down"})
    assert down.rounds[0].rounded == 0 and down.rounds[0].display == "0"
    assert down.rounds[0].winner is None


def test_session_of_several_rounds() -> None:
    """RULES.md §5: a running session of several rounds adds the rounded results."""
    lose = ["1C N -1", "4S E =", "1C S -1", "4S W ="]
    s = sheet_from_entries(SEED_ROUND + lose + SEED_ROUND + ["3NT N ="])
    assert [r.number for r in s.rounds] == [1, 2, 3, 4]
    assert [r.complete for r in s.rounds] == [True, True, True, False]
    # Round 2: E-W 4S NV 420 (deal 2, E-W vul: 620), N-S down 1 NV 50, vul 100 ...
    assert s.rounds[1].totals == {Side.NS: 0, Side.EW: 50 + 620 + 100 + 620}
    assert s.rounds[1].display == "-14"
    assert s.score(Side.NS) == 6 - 14 + 6
    assert s.to_json()["session"]["display"] == "-2"
    assert s.rounds[3].deals[0].dealer is Seat.N


def test_first_dealer_option() -> None:
    """003_8b94f64b123ab947.txt: "one by each player in turn" starting from the first dealer."""
    s = sheet_from_entries(["1C N =", "1C N ="], {"first_dealer": "E"})
    assert [d.dealer for d in s.rounds[0].deals] == [Seat.E, Seat.S]
    assert s.rounds[0].deals[1].vulnerable == (Side.NS,)


def test_honors_option_off_rejects_honors() -> None:
    """RULES.md §5: honors are scored with option honors on (the default, as the seed lists
    them); off, entering them is an error."""
    with pytest.raises(EntryError, match="honors are not scored"):
        sheet_from_entries(["4S N = honors4"], {"honors": False})
    s = sheet_from_entries(["4S N = honors4:def"])
    assert s.rounds[0].deals[0].total(Side.EW) == 100


def test_undo_and_errors_record_nothing() -> None:
    """Bad input gets a clear message and nothing is recorded; undo takes back the last entry."""
    s = sheet_from_entries(SEED_ROUND[:2])
    with pytest.raises(EntryError, match="level 8"):
        s.add("8NT S =")
    assert len(s.entries) == 2
    assert s.undo().entries == s.entries[:1]
    with pytest.raises(EntryError, match="nothing to undo"):
        Session().undo()
    with pytest.raises(EntryError) as info:
        sheet_from_entries(["3NT S =", "3NT S =", "3X S ="])
    assert info.value.index == 2
    assert str(info.value).startswith("entry 3 ('3X S ='): unknown strain 'X'")


def test_options_validate_and_round_trip() -> None:
    """Options are a Rules object: validated, and JSON round-trips."""
    opts = ChicagoOptions.from_json({"round_half": "even", "partscore_carryover": False})
    assert ChicagoOptions.from_json(opts.to_json()) == opts
    with pytest.raises(RulesError, match="round_half: 'sideways' is not allowed"):
        ChicagoOptions.from_json({"round_half": "sideways"})
    with pytest.raises(RulesError, match="unknown option 'deals'"):
        ChicagoOptions.from_json({"deals": 6})
    names = {row["name"] for row in ChicagoOptions.describe()}
    assert names == {"partscore_carryover", "vulnerability", "round_half", "honors", "first_dealer"}


def test_sheet_json_round_trips_and_is_plain_json() -> None:
    """The sheet serialises to JSON (documented in docs/chicago.md) and rebuilds from it."""
    s = sheet_from_entries([*SEED_ROUND, "pass", "4HX E -2 honors4"], {"round_half": "down"})
    data = json.loads(json.dumps(s.to_json()))
    assert Session.from_json(data) == s
    deal = data["rounds"][1]["deals"][1]
    assert deal["contract"] == {
        "level": 4,
        "strain": "H",
        "symbol": "♥",
        "doubling": "X",
        "declarer": "E",
        "text": "4♥X by E",
    }
    assert deal["result"] == {"tricks": 8, "text": "-2", "made": False}
    assert deal["honors"] == {"kind": "honors4", "side": "EW"}
    assert deal["NS"]["above"] == 300 and deal["EW"]["above"] == 100
    assert data["rounds"][1]["deals"][0]["passed_out"] is True
    assert data["next"] == {
        "round": 2,
        "deal": 2,
        "dealer": "E",
        "vulnerable": "EW",
        "vulnerable_sides": {"NS": False, "EW": True},
    }
    assert data["options"]["round_half"] == "down"
