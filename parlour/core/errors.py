"""Errors a player or a program can get back from the rules core."""

from __future__ import annotations


class ParlourError(Exception):
    """Base class of every Parlour error."""


class IllegalAction(ParlourError):
    """An action the rules do not allow now.  ``rule`` says which rule, in words.

    The state it was tried on is never changed."""

    def __init__(self, rule: str, action: object | None = None) -> None:
        super().__init__(rule)
        self.rule = rule
        self.action = action


class RulesError(ParlourError, ValueError):
    """A rules object or option value that is not valid (names the field and what is allowed)."""


class UnknownGame(ParlourError, KeyError):
    """No game, preset or bot of that name."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown game"
