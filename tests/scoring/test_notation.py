"""Contract, result and entry notation: parsing, round trips and clear errors (seed
``003_8b94f64b123ab947.txt`` names contracts like "3 NT" and results like "win 10 tricks")."""

from __future__ import annotations

import itertools

import pytest

from parlour.scoring.contract import (
    Contract,
    DealEntry,
    Doubling,
    EntryError,
    HonorKind,
    Honors,
    PassedOut,
    Seat,
    Strain,
    parse_entry,
    parse_result,
    result_text,
)


@pytest.mark.parametrize(
    ("text", "level", "strain", "doubling", "declarer"),
    [
        ("3NT", 3, Strain.NOTRUMP, Doubling.UNDOUBLED, None),
        ("3nt", 3, Strain.NOTRUMP, Doubling.UNDOUBLED, None),
        ("3N", 3, Strain.NOTRUMP, Doubling.UNDOUBLED, None),
        ("3 NT", 3, Strain.NOTRUMP, Doubling.UNDOUBLED, None),
        ("4♠X", 4, Strain.SPADES, Doubling.DOUBLED, None),
        ("4♠️X", 4, Strain.SPADES, Doubling.DOUBLED, None),
        ("4SXX", 4, Strain.SPADES, Doubling.REDOUBLED, None),
        ("4sxx", 4, Strain.SPADES, Doubling.REDOUBLED, None),
        ("4S XX", 4, Strain.SPADES, Doubling.REDOUBLED, None),
        ("6H by S", 6, Strain.HEARTS, Doubling.UNDOUBLED, Seat.S),
        ("6h by s", 6, Strain.HEARTS, Doubling.UNDOUBLED, Seat.S),
        ("6♥ south", 6, Strain.HEARTS, Doubling.UNDOUBLED, Seat.S),
        ("1C W", 1, Strain.CLUBS, Doubling.UNDOUBLED, Seat.W),
        ("2♦X E", 2, Strain.DIAMONDS, Doubling.DOUBLED, Seat.E),
        ("7♣XX by N", 7, Strain.CLUBS, Doubling.REDOUBLED, Seat.N),
        ("5♢", 5, Strain.DIAMONDS, Doubling.UNDOUBLED, None),
        ("7NTXX", 7, Strain.NOTRUMP, Doubling.REDOUBLED, None),
    ],
)
def test_parse_contract(
    text: str, level: int, strain: Strain, doubling: Doubling, declarer: Seat | None
) -> None:
    """The usual notations: 3NT, 4♠X, 4SXX, 6H by S, lowercase, N for notrump."""
    assert Contract.parse(text) == Contract(level, strain, doubling, declarer)


def test_contract_text_round_trips_for_every_contract() -> None:
    """Every contract × declarer prints and parses back, with symbols and in ASCII."""
    for level, strain, dbl, decl in itertools.product(range(1, 8), Strain, Doubling, [None, *Seat]):
        c = Contract(level, strain, dbl, decl)
        assert Contract.parse(str(c)) == c
        assert Contract.parse(c.ascii()) == c
        assert Contract.parse(str(c).lower()) == c


def test_entry_round_trips_for_every_result_and_honors() -> None:
    """Every result (= / +n / -n) and honors kind prints and parses back."""
    count = 0
    for level, strain, dbl in itertools.product(range(1, 8), Strain, Doubling):
        c = Contract(level, strain, dbl, Seat.E)
        kinds = (
            [HonorKind.FOUR_ACES]
            if strain is Strain.NOTRUMP
            else [
                HonorKind.FOUR_TRUMPS,
                HonorKind.FIVE_TRUMPS,
            ]
        )
        honor_options = [None] + [Honors(k, d) for k in kinds for d in (False, True)]
        for tricks in range(14):
            for honors in honor_options:
                entry = DealEntry(c, tricks, honors)
                assert parse_entry(str(entry)) == entry
                assert parse_entry(entry.ascii()) == entry
                count += 1
    assert count > 5000


@pytest.mark.parametrize(
    ("text", "tricks"),
    [("=", 9), ("+1", 10), ("+4", 13), ("-2", 7), ("−3", 6), ("-9", 0), ("11", 11), ("0", 0)],
)
def test_results(text: str, tricks: int) -> None:
    """003_8b94f64b123ab947.txt: "They bid 3 NT and win nine tricks" — results as tricks or
    relative to the contract."""
    c = Contract.parse("3NT")
    assert parse_result(text, c) == tricks
    assert result_text(c, tricks) in {"=", f"{tricks - 9:+d}"}


def test_entry_forms() -> None:
    """Score-pad lines: contract, declarer, result, honors; or a pass."""
    assert parse_entry("3NT S =") == DealEntry(Contract(3, Strain.NOTRUMP, declarer=Seat.S), 9)
    assert parse_entry("4HX E -2 honors4") == DealEntry(
        Contract(4, Strain.HEARTS, Doubling.DOUBLED, Seat.E), 8, Honors(HonorKind.FOUR_TRUMPS)
    )
    assert parse_entry("6H by S 12") == DealEntry(Contract(6, Strain.HEARTS, declarer=Seat.S), 12)
    assert parse_entry("4S N = honours5:def").honors == Honors(HonorKind.FIVE_TRUMPS, True)
    assert parse_entry("4S N = honors4:E").honors == Honors(HonorKind.FOUR_TRUMPS, True)
    assert parse_entry("4S N = honors4:S").honors == Honors(HonorKind.FOUR_TRUMPS, False)
    assert parse_entry("3NT W = aces4").honors == Honors(HonorKind.FOUR_ACES)
    for text in ("pass", "PASS", "passed out", "All Pass"):
        assert parse_entry(text) == PassedOut()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("8NT S =", "level 8 in '8NT': a contract is 1 to 7"),
        ("0H S =", "level 0"),
        ("3Z S =", "unknown strain 'Z' in '3Z'"),
        ("3 S =", "missing declarer"),
        ("3NT =", "missing declarer after '3NT'"),
        ("3NT Q =", "bad declarer 'Q'"),
        ("3NT by", "'3NT by' needs a seat"),
        ("3NTXXX S =", "bad doubling 'XXX'"),
        ("3NT S", "the result is missing"),
        ("3NT S +5", "3NT +5 would be 14 tricks: a deal has only 13"),
        ("7C N +1", "would be 14 tricks"),
        ("1C N -8", "the most it can go down is -7"),
        ("1C N 14", "14 tricks: a deal has only 13"),
        ("1C N -0", "write '=' for a contract made exactly"),
        ("1C N down", "bad result 'down'"),
        ("3NT S = honors4", "honors4 at notrump"),
        ("4HX E -2 aces4", "four aces count only at notrump"),
        ("4H E = honors4:Z", "bad honors holder 'Z'"),
        ("4H E = bonus", "after the result only honors may follow"),
        ("4H E = honors4 extra", "unexpected 'extra'"),
        ("", "empty entry"),
        ("hello", "bad contract 'hello'"),
    ],
)
def test_bad_input_is_named(text: str, message: str) -> None:
    """Impossible tricks, level 8, unknown strain, bad declarer: a clear message naming it."""
    with pytest.raises(EntryError, match=message.replace("+", r"\+")):
        parse_entry(text)


def test_contract_object_validates_level() -> None:
    """A contract is 1 to 7 odd tricks, also when built directly."""
    with pytest.raises(EntryError, match="1 to 7"):
        Contract(8, Strain.CLUBS)
    with pytest.raises(EntryError, match="no declarer"):
        DealEntry(Contract(1, Strain.CLUBS), 7)
    with pytest.raises(EntryError, match="0 to 13"):
        DealEntry(Contract(1, Strain.CLUBS, declarer=Seat.N), 14)
