"""Rules objects round-trip through JSON with validation; actions through the codec."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from parlour.core.codec import card_field, cards_field, from_json, to_json
from parlour.core.errors import RulesError
from parlour.core.rules import Rules, option


@dataclass(frozen=True)
class ToyRules(Rules):
    players: int = option(4, "players", min=2, max=6)
    mode: str = option("up", "direction", choices=("up", "down"))
    limit: int | None = option(None, "cap, None = no cap", type=int, min=1)
    flag: bool = option(False, "a switch")


def test_round_trip() -> None:
    r = ToyRules.from_json({"players": 3, "mode": "down", "limit": 5, "flag": True})
    assert ToyRules.from_json(r.to_json()) == r


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"players": 9}, "players: 9 is above the maximum 6"),
        ({"players": "four"}, "players: must be a whole number"),
        ({"mode": "left"}, "mode: 'left' is not allowed; allowed values: 'up', 'down'"),
        ({"flag": 1}, "flag: must be true or false"),
        ({"colour": "red"}, "unknown option 'colour'"),
        ({"limit": 0}, "limit: 0 is below the minimum 1"),
    ],
)
def test_bad_values_name_the_field(data: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        ToyRules.from_json(data)


@dataclass(frozen=True)
class Meld:
    cards: tuple[int, ...] = cards_field()
    target: int = -1


@dataclass(frozen=True)
class Discard:
    card: int = card_field()


def test_action_codec() -> None:
    types = {"Meld": Meld, "Discard": Discard}
    a = Meld((0, 1, 52), 2)
    assert to_json(a) == {"type": "Meld", "cards": ["2♣", "3♣", "Jk"], "target": 2}
    assert from_json(to_json(a), types) == a
    with pytest.raises(ValueError, match="unknown action type"):
        from_json({"type": "Nope"}, types)
    with pytest.raises(ValueError, match="Discard needs field 'card'"):
        from_json({"type": "Discard"}, types)
    with pytest.raises(ValueError, match=r"Meld\.target must be an integer"):
        from_json({"type": "Meld", "cards": [], "target": "x"}, types)
    with pytest.raises(ValueError, match="not a card"):
        from_json({"type": "Discard", "card": "ZZ"}, types)
