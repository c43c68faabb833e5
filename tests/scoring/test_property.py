"""The deal score against an independent formula, for every contract, result, vulnerability and
doubling (seed ``003_8b94f64b123ab947.txt``, tables "Trick Score", "Overtricks", "Bonuses",
"Sets").

The reference below is written differently on purpose: trick by trick, with the undertrick table
as increments, and the bonuses as arithmetic on the multiplier instead of lookups."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.scoring.contract import Contract, Doubling, HonorKind, Honors, Strain
from parlour.scoring.tables import score_deal

STRAINS = list(Strain)
DOUBLINGS = list(Doubling)


def reference(
    level: int,
    strain: str,
    mult: int,
    tricks: int,
    vul: bool,
    *,
    partial: int = 0,
    fourth: bool = False,
    carry: bool = True,
    honors: tuple[str, bool] | None = None,
) -> tuple[int, int, int]:
    """(declarer's points, defenders' points, declarer's points below the line)."""
    dec = de = below = 0
    need = 6 + level
    if tricks >= need:
        odd_tricks = [20 if strain in "CD" else 30] * level
        if strain == "NT":
            odd_tricks[0] = 40
        below = sum(odd_tricks) * mult
        dec += below
        over = tricks - need
        if mult == 1:
            dec += over * (20 if strain in "CD" else 30)
        else:
            dec += over * 50 * mult * (2 if vul else 1)
        if below + (partial if carry else 0) >= 100:
            dec += 500 if vul else 300
        elif not carry:
            dec += 50
        elif fourth:
            dec += 100
        if level == 6:
            dec += 750 if vul else 500
        if level == 7:
            dec += 1500 if vul else 1000
        if mult > 1:
            dec += 25 * mult
    else:
        down = need - tricks
        if mult == 1:
            de = down * (100 if vul else 50)
        else:
            steps = [200, 300, 300] if vul else [100, 200, 200]
            doubled = sum(steps[k] if k < 3 else 300 for k in range(down))
            de = doubled * mult // 2
    if honors is not None:
        kind, by_defenders = honors
        pts = 100 if kind == "honors4" else 150
        if by_defenders:
            de += pts
        else:
            dec += pts
    return dec, de, below


def test_every_contract_result_vulnerability_and_doubling() -> None:
    """003_8b94f64b123ab947.txt: all 7 levels × 5 strains × 3 doublings × 0–13 tricks × NV/V."""
    checked = 0
    for level, strain, dbl, tricks, vul in itertools.product(
        range(1, 8), STRAINS, DOUBLINGS, range(14), (False, True)
    ):
        c = Contract(level, strain, dbl)
        got = score_deal(c, tricks, vulnerable=vul)
        want = reference(level, strain.value, int(dbl), tricks, vul)
        assert (got.declarer_total, got.defenders_total, got.below) == want, (c, tricks, vul)
        checked += 1
    assert checked == 7 * 5 * 3 * 14 * 2


@st.composite
def deals(draw: st.DrawFn) -> tuple[Contract, int, bool, int, bool, bool, Honors | None]:
    level = draw(st.integers(1, 7))
    strain = draw(st.sampled_from(STRAINS))
    c = Contract(level, strain, draw(st.sampled_from(DOUBLINGS)))
    tricks = draw(st.integers(0, 13))
    kinds = (
        [HonorKind.FOUR_ACES]
        if strain is Strain.NOTRUMP
        else [
            HonorKind.FOUR_TRUMPS,
            HonorKind.FIVE_TRUMPS,
        ]
    )
    honors = draw(st.none() | st.builds(Honors, st.sampled_from(kinds), st.booleans()))
    partial = draw(st.integers(0, 99))
    return c, tricks, draw(st.booleans()), partial, draw(st.booleans()), draw(st.booleans()), honors


@settings(max_examples=400, deadline=None, derandomize=True)
@given(deals())
def test_score_matches_reference_with_partials_honors_and_options(
    deal: tuple[Contract, int, bool, int, bool, bool, Honors | None],
) -> None:
    """003_8b94f64b123ab947.txt (RULES.md §5): partscores carry over toward game, the 4th-deal
    partscore bonus, honors to the side holding them, and the stand-alone (no carry-over) mode."""
    c, tricks, vul, partial, fourth, carry, honors = deal
    got = score_deal(
        c,
        tricks,
        vulnerable=vul,
        honors=honors,
        partial_before=partial,
        fourth_deal=fourth,
        carryover=carry,
    )
    want = reference(
        c.level,
        c.strain.value,
        int(c.doubling),
        tricks,
        vul,
        partial=partial,
        fourth=fourth,
        carry=carry,
        honors=None if honors is None else (honors.kind.value, honors.defenders),
    )
    assert (got.declarer_total, got.defenders_total, got.below) == want
