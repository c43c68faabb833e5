"""Cards parse and print the way people write them, and round-trip."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.core.cards import (
    JOKER,
    NUM_KINDS,
    card_str,
    contains,
    counts,
    expand,
    make_card,
    parse_card,
    parse_cards,
    rank_of,
    shoe,
    suit_of,
)


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("10♥", 10, 2),
        ("TH", 10, 2),
        ("th", 10, 2),
        ("Q♠", 12, 3),
        ("QS", 12, 3),
        ("9d", 9, 1),
        ("A♣", 14, 0),
        ("2c", 2, 0),
        ("K♦", 13, 1),
    ],
)
def test_parse_written_forms(text: str, rank: int, suit: int) -> None:
    card = parse_card(text)
    assert (rank_of(card), suit_of(card)) == (rank, suit)


@pytest.mark.parametrize("text", ["Jk", "JK", "joker", "jk"])
def test_joker_forms(text: str) -> None:
    assert parse_card(text) == JOKER


@pytest.mark.parametrize("text", ["", "1H", "11S", "QX", "Z", "10", "♥"])
def test_bad_cards_say_what_is_wrong(text: str) -> None:
    with pytest.raises(ValueError, match="not a"):
        parse_card(text)


@given(st.integers(min_value=0, max_value=NUM_KINDS - 1), st.booleans())
def test_round_trip_every_kind(card: int, ascii: bool) -> None:
    assert parse_card(card_str(card, ascii=ascii)) == card


def test_print_forms() -> None:
    assert card_str(make_card(10, 2)) == "10♥"
    assert card_str(make_card(10, 2), ascii=True) == "TH"
    assert card_str(make_card(12, 3)) == "Q♠"
    assert parse_cards("9d, 9h Jk") == [make_card(9, 1), make_card(9, 2), JOKER]


def test_shoe_of_samba_is_162_cards() -> None:
    cards = shoe(3, 6)
    assert len(cards) == 162
    c = counts(cards)
    assert c[JOKER] == 6 and all(c[k] == 3 for k in range(52))
    assert sorted(expand(c)) == sorted(cards)
    assert contains(c, [JOKER] * 6) and not contains(c, [JOKER] * 7)
