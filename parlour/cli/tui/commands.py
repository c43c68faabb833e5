"""Typed commands → actions.

A command may stand for several engine actions (``meld 7♥ 8♥ 9♥`` stages three cards;
``play 7♥ 7♣ as 7`` picks two cards then claims): they are applied together or not at all.

Generic forms work in every game: the number of a legal action as listed by ``help``, or the
action's own text (``discard K♣``), read by the game's declared grammar (``ENTRY.grammar``, see
:mod:`parlour.core.grammar`).  Cards may be written ``10♥``, ``TH`` or ``th``."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.core.cards import card_str, parse_card, parse_rank
from parlour.core.grammar import Grammar
from parlour.core.said import N_, ngettext
from parlour.core.text import tell
from parlour.i18n import Messages

_CARDISH = re.compile(r"^(10|[2-9tjqka])[♣♦♥♠cdhs]$|^(jk|joker)$", re.IGNORECASE)


class CommandError(ValueError):
    """The text is not a command (says what was expected): its message is text in the player's
    language, or a :class:`~parlour.core.said.Said` the session tells in it."""

    def told(self, t: Messages) -> str:
        return tell(self.args[0], t) if self.args else ""


def normalize(text: str) -> str:
    """Lower-case words with every card in its canonical printed form."""
    words = []
    for w in text.replace(",", " ").split():
        if _CARDISH.match(w):
            try:
                words.append(card_str(parse_card(w)).lower())
                continue
            except ValueError:
                pass
        words.append(w.lower())
    return " ".join(words)


def parse_card_words(words: Sequence[str]) -> list[int]:
    cards = []
    for w in words:
        try:
            cards.append(parse_card(w))
        except ValueError as exc:
            raise CommandError(
                N_("not a card: {text} (write e.g. 10♥, TH, Q♠, QS or Jk)", text=repr(w))
            ) from exc
    return cards


@dataclass
class Parsed:
    """The actions a command stands for (applied in order, all or nothing)."""

    actions: list[Any]


Macro = Callable[[list[str], Any, Sequence[Any]], list[Any] | None]


def match_generic(
    text: str, legal: Sequence[Any], grammar: Grammar | None = None
) -> list[Any] | None:
    """A number from the ``help`` list, or an action's own text as the game's grammar reads it
    (an action that is not legal now is returned too: the engine then says which rule forbids
    it).  Without a grammar, the text of one of the legal actions."""
    t = text.strip()
    if t.isdigit():
        i = int(t)
        if not 1 <= i <= len(legal):
            raise CommandError(
                ngettext(
                    "there is no move number {number}; type help to list the {count} move",
                    "there is no move number {number}; type help to list the {count} moves",
                    len(legal),
                    number=i,
                    count=len(legal),
                )
            )
        return [legal[i - 1]]
    if grammar is not None:
        action = grammar.try_parse(normalize(t))
        return None if action is None else [action]
    n = normalize(t)
    for action in legal:
        if normalize(str(action)) == n:
            return [action]
    return None


def rank_word(word: str) -> int:
    w = (
        word.lower().rstrip("s")
        if word.lower() not in ("jacks", "aces", "kings", "queens")
        else word[:-1]
    )
    names = {
        "ace": 14,
        "king": 13,
        "queen": 12,
        "jack": 11,
        "ten": 10,
        "nine": 9,
        "eight": 8,
        "seven": 7,
        "six": 6,
        "five": 5,
        "four": 4,
        "three": 3,
        "two": 2,
    }
    if w.lower() in names:
        return names[w.lower()]
    try:
        return parse_rank(w)
    except ValueError:
        raise CommandError(
            N_("not a rank: {text} (write A K Q J 10 9 … 2)", text=repr(word))
        ) from None
