"""``staging.stage_ok`` is the plain statement of which card may join a meld being built; the
fast paths the legal-move generator uses — ``legal._starters`` (the first card of a new meld)
and ``staging.continuations`` (the second and third) — are unrolled copies of it.  Hypothesis
draws hands and meld prefixes and checks that both give exactly the cards ``stage_ok`` allows."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.games.samba import actions as A
from parlour.games.samba.legal import _starters, hand_scan
from parlour.games.samba.parts.staging import continuations, stage_ok
from parlour.games.samba.rules import SambaRules
from parlour.games.samba.state import new_match

KINDS = range(53)

#: hands of 1–16 cards over the 53 kinds (at most three of a kind: three decks)
hands = st.lists(st.integers(min_value=0, max_value=52), min_size=1, max_size=16).filter(
    lambda cards: all(cards.count(c) <= (6 if c == 52 else 3) for c in set(cards))
)


def _state(wild_melds: bool) -> Any:
    # a real state (the compiled engine checks the type): staging reads only its rules
    return new_match(SambaRules(wild_melds=wild_melds), 1)


def _counts(cards: list[int]) -> list[int]:
    h = [0] * 53
    for c in cards:
        h[c] += 1
    return h


def _allowed(s: Any, pending: tuple[int, ...], h: list[int]) -> list[int]:
    return [k for k in KINDS if h[k] and stage_ok(s, pending, k, h)]


@settings(max_examples=200, deadline=None)
@given(cards=hands, wild_melds=st.booleans())
def test_starters_agree_with_stage_ok(cards: list[int], wild_melds: bool) -> None:
    s = _state(wild_melds)
    h = _counts(cards)
    held, present, counts, nw = hand_scan(h)
    assert held == [k for k in KINDS if h[k]]
    assert nw == sum(h[k] for k in (0, 13, 26, 39, 52))
    out: list[Any] = []
    _starters(s, held, present, counts, nw, out)
    assert sorted(a.card for a in out) == _allowed(s, (), h)
    assert all(isinstance(a, A.Stage) for a in out)


@settings(max_examples=300, deadline=None)
@given(cards=hands, wild_melds=st.booleans(), picks=st.lists(st.integers(0, 99), max_size=2))
def test_continuations_agree_with_stage_ok(
    cards: list[int], wild_melds: bool, picks: list[int]
) -> None:
    """Build a valid prefix of one or two cards the way a player would (each card allowed by
    ``stage_ok``), then compare the cards that may come next."""
    s = _state(wild_melds)
    h = _counts(cards)
    pending: tuple[int, ...] = ()
    for pick in [*picks, 0][: max(1, len(picks))]:
        allowed = _allowed(s, pending, h)
        if not allowed:
            break
        card = allowed[pick % len(allowed)]
        h[card] -= 1
        pending = (*pending, card)
        if len(pending) == 2:
            break
    if not pending or len(pending) > 2:
        return
    got = continuations(s, pending, h)
    assert got == _allowed(s, pending, h)  # in kind order too (the legal actions' order)
