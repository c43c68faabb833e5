"""Rules objects: one frozen dataclass per game, every variant a documented field.

Declare options with :func:`option`; :class:`Rules` gives JSON round-trips with validation and a
description for ``parlour rules``.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Toy(Rules):
...     players: int = option(4, "number of players", choices=(2, 3, 4))
...     mode: str = option("up", "direction of play", choices=("up", "down"))
>>> Toy.from_json({"players": 3}).to_json()
{'players': 3, 'mode': 'up'}
>>> Toy.from_json({"mode": "sideways"})
Traceback (most recent call last):
...
parlour.core.errors.RulesError: mode: 'sideways' is not allowed; allowed values: 'up', 'down'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Self

from parlour.core.errors import RulesError


def option(
    default: Any,
    doc: str,
    *,
    choices: Sequence[Any] | None = None,
    min: float | None = None,
    max: float | None = None,
    nullable: bool = False,
) -> Any:
    """Declare a rules option: its default, what it means, and the allowed values.

    ``choices`` lists every allowed value; ``min``/``max`` bound numbers; ``nullable`` lets
    ``None`` stand for "off"/"no limit"."""
    meta: dict[str, Any] = {"doc": doc, "choices": tuple(choices) if choices is not None else None}
    meta.update({"min": min, "max": max, "nullable": nullable or default is None})
    if isinstance(default, (list, dict)):
        raise TypeError("options must have immutable defaults (use tuples)")
    return dataclasses.field(default=default, metadata=meta)


def _type_name(value: Any) -> str:
    return type(value).__name__


@dataclasses.dataclass(frozen=True)
class Rules:
    """Base of every game's rules object (subclasses are frozen dataclasses of options)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None = None, **overrides: Any) -> Self:
        """Build and validate.  Unknown fields and bad values raise :class:`RulesError`."""
        merged = dict(data or {})
        merged.update(overrides)
        if not isinstance(data, Mapping | None):
            raise RulesError("rules must be a JSON object of option: value")
        fields = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(merged) - set(fields))
        if unknown:
            raise RulesError(
                f"unknown option {unknown[0]!r}; options are: {', '.join(sorted(fields))}"
            )
        kwargs = {name: cls._validate(fields[name], value) for name, value in merged.items()}
        rules = cls(**kwargs)
        rules.check()
        return rules

    def replace(self, **changes: Any) -> Self:
        """A copy with some options changed (validated)."""
        return type(self).from_json({**self.to_json(), **changes})

    def check(self) -> None:
        """Cross-field validation; subclasses raise :class:`RulesError` on a bad combination."""

    @classmethod
    def _validate(cls, f: dataclasses.Field[Any], value: Any) -> Any:
        meta = f.metadata
        default = f.default
        name = f.name
        if value is None:
            if meta.get("nullable"):
                return None
            raise RulesError(f"{name}: a value is required (default {default!r})")
        if isinstance(default, bool) or (default is None and isinstance(value, bool)):
            if not isinstance(value, bool):
                raise RulesError(f"{name}: must be true or false, not {value!r}")
        elif isinstance(default, int) and not isinstance(default, bool):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(f"{name}: must be a whole number, not {value!r}")
        elif isinstance(default, float):
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise RulesError(f"{name}: must be a number, not {value!r}")
            value = float(value)
        elif isinstance(default, str) and not isinstance(value, str):
            raise RulesError(f"{name}: must be a string, not {value!r}")
        elif isinstance(default, tuple):
            if not isinstance(value, list | tuple):
                raise RulesError(f"{name}: must be a list, not {value!r}")
            value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
        choices = meta.get("choices")
        if choices is not None and value not in choices:
            allowed = ", ".join(repr(c) for c in choices)
            raise RulesError(f"{name}: {value!r} is not allowed; allowed values: {allowed}")
        lo, hi = meta.get("min"), meta.get("max")
        if isinstance(value, int | float) and not isinstance(value, bool):
            if lo is not None and value < lo:
                raise RulesError(f"{name}: {value!r} is below the minimum {lo!r}")
            if hi is not None and value > hi:
                raise RulesError(f"{name}: {value!r} is above the maximum {hi!r}")
        return value

    @classmethod
    def describe(cls) -> list[dict[str, Any]]:
        """Every option: name, default, meaning, allowed values (for ``parlour rules``)."""
        rows = []
        for f in dataclasses.fields(cls):
            meta = f.metadata
            allowed: str
            if meta.get("choices") is not None:
                allowed = ", ".join(repr(c) for c in meta["choices"])
            elif meta.get("min") is not None or meta.get("max") is not None:
                allowed = f"{meta.get('min', '')}…{meta.get('max', '')}"
            else:
                allowed = _type_name(f.default)
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
        """A JSON Schema of the options (for the lobby and the OpenAPI document)."""
        props: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            meta, d = f.metadata, f.default
            schema: dict[str, Any] = {"description": meta.get("doc", ""), "default": d}
            if meta.get("choices") is not None:
                schema["enum"] = list(meta["choices"])
            elif isinstance(d, bool):
                schema["type"] = "boolean"
            elif isinstance(d, int):
                schema["type"] = "integer"
            elif isinstance(d, float):
                schema["type"] = "number"
            elif isinstance(d, str):
                schema["type"] = "string"
            if meta.get("min") is not None:
                schema["minimum"] = meta["min"]
            if meta.get("max") is not None:
                schema["maximum"] = meta["max"]
            props[f.name] = schema
        return {"type": "object", "properties": props, "additionalProperties": False}
