"""The text grammar of a game's actions: ``parse(text) -> action`` and ``format(action) -> text``.

A grammar is a list of :class:`Form`\\ s, one (or more) per action class: a template of words
with typed slots for the action's fields, and the field values the form implies::

    Form(Discard, "discard {card:card}")
    Form(AnswerGoOut, "yes, go out", yes=True)

Slot kinds: ``card`` (``10♥``, ``TH``, ``Jk``), ``cards`` (cards separated by spaces), ``int``,
``rank`` (``A K Q J 10 … 2``).  Parsing ignores case, extra spaces and commas.  A game's grammar
must give back every legal action from its text: ``grammar.parse(str(a)) == a`` and
``grammar.format(a) == str(a)`` (the conformance suite checks both in random play).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Play:
...     card: int
...     loud: bool = False
>>> g = Grammar([Form(Play, "play {card:card}"), Form(Play, "play {card:card} loudly", loud=True)])
>>> g.parse("Play th loudly"), g.format(Play(34))
(Play(card=34, loud=True), 'play 10♥')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from parlour.core.cards import card_str, cards_str, parse_card, parse_rank, rank_str
from parlour.core.errors import ParlourError


class GrammarError(ParlourError, ValueError):
    """The text is not an action of this game (says which forms there are)."""


_SLOT = re.compile(r"\{(\w+):(\w+)\}")
_PATTERN = {"card": r"\S+", "cards": r"\S+(?:\s+\S+)*?", "int": r"-?\d+", "rank": r"\S+"}


def _parse_int(text: str) -> int:
    return int(text)


_READ: dict[str, Callable[[str], Any]] = {
    "card": parse_card,
    "cards": lambda t: tuple(parse_card(w) for w in t.split()),
    "int": _parse_int,
    "rank": parse_rank,
}
_WRITE: dict[str, Callable[[Any], str]] = {
    "card": card_str,
    "cards": cards_str,
    "int": str,
    "rank": rank_str,
}


def _clean(text: str) -> str:
    return " ".join(text.replace(",", " ").split())


class Form:
    """One way an action is written: ``Form(Claim, "claim {count:int} × {rank:rank}")``."""

    __slots__ = ("_regex", "action", "fixed", "slots", "template")

    def __init__(self, action: type, template: str, **fixed: Any) -> None:
        self.action = action
        self.template = template
        self.fixed: dict[str, Any] = dict(fixed)
        self.slots = [(m.group(1), m.group(2)) for m in _SLOT.finditer(template)]
        for _, kind in self.slots:
            if kind not in _PATTERN:
                raise ValueError(f"{template!r}: unknown slot kind {kind!r}")
        self._regex = self.regex()

    def __repr__(self) -> str:
        extra = "".join(f", {k}={v!r}" for k, v in self.fixed.items())
        return f"Form({self.action.__name__}, {self.template!r}{extra})"

    def regex(self) -> re.Pattern[str]:
        parts: list[str] = []
        pos = 0
        for m in _SLOT.finditer(self.template):
            parts.append(_literal(self.template[pos : m.start()]))
            parts.append(f"(?P<{m.group(1)}>{_PATTERN[m.group(2)]})")
            pos = m.end()
        parts.append(_literal(self.template[pos:]))
        return re.compile("".join(parts), re.IGNORECASE)

    def read(self, text: str) -> Any | None:
        """The action ``text`` writes in this form, or ``None`` if it is not this form."""
        m = self._regex.fullmatch(_clean(text))
        if m is None:
            return None
        values = dict(self.fixed)
        for name, kind in self.slots:
            try:
                values[name] = _READ[kind](m.group(name))
            except ValueError:
                return None
        return self.action(**values)

    def matches(self, action: Any) -> bool:
        return type(action) is self.action and all(
            getattr(action, k) == v for k, v in self.fixed.items()
        )

    def write(self, action: Any) -> str:
        def slot(m: re.Match[str]) -> str:
            return _WRITE[m.group(2)](getattr(action, m.group(1)))

        return _SLOT.sub(slot, self.template)


def _literal(text: str) -> str:
    """A template's literal words as a pattern: any spacing, commas optional."""
    words = _clean(text).split(" ") if _clean(text) else []
    if not words:
        return r"\s*" if text.strip(" ,") == "" and text else ""
    lead = r"\s*" if text[:1] in (" ", ",") else ""
    tail = r"\s*" if text[-1:] in (" ", ",") else ""
    return lead + r"\s+".join(re.escape(w) for w in words) + tail


class Grammar:
    """The forms of a game's actions, tried in order."""

    def __init__(self, forms: Iterable[Form]) -> None:
        self.forms: tuple[Form, ...] = tuple(forms)

    @property
    def action_types(self) -> dict[str, type]:
        """The action classes the grammar writes, by name."""
        return {f.action.__name__: f.action for f in self.forms}

    def parse(self, text: str) -> Any:
        """The action ``text`` stands for; :class:`GrammarError` if it is none."""
        for form in self.forms:
            action = form.read(text)
            if action is not None:
                return action
        raise GrammarError(f"not a move: {text!r}")

    def try_parse(self, text: str) -> Any | None:
        try:
            return self.parse(text)
        except GrammarError:
            return None

    def format(self, action: Any) -> str:
        """The action's text (the first form that fits it)."""
        for form in self.forms:
            if form.matches(action):
                return form.write(action)
        raise GrammarError(f"no form writes {action!r}")

    def examples(self) -> list[str]:
        """The templates, for help texts."""
        return [f.template for f in self.forms]


def check_round_trip(grammar: Grammar, actions: Sequence[Any]) -> None:
    """Raise :class:`AssertionError` unless every action's ``str`` is what the grammar writes
    and reads back to the same action."""
    for a in actions:
        text = str(a)
        written = grammar.format(a)
        if written != text:
            raise AssertionError(f"grammar writes {written!r} for {a!r}, str gives {text!r}")
        back = grammar.parse(text)
        if back != a:
            raise AssertionError(f"grammar reads {text!r} as {back!r}, not {a!r}")


__all__ = ["Form", "Grammar", "GrammarError", "check_round_trip"]
