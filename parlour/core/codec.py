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
import math
from collections.abc import Mapping
from typing import Any

from parlour.core.cards import card_str, parse_card
from parlour.core.errors import ParlourError
from parlour.core.said import N_, Said

JSON = Any
_CARD = "card"
_CARDS = "cards"


def card_field(**kwargs: Any) -> Any:
    """A dataclass field holding one card (``-1`` or ``None`` = no card)."""
    return dataclasses.field(metadata={"kind": _CARD}, **kwargs)


def cards_field(**kwargs: Any) -> Any:
    """A dataclass field holding a tuple of cards."""
    return dataclasses.field(metadata={"kind": _CARDS}, **kwargs)


_SCALARS = (int, str, bool, float, type(None))

#: per dataclass: its public fields and what each holds (a card, cards, anything else)
_PLANS: dict[type, tuple[tuple[str, Any], ...]] = {}


def _plan(cls: type) -> tuple[tuple[str, Any], ...]:
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = tuple(
            (f.name, f.metadata.get("kind"))
            for f in dataclasses.fields(cls)
            if not f.name.startswith("_")
        )
    return plan


def _plain(value: Any) -> JSON:
    cls = type(value)
    if cls in _SCALARS:
        return value
    if cls in _PLANS or hasattr(cls, "__dataclass_fields__"):  # an instance, not a class
        return to_json(value)
    if isinstance(value, (tuple, list, frozenset, set)):
        items = [_plain(v) for v in value]
        return sorted(items) if isinstance(value, (frozenset, set)) else items
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def to_json(obj: Any) -> dict[str, JSON]:
    """A JSON-ready dict of a dataclass instance, with its class name under ``type``."""
    cls = type(obj)
    out: dict[str, JSON] = {"type": cls.__name__}
    for name, kind in _plan(cls):
        value = getattr(obj, name)
        if kind == _CARD:
            out[name] = None if value is None or value < 0 else card_str(value)
        elif kind == _CARDS:
            out[name] = [card_str(c) for c in value]
        else:
            out[name] = _plain(value)
    return out


class BadActionJSON(ParlourError, ValueError):
    """An action message that cannot be read (wrong type, missing or extra field, not a card …).

    Both a :class:`~parlour.core.errors.ParlourError` and a ``ValueError``: whatever JSON a
    client sends, decoding raises only this (issue 14 item 10)."""


#: an int field of an action is an index, count, rank or seat: anything beyond this is junk
INT_LIMIT = 10**9
#: longest string (a card, a type name, a string field) read from an action
MAX_TEXT = 200
#: most cards in one cards field
MAX_CARDS = 200


def _short(value: Any) -> str:
    """A short printable picture of a bad value for an error message (``repr`` escapes lone
    surrogates; lists, objects and huge numbers are named, not printed)."""
    if isinstance(value, Mapping):
        return N_("an object")
    if isinstance(value, (list, tuple)):
        return N_("a list")
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**30:
        return N_("a huge number")
    if value is None or isinstance(value, (bool, int, float, str)):
        text = repr(value)
        return text if len(text) <= 40 else text[:37] + "…"
    return N_("a {type}", type=type(value).__name__)


def _said(exc: BaseException) -> str:
    """An error's message: the catalog message it was raised with, else its text."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, Said) else str(exc)


def _card(value: Any, where: str) -> int:
    if not isinstance(value, str):
        raise BadActionJSON(
            N_(
                "{where}: expected a card such as '10♥' or 'TH', not {value}",
                where=where,
                value=_short(value),
            )
        )
    if len(value) > 16:
        raise BadActionJSON(N_("{where}: not a card: {value}", where=where, value=_short(value)))
    try:
        return parse_card(value)
    except ValueError as exc:
        raise BadActionJSON(N_("{where}: {error}", where=where, error=_said(exc))) from None


def _annotation(f: dataclasses.Field[Any]) -> str:
    ann = f.type
    return ann.__name__ if isinstance(ann, type) else str(ann)


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadActionJSON(
            N_("{where} must be an integer, not {value}", where=where, value=_short(value))
        )
    if not -INT_LIMIT <= value <= INT_LIMIT:
        raise BadActionJSON(
            N_(
                "{where} must be an integer from {low} to {high}",
                where=where,
                low=-INT_LIMIT,
                high=INT_LIMIT,
            )
        )
    return value


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise BadActionJSON(
            N_("{where} must be a string, not {value}", where=where, value=_short(value))
        )
    if len(value) > MAX_TEXT:
        raise BadActionJSON(
            N_(
                "{where} must be a string of at most {count} characters",
                where=where,
                count=MAX_TEXT,
            )
        )
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise BadActionJSON(
            N_("{where} must be text; {value} is not", where=where, value=_short(value))
        ) from None
    return value


def _scalar(value: Any, ann: str, where: str) -> Any:
    """A plain (non-card) field, checked against its annotation."""
    optional = ann.endswith(" | None")
    if optional:
        if value is None:
            return None
        ann = ann.removesuffix(" | None")
    if ann in ("int", "Seat", "Side", "Card"):
        return _int(value, where)
    if ann == "bool":
        if not isinstance(value, bool):
            raise BadActionJSON(
                N_("{where} must be true or false, not {value}", where=where, value=_short(value))
            )
        return value
    if ann == "str":
        return _text(value, where)
    if ann == "float":
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise BadActionJSON(
                N_("{where} must be a number, not {value}", where=where, value=_short(value))
            )
        if not math.isfinite(value) or abs(value) > INT_LIMIT:
            raise BadActionJSON(
                N_("{where} must be a finite number, not {value}", where=where, value=_short(value))
            )
        return float(value)
    if ann.startswith("tuple["):
        if not isinstance(value, (list, tuple)) or len(value) > MAX_CARDS:
            raise BadActionJSON(
                N_("{where} must be a list, not {value}", where=where, value=_short(value))
            )
        inner = ann.removeprefix("tuple[").removesuffix("]").removesuffix(", ...")
        return tuple(_scalar(v, inner, f"{where}[{i}]") for i, v in enumerate(value))
    raise BadActionJSON(N_("{where}: cannot read a field of type {type}", where=where, type=ann))


def from_json(data: Mapping[str, JSON], types: Mapping[str, type]) -> Any:
    """Rebuild an action (or other flat dataclass) from :func:`to_json` output.

    Every field is checked: a card field takes a card string (``null`` only where the field has
    a default), a cards field a list of them, an ``int`` field a whole number, a ``bool`` field
    true/false.  Anything else — a non-object, an unknown type, a missing or extra field, a
    value of the wrong type — raises :class:`BadActionJSON` (a ``ValueError``) naming what is
    wrong, so hostile input never reaches an engine (issue 14 item 10)."""
    if not isinstance(data, Mapping):
        raise BadActionJSON(N_("an action must be a JSON object with a 'type'"))
    name = data.get("type")
    if not isinstance(name, str) or name not in types:
        raise BadActionJSON(
            N_(
                "unknown action type {type}; expected one of {types}",
                type=_short(name),
                types=str(sorted(types)),
            )
        )
    cls = types[name]
    kwargs: dict[str, Any] = {}
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init and not f.name.startswith("_")}
    for key in data:
        if key != "type" and key not in fields:
            raise BadActionJSON(
                N_(
                    "{action} has no field {field}; fields: {fields}",
                    action=name,
                    field=_short(key),
                    fields=str(sorted(fields)),
                )
            )
    for fname, f in fields.items():
        where = f"{name}.{fname}"
        has_default = f.default is not dataclasses.MISSING or (
            f.default_factory is not dataclasses.MISSING
        )
        if fname not in data:
            if not has_default:
                raise BadActionJSON(
                    N_("{action} needs field {field}", action=name, field=repr(fname))
                )
            continue
        value = data[fname]
        kind = f.metadata.get("kind")
        if kind == _CARD:
            if value is None:
                if not has_default or f.default is dataclasses.MISSING:
                    raise BadActionJSON(
                        N_("{where}: expected a card such as '10♥', not null", where=where)
                    )
                kwargs[fname] = f.default
            else:
                kwargs[fname] = _card(value, where)
        elif kind == _CARDS:
            if not isinstance(value, (list, tuple)):
                raise BadActionJSON(
                    N_(
                        "{where}: expected a list of cards, not {value}",
                        where=where,
                        value=_short(value),
                    )
                )
            if len(value) > MAX_CARDS:
                raise BadActionJSON(
                    N_("{where}: at most {count} cards", where=where, count=MAX_CARDS)
                )
            kwargs[fname] = tuple(_card(v, f"{where}[{i}]") for i, v in enumerate(value))
        else:
            kwargs[fname] = _scalar(value, _annotation(f), where)
    try:
        return cls(**kwargs)
    except (TypeError, ValueError, LookupError, ArithmeticError) as exc:
        raise BadActionJSON(N_("{action}: {error}", action=name, error=_said(exc))) from None
