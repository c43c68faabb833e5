"""Hostile action messages (issue 14 item 10): whatever JSON object a client sends as an action,
``game.action_from_json`` either decodes it or raises ``ParlourError``/``ValueError`` (never a
``TypeError``, ``KeyError``, ``IndexError`` … from deep inside), and ``game.explain`` on a decoded
action returns a reason or ``None`` without raising, on positions from real random play of every
game and preset.  An action ``explain`` calls legal is in ``legal_actions`` or applies cleanly.

The server (``parlour/server/table.py``) decodes a client's action with ``action_from_json`` and
then asks ``explain``; these tests hold the engines to that contract without a server."""

from __future__ import annotations

import dataclasses
import functools
import json
import random
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour import games
from parlour.core.cards import card_str
from parlour.core.errors import ParlourError
from parlour.core.game import Game

GAMES = games.names()
AnyGame = Game[Any, Any, Any, Any]


class Position:
    """A state from random play with its legal actions."""

    def __init__(self, game: AnyGame, state: Any) -> None:
        self.game = game
        self.state = state
        self.legal = list(game.legal_actions(state)) if game.to_act(state) is not None else []


@functools.cache
def positions(name: str) -> tuple[Position, ...]:
    """Every 3rd position (and the last, finished one) of two random matches of every preset."""
    entry = games.entry(name)
    out: list[Position] = []
    for preset in entry.presets:
        variant = games.get(name, preset)
        rules = variant.rules.replace(**entry.random_play_options)
        game = variant.game
        for seed in (1, 2):
            rng = random.Random(seed)
            state = game.new_game(rules, seed)
            step = 0
            while game.to_act(state) is not None:
                pos = Position(game, state)
                if step % 3 == 0:
                    out.append(pos)
                state, _ = game.apply_unchecked(state, pos.legal[rng.randrange(len(pos.legal))])
                step += 1
            out.append(Position(game, state))
    return tuple(out)


@functools.cache
def real_actions(name: str) -> tuple[dict[str, Any], ...]:
    """The JSON of every distinct legal action met in :func:`positions`."""
    seen: dict[str, dict[str, Any]] = {}
    for pos in positions(name):
        for action in pos.legal:
            encoded = pos.game.action_to_json(action)
            seen.setdefault(json.dumps(encoded, sort_keys=True), encoded)
    return tuple(seen[k] for k in sorted(seen))


def action_type_names(name: str) -> list[str]:
    return sorted(games.entry(name).game.action_types)


def check_hostile(pos: Position, data: Any) -> Any:
    """The contract for one message on one position; returns the decoded action or ``None``."""
    game = pos.game
    try:
        action = game.action_from_json(data)
    except (ParlourError, ValueError) as exc:
        message = str(exc)
        assert message, f"an empty error message for {data!r}"
        message.encode("utf-8")  # the message goes back to the client as JSON text
        return None
    text = str(action)  # the server names the action in its replies and logs
    text.encode("utf-8")
    reason = game.explain(pos.state, action)
    if reason is not None:
        assert isinstance(reason, str) and reason, f"explain gave {reason!r} for {action!r}"
        reason.encode("utf-8")
        return action
    assert game.to_act(pos.state) is not None, f"explain calls {action!r} legal after the end"
    if action not in pos.legal:
        new_state, events = game.apply(pos.state, action)  # must not raise
        assert new_state is not None and isinstance(events, list)
    again = game.action_from_json(json.loads(json.dumps(game.action_to_json(action))))
    assert again == action
    return action


# --- junk values -------------------------------------------------------------------------------

SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
CARDISH = st.sampled_from(
    ["10♥", "TH", "th", "Jk", "JK", "joker", "🃏", "*", "A♠", "2C", "1♥", "11H", "0S", "ZZ", "♥"]
)
ODD_STRINGS = st.sampled_from(
    ["", " ", "\udfff", "\ud800", "a\udfffb", "x" * 10_000, "\x00", "None", "null", "-1", "1e309"]
)
HUGE_INTS = st.sampled_from(
    [-1, -2, -53, 52, 53, 99, 2**31 - 1, 2**31, 2**63, -(2**63), 10**100, -(10**100), 10**4000]
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-5, max_value=60),
    st.integers(),
    HUGE_INTS,
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 1.0, 1.5, float("nan"), float("inf"), -float("inf"), 1e300]),
    st.text(max_size=12),
    st.text(SURROGATES, min_size=1, max_size=3),
    CARDISH,
    ODD_STRINGS,
)
JUNK = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.text(max_size=6), inner, max_size=3),
    ),
    max_leaves=10,
)


def card_lists() -> st.SearchStrategy[list[Any]]:
    return st.lists(st.one_of(CARDISH, SCALARS), max_size=6)


@st.composite
def mutated(draw: st.DrawFn, name: str) -> dict[str, Any]:
    """A real action of ``name`` with one to three fields changed, removed or added."""
    data: dict[str, Any] = dict(draw(st.sampled_from(real_actions(name))))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        keys = sorted(data)
        op = draw(st.sampled_from(["replace", "delete", "add", "retype", "wrap", "cards"]))
        if not keys:
            op = "add"
        if op == "replace":
            data[draw(st.sampled_from(keys))] = draw(JUNK)
        elif op == "delete":
            del data[draw(st.sampled_from(keys))]
        elif op == "add":
            data[draw(st.text(max_size=8) | st.sampled_from(["card", "cards", "meld", "seat"]))] = (
                draw(JUNK)
            )
        elif op == "retype":
            data["type"] = draw(st.sampled_from(action_type_names(name)) | SCALARS)
        elif op == "wrap":
            key = draw(st.sampled_from(keys))
            data[key] = draw(st.sampled_from([[data[key]], {"v": data[key]}, [[data[key]]]]))
        elif op == "cards":
            data[draw(st.sampled_from(keys))] = draw(card_lists() | CARDISH)
    return data


@st.composite
def junk_objects(draw: st.DrawFn, name: str) -> dict[str, Any]:
    """An object of a known (or junk) type with junk fields."""
    data: dict[str, Any] = draw(st.dictionaries(st.text(max_size=8), JUNK, max_size=4))
    data["type"] = draw(st.sampled_from(action_type_names(name)) | JUNK)
    for key in ("card", "cards", "meld", "other", "pair", "count", "rank", "seat", "yes"):
        if draw(st.booleans()):
            data[key] = draw(JUNK | card_lists() | HUGE_INTS)
    return data


ALL_CARDS = [card_str(k) for k in range(53)]
ODD_INTS = st.one_of(
    st.integers(min_value=-3, max_value=20),
    st.integers(min_value=-(10**9), max_value=10**9),
    st.sampled_from([-(10**9), 10**9, 52, 53, 14, 15, 0, -1]),
)


def well_typed_value(f: dataclasses.Field[Any]) -> st.SearchStrategy[Any]:
    """A value of the field's type that decodes, chosen without regard to the position."""
    kind = f.metadata.get("kind")
    if kind == "card":
        return st.sampled_from(ALL_CARDS)
    if kind == "cards":
        return st.lists(st.sampled_from(ALL_CARDS), max_size=8)
    ann = f.type if isinstance(f.type, str) else f.type.__name__
    if ann == "bool":
        return st.booleans()
    assert ann in ("int", "Seat"), f"no strategy for {f.name}: {ann}"
    return ODD_INTS


@st.composite
def well_typed(draw: st.DrawFn, name: str) -> dict[str, Any]:
    """An action of a real type whose fields are of the right type but chosen at random (cards
    not held, melds that do not exist, seats and ranks out of range, duplicate cards …): these
    decode, so they reach ``explain``."""
    types = games.entry(name).game.action_types
    type_name = draw(st.sampled_from(sorted(types)))
    data: dict[str, Any] = {"type": type_name}
    for f in dataclasses.fields(types[type_name]):
        data[f.name] = draw(well_typed_value(f))
    return data


FUZZ = settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(data=st.data())
def test_mutated_real_actions(name: str, data: st.DataObject) -> None:
    """issue 14 item 10: real action JSONs with fields replaced by junk (null, lists, objects,
    huge and negative ints, NaN, lone surrogates, long strings), removed, added, re-typed or
    wrapped in lists decode or fail with ParlourError/ValueError; explain never raises."""
    pos = data.draw(st.sampled_from(positions(name)))
    check_hostile(pos, data.draw(mutated(name)))


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(data=st.data())
def test_junk_objects(name: str, data: st.DataObject) -> None:
    """issue 14 item 10: objects built from junk (known and unknown types, unknown and missing
    keys, nested structures, non-string types) decode or fail cleanly; explain never raises."""
    pos = data.draw(st.sampled_from(positions(name)))
    check_hostile(pos, data.draw(junk_objects(name)))


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(data=st.data())
def test_well_typed_odd_actions(name: str, data: st.DataObject) -> None:
    """issue 14 item 10: actions that decode (right types) but make no sense in the position —
    cards not held, duplicate cards, melds that do not exist, negative or huge indexes, seats and
    ranks out of range — get a reason from explain (never an exception); one explain calls legal
    is legal."""
    pos = data.draw(st.sampled_from(positions(name)))
    check_hostile(pos, data.draw(well_typed(name)))


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=60, deadline=None)
@given(data=st.data(), value=JUNK)
def test_non_objects(name: str, data: st.DataObject, value: Any) -> None:
    """issue 14 item 10: a message whose action is not a JSON object (a list, a string, a number,
    null …) is refused with ParlourError/ValueError."""
    pos = data.draw(st.sampled_from(positions(name)))
    if isinstance(value, Mapping):
        value = [value]
    with pytest.raises((ParlourError, ValueError)):
        pos.game.action_from_json(value)


def test_handfoot_discard_card_null() -> None:
    """issue 14 item 10: Discard card null in Hand and Foot (it crashed the server's explain)."""
    for pos in positions("handfoot"):
        assert check_hostile(pos, {"type": "Discard", "card": None}) is None


HOSTILE: list[tuple[str, Any]] = [
    ("card null", {"type": "Discard", "card": None}),
    ("card list", {"type": "Discard", "card": ["10♥"]}),
    ("card object", {"type": "Discard", "card": {"card": "10♥"}}),
    ("card int", {"type": "Discard", "card": 34}),
    ("card huge int", {"type": "Discard", "card": 10**100}),
    ("card surrogate", {"type": "Discard", "card": "\udfff"}),
    ("card long", {"type": "Discard", "card": "10♥" * 5000}),
    ("missing card", {"type": "Discard"}),
    ("extra key", {"type": "Discard", "card": "10♥", "also": 1}),
    ("type null", {"type": None}),
    ("type list", {"type": ["Discard"]}),
    ("type surrogate", {"type": "\udfff"}),
    ("no type", {"card": "10♥"}),
    ("unknown type", {"type": "WinNow"}),
    ("cards string", {"type": "Meld", "cards": "10♥ 10♠ Jk"}),
    ("cards null", {"type": "Meld", "cards": None}),
    ("cards nested", {"type": "Meld", "cards": [["10♥"], "10♠", "Jk"]}),
    ("cards ints", {"type": "Meld", "cards": [34, 47, 52]}),
    ("cards many", {"type": "MeldBlackThrees", "cards": ["3♣"] * 10_000}),
    ("pile cards null", {"type": "TakePile", "cards": None, "meld": -1}),
    ("pile pair objects", {"type": "TakePile", "pair": [{}, {}]}),
    ("meld huge", {"type": "AddToMeld", "meld": 10**30, "card": "10♥"}),
    ("meld negative", {"type": "AddToMeld", "meld": -7, "card": "10♥"}),
    ("meld float", {"type": "AddToMeld", "meld": 1.5, "card": "10♥"}),
    ("meld nan", {"type": "TakeTop", "meld": float("nan")}),
    ("meld string", {"type": "TakeTop", "meld": "0"}),
    ("meld bool", {"type": "MergeGroups", "meld": True, "other": False}),
    ("merge same", {"type": "MergeGroups", "meld": 0, "other": 0}),
    ("claim huge", {"type": "Claim", "count": 10**40, "rank": 10**40}),
    ("claim negative", {"type": "Claim", "count": -1, "rank": -3}),
    ("claim zero", {"type": "Claim", "count": 0, "rank": 0}),
    ("seat huge", {"type": "ChooseFirst", "seat": 2**63}),
    ("seat negative", {"type": "ChooseFirst", "seat": -1}),
    ("seat null", {"type": "ChooseFirst", "seat": None}),
    ("yes string", {"type": "AnswerGoOut", "yes": "yes"}),
    ("call int", {"type": "ThrowDown", "call": 1}),
    ("declare null", {"type": "Discard", "card": "10♥", "declare": None}),
    ("pick joker", {"type": "Pick", "card": "Jk"}),
    ("nested deep", {"type": "Discard", "card": [[[[[[[[[["10♥"]]]]]]]]]]}),
]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(("label", "data"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_named_hostile_actions(name: str, label: str, data: Any) -> None:
    """issue 14 item 10: each named hostile action (wrong types, missing keys, lists where a card
    is expected, huge ints, nested structures, unknown types, lone surrogates, extra keys) on
    every game and on positions from random play: a clean refusal or a reason, never a crash."""
    for pos in positions(name)[::7]:
        check_hostile(pos, data)


@pytest.mark.parametrize("name", GAMES)
def test_real_actions_still_decode(name: str) -> None:
    """issue 14 item 10: the stricter decoding still reads every real action (as sent by the
    server's own ``action_to_json``), with cards written in ASCII too."""
    for pos in positions(name)[::5]:
        for action in pos.legal:
            encoded = json.loads(json.dumps(pos.game.action_to_json(action)))
            assert pos.game.action_from_json(encoded) == action
            assert pos.game.explain(pos.state, action) is None
