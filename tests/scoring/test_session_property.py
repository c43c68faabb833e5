"""Sessions of random deals keep the Chicago structure (seed ``003_8b94f64b123ab947.txt``:
"A round consists of four deals, one by each player in turn. If a deal is passed out, it is not
counted and the same player deals again"), and the module doctests run."""

from __future__ import annotations

import doctest
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parlour.scoring.chicago
import parlour.scoring.contract
import parlour.scoring.tables
from parlour.scoring.chicago import Seat, Session, Side, sheet_from_entries

entry_text = st.one_of(
    st.just("pass"),
    st.builds(
        lambda level, strain, dbl, seat, rel: f"{level}{strain}{dbl} {seat} {rel}",
        st.integers(1, 7),
        st.sampled_from(["C", "D", "H", "S", "NT"]),
        st.sampled_from(["", "X", "XX"]),
        st.sampled_from("NESW"),
        st.sampled_from(["=", "+1", "-1", "-3"]),
    ),
)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.lists(entry_text, max_size=14), st.sampled_from(["dealer", "non_dealer"]))
def test_rounds_dealers_vulnerability_and_partials(entries: list[str], vul: str) -> None:
    """Dealer rotation, vulnerability by deal, passes not counted, partials below 100."""
    entries = [e for e in entries if not e.endswith("+1") or not e.startswith("7")]
    s = sheet_from_entries(entries, {"vulnerability": vul})
    for r in s.rounds:
        counted = [d for d in r.deals if not d.passed_out]
        assert len(counted) == 4 if r.complete else len(counted) < 4
        assert [d.dealer for d in counted] == [Seat.N, Seat.E, Seat.S, Seat.W][: len(counted)]
        for d in r.deals:
            dealer_side = d.dealer.side if vul == "dealer" else d.dealer.side.other
            expected = {1: (), 2: (dealer_side,), 3: (dealer_side,), 4: (Side.NS, Side.EW)}
            assert d.vulnerable == expected[d.deal]
            assert all(0 <= p < 100 for p in d.partials_after.values())
        assert r.difference == r.totals[Side.NS] - r.totals[Side.EW]
        assert abs(r.rounded - r.difference) <= 50 and r.rounded % 100 == 0
    assert s.score(Side.NS) == sum(r.rounded for r in s.rounds if r.complete) // 100
    assert Session.from_json(json.loads(json.dumps(s.to_json()))) == s


@pytest.mark.parametrize(
    "module", [parlour.scoring.contract, parlour.scoring.tables, parlour.scoring.chicago]
)
def test_doctests(module: object) -> None:
    """The examples in the module docstrings run."""
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0
