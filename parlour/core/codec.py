"""JSON for actions and views: generic over frozen dataclasses.

Fields that hold cards are marked with :func:`card_field` / :func:`cards_field` and travel as the
strings people write (``"10♥"``), so JSON is readable and a leak test can search it for cards.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Discard:
...     card: int = card_field()
>>> to_json(Discard(34))
{'type': 'Discard', 'card': '10♥'}
>>> from_json({'type': 'Discard', 'card': 'TH'}, {'Discard': Discard})
Discard(card=34)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from parlour.core.cards import card_str, parse_card

JSON = Any
_CARD = "card"
_CARDS = "cards"


def card_field(**kwargs: Any) -> Any:
    """A dataclass field holding one card (``-1`` or ``None`` = no card)."""
    return dataclasses.field(metadata={"kind": _CARD}, **kwargs)


def cards_field(**kwargs: Any) -> Any:
    """A dataclass field holding a tuple of cards."""
    return dataclasses.field(metadata={"kind": _CARDS}, **kwargs)


def _plain(value: Any) -> JSON:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_json(value)
    if isinstance(value, (tuple, list, frozenset, set)):
        items = [_plain(v) for v in value]
        return sorted(items) if isinstance(value, (frozenset, set)) else items
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def to_json(obj: Any) -> dict[str, JSON]:
    """A JSON-ready dict of a dataclass instance, with its class name under ``type``."""
    out: dict[str, JSON] = {"type": type(obj).__name__}
    for f in dataclasses.fields(obj):
        if f.name.startswith("_"):
            continue
        value = getattr(obj, f.name)
        kind = f.metadata.get("kind")
        if kind == _CARD:
            out[f.name] = None if value is None or value < 0 else card_str(value)
        elif kind == _CARDS:
            out[f.name] = [card_str(c) for c in value]
        else:
            out[f.name] = _plain(value)
    return out


def from_json(data: Mapping[str, JSON], types: Mapping[str, type]) -> Any:
    """Rebuild an action (or other flat dataclass) from :func:`to_json` output.

    Raises ``ValueError`` naming what is wrong (unknown type, missing or bad field)."""
    if not isinstance(data, Mapping):
        raise ValueError("an action must be a JSON object with a 'type'")
    name = str(data.get("type"))
    if name not in types:
        raise ValueError(f"unknown action type {name!r}; expected one of {sorted(types)}")
    cls = types[name]
    kwargs: dict[str, Any] = {}
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for key in data:
        if key != "type" and key not in fields:
            raise ValueError(f"{name} has no field {key!r}; fields: {sorted(fields)}")
    for fname, f in fields.items():
        if fname not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise ValueError(f"{name} needs field {fname!r}")
            continue
        value = data[fname]
        kind = f.metadata.get("kind")
        try:
            if kind == _CARD:
                kwargs[fname] = -1 if value is None else parse_card(str(value))
            elif kind == _CARDS:
                if not isinstance(value, (list, tuple)):
                    raise ValueError("expected a list of cards")
                kwargs[fname] = tuple(parse_card(str(v)) for v in value)
            elif isinstance(value, list):
                kwargs[fname] = tuple(tuple(v) if isinstance(v, list) else v for v in value)
            else:
                kwargs[fname] = value
        except ValueError as exc:
            raise ValueError(f"{name}.{fname}: {exc}") from None
    _check_types(cls, kwargs)
    return cls(**kwargs)


def _check_types(cls: type, kwargs: dict[str, Any]) -> None:
    """Cheap type check of scalar fields so a malformed message cannot build a bad action."""
    for f in dataclasses.fields(cls):
        if f.name not in kwargs or f.metadata.get("kind"):
            continue
        value, ann = kwargs[f.name], str(f.type)
        if ann in ("int", "Seat") and (not isinstance(value, int) or isinstance(value, bool)):
            raise ValueError(f"{cls.__name__}.{f.name} must be an integer, not {value!r}")
        if ann == "bool" and not isinstance(value, bool):
            raise ValueError(f"{cls.__name__}.{f.name} must be true or false, not {value!r}")
        if ann == "str" and not isinstance(value, str):
            raise ValueError(f"{cls.__name__}.{f.name} must be a string, not {value!r}")
        if ann.startswith("tuple[int") and not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        ):
            raise ValueError(f"{cls.__name__}.{f.name} must be a list of integers")
