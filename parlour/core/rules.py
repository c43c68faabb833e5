"""Rules objects: one frozen dataclass per game, every variant a documented field.

Declare options with :func:`option`; :class:`Rules` gives JSON round-trips with validation and a
description for ``parlour rules``.  Every option has a declared type (inferred from the default,
required when the default is ``None``) and every value is checked against it before a rules
object is built (issue 14 item 3): any JSON input gives a valid rules object or a
:class:`~parlour.core.errors.RulesError` naming the option and what is allowed.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Toy(Rules):
...     players: int = option(4, "number of players", choices=(2, 3, 4))
...     mode: str = option("up", "direction of play", choices=("up", "down"))
...     cap: int | None = option(None, "most turns (None: no cap)", type=int, min=1)
>>> Toy.from_json({"players": 3}).to_json()
{'players': 3, 'mode': 'up', 'cap': None}
>>> Toy.from_json({"mode": "sideways"})
Traceback (most recent call last):
...
parlour.core.errors.RulesError: mode: 'sideways' is not allowed; allowed values: 'up', 'down'
>>> Toy.from_json({"cap": "1"})
Traceback (most recent call last):
...
parlour.core.errors.RulesError: cap: must be a whole number from 1 to 1000000000, or null; not '1'
"""

from __future__ import annotations

import builtins
import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any, Self

from parlour.core.errors import RulesError
from parlour.core.said import N_, Said

#: the types an option (or an element of a tuple option) may have
SCALAR_TYPES: tuple[type, ...] = (bool, int, float, str)
#: a number option without a declared bound is still kept within ±LIMIT (issue 14 item 3)
LIMIT = 10**9
#: longest string option value
MAX_STR = 200
#: most elements of a tuple option (unless the option says otherwise)
MAX_ITEMS = 64

_JSON_TYPE = {bool: "boolean", int: "integer", float: "number", str: "string", tuple: "array"}


def option(
    default: Any,
    doc: str,
    *,
    type: builtins.type | None = None,
    items: builtins.type | None = None,
    choices: Sequence[Any] | None = None,
    min: float | None = None,
    max: float | None = None,
    nullable: bool = False,
    max_items: int = MAX_ITEMS,
) -> Any:
    """Declare a rules option: its default, what it means, its type and the allowed values.

    ``type`` is one of ``bool``, ``int``, ``float``, ``str``, ``tuple``; it is inferred from the
    default and must be given when the default is ``None``.  ``items`` is the element type of a
    tuple option (inferred from a non-empty default).  ``choices`` lists every allowed value;
    ``min``/``max`` bound numbers (the elements, for a tuple); ``nullable`` lets ``None`` stand
    for "off"/"no limit" (implied by a ``None`` default).  A bad declaration raises ``TypeError``
    when the class is defined."""
    if isinstance(default, (list, dict)):
        raise TypeError("options must have immutable defaults (use tuples)")
    declared = type if type is not None else _infer_type(default)
    if declared not in (*SCALAR_TYPES, tuple):
        raise TypeError(f"option type must be one of bool, int, float, str, tuple; not {declared}")
    if declared is tuple:
        if items is None and isinstance(default, tuple) and default:
            items = _infer_type(default[0])
        if items not in SCALAR_TYPES:
            raise TypeError("a tuple option needs items=<bool, int, float or str>")
    elif items is not None:
        raise TypeError("items= is only for tuple options")
    meta: dict[str, Any] = {"doc": doc, "choices": tuple(choices) if choices is not None else None}
    meta.update({"min": min, "max": max, "nullable": nullable or default is None})
    meta.update({"type": declared, "items": items, "max_items": max_items})
    try:
        checked = _check(meta, "default", default)
    except RulesError as exc:
        raise TypeError(f"bad option declaration: {exc}") from None
    if checked != default or builtins.type(checked) is not builtins.type(default):
        raise TypeError(f"option default {default!r} is not a {declared.__name__}")
    return dataclasses.field(default=default, metadata=meta)


def _infer_type(value: Any) -> builtins.type:
    if value is None:
        raise TypeError("an option whose default is None must declare its type (type=int, …)")
    for t in (bool, int, float, str, tuple):
        if isinstance(value, t):
            return t
    raise TypeError(f"an option cannot hold a {builtins.type(value).__name__}")


def _short(value: Any) -> str:
    """A short, printable picture of a rejected value for an error message (``repr`` escapes
    lone surrogates; lists, objects and huge numbers are named, not printed)."""
    if isinstance(value, Mapping):
        return N_("an object")
    if isinstance(value, (list, tuple)):
        return N_("a list")
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**30:
        return N_("a huge number")
    if isinstance(value, (bool, int, float, str)) or value is None:
        text = repr(value)
        return text if len(text) <= 40 else text[:37] + "…"
    return N_("a {type}", type=builtins.type(value).__name__)


def _bounds(meta: Mapping[str, Any]) -> tuple[float, float]:
    lo, hi = meta.get("min"), meta.get("max")
    return (-LIMIT if lo is None else lo), (LIMIT if hi is None else hi)


def _number_text(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(x)


def _wanted(kind: builtins.type, meta: Mapping[str, Any], *, element: bool = False) -> Said:
    """What a value of this option (or an element of a tuple option) must be, in words (a
    catalog message: issue 34)."""
    choices = meta.get("choices")
    if choices is not None and not element:
        return N_("one of {choices}", choices=", ".join(repr(c) for c in choices if c is not None))
    if kind is bool:
        return N_("true or false")
    if kind is str:
        return N_("a string of at most {count} characters", count=MAX_STR)
    if kind is tuple:
        return N_("a list of {items}", items=_wanted(meta["items"], meta, element=True))
    lo, hi = _bounds(meta)
    low, high = _number_text(lo), _number_text(hi)
    if kind is int:
        return N_("a whole number from {low} to {high}", low=low, high=high)
    return N_("a number from {low} to {high}", low=low, high=high)


def _check_scalar(
    kind: builtins.type, meta: Mapping[str, Any], label: str, value: Any, *, element: bool
) -> Any:
    """Check one value (an option, or an element of a tuple option) against its type and bounds."""
    nullable = bool(meta.get("nullable")) and not element
    wanted = _wanted(kind, meta, element=element)
    if nullable:
        wanted = N_("{wanted}, or null", wanted=wanted)

    def bad(why: str = "") -> RulesError:
        if why == "surrogate":
            return RulesError(
                N_(
                    "{label}: must be {wanted}; not {value} (a lone surrogate is not text)",
                    label=label,
                    wanted=wanted,
                    value=_short(value),
                )
            )
        if why == "finite":
            return RulesError(
                N_(
                    "{label}: must be {wanted}; not {value} (not a finite number)",
                    label=label,
                    wanted=wanted,
                    value=_short(value),
                )
            )
        return RulesError(
            N_(
                "{label}: must be {wanted}; not {value}",
                label=label,
                wanted=wanted,
                value=_short(value),
            )
        )

    if kind is bool:
        if not isinstance(value, bool):
            raise bad()
        return value
    if kind is str:
        if not isinstance(value, str):
            raise bad()
        if len(value) > MAX_STR:
            raise RulesError(
                N_(
                    "{label}: must be {wanted}; this one has {count}",
                    label=label,
                    wanted=wanted,
                    count=len(value),
                )
            )
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise bad("surrogate") from None
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise bad()
    if isinstance(value, float) and not math.isfinite(value):
        raise bad("finite")
    if kind is int and isinstance(value, float) and not value.is_integer():
        raise bad()
    lo, hi = _bounds(meta)
    if value < lo:
        raise RulesError(
            N_(
                "{label}: {value} is below the minimum {minimum}",
                label=label,
                value=_short(value),
                minimum=_number_text(lo),
            )
        )
    if value > hi:
        raise RulesError(
            N_(
                "{label}: {value} is above the maximum {maximum}",
                label=label,
                value=_short(value),
                maximum=_number_text(hi),
            )
        )
    return int(value) if kind is int else float(value)


def _check(meta: Mapping[str, Any], name: str, value: Any) -> Any:
    """The validated (normalised) value of an option, or :class:`RulesError` naming it."""
    kind: builtins.type = meta["type"]
    if value is None:
        if meta.get("nullable"):
            return None
        raise RulesError(
            N_(
                "{label}: must be {wanted}; null is not allowed",
                label=name,
                wanted=_wanted(kind, meta),
            )
        )
    if kind is tuple:
        if not isinstance(value, (list, tuple)):
            raise RulesError(
                N_(
                    "{label}: must be {wanted}; not {value}",
                    label=name,
                    wanted=_wanted(kind, meta),
                    value=_short(value),
                )
            )
        if len(value) > meta["max_items"]:
            raise RulesError(
                N_(
                    "{label}: must be {wanted}, at most {most} of them; got {count}",
                    label=name,
                    wanted=_wanted(kind, meta),
                    most=meta["max_items"],
                    count=len(value),
                )
            )
        value = tuple(
            _check_scalar(meta["items"], meta, f"{name}[{i}]", v, element=True)
            for i, v in enumerate(value)
        )
    else:
        value = _check_scalar(kind, meta, name, value, element=False)
    choices = meta.get("choices")
    if choices is not None:
        for c in choices:
            if c is not None and c == value and isinstance(c, bool) == isinstance(value, bool):
                return c  # the declared spelling (30, not 30.0)
        allowed = ", ".join(repr(c) for c in choices)
        raise RulesError(
            N_(
                "{label}: {value} is not allowed; allowed values: {allowed}",
                label=name,
                value=_short(value),
                allowed=allowed,
            )
        )
    return value


#: each rules class's field names, in order (:meth:`Rules.to_json`)
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


@dataclasses.dataclass(frozen=True)
class Rules:
    """Base of every game's rules object (subclasses are frozen dataclasses of options)."""

    def to_json(self) -> dict[str, Any]:
        # a new dict each call (callers may change theirs); the field names are looked up once
        # per class (``dataclasses.fields`` builds a tuple anew each call: a rules object is
        # told in every ``state`` a server sends, inside the view)
        names = _FIELD_NAMES.get(type(self))
        if names is None:
            names = _FIELD_NAMES[type(self)] = tuple(f.name for f in dataclasses.fields(self))
        out: dict[str, Any] = {}
        for name in names:
            value = getattr(self, name)
            out[name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None = None, **overrides: Any) -> Self:
        """Build and validate.  Any input that is not a valid set of options — unknown fields,
        values of the wrong type or out of range, a non-object — raises :class:`RulesError`."""
        if data is not None and not isinstance(data, Mapping):
            raise RulesError(
                N_(
                    "rules must be a JSON object of option: value, not {value}",
                    value=_short(data),
                )
            )
        merged: dict[Any, Any] = dict(data or {})
        merged.update(overrides)
        fields = {f.name: f for f in dataclasses.fields(cls)}
        for key in merged:
            if not isinstance(key, str):
                raise RulesError(N_("option names must be strings, not {value}", value=_short(key)))
        unknown = sorted(k for k in merged if k not in fields)
        if unknown:
            raise RulesError(
                N_(
                    "unknown option {option}; options are: {options}",
                    option=_short(unknown[0]),
                    options=", ".join(sorted(fields)),
                )
            )
        kwargs = {name: cls._validate(fields[name], value) for name, value in merged.items()}
        try:
            rules = cls(**kwargs)
            rules.check()
        except RulesError:
            raise
        except (TypeError, ValueError, ArithmeticError, LookupError) as exc:
            # a check() that trips over a combination it did not foresee still says "bad rules"
            raise RulesError(
                N_("these options do not fit together: {error}", error=str(exc))
            ) from None
        return rules

    def replace(self, **changes: Any) -> Self:
        """A copy with some options changed (validated)."""
        return type(self).from_json({**self.to_json(), **changes})

    def check(self) -> None:
        """Cross-field validation; subclasses raise :class:`RulesError` on a bad combination."""

    @classmethod
    def _validate(cls, f: dataclasses.Field[Any], value: Any) -> Any:
        return _check(f.metadata, f.name, value)

    @classmethod
    def describe(cls) -> list[dict[str, Any]]:
        """Every option: name, default, meaning, allowed values (for ``parlour rules``)."""
        rows = []
        for f in dataclasses.fields(cls):
            meta = f.metadata
            kind: type = meta["type"]
            allowed: str
            lo, hi = meta.get("min"), meta.get("max")
            bounds = f"{'' if lo is None else lo}…{'' if hi is None else hi}"
            if meta.get("choices") is not None:
                allowed = ", ".join(repr(c) for c in meta["choices"])
            elif kind is tuple:
                allowed = f"list of {meta['items'].__name__}"
                if lo is not None or hi is not None:
                    allowed += f", each {bounds}"
            elif lo is not None or hi is not None:
                allowed = bounds
            else:
                allowed = kind.__name__
            if meta.get("nullable") and "None" not in allowed:
                allowed += ", None"
            rows.append(
                {
                    "name": f.name,
                    "default": f.default,
                    "doc": meta.get("doc", ""),
                    "allowed": allowed,
                }
            )
        return rows

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        """A JSON Schema of the options (for the lobby and the OpenAPI document): each option's
        declared type (``["integer", "null"]`` when nullable), allowed values and bounds."""
        props: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            meta, d = f.metadata, f.default
            kind: type = meta["type"]
            default = list(d) if isinstance(d, tuple) else d
            schema: dict[str, Any] = {"description": meta.get("doc", ""), "default": default}
            json_type = _JSON_TYPE[kind]
            schema["type"] = [json_type, "null"] if meta.get("nullable") else json_type
            target = schema
            if kind is tuple:
                target = {"type": _JSON_TYPE[meta["items"]]}
                schema["items"] = target
                schema["maxItems"] = meta["max_items"]
            item_kind = meta["items"] if kind is tuple else kind
            if meta.get("choices") is not None:
                enum = list(meta["choices"])
                if meta.get("nullable") and None not in enum:
                    enum.append(None)
                target["enum"] = enum
            elif item_kind in (int, float):
                lo, hi = _bounds(meta)
                target["minimum"], target["maximum"] = lo, hi
            elif item_kind is str:
                target["maxLength"] = MAX_STR
            props[f.name] = schema
        return {"type": "object", "properties": props, "additionalProperties": False}
