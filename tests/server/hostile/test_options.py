"""Hostile rules options (issue 14 item 3): every option has a declared type and every value is
checked against it before anything is built or written.

Before: an option whose default is ``None`` (Samba ``max_hands``) took anything — ``"1"``,
``[1]``, ``{}``, ``1.5``, ``1e30`` — and the table died at the end of its first hand;
``hand_size: [1]`` gave a 500.  Now ``Rules.from_json`` raises only ``RulesError`` (naming the
option and what is allowed) for any JSON input, and the lobby answers 422 without creating a
table."""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour import games
from parlour.core.errors import RulesError
from parlour.core.rules import LIMIT, MAX_STR, Rules, option
from tests.server.conftest import LiveServer

VARIANTS = [(name, preset) for name in games.names() for preset in games.entry(name).presets]
VARIANT_IDS = [f"{n}-{p}" for n, p in VARIANTS]
#: the words every option error uses to say what is allowed
ALLOWED_WORDS = ("must be", "allowed values", "minimum", "maximum")


def hostile_values(f: dataclasses.Field[Any]) -> list[tuple[str, Any]]:
    """The values of issue 14 item 3 that option ``f`` must refuse.

    Each of ``"1"``, ``[1]``, ``{}``, ``1.5``, ``1e30``, NaN, ``None`` (unless nullable), ``True``
    (unless a bool option) and a lone surrogate — except where the value is a legal one of the
    declared type: ``[1]`` for a tuple-of-ints option is replaced by ``[[1]]`` and ``["1"]``, and
    ``1.5`` is not tried on a float option whose range includes it."""
    meta = f.metadata
    kind = meta["type"]
    out: list[tuple[str, Any]] = [
        ("string '1'", "1"),
        ("object", {}),
        ("1e30", 1e30),
        ("NaN", float("nan")),
        ("infinity", float("inf")),
        ("lone surrogate", "\udfff"),
        ("long string", "x" * (MAX_STR + 1)),
    ]
    out += [("nested list", [[1]]), ("list of string", ["1"])] if kind is tuple else [("[1]", [1])]
    if kind is not float or meta.get("choices") is not None:
        out.append(("1.5", 1.5))
    if not meta.get("nullable"):
        out.append(("null", None))
    if kind is not bool:
        out.append(("true", True))
    return out


def _option_cases() -> list[tuple[str, str, str, str, Any]]:
    cases = []
    for name, preset in VARIANTS:
        for f in dataclasses.fields(games.entry(name).rules_type):
            for label, value in hostile_values(f):
                cases.append((name, preset, f.name, label, value))
    return cases


OPTION_CASES = _option_cases()


def test_every_game_option_is_covered() -> None:
    """issue 14 item 3: the per-option cases cover every option of every game and preset, and
    every option states its type (no ``None``-typed options left)."""
    covered = {(n, p, o) for n, p, o, _, _ in OPTION_CASES}
    for name, preset in VARIANTS:
        for f in dataclasses.fields(games.entry(name).rules_type):
            assert (name, preset, f.name) in covered
            assert f.metadata["type"] in (bool, int, float, str, tuple), f.name
    assert len(OPTION_CASES) > 500


@pytest.mark.parametrize(("name", "preset"), VARIANTS, ids=VARIANT_IDS)
def test_every_option_refuses_hostile_values(name: str, preset: str) -> None:
    """issue 14 item 3: for every option of every game and preset, each of "1", [1], {}, 1.5,
    1e30, NaN (a Python float), None where not nullable, True for a non-bool option and a lone
    surrogate string is refused with a RulesError that names the option and what is allowed —
    through the rules type and through the registry (the lobby's path)."""
    entry = games.entry(name)
    base = dict(entry.presets[preset])
    checked = 0
    for game_name, p, option_name, label, value in OPTION_CASES:
        if (game_name, p) != (name, preset):
            continue
        with pytest.raises(RulesError) as caught:
            entry.rules_type.from_json({**base, option_name: value})
        message = str(caught.value)
        assert option_name in message, f"{option_name}={label}: {message}"
        assert any(w in message for w in ALLOWED_WORDS), f"{option_name}={label}: {message}"
        message.encode("utf-8")  # printable: the lobby sends it back as JSON
        with pytest.raises(RulesError, match=option_name):
            entry.rules(preset, options={option_name: value})
        checked += 1
    assert checked >= 8 * len(dataclasses.fields(entry.rules_type))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"max_hands": "1"}, "max_hands: must be a whole number from 1 to 1000000000, or null"),
        ({"max_hands": [1]}, "max_hands: must be a whole number .*; not a list"),
        ({"max_hands": {}}, "max_hands: .*; not an object"),
        ({"max_hands": 1.5}, "max_hands: .*; not 1.5"),
        ({"max_hands": 1e30}, "max_hands: 1e\\+30 is above the maximum 1000000000"),
        ({"max_hands": 10**40}, "max_hands: a huge number is above the maximum"),
        ({"hand_size": [1]}, "hand_size: must be a whole number from 5 to 20, or null"),
        ({"players": None}, "players: must be a whole number from 2 to 6; null is not allowed"),
        ({"players": True}, "players: .*; not True"),
        ({"opening_table": "\udfff"}, "opening_table: must be one of 'standard', 'high'"),
        ({"target_score": 10**9 + 1}, "target_score: 1000000001 is above the maximum"),
        ({"target_score": float("-inf")}, "target_score: .*not a finite number"),
    ],
)
def test_samba_messages(data: dict[str, Any], message: str) -> None:
    """issue 14 item 3: the Samba cases of the issue (max_hands "1", [1], {}, 1.5, 1e30;
    hand_size [1]) give a RulesError naming the option and its type and range."""
    with pytest.raises(RulesError, match=message):
        games.entry("samba").rules_type.from_json(data)


def test_whole_floats_and_choices_keep_their_type() -> None:
    """issue 14 item 3: a whole float for an int option becomes an int (JSON has one number
    type); a float option's choice keeps its declared spelling (Scat three_of_a_kind 30)."""
    samba = games.entry("samba").rules_type.from_json({"max_hands": 3.0})
    assert samba.max_hands == 3 and type(samba.max_hands) is int  # type: ignore[attr-defined]
    scat = games.entry("scat").rules_type.from_json({"three_of_a_kind": 30.0})
    assert scat.three_of_a_kind == 30 and type(scat.three_of_a_kind) is int  # type: ignore[attr-defined]
    assert (
        games.entry("scat")
        .rules_type.from_json({"three_of_a_kind": None})
        .to_json()["three_of_a_kind"]
        is None
    )


def test_tuple_option_elements() -> None:
    """issue 14 item 3: each element of a tuple option (Hand and Foot opening_minimums) is
    checked: no strings, nested lists, bools, fractions, negatives, absurd values or very long
    lists; a good list is accepted."""
    rules_type = games.entry("handfoot").rules_type
    bad_lists: list[list[Any]] = [["50"], [[50]], [True], [50.5], [-1], [10**10], [50] * 1000]
    for bad in [*bad_lists, [None], [{}]]:
        with pytest.raises(RulesError, match=r"opening_minimums"):
            rules_type.from_json({"opening_minimums": bad})
    rules = rules_type.from_json({"opening_minimums": [10, 20.0]})
    assert rules.opening_minimums == (10, 20)  # type: ignore[attr-defined]
    assert rules.to_json()["opening_minimums"] == [10, 20]


@pytest.mark.parametrize("data", [[1], "samba", 1, 1.5, True, [["max_hands", 1]], {1: 2}])
def test_non_object_rules(data: Any) -> None:
    """issue 14 item 3: rules that are not a JSON object of option names (a list, a string, a
    number, a list of pairs, a non-string key) are a RulesError, not a TypeError."""
    for name in games.names():
        with pytest.raises(RulesError):
            games.entry(name).rules_type.from_json(data)


def test_unknown_option_names_are_printable() -> None:
    """issue 14 item 3: an unknown option name with a lone surrogate or of great length is named
    in a printable, short message."""
    rules_type = games.entry("cheat").rules_type
    for key in ("\udfff", "k" * 100_000):
        with pytest.raises(RulesError, match="unknown option") as caught:
            rules_type.from_json({key: 1})
        assert len(str(caught.value)) < 1000
        str(caught.value).encode("utf-8")


def test_declaration_needs_a_type() -> None:
    """issue 14 item 3: an option whose default is None must declare its type (TypeError when
    the class is defined); a tuple option needs an element type; a default must fit."""
    with pytest.raises(TypeError, match="must declare its type"):
        option(None, "a cap")
    with pytest.raises(TypeError, match="items="):
        option((), "a list")
    with pytest.raises(TypeError):
        option(3, "a count", max=2)
    with pytest.raises(TypeError):
        option("x", "a word", type=int)

    @dataclass(frozen=True)
    class Capped(Rules):
        cap: int | None = option(None, "a cap", type=int, min=1, max=9)
        names: tuple[str, ...] = option((), "names", items=str)

    assert Capped.from_json({"cap": 4, "names": ["a"]}).to_json() == {"cap": 4, "names": ["a"]}
    with pytest.raises(RulesError, match="cap: must be a whole number from 1 to 9, or null"):
        Capped.from_json({"cap": "4"})
    with pytest.raises(RulesError, match=r"names\[0\]: must be a string"):
        Capped.from_json({"names": [1]})


@pytest.mark.parametrize("name", games.names())
def test_json_schema_states_types(name: str) -> None:
    """issue 14 item 3: the JSON Schema gives every option its declared type, with "null" for a
    nullable one, and bounds for numbers (the absurd-value limit where none is declared)."""
    rules_type = games.entry(name).rules_type
    props = rules_type.json_schema()["properties"]
    names = {"boolean", "integer", "number", "string", "array"}
    for f in dataclasses.fields(rules_type):
        schema = props[f.name]
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        assert types[0] in names, f.name
        assert ("null" in types) == bool(f.metadata["nullable"]), f.name
        if types[0] == "integer" and "enum" not in schema:
            assert schema["maximum"] <= LIMIT and schema["minimum"] >= -LIMIT
    for row in rules_type.describe():
        assert "NoneType" not in row["allowed"]
    json.dumps(rules_type.json_schema(), allow_nan=False)


# --- any JSON at all ---------------------------------------------------------------------------

JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([0, 1, -1, 2, 4, 10**9, 10**9 + 1, 2**63, -(10**30)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=10),
    st.text(st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1, max_size=2),
    st.sampled_from(["x" * 201, "x" * 200, ""]),
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)


def good_values(f: dataclasses.Field[Any]) -> st.SearchStrategy[Any]:
    """Values of the declared type (often allowed ones), so that some inputs are accepted."""
    meta = f.metadata
    kind = meta["type"]
    pool: list[st.SearchStrategy[Any]] = [st.just(f.default)]
    if meta.get("choices") is not None:
        pool.append(st.sampled_from(list(meta["choices"])))
    if kind is bool:
        pool.append(st.booleans())
    elif kind in (int, float) or kind is tuple:
        lo = -LIMIT if meta.get("min") is None else int(meta["min"])
        hi = LIMIT if meta.get("max") is None else int(meta["max"])
        ints = st.integers(min_value=lo - 1, max_value=hi + 1)
        pool.append(st.lists(ints, max_size=5) if kind is tuple else ints)
        if kind is float:
            pool.append(st.floats(min_value=lo - 1, max_value=hi + 1))
    if meta.get("nullable"):
        pool.append(st.none())
    return st.one_of(pool)


@st.composite
def rules_input(draw: st.DrawFn, name: str) -> dict[str, Any]:
    fields = dataclasses.fields(games.entry(name).rules_type)
    data: dict[str, Any] = {}
    for f in draw(st.lists(st.sampled_from(fields), max_size=6, unique_by=lambda f: f.name)):
        data[f.name] = draw(good_values(f) | JSON_VALUES)
    if draw(st.integers(0, 9)) == 0:
        data[draw(st.text(max_size=8))] = draw(JSON_VALUES)
    return data


@pytest.mark.parametrize("name", games.names())
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_json_gives_rules_or_rules_error(name: str, data: st.DataObject) -> None:
    """issue 14 item 3: from_json of an arbitrary JSON object (good and junk values, unknown
    keys) either raises RulesError or returns rules whose to_json is finite JSON and round-trips
    through from_json to the same rules."""
    rules_type = games.entry(name).rules_type
    raw = data.draw(rules_input(name))
    try:
        rules = rules_type.from_json(raw)
    except RulesError as exc:
        str(exc).encode("utf-8")
        return
    encoded = rules.to_json()
    text = json.dumps(encoded, allow_nan=False, ensure_ascii=False)
    text.encode("utf-8")
    again = rules_type.from_json(json.loads(text))
    assert again == rules
    assert again.to_json() == encoded
    for value in encoded.values():
        if isinstance(value, float):
            assert math.isfinite(value)


# --- through the HTTP API ----------------------------------------------------------------------

HTTP_CASES: list[tuple[str, str, Any]] = [
    ("samba", "max_hands", "1"),
    ("samba", "max_hands", [1]),
    ("samba", "max_hands", {}),
    ("samba", "max_hands", 1.5),
    ("samba", "max_hands", 1e30),
    ("samba", "hand_size", [1]),
    ("samba", "target_score", None),
    ("samba", "wild_melds", 1),
    ("handfoot", "opening_minimums", ["50"]),
    ("handfoot", "max_hands", True),
    ("cheat", "max_cards", 10**12),
    ("cheat", "rank_rule", "x" * 300),
    ("scat", "three_of_a_kind", 29),
    ("scat", "min_knock", [[1]]),
]


def _table_codes(server: LiveServer) -> set[str]:
    r = server.http.get("/api/tables", params={"status": "all"})
    assert r.status_code == 200, r.text
    return {t["code"] for t in r.json()["tables"]}


@pytest.mark.parametrize(
    ("game", "option_name", "value"), HTTP_CASES, ids=[f"{g}-{o}" for g, o, _ in HTTP_CASES]
)
def test_create_table_refuses_bad_option(
    server: LiveServer, game: str, option_name: str, value: Any
) -> None:
    """issue 14 item 3: POST /api/tables with a bad option value (max_hands "1", [1], {}, 1.5,
    1e30; hand_size [1]; …) answers 422 naming the option, and no table is created."""
    before = _table_codes(server)
    r = server.http.post("/api/tables", json={"game": game, "options": {option_name: value}})
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert option_name in json.dumps(detail, ensure_ascii=False), detail
    assert _table_codes(server) == before
    ok = server.http.post("/api/tables", json={"game": game})
    assert ok.status_code == 201, ok.text  # the lobby still works, and counts the new table
    assert _table_codes(server) == before | {ok.json()["code"]}
